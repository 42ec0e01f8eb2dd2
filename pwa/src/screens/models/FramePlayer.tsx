import { ChoiceButtons } from '../../ui/ChoiceButtons';
import { type RefObject, useState } from 'react';
import { videoUrl } from '../../api/paths';

/** Speeds of spec 02 §9 (x1–x16). */
export const VISION_SPEEDS = [1, 2, 4, 8, 16];

/** A captured frame: the picture at full source size and the moment it shows. */
export interface CapturedFrame {
  canvas: HTMLCanvasElement;
  width: number;
  height: number;
  second: number;
}

/** Draws the video's current picture onto a canvas of its natural size (same origin: readable later). */
export function captureFrame(video: HTMLVideoElement): CapturedFrame | null {
  if (!video.videoWidth || video.readyState < 2) return null;
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  return { canvas, width: canvas.width, height: canvas.height, second: video.currentTime };
}

interface FramePlayerProps {
  videoRef: RefObject<HTMLVideoElement | null>;
  videoId: number;
  onFrame(frame: CapturedFrame): void;
  speeds?: boolean;
}

/** The video (native controls), optional speed buttons and «Текущий кадр», which hands the picture to the canvas below. */
export function FramePlayer({ videoRef, videoId, onFrame, speeds = false }: FramePlayerProps) {
  const [rate, setRate] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const grab = () => {
    const frame = videoRef.current ? captureFrame(videoRef.current) : null;
    if (!frame) {
      setMessage('Видео ещё не загрузилось: подождите и нажмите снова');
      return;
    }
    setMessage(null);
    onFrame(frame);
  };
  return (
    <div className="vision-player">
      <video
        ref={videoRef}
        src={videoUrl(videoId)}
        controls
        muted
        playsInline
        preload="auto"
        data-testid="vision-video"
        onRateChange={(e) => setRate(e.currentTarget.playbackRate)}
      />
      <div className="row-actions">
        <button type="button" className="button small" onClick={grab}>
          Текущий кадр
        </button>
        {speeds && (
          <ChoiceButtons
            label="Скорость"
            options={VISION_SPEEDS}
            value={rate}
            onChoose={(speed) => {
              if (videoRef.current) videoRef.current.playbackRate = speed;
              setRate(speed);
            }}
            text={(speed) => `x${speed}`}
          />
        )}
        {message && <span className="field-error">{message}</span>}
      </div>
    </div>
  );
}
