import { type PointerEvent as ReactPointerEvent, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
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

/** A drag that began on something the timeline draws (an edge of the selected segment): where it goes, and the drop. */
export interface Grab {
  move(px: number): void;
  drop(px: number): void;
}

/** A pointer on the timeline's surface, in the surface's pixels. */
const pointAt = (surface: HTMLElement, e: { clientX: number; clientY: number }) => {
  const box = surface.getBoundingClientRect();
  return { x: e.clientX - box.left, y: e.clientY - box.top };
};

/**
 * The wheel (zoom, or pan with Shift or sideways), a drag (pan), a pinch of two touches (zoom) and a
 * click, which `onClick` gets in the surface's pixels; a press that `grab` takes (an edge) drags that
 * instead. Pointer events, so a mouse, a pen and a finger work alike; the pointer is captured, so a
 * drag goes on past the edge of the surface. Returns the surface's pointer handlers; the wheel is
 * listened to directly, since a page's wheel listeners from React are passive and cannot keep the page still.
 */
export function useTimelineGestures(
  timeline: TimelineView,
  surface: RefObject<HTMLElement | null>,
  onClick: (px: number, py: number) => void,
  grab: (px: number, py: number) => Grab | null,
) {
  const { width, view, setView, span, zoom, pan, duration } = timeline;
  const drag = useRef<{ x: number; from: number; to: number; moved: boolean } | null>(null);
  const grabbed = useRef<Grab | null>(null);
  const touches = useRef(new Map<number, number>());
  const pinch = useRef<{ distance: number; from: number; to: number } | null>(null);

  const latest = useRef({ width, span, zoom, pan });
  latest.current = { width, span, zoom, pan };
  // The surface is in the page once the width is measured (Timeline).
  const measured = width > 0;
  useEffect(() => {
    const element = surface.current;
    if (!element) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { width: w, span: s, zoom: z, pan: p } = latest.current;
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) p(((e.deltaX || e.deltaY) / w) * s);
      else z(e.deltaY > 0 ? 1.25 : 0.8, pointAt(element, e).x);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [surface, measured]);

  const spread = () => {
    const [a, b] = [...touches.current.values()];
    return { distance: Math.abs(a! - b!), center: (a! + b!) / 2 };
  };
  const onPointerDown = (e: ReactPointerEvent<HTMLElement>) => {
    const element = e.currentTarget;
    const at = pointAt(element, e);
    element.setPointerCapture?.(e.pointerId);
    if (e.pointerType === 'touch') touches.current.set(e.pointerId, at.x);
    if (touches.current.size === 2) {
      // A second finger: a pinch from here on, whatever the first began.
      drag.current = null;
      grabbed.current = null;
      pinch.current = { distance: spread().distance, ...view };
      return;
    }
    grabbed.current = grab(at.x, at.y);
    if (!grabbed.current) drag.current = { x: at.x, from: view.from, to: view.to, moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLElement>) => {
    const at = pointAt(e.currentTarget, e);
    if (touches.current.has(e.pointerId)) touches.current.set(e.pointerId, at.x);
    const start = pinch.current;
    if (start && touches.current.size === 2) {
      const { distance, center } = spread();
      const factor = start.distance / Math.max(1, distance);
      const anchor = start.from + (center / width) * (start.to - start.from);
      const nextSpan = Math.min(Math.max(duration, MIN_SPAN), Math.max(MIN_SPAN, (start.to - start.from) * factor));
      const from = Math.max(0, Math.min(anchor - (center / width) * nextSpan, Math.max(0, duration - nextSpan)));
      setView({ from, to: from + nextSpan });
      return;
    }
    if (grabbed.current) return grabbed.current.move(at.x);
    const state = drag.current;
    if (!state) return;
    const dx = at.x - state.x;
    if (Math.abs(dx) > 5) state.moved = true;
    if (state.moved) {
      const spanNow = state.to - state.from;
      const from = Math.max(0, Math.min(state.from - (dx / width) * spanNow, Math.max(0, duration - spanNow)));
      setView({ from, to: from + spanNow });
    }
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLElement>) => {
    const at = pointAt(e.currentTarget, e);
    touches.current.delete(e.pointerId);
    if (pinch.current) {
      // The pinch ends with its first finger up; the other's lifting is not a click.
      if (touches.current.size === 0) pinch.current = null;
      return;
    }
    const grip = grabbed.current;
    grabbed.current = null;
    if (grip) return grip.drop(at.x);
    const state = drag.current;
    drag.current = null;
    if (state && !state.moved) onClick(at.x, at.y);
  };
  const onPointerCancel = (e: ReactPointerEvent<HTMLElement>) => {
    touches.current.delete(e.pointerId);
    if (touches.current.size === 0) pinch.current = null;
    drag.current = null;
    grabbed.current = null;
  };
  return { onPointerDown, onPointerMove, onPointerUp, onPointerCancel };
}

/**
 * Follows the playhead without re-rendering React: `draw` (the playhead's own canvas) runs on every
 * move of the playhead and once after each render. Returns `draw`, also called when the coded row
 * changes without a render (Timeline).
 */
export function usePlayheadDrawing(playhead: Playhead, draw: () => void) {
  useEffect(() => {
    draw();
    return playhead.subscribe(draw);
  });
  return draw;
}
