/**
 * Presence of one track in a time window: the straight pieces between consecutive points (the person
 * moves linearly between two sightings) no more than maxGap seconds apart, cut to the window, and the
 * sightings that belong to no piece (instants: seen, but for no measurable time).
 */
import type { Point } from './geometry';

export interface Sample {
  t: number;
  x: number;
  y: number;
}

export interface Piece {
  t0: number;
  t1: number;
  a: Point;
  b: Point;
}

export interface Presence {
  pieces: Piece[];
  instants: Sample[];
}

/** Samples ordered by time (a copy; equal times keep their order). */
export function byTime<T extends { t: number }>(points: readonly T[]): T[] {
  return [...points].sort((p, q) => p.t - q.t);
}

export function presence(sorted: readonly Sample[], from: number, to: number, maxGap: number): Presence {
  const pieces: Piece[] = [];
  const inPiece = new Array<boolean>(sorted.length).fill(false);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const p = sorted[i]!;
    const q = sorted[i + 1]!;
    const dt = q.t - p.t;
    if (dt > maxGap || dt <= 0 || q.t < from || p.t > to) continue;
    const t0 = Math.max(p.t, from);
    const t1 = Math.min(q.t, to);
    if (t1 <= t0) continue;
    pieces.push({ t0, t1, a: at(p, q, t0), b: at(p, q, t1) });
    // A sighting counts in a piece only when the piece reaches it (not when the window cut it off).
    if (t0 === p.t) inPiece[i] = true;
    if (t1 === q.t) inPiece[i + 1] = true;
  }
  const instants = sorted.filter((s, i) => !inPiece[i] && s.t >= from && s.t <= to);
  return { pieces, instants };
}

/** The linear position between two samples at time t. */
export function at(p: Sample, q: Sample, t: number): Point {
  const s = q.t === p.t ? 0 : (t - p.t) / (q.t - p.t);
  return [p.x + s * (q.x - p.x), p.y + s * (q.y - p.y)];
}

/** Time and place at parameter s along a piece. */
export function along(piece: Piece, s: number): { t: number; p: Point } {
  return {
    t: piece.t0 + s * (piece.t1 - piece.t0),
    p: [piece.a[0] + s * (piece.b[0] - piece.a[0]), piece.a[1] + s * (piece.b[1] - piece.a[1])],
  };
}

/** Seconds of the pieces that overlap [from, to). */
export function secondsWithin(pieces: readonly Piece[], from: number, to: number): number {
  let s = 0;
  for (const p of pieces) s += Math.max(0, Math.min(p.t1, to) - Math.max(p.t0, from));
  return s;
}
