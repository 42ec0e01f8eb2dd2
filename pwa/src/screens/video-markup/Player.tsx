import { ChoiceButtons } from '../../ui/ChoiceButtons';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { formatSeconds } from '../../format/time';
import { makeVideo, release, takeVideo } from './early-video';
import { usePlayheadSeconds, type Playhead } from './playhead';

/** spec 01 §9 speeds x1–x16, plus slow motion for short operations. */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
export const SEEK_STEP_SECONDS = 5;

/** Play when paused, pause when playing (a refused autoplay is not an error here). */
export function togglePlayback(video: HTMLVideoElement) {
  if (video.paused) video.play().catch(() => {});
  else video.pause();
}

interface PlayerProps {
  videoRef: RefObject<HTMLVideoElement | null>;
  src: string;
  playhead: Playhead;
  startSecond: number;
  onDuration(seconds: number): void;
  loop: { start: number; end: number } | null;
}

/**
 * The player with its speed buttons and ±5 s; publishes the position to the playhead. Its <video> is
 * the element the route started loading (early-video.ts) when there is one, put into the page here.
 */
export function Player({ videoRef, src, playhead, startSecond, onDuration, loop }: PlayerProps) {
  const [rate, setRate] = useState(1);
  const [playing, setPlaying] = useState(false);
  const second = usePlayheadSeconds(playhead, 0.1);
  const host = useRef<HTMLDivElement>(null);
  // What the element's listeners read: this render's values, not those of the render that added them.
  const latest = useRef({ startSecond, onDuration, rate });
  latest.current = { startSecond, onDuration, rate };

  useLayoutEffect(() => {
    const video = takeVideo(src) ?? makeVideo(src);
    const metadata = () => {
      const { startSecond, onDuration, rate } = latest.current;
      if (startSecond > 0) video.currentTime = Math.min(startSecond, video.duration);
      video.playbackRate = rate;
      onDuration(video.duration);
    };
    const listeners: [string, () => void][] = [
      ['loadedmetadata', metadata],
      ['play', () => setPlaying(true)],
      ['pause', () => setPlaying(false)],
      ['ratechange', () => setRate(video.playbackRate)],
      ['click', () => togglePlayback(video)],
    ];
    for (const [type, listener] of listeners) video.addEventListener(type, listener);
    host.current!.appendChild(video);
    videoRef.current = video;
    // Loaded before it was put here: its loadedmetadata has fired already.
    if (video.readyState >= HTMLMediaElement.HAVE_METADATA) metadata();
    return () => {
      for (const [type, listener] of listeners) video.removeEventListener(type, listener);
      video.remove();
      if (videoRef.current === video) videoRef.current = null;
      release(video);
    };
  }, [src, videoRef]);

  useEffect(() => {
    let frame = 0;
    const tick = () => {
      const video = videoRef.current;
      if (video) {
        if (loop && video.currentTime >= loop.end) video.currentTime = loop.start;
        playhead.set(video.currentTime);
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [videoRef, playhead, loop]);

  const seek = (delta: number) => {
    const video = videoRef.current;
    if (video) video.currentTime = Math.max(0, Math.min(video.duration || Infinity, video.currentTime + delta));
  };
  const setSpeed = (value: number) => {
    setRate(value);
    if (videoRef.current) videoRef.current.playbackRate = value;
  };

  return (
    <div className="player">
      <div ref={host} className="player-video" />
      <div className="player-controls">
        <button type="button" className="button secondary small" onClick={() => seek(-SEEK_STEP_SECONDS)} aria-label="Назад на 5 секунд">
          −5 с
        </button>
        <button type="button" className="button secondary small" onClick={() => seek(-1)} aria-label="Назад на 1 секунду">
          −1 с
        </button>
        <button
          type="button"
          className="button small"
          onClick={() => {
            if (videoRef.current) togglePlayback(videoRef.current);
          }}
        >
          {playing ? 'Пауза' : 'Пуск'}
        </button>
        <button type="button" className="button secondary small" onClick={() => seek(1)} aria-label="Вперёд на 1 секунду">
          +1 с
        </button>
        <button type="button" className="button secondary small" onClick={() => seek(SEEK_STEP_SECONDS)} aria-label="Вперёд на 5 секунд">
          +5 с
        </button>
        <output className="clock" data-testid="player-clock">
          {formatSeconds(second)}.{Math.round((second % 1) * 10)}
        </output>
        <ChoiceButtons label="Скорость" options={SPEEDS} value={rate} onChoose={setSpeed} text={(speed) => `x${speed}`} />
      </div>
    </div>
  );
}
