/** Time inside a zone along a track, visits and their statistics. */
import { along, type Presence } from './presence';
import { boundaryCrossings, depthInZone, pointInZone, zoneBounds, type ZoneShape } from './zones';
import type { Point } from './geometry';

/** A stretch of time inside a zone, with the deepest place reached and the seconds really inside. */
export interface Stay {
  start: number;
  end: number;
  inside: number;
  deepest: { t: number; x: number; y: number; depth: number };
}

/**
 * The stretches inside the zone, exact along each straight piece (split where it crosses the
 * boundary), in time order; stretches closer than mergeGap seconds are one stay (a short step out,
 * or foot-point jitter on the boundary, does not end it).
 */
export function staysInZone(shape: ZoneShape, presence: Presence, mergeGap: number): Stay[] {
  const raw: Stay[] = [];
  const push = (start: number, end: number, t: number, p: Point, depth: number) => {
    raw.push({ start, end, inside: end - start, deepest: { t, x: p[0], y: p[1], depth: Math.max(0, depth) } });
  };
  const [minX, minY, maxX, maxY] = zoneBounds(shape);
  for (const piece of presence.pieces) {
    const { a, b } = piece;
    // A piece wholly beside the zone's box neither crosses nor enters it.
    if (Math.max(a[0], b[0]) < minX || Math.min(a[0], b[0]) > maxX || Math.max(a[1], b[1]) < minY || Math.min(a[1], b[1]) > maxY) continue;
    const cuts = [0, ...boundaryCrossings(shape, a, b), 1];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const mid = along(piece, (cuts[i]! + cuts[i + 1]!) / 2);
      if (!pointInZone(shape, mid.p)) continue;
      const s = along(piece, cuts[i]!);
      const e = along(piece, cuts[i + 1]!);
      // The deepest of the stretch's ends and its middle (a chord of a circle is deepest there); first wins ties.
      let best = { ...s, depth: depthInZone(shape, s.p) };
      for (const o of [mid, e]) {
        const depth = depthInZone(shape, o.p);
        if (depth > best.depth) best = { ...o, depth };
      }
      push(s.t, e.t, best.t, best.p, best.depth);
    }
  }
  for (const s of presence.instants) {
    if (pointInZone(shape, [s.x, s.y])) push(s.t, s.t, s.t, [s.x, s.y], depthInZone(shape, [s.x, s.y]));
  }
  raw.sort((a, b) => a.start - b.start);
  const out: Stay[] = [];
  for (const s of raw) {
    const last = out[out.length - 1];
    if (last && (s.start <= last.end || s.start - last.end < mergeGap)) {
      last.end = Math.max(last.end, s.end);
      last.inside += s.inside;
      if (s.deepest.depth > last.deepest.depth) last.deepest = s.deepest;
    } else {
      out.push({ ...s, deepest: { ...s.deepest } });
    }
  }
  return out;
}

/** Fixed dwell bins: upper bounds in seconds (the last is open). */
export const DWELL_BINS: { label: string; upTo: number }[] = [
  { label: '0–10 с', upTo: 10 },
  { label: '10–30 с', upTo: 30 },
  { label: '30–60 с', upTo: 60 },
  { label: '1–2 мин', upTo: 120 },
  { label: '2–5 мин', upTo: 300 },
  { label: 'больше 5 мин', upTo: Infinity },
];

export function histogram(values: readonly number[]): { label: string; from: number; to: number | null; count: number }[] {
  let lower = 0;
  return DWELL_BINS.map((bin) => {
    const from = lower;
    lower = bin.upTo;
    const count = values.filter((v) => v >= from && v < bin.upTo).length;
    return { label: bin.label, from, to: Number.isFinite(bin.upTo) ? bin.upTo : null, count };
  });
}

/** Percentile by linear interpolation between order statistics (numpy's default), q in [0, 1]. */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (pos - lo) * (sorted[hi]! - sorted[lo]!);
}
