import type Konva from 'konva';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MarkupRow } from '../../offline/markup-rows';
import type { Playhead } from './playhead';

export const MIN_SPAN = 4;

/**
 * The part of the video the timeline shows (seconds), its width in pixels (0 until the container is
 * measured), and the maths between them.
 */
export function useTimelineView(duration: number) {
  const container = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [view, setView] = useState({ from: 0, to: Math.max(duration, MIN_SPAN) });

  useEffect(() => setView({ from: 0, to: Math.max(duration, MIN_SPAN) }), [duration]);
  // Measured before the first paint: the stage is made once at its real width, not made at a guess and
  // resized (every layer's canvas again, and all 10,000 segments drawn twice on a cold open).
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const span = view.to - view.from;
  const x = (t: number) => ((t - view.from) / span) * width;
  const timeAt = (px: number) => view.from + (px / width) * span;
  const zoom = (factor: number, anchorPx: number) => {
    const anchor = timeAt(anchorPx);
    const nextSpan = Math.min(Math.max(duration, MIN_SPAN), Math.max(MIN_SPAN, span * factor));
    let from = anchor - ((anchor - view.from) / span) * nextSpan;
    from = Math.max(0, Math.min(from, Math.max(0, duration - nextSpan)));
    setView({ from, to: from + nextSpan });
  };
  const pan = (seconds: number) => {
    const from = Math.max(0, Math.min(view.from + seconds, Math.max(0, duration - span)));
    setView({ from, to: from + span });
  };
  const showAll = () => setView({ from: 0, to: Math.max(duration, MIN_SPAN) });
  return { container, width, view, setView, span, x, timeAt, zoom, pan, showAll, duration };
}

export type TimelineView = ReturnType<typeof useTimelineView>;
type KonvaPointer = Konva.KonvaEventObject<MouseEvent | TouchEvent>;

/**
 * The wheel (zoom, or pan with Shift or sideways), a drag (pan), a pinch (zoom) and a click, which
 * `onClick` gets with the stage's coordinates.
 */
export function useTimelineGestures(timeline: TimelineView, onClick: (px: number, py: number) => void) {
  const { container, width, view, setView, span, zoom, pan, duration } = timeline;
  const drag = useRef<{ x: number; from: number; to: number; moved: boolean } | null>(null);
  const pinch = useRef<{ distance: number; from: number; to: number } | null>(null);

  const onWheel = (e: Konva.KonvaEventObject<WheelEvent>) => {
    e.evt.preventDefault();
    if (e.evt.shiftKey || Math.abs(e.evt.deltaX) > Math.abs(e.evt.deltaY)) pan(((e.evt.deltaX || e.evt.deltaY) / width) * span);
    else zoom(e.evt.deltaY > 0 ? 1.25 : 0.8, e.evt.offsetX);
  };
  const onPointerDown = (e: KonvaPointer) => {
    const touches = (e.evt as TouchEvent).touches;
    if (touches && touches.length === 2) {
      pinch.current = { distance: Math.abs(touches[0]!.clientX - touches[1]!.clientX), ...view };
      return;
    }
    const pos = e.target.getStage()?.getPointerPosition();
    if (pos) drag.current = { x: pos.x, from: view.from, to: view.to, moved: false };
  };
  const onPointerMove = (e: KonvaPointer) => {
    const touches = (e.evt as TouchEvent).touches;
    if (touches && touches.length === 2 && pinch.current) {
      const distance = Math.abs(touches[0]!.clientX - touches[1]!.clientX);
      const start = pinch.current;
      const factor = start.distance / Math.max(1, distance);
      const center = (touches[0]!.clientX + touches[1]!.clientX) / 2 - (container.current?.getBoundingClientRect().left ?? 0);
      const anchor = start.from + (center / width) * (start.to - start.from);
      const nextSpan = Math.min(Math.max(duration, MIN_SPAN), Math.max(MIN_SPAN, (start.to - start.from) * factor));
      const from = Math.max(0, Math.min(anchor - (center / width) * nextSpan, Math.max(0, duration - nextSpan)));
      setView({ from, to: from + nextSpan });
      return;
    }
    const state = drag.current;
    const pos = e.target.getStage()?.getPointerPosition();
    if (!state || !pos) return;
    const dx = pos.x - state.x;
    if (Math.abs(dx) > 5) state.moved = true;
    if (state.moved) {
      const spanNow = state.to - state.from;
      const from = Math.max(0, Math.min(state.from - (dx / width) * spanNow, Math.max(0, duration - spanNow)));
      setView({ from, to: from + spanNow });
    }
  };
  const onPointerUp = (e: KonvaPointer) => {
    pinch.current = null;
    const state = drag.current;
    drag.current = null;
    if (!state || state.moved) return;
    const pos = e.target.getStage()?.getPointerPosition();
    if (pos) onClick(pos.x, pos.y);
  };
  return {
    onWheel,
    onMouseDown: onPointerDown,
    onTouchStart: onPointerDown,
    onMouseMove: onPointerMove,
    onTouchMove: onPointerMove,
    onMouseUp: onPointerUp,
    onTouchEnd: onPointerUp,
  };
}

/** The playhead (and the end of the segment being coded) move without re-rendering React; returns the drawing. */
export function usePlayheadDrawing(
  timeline: TimelineView,
  playhead: Playhead,
  coded: () => MarkupRow | null | undefined,
  playheadLine: RefObject<Konva.Line | null>,
  codingRect: RefObject<Konva.Rect | null>,
) {
  const { x } = timeline;
  const draw = () => {
    const line = playheadLine.current;
    if (line) {
      line.x(x(playhead.time));
      line.getLayer()?.batchDraw();
    }
    const rect = codingRect.current;
    const row = coded();
    if (rect && row) {
      rect.width(Math.max(2, x(Math.max(row.start, playhead.time)) - x(row.start)));
      rect.getLayer()?.batchDraw();
    }
  };
  useEffect(() => {
    draw();
    return playhead.subscribe(draw);
  });
  // Also called when the coded row changes without a render (Timeline).
  return draw;
}
