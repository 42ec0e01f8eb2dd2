/**
 * Heat map of presence: seconds spent in each square cell of a grid. Each piece of a track spends its
 * time evenly along its length, so its seconds are split between the cells it crosses in proportion
 * to the length inside each (a person standing still puts all the time into one cell).
 */
import type { Piece } from './presence';

export interface HeatGrid {
  /** Corner of cell (0, 0): the smallest x and y. */
  origin: [number, number];
  cell: number;
  columns: number;
  rows: number;
  /** Seconds of presence, row after row (row = y, column = x): index = row · columns + column. */
  seconds: number[];
  /** Seconds spent outside the grid. */
  outside_seconds: number;
}

/** The largest grid made: a wider area doubles the cell size until it fits. */
export const MAX_HEAT_CELLS = 250_000;

/** A grid covering the box [minX, minY, maxX, maxY], its corners snapped outwards to whole cells. */
export function emptyGrid(box: [number, number, number, number] | null, cellSize: number): HeatGrid {
  if (!box) return { origin: [0, 0], cell: cellSize, columns: 0, rows: 0, seconds: [], outside_seconds: 0 };
  let cell = cellSize;
  for (;;) {
    const x0 = Math.floor(box[0] / cell) * cell;
    const y0 = Math.floor(box[1] / cell) * cell;
    // A point exactly on the far edge belongs to the last cell (addAt), so [0, 30] at 0.5 m is 60 cells.
    const columns = Math.max(1, Math.ceil((box[2] - x0) / cell));
    const rows = Math.max(1, Math.ceil((box[3] - y0) / cell));
    if (columns * rows <= MAX_HEAT_CELLS) {
      return { origin: [x0, y0], cell, columns, rows, seconds: new Array<number>(columns * rows).fill(0), outside_seconds: 0 };
    }
    cell *= 2;
  }
}

export function addPiece(grid: HeatGrid, piece: Piece): void {
  const duration = piece.t1 - piece.t0;
  if (duration <= 0) return;
  const { a, b } = piece;
  const [x0, y0] = grid.origin;
  const cuts = [0, 1];
  for (const [lo, hi, o] of [
    [a[0], b[0], x0],
    [a[1], b[1], y0],
  ] as const) {
    if (lo === hi) continue;
    const first = Math.ceil((Math.min(lo, hi) - o) / grid.cell);
    const last = Math.floor((Math.max(lo, hi) - o) / grid.cell);
    for (let k = first; k <= last; k++) {
      const s = (o + k * grid.cell - lo) / (hi - lo);
      if (s > 0 && s < 1) cuts.push(s);
    }
  }
  cuts.sort((p, q) => p - q);
  for (let i = 0; i + 1 < cuts.length; i++) {
    const s0 = cuts[i]!;
    const s1 = cuts[i + 1]!;
    if (s1 <= s0) continue;
    const m = (s0 + s1) / 2;
    addAt(grid, a[0] + m * (b[0] - a[0]), a[1] + m * (b[1] - a[1]), (s1 - s0) * duration);
  }
}

function addAt(grid: HeatGrid, x: number, y: number, seconds: number): void {
  const c = edge(Math.floor((x - grid.origin[0]) / grid.cell), x, grid.origin[0], grid.columns, grid.cell);
  const r = edge(Math.floor((y - grid.origin[1]) / grid.cell), y, grid.origin[1], grid.rows, grid.cell);
  if (c < 0 || r < 0 || c >= grid.columns || r >= grid.rows) grid.outside_seconds += seconds;
  else grid.seconds[r * grid.columns + c]! += seconds;
}

/** Index k, or the last cell for a coordinate exactly on the grid's far edge. */
function edge(k: number, v: number, origin: number, count: number, cell: number): number {
  return k === count && v === origin + count * cell ? count - 1 : k;
}

/** Rounds the seconds to hundredths for output. */
export function roundGrid(grid: HeatGrid): HeatGrid {
  return { ...grid, seconds: grid.seconds.map(round2), outside_seconds: round2(grid.outside_seconds) };
}

export function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
