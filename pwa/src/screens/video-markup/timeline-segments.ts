import type { MarkupRow } from '../../offline/markup-rows';

/** The time span (seconds) rows changed in since a revision: null — none, 'all' — anything may have. */
export type ChangedSpan = { from: number; to: number } | 'all' | null;

/** First index whose start is at or after `time` (rows are sorted by start). */
export function lowerBound(rows: readonly MarkupRow[], time: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.start < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Calls `visit` for every row overlapping [from, to], in order, by binary search: O(log n + rows there). */
export function forRowsIn(rows: readonly MarkupRow[], longest: number, from: number, to: number, visit: (row: MarkupRow) => void) {
  for (let i = lowerBound(rows, from - longest); i < rows.length && rows[i]!.start <= to; i++) {
    const row = rows[i]!;
    if (row.end >= from) visit(row);
  }
}

export interface SegmentScene {
  rows: readonly MarkupRow[];
  revision: number;
  /** What changed since a revision (MarkupSession.rowsChangedSince). */
  changedSince(revision: number): ChangedSpan;
  longest: number;
  /** Skipped: drawn apart, following the playhead. */
  codingKey: string | null;
  row(key: string): MarkupRow | null;
  view: { from: number; to: number };
  width: number;
  height: number;
  /** Changes whenever the lanes or the colours do: everything is drawn again then. */
  layout: unknown;
  x(seconds: number): number;
  timeAt(px: number): number;
  draw(ctx: CanvasRenderingContext2D, row: MarkupRow): void;
}

/**
 * The timeline's segments as a bitmap kept between draws. Zoomed out over an 8-hour video every
 * one of 10,000 segments is in view; a key press changes one or two of them, so only the pixels
 * of the time it changed are cleared and drawn again (the rows there found by binary search), not
 * all 10,000. A new view, size, lanes or colours, or a change the session cannot place, draws all.
 */
export class SegmentBitmap {
  private canvas: HTMLCanvasElement | null = null;
  private drawn = { revision: -1, codingKey: null as string | null, from: NaN, to: NaN, width: 0, height: 0, ratio: 0, layout: null as unknown };

  paint(target: CanvasRenderingContext2D, scene: SegmentScene) {
    const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
    const canvas = (this.canvas ??= document.createElement('canvas'));
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const d = this.drawn;
    const same = d.from === scene.view.from && d.to === scene.view.to && d.width === scene.width && d.height === scene.height && d.ratio === ratio;
    const changed = same && d.layout === scene.layout ? scene.changedSince(d.revision) : 'all';
    if (changed === 'all') {
      const [w, h] = [Math.max(1, Math.round(scene.width * ratio)), Math.max(1, Math.round(scene.height * ratio))];
      if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h];
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, scene.width, scene.height);
      forRowsIn(scene.rows, scene.longest, scene.view.from, scene.view.to, (row) => {
        if (row.key !== scene.codingKey) scene.draw(ctx, row);
      });
    } else {
      if (changed) this.redraw(ctx, scene, changed.from, changed.to);
      // The row being coded is drawn apart from the rest: when another is coded, the time of both is drawn again.
      if (d.codingKey !== scene.codingKey)
        for (const key of [d.codingKey, scene.codingKey]) {
          const row = key === null ? null : scene.row(key);
          if (row) this.redraw(ctx, scene, row.start, row.end);
        }
    }
    this.drawn = {
      revision: scene.revision,
      codingKey: scene.codingKey,
      from: scene.view.from,
      to: scene.view.to,
      width: scene.width,
      height: scene.height,
      ratio,
      layout: scene.layout,
    };
    target.drawImage(canvas, 0, 0, scene.width, scene.height);
  }

  /** Clears the pixels of [from, to] (and a pixel either side) and draws the rows overlapping them again. */
  private redraw(ctx: CanvasRenderingContext2D, scene: SegmentScene, from: number, to: number) {
    if (to < scene.view.from || from > scene.view.to) return;
    const left = Math.floor(scene.x(from)) - 1;
    const right = Math.ceil(scene.x(to)) + 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, 0, right - left, scene.height);
    ctx.clip();
    ctx.clearRect(left, 0, right - left, scene.height);
    forRowsIn(scene.rows, scene.longest, scene.timeAt(left), scene.timeAt(right), (row) => {
      if (row.key !== scene.codingKey) scene.draw(ctx, row);
    });
    ctx.restore();
  }
}
