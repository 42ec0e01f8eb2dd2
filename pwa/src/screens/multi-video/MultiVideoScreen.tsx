import { useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api } from '../../api/client';
import type { Camera } from '../../api/types';
import { LeafStructureSelect } from '../../ui/LeafStructureSelect';
import { formatTime, localDate } from '../../format/time';
import { login } from '../../state/login';
import { videoUrl } from '../../api/paths';
import { cameraCaption, daySpan, needsSeek, videoAt, type CameraVideo } from './timeline';

interface CameraWithVideos extends Camera {
  videos: CameraVideo[];
}

function Player({ camera, instant, playing }: { camera: CameraWithVideos; instant: number; playing: boolean }) {
  const ref = useRef<HTMLVideoElement>(null);
  const current = videoAt(camera.videos, instant);
  const wanted = current ? (instant - current.start) / 1000 : 0;

  useEffect(() => {
    const element = ref.current;
    if (!element || !current) return;
    if (element.readyState >= 1 && needsSeek(element.currentTime, wanted)) element.currentTime = wanted;
    if (playing && element.paused) element.play().catch(() => {});
    if (!playing && !element.paused) element.pause();
  });

  return (
    <figure className="multi-player" data-testid={`camera-${camera.camera_key}`}>
      <figcaption>{cameraCaption(camera.camera_key, camera.name)}</figcaption>
      {current ? (
        <video
          ref={ref}
          key={current.id}
          src={videoUrl(current.id)}
          muted
          playsInline
          preload="auto"
          onLoadedMetadata={(e) => {
            e.currentTarget.currentTime = wanted;
          }}
        />
      ) : (
        <div className="no-footage">Нет записи в этот момент</div>
      )}
    </figure>
  );
}

/** spec 01 "Multi-video player": four cameras of a structure on one shared slider (step 1 s). */
export function MultiVideoScreen() {
  const { timeZone } = useSnapshot(login);
  const [structureId, setStructureId] = useState<number | null>(null);
  const [cameras, setCameras] = useState<CameraWithVideos[]>([]);
  const [day, setDay] = useState('');
  const [instant, setInstant] = useState(0);
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    if (structureId === null) return;
    setCameras([]);
    setPlaying(false);
    (async () => {
      const list = await api.get('/api/v1/cameras', { query: { structure_id: structureId } });
      const withVideos = await Promise.all(
        list.map(async (camera) => {
          const videos = await api.get('/api/v1/videos', { query: { camera_id: camera.id } });
          return {
            ...camera,
            videos: videos
              .filter((v) => v.status === 'ready' && v.duration)
              .map((v) => ({ id: v.id, filename: v.filename, start: Date.parse(v.start_time), duration: v.duration! }))
              .sort((a, b) => a.start - b.start),
          };
        }),
      );
      setCameras(withVideos.sort((a, b) => a.camera_key - b.camera_key));
    })().catch(() => {});
  }, [structureId]);

  const days = useMemo(() => {
    const set = new Set(cameras.flatMap((c) => c.videos.map((v) => localDate(v.start, timeZone))));
    return [...set].sort();
  }, [cameras, timeZone]);

  useEffect(() => {
    if (days.length && !days.includes(day)) setDay(days[0]!);
  }, [days, day]);

  const span = useMemo(() => daySpan(cameras.flatMap((c) => c.videos).filter((v) => localDate(v.start, timeZone) === day)), [cameras, day, timeZone]);

  useEffect(() => {
    if (span) setInstant(span.from);
  }, [span]);

  // The shared clock: while playing it advances in real time; every player follows it.
  useEffect(() => {
    if (!playing || !span) return;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      setInstant((value) => {
        const next = value + (now - last);
        if (next >= span.to) {
          setPlaying(false);
          return span.to;
        }
        return next;
      });
      last = now;
    }, 250);
    return () => clearInterval(timer);
  }, [playing, span]);

  return (
    <div className="multi-video">
      <h1>Синхронный просмотр камер</h1>
      <div className="row">
        <LeafStructureSelect value={structureId} onChange={setStructureId} />
        <label>
          День
          <select value={day} onChange={(e) => setDay(e.target.value)} disabled={days.length === 0}>
            {days.map((d) => (
              <option key={d} value={d}>
                {d.split('-').reverse().join('.')}
              </option>
            ))}
          </select>
        </label>
      </div>
      {structureId !== null && cameras.length > 0 && !span && <p className="muted">У камер этой структурной единицы нет готовых записей.</p>}
      {span && (
        <>
          <div className="row multi-controls">
            <button type="button" className="button" onClick={() => setPlaying((p) => !p)}>
              {playing ? 'Пауза' : 'Воспроизвести'}
            </button>
            <input
              type="range"
              aria-label="Момент времени"
              min={Math.floor(span.from / 1000)}
              max={Math.ceil(span.to / 1000)}
              step={1}
              value={Math.floor(instant / 1000)}
              onChange={(e) => setInstant(Number(e.target.value) * 1000)}
            />
            <output data-testid="multi-clock">{formatTime(instant, timeZone)}</output>
          </div>
          <div className="multi-grid">
            {cameras.map((camera) => (
              <Player key={camera.id} camera={camera} instant={instant} playing={playing} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
