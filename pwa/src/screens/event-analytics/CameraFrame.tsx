import { type ReactNode, useEffect, useRef, useState } from 'react';
import { videoUrl } from '../../api/paths';
import type { EventFigures } from '../../api/types';
import { paintGrid } from './PlanView';

type Grid = EventFigures['heat_map'];
export interface FrameSize {
  width: number;
  height: number;
}

/** The second of the video shown as the camera's frame (past a black first frame). */
const FRAME_SECOND = 1;

/**
 * A frame of the camera's video (the video itself, paused at its first second: the same picture the
 * stands screen captures), with what is drawn over it given the frame's source size.
 */
export function CameraFrame({ videoId, children, onSize }: { videoId: number; children(size: FrameSize): ReactNode; onSize?(size: FrameSize): void }) {
  const [size, setSize] = useState<FrameSize | null>(null);
  const [failed, setFailed] = useState(false);
  return (
    <div className="event-frame" style={size ? { aspectRatio: `${size.width} / ${size.height}` } : undefined}>
      <video
        src={`${videoUrl(videoId)}#t=${FRAME_SECOND}`}
        muted
        playsInline
        preload="auto"
        data-testid="event-frame-video"
        onLoadedMetadata={(e) => {
          const loaded = { width: e.currentTarget.videoWidth, height: e.currentTarget.videoHeight };
          setSize(loaded);
          onSize?.(loaded);
        }}
        onError={() => setFailed(true)}
      />
      {size && children(size)}
      {failed && <p className="field-error">Кадр камеры не загрузился: видео недоступно</p>}
    </div>
  );
}

/** A frame heat map (grid in the frame's pixels) painted over the frame. */
export function FrameHeat({ grid, size, frame }: { grid: Grid; size: FrameSize; frame: FrameSize }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    // The grid is in the tracking's frame pixels; the canvas covers the whole picture of that size.
    if (canvas.current) paintGrid(canvas.current, grid, { x: 0, y: 0, width: frame.width, height: frame.height });
  }, [grid, frame.width, frame.height]);
  return <canvas ref={canvas} width={size.width} height={size.height} className="event-frame-overlay" data-testid="frame-heat" />;
}
