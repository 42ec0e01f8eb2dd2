import { formatSeconds } from '../../format/time';
import type { MarkupRow, StampRow } from '../../offline/markup-rows';

/** The timeline's rows of pixels: the ruler, each lane, the stamps' strip under the lanes. */
export const RULER = 22;
export const LANE = 30;
export const STAMPS = 16;
/** Half the width of a draggable edge of the selected segment. */
export const EDGE_HALF_WIDTH = 5;

const LABEL_FONT = '10px sans-serif';
const LABEL_COLOUR = '#5f6b7a';

/** The part of the video drawn and the canvas's size in CSS pixels. */
export interface Span {
  width: number;
  height: number;
  from: number;
  to: number;
}

const xOf =
  ({ width, from, to }: Span) =>
  (t: number) =>
    ((t - from) / (to - from)) * width;

/** A tick step that gives about one label per 90 px. */
function tickStep(span: number, width: number): number {
  const target = (span / Math.max(1, width)) * 90;
  const steps = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
  return steps.find((s) => s >= target) ?? 7200;
}

/**
 * A canvas's drawing context at `width` × `height` CSS pixels, its backing store at the screen's
 * pixel ratio, cleared. Resizing only when the size changed: a resize drops the canvas's pixels and state.
 */
export function prepareCanvas(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  const ratio = window.devicePixelRatio || 1;
  const [w, h] = [Math.max(1, Math.round(width * ratio)), Math.max(1, Math.round(height * ratio))];
  if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h];
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/** The lanes' stripes and names, and the ruler's ticks with their times (the bottom canvas: a key press leaves it alone). */
export function drawLanesAndTicks(ctx: CanvasRenderingContext2D, span: Span, lanes: readonly { label: string }[]) {
  const { width, height } = span;
  const x = xOf(span);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.font = LABEL_FONT;
  ctx.textBaseline = 'top';
  lanes.forEach((lane, i) => {
    ctx.fillStyle = i % 2 ? '#f5f7fa' : '#ffffff';
    ctx.fillRect(0, RULER + i * LANE, width, LANE);
    ctx.fillStyle = LABEL_COLOUR;
    ctx.fillText(lane.label, 4, RULER + i * LANE + 2);
  });
  const step = tickStep(span.to - span.from, width);
  ctx.strokeStyle = '#d9dee5';
  ctx.lineWidth = 1;
  for (let t = Math.ceil(span.from / step) * step; t <= span.to; t += step) {
    // Half a pixel in: a one-pixel line on a pixel, not smeared over two.
    const at = Math.round(x(t)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(at, 0);
    ctx.lineTo(at, height);
    ctx.stroke();
    ctx.fillStyle = LABEL_COLOUR;
    ctx.fillText(formatSeconds(t), x(t) + 3, 5);
  }
}

/** Note and product stamps in the visible span: a dashed line and a square under the lanes. */
export function drawStamps(ctx: CanvasRenderingContext2D, span: Span, stamps: readonly StampRow[]) {
  const x = xOf(span);
  ctx.lineWidth = 1;
  for (const stamp of stamps) {
    if (stamp.time < span.from || stamp.time > span.to) continue;
    const colour = stamp.type === 'product' ? '#2e7d32' : '#f9a825';
    const at = Math.round(x(stamp.time)) + 0.5;
    ctx.strokeStyle = colour;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(at, RULER);
    ctx.lineTo(at, span.height);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = colour;
    ctx.fillRect(x(stamp.time), span.height - STAMPS + 2, 8, 8);
  }
}

/** Where the selected segment's edges are drawn (their left pixel), `moved` overriding one being dragged. */
export function edgeBoxes(span: Span, selected: MarkupRow, lane: number, moved?: { edge: 'start' | 'end'; px: number } | null) {
  const x = xOf(span);
  const left = (edge: 'start' | 'end') => (moved?.edge === edge ? moved.px : x(edge === 'start' ? selected.start : selected.end)) - EDGE_HALF_WIDTH;
  const top = RULER + lane * LANE + 2;
  return (['start', 'end'] as const).map((edge) => ({ edge, left: left(edge), top, width: EDGE_HALF_WIDTH * 2, height: LANE - 4 }));
}

/** The selected segment: an outline, and its two draggable edges (one perhaps where it is being dragged to). */
export function drawSelection(
  ctx: CanvasRenderingContext2D,
  span: Span,
  selected: MarkupRow,
  lane: number,
  moved?: { edge: 'start' | 'end'; px: number } | null,
) {
  const x = xOf(span);
  ctx.strokeStyle = '#1d2430';
  ctx.lineWidth = 2;
  ctx.strokeRect(x(selected.start), RULER + lane * LANE + 11, Math.max(1, x(selected.end) - x(selected.start)), LANE - 12);
  ctx.fillStyle = '#1d2430';
  for (const box of edgeBoxes(span, selected, lane, moved)) {
    ctx.beginPath();
    ctx.roundRect(box.left, box.top, box.width, box.height, 3);
    ctx.fill();
  }
}

/** The top canvas: the segment being coded, from its start to the playhead, and the playhead. */
export function drawPlayhead(ctx: CanvasRenderingContext2D, span: Span, time: number, coded: { row: MarkupRow; lane: number; colour: string } | null) {
  const x = xOf(span);
  if (coded) {
    const left = x(coded.row.start);
    ctx.globalAlpha = 0.6;
    ctx.fillStyle = coded.colour;
    ctx.fillRect(left, RULER + coded.lane * LANE + 12, Math.max(2, x(Math.max(coded.row.start, time)) - left), LANE - 14);
    ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = '#c62828';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x(time), 0);
  ctx.lineTo(x(time), span.height);
  ctx.stroke();
}
