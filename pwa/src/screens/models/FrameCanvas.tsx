import type Konva from 'konva';
import { useEffect, useRef, useState } from 'react';
import { Image as KonvaImage, Layer, Rect, Stage } from 'react-konva';
import type { CapturedFrame } from './FramePlayer';

/** A rectangle in source-frame pixels (x1 < x2, y1 < y2). */
export interface FrameRect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A mark drawn over the frame: a square of `size` screen pixels centred on a source-pixel point. */
export interface FrameMark {
  key: string;
  x: number;
  y: number;
  size: number;
  color: string;
  label: string;
}

/** A rectangle shown over the frame (saved areas, objects). */
export interface FrameBox extends FrameRect {
  key: string;
  color: string;
  /** The frame size the rectangle's pixels belong to (an area drawn on another resolution); absent: this frame's. */
  frame?: { width: number; height: number } | null;
}

interface FrameCanvasProps {
  frame: CapturedFrame | null;
  /** The drawn rectangle (null: none yet). */
  rect: FrameRect | null;
  onRect(rect: FrameRect | null): void;
  marks?: FrameMark[];
  boxes?: FrameBox[];
  maxWidth?: number;
}

const clamp = (v: number, max: number) => Math.max(0, Math.min(max, v));

/**
 * The captured frame (konva) on which a rectangle is dragged: press sets the first corner, release
 * the second, a red rectangle previews while dragging (spec 02 «Model training screen»).
 * Coordinates are pixels of the source frame, whatever size the canvas is shown at.
 */
export function FrameCanvas({ frame, rect, onRect, marks = [], boxes = [], maxWidth = 640 }: FrameCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(maxWidth);
  const start = useRef<{ x: number; y: number } | null>(null);
  const [preview, setPreview] = useState<FrameRect | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const measure = () => setWidth(Math.min(maxWidth, element.clientWidth || maxWidth));
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, [maxWidth]);

  const sourceWidth = frame?.width ?? 640;
  const sourceHeight = frame?.height ?? 360;
  const scale = width / sourceWidth;
  const height = Math.round(sourceHeight * scale);

  const pointer = (event: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    const position = event.target.getStage()?.getPointerPosition();
    if (!position) return null;
    return { x: clamp(Math.round(position.x / scale), sourceWidth), y: clamp(Math.round(position.y / scale), sourceHeight) };
  };
  const ordered = (a: { x: number; y: number }, b: { x: number; y: number }): FrameRect => ({
    x1: Math.min(a.x, b.x),
    y1: Math.min(a.y, b.y),
    x2: Math.max(a.x, b.x),
    y2: Math.max(a.y, b.y),
  });
  const down = (event: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    if (!frame) return;
    start.current = pointer(event);
    setPreview(null);
  };
  const move = (event: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    const from = start.current;
    const to = pointer(event);
    if (from && to) setPreview(ordered(from, to));
  };
  const up = (event: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    const from = start.current;
    const to = pointer(event) ?? from;
    start.current = null;
    setPreview(null);
    if (from && to) onRect(ordered(from, to));
  };

  const shown = preview ?? rect;
  return (
    <div ref={container} className="frame-canvas" data-testid="frame-canvas">
      {!frame && <p className="muted">Нажмите «Текущий кадр», чтобы получить кадр видео, и обведите на нём прямоугольник.</p>}
      <Stage
        width={width}
        height={height}
        onMouseDown={down}
        onTouchStart={down}
        onMouseMove={move}
        onTouchMove={move}
        onMouseUp={up}
        onTouchEnd={up}
        style={{ display: frame ? 'block' : 'none', cursor: 'crosshair' }}
      >
        <Layer>
          {frame && <KonvaImage image={frame.canvas} width={width} height={height} />}
          {boxes.map((b) => {
            // Pixels of the frame it was drawn on, at the same relative place of this one (issue 43).
            const sx = scale * (b.frame ? sourceWidth / b.frame.width : 1);
            const sy = scale * (b.frame ? sourceHeight / b.frame.height : 1);
            return (
              <Rect
                key={b.key}
                x={b.x1 * sx}
                y={b.y1 * sy}
                width={(b.x2 - b.x1) * sx}
                height={(b.y2 - b.y1) * sy}
                stroke={b.color}
                strokeWidth={1.5}
                dash={[6, 4]}
                listening={false}
              />
            );
          })}
          {marks.map((m) => (
            <Rect
              key={m.key}
              x={m.x * scale - m.size / 2}
              y={m.y * scale - m.size / 2}
              width={m.size}
              height={m.size}
              fill={m.color}
              listening={false}
              name={m.label}
            />
          ))}
          {shown && (
            <Rect
              x={shown.x1 * scale}
              y={shown.y1 * scale}
              width={(shown.x2 - shown.x1) * scale}
              height={(shown.y2 - shown.y1) * scale}
              stroke="red"
              strokeWidth={2}
              listening={false}
            />
          )}
        </Layer>
      </Stage>
    </div>
  );
}
