/**
 * Dependent (overlapping) cameras: one person seen by two cameras at once leaves a track in each;
 * on the plan the two stay together. Such tracks are joined into one visitor so that the figures
 * count them once. No re-identification: tracks that never share time (camera A, later camera B)
 * or place stay apart.
 */
import type { PlanTrack, PlanTrackPoint } from './figures';
import { byTime } from './presence';

export interface JoinOptions {
  /** Plan distance under which two views are the same person, metres. */
  maxDistanceMetres?: number;
  /** Shortest common time two views need to be joined, seconds. */
  minOverlapSeconds?: number;
  /** Longest gap between sightings still bridged when comparing positions (as the figures' maxGapSeconds). */
  maxGapSeconds?: number;
}

/**
 * 1 m: two people walking side by side keep about 0.7–1 m between their centres, yet the foot points of
 * one person from two calibrated cameras differ by calibration error (tens of centimetres). 1 s of
 * common time: a moment together is a coincidence, a second together is not.
 */
export const JOIN_DEFAULTS = { maxDistanceMetres: 1, minOverlapSeconds: 1, maxGapSeconds: 2 } as const;

/** Share of the common moments that must be within maxDistance (one bad foot point does not separate them). */
const WITHIN_SHARE = 0.9;

interface View {
  track: PlanTrack;
  index: number;
  sorted: PlanTrackPoint[];
  first: number;
  last: number;
}

/** The tracks with overlapping views of one person joined (ids joined by «+», the per-camera tracks kept in views). */
export function joinOverlappingViews(tracks: readonly PlanTrack[], options: JoinOptions = {}): PlanTrack[] {
  const o = { ...JOIN_DEFAULTS, ...options };
  const views: View[] = tracks.flatMap((track, index) => {
    const sorted = byTime(track.points.filter((p) => Number.isFinite(p.t) && Number.isFinite(p.x) && Number.isFinite(p.y)));
    return sorted.length > 0 ? [{ track, index, sorted, first: sorted[0]!.t, last: sorted[sorted.length - 1]!.t }] : [];
  });
  const candidates: { a: View; b: View; mean: number }[] = [];
  for (let i = 0; i < views.length; i++) {
    for (let j = i + 1; j < views.length; j++) {
      const mean = samePerson(views[i]!, views[j]!, o);
      if (mean !== null) candidates.push({ a: views[i]!, b: views[j]!, mean });
    }
  }
  // Closest pairs first; a join never puts two tracks of one camera that overlap in time (two people) together.
  candidates.sort((x, y) => x.mean - y.mean);
  const group = new Map<View, View[]>(views.map((v) => [v, [v]]));
  for (const { a, b } of candidates) {
    const ga = group.get(a)!;
    const gb = group.get(b)!;
    if (ga === gb || ga.some((x) => gb.some((y) => x.track.camera_id === y.track.camera_id && x.first <= y.last && y.first <= x.last))) {
      continue;
    }
    const merged = [...ga, ...gb];
    for (const v of merged) group.set(v, merged);
  }
  const seen = new Set<View[]>();
  const out: PlanTrack[] = [];
  for (const v of views) {
    const g = group.get(v)!;
    if (seen.has(g)) continue;
    seen.add(g);
    out.push(g.length === 1 ? v.track : merge(g, o.maxGapSeconds));
  }
  // Tracks without a usable point pass through untouched.
  const kept = new Set(views.map((v) => v.track));
  return [...out, ...tracks.filter((t) => !kept.has(t))];
}

/**
 * The mean plan distance over the common moments (every sighting of either inside the common time where
 * both have a position) when the two views are one person, otherwise null. One pass over both tracks in
 * time order; it stops as soon as too many moments are far apart.
 */
function samePerson(a: View, b: View, o: Required<JoinOptions>): number | null {
  if (a.track.camera_id === b.track.camera_id) return null;
  const from = Math.max(a.first, b.first);
  const to = Math.min(a.last, b.last);
  if (to - from < o.minOverlapSeconds) return null;
  const times = mergedTimes(a.sorted, b.sorted, from, to);
  const allowedFar = Math.floor((1 - WITHIN_SHARE) * times.length + 1e-9);
  const ca = cursor(a.sorted, o.maxGapSeconds);
  const cb = cursor(b.sorted, o.maxGapSeconds);
  let n = 0;
  let far = 0;
  let sum = 0;
  for (const t of times) {
    const p = ca(t);
    const q = cb(t);
    if (!p || !q) continue;
    const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
    n++;
    sum += d;
    if (d > o.maxDistanceMetres && ++far > allowedFar) return null;
  }
  if (n < 2 || far > (1 - WITHIN_SHARE) * n + 1e-9) return null;
  return sum / n;
}

/** The distinct sighting times of both tracks within [from, to], ascending (a merge of two sorted lists). */
function mergedTimes(a: readonly PlanTrackPoint[], b: readonly PlanTrackPoint[], from: number, to: number): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const t = j >= b.length || (i < a.length && a[i]!.t <= b[j]!.t) ? a[i++]!.t : b[j++]!.t;
    if (t >= from && t <= to && out[out.length - 1] !== t) out.push(t);
  }
  return out;
}

/** positionAt for ascending times, walking forward instead of searching. */
function cursor(sorted: readonly PlanTrackPoint[], maxGap: number): (t: number) => [number, number] | null {
  let k = 0;
  return (t) => {
    while (k + 1 < sorted.length && sorted[k + 1]!.t <= t) k++;
    const p = sorted[k]!;
    if (t < p.t) return null;
    if (p.t === t) return [p.x, p.y];
    const q = sorted[k + 1];
    if (!q || q.t - p.t > maxGap) return null;
    const s = (t - p.t) / (q.t - p.t);
    return [p.x + s * (q.x - p.x), p.y + s * (q.y - p.y)];
  };
}

/** The plan position at time t, interpolated between sightings at most maxGap apart; null in a longer gap. */
export function positionAt(sorted: readonly PlanTrackPoint[], t: number, maxGap: number): [number, number] | null {
  let lo = 0;
  let hi = sorted.length - 1;
  if (hi < 0 || t < sorted[0]!.t || t > sorted[hi]!.t) return null;
  // The last sighting at or before t.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (sorted[mid]!.t <= t) lo = mid;
    else hi = mid - 1;
  }
  const p = sorted[lo]!;
  if (p.t === t) return [p.x, p.y];
  const q = sorted[lo + 1]!;
  if (q.t - p.t > maxGap) return null;
  const s = (t - p.t) / (q.t - p.t);
  return [p.x + s * (q.x - p.x), p.y + s * (q.y - p.y)];
}

/** One track from a group: at every sighting time of any member, the mean of the members' positions there. */
function merge(group: readonly View[], maxGap: number): PlanTrack {
  const members = [...group].sort((a, b) => a.first - b.first || a.index - b.index);
  const times = [...new Set(members.flatMap((m) => m.sorted.map((p) => p.t)))].sort((a, b) => a - b);
  const points: PlanTrackPoint[] = [];
  for (const t of times) {
    const xs = members.map((m) => positionAt(m.sorted, t, maxGap)).filter((p): p is [number, number] => p !== null);
    if (xs.length === 0) continue;
    points.push({ t, x: xs.reduce((s, p) => s + p[0], 0) / xs.length, y: xs.reduce((s, p) => s + p[1], 0) / xs.length });
  }
  return {
    id: members.map((m) => m.track.id).join('+'),
    camera_id: members[0]!.track.camera_id,
    points,
    views: members.flatMap((m) => m.track.views ?? [m.track]),
  };
}
