import { blend, similarity, type Appearance } from './appearance';
import type { Box } from './kalman';

/**
 * The offline global association after the online tracker (docs/event-analytics.md «Трекер»,
 * «Связывание после трекера»): the tracking job works on a finished recording, so once every frame is
 * tracked it sees each tracklet whole — where it ends and where the next begins — as StrongSORT++
 * does after DeepSORT (Du et al. 2023): AFLink joins tracklets of one person (a gap in time, a place
 * reachable at walking speed in that gap, the same look), GSI fills a short gap in a joined track
 * with boxes from a Gaussian-weighted local line through the boxes around it. Pure; no I/O.
 */

/** A tracklet as linking sees it: its points in time order, the look at its start (head) and at its end (tail). */
export interface Tracklet<P extends LinkPoint = LinkPoint> {
  id: number;
  points: P[];
  firstTime: number;
  lastTime: number;
  /** Appearance over the first sightings of the tracklet and at its last (appearance.ts); absent without pixels. */
  head?: Appearance;
  tail?: Appearance;
  /** Where the online tracker bridged a gap by appearance alone (redecideBridges re-decides them with the whole recording). */
  bridges?: Bridge[];
}

/**
 * A lost track taken back beyond the IoU gate, by its look alone (byte-tracker.ts): the piece before
 * ends at points[index − 1], the piece after starts at points[index]; `tail` — the track's look at the
 * end of the piece before, `head` — the look over the first clean sightings of the piece after.
 */
export interface Bridge {
  index: number;
  tail: Appearance;
  head: Appearance;
}

export interface LinkPoint {
  frame: number;
  time: number;
  box: Box;
  score: number;
  foot: { x: number; y: number };
  /** A box filled in by interpolation (GSI), not seen by the detector. */
  interpolated?: boolean;
}

/** Where a person may have gone unseen (shared by the online re-identification and the offline linking). */
export interface PlaceRules {
  /** Fastest walk, in the person's box heights per second (max of the hand-labelled first 20 s of vtest.avi: 1.29). */
  walkHeightsPerSecond: number;
  /**
   * Longest a person stays hidden inside the picture (behind the sign, behind someone): a gap longer
   * than this is only crossed by someone who left the picture — at its edge — or stood still hidden.
   */
  hiddenSeconds: number;
}

export interface OfflineOptions {
  /** Longest gap between two tracklets of one person, seconds. */
  linkSeconds: number;
  /** Least appearance similarity of the tail of one and the head of the other. */
  linkSimilarity: number;
  /** A link is made only if it beats the next candidate of both tracklets by this much (else no link). */
  linkMargin: number;
  /** Gaps up to this long in a track are filled with interpolated boxes, seconds. */
  interpolateSeconds: number;
  /** Standard deviation of the Gaussian weight of the interpolation, seconds. */
  smoothSeconds: number;
}

/** The picture the boxes are on, to tell a track that left at its edge; absent — no track is at an edge. */
export interface FrameSize {
  width: number;
  height: number;
}

/**
 * Defaults (docs/event-analytics.md «Связывание после трекера»): from the rules of the online tracker
 * and the hand-labelled first 20 s of vtest.avi only. Linking up to the re-identification's 30 s at
 * 0.89: 99.9 % of the pairs of different people's tracks on the first 20 s — one's look at its end
 * (moving average) against the other's head (mean of its first five clean sightings) — look less alike
 * (0.891 at 10 fps, 0.882 at 5 fps; averaged looks of people in dark clothes are closer than single
 * boxes, whose 99.9 % is 0.81); the margin 0.03, chosen beforehand, not by a score. Walking speed
 * 1.3 heights a second: the fastest foot point of a labelled person over 1 s on the first 20 s (1.29). Interpolation is off (interpolateSeconds 0): on the first
 * 20 s every length tried (0.5–3 s) added false boxes — a person wholly behind the sign is not in
 * the hand truth, which labels what is seen — MOTA 0.949 → 0.940…0.915 at 10 fps; the figures bridge
 * gaps up to 2 s themselves. Its σ, when on: 1 s (a step and a half of walking).
 */
export const OFFLINE_DEFAULTS: OfflineOptions & PlaceRules = {
  linkSeconds: 30,
  linkSimilarity: 0.89,
  linkMargin: 0.03,
  interpolateSeconds: 0,
  smoothSeconds: 1,
  walkHeightsPerSecond: 1.3,
  hiddenSeconds: 3,
};

/** Share of a box's height within which it counts as touching the picture's edge (a person leaving it). */
const EDGE_HEIGHTS = 0.25;

/** Whether the box touches the picture's edge. */
export function atEdge(box: Box, frame: FrameSize | undefined): boolean {
  if (!frame) return false;
  const m = EDGE_HEIGHTS * (box.y2 - box.y1);
  return box.x1 <= m || box.y1 <= m || box.x2 >= frame.width - m || box.y2 >= frame.height - m;
}

/**
 * Whether the person last seen at `end` can be the one first seen at `start`: later, and near enough
 * for a walk in that time — half a box height plus walkHeightsPerSecond per second; a gap longer than
 * hiddenSeconds counts in full only when the person left at the picture's edge and came back at an
 * edge, else the walk is that of hiddenSeconds (someone hidden in the picture does not cross it).
 */
export function reachable(end: LinkPoint, start: LinkPoint, rules: PlaceRules, frame?: FrameSize): boolean {
  const gap = start.time - end.time;
  if (!(gap > 0)) return false;
  const walked = atEdge(end.box, frame) && atEdge(start.box, frame) ? gap : Math.min(gap, rules.hiddenSeconds);
  const height = (end.box.y2 - end.box.y1 + start.box.y2 - start.box.y1) / 2;
  const distance = Math.hypot(end.foot.x - start.foot.x, end.foot.y - start.foot.y);
  return distance <= (0.5 + rules.walkHeightsPerSecond * walked) * height;
}

/** A candidate for the one person: its score, and when it was seen (seconds). */
export interface Candidate<T> {
  item: T;
  score: number;
  from: number;
  to: number;
}

/**
 * The candidate that clearly wins, or null. Those within `margin` of the best score are alike; among
 * them the one nearest in time is taken (`pick`: the earliest to start — a continuation; the latest to
 * end — a predecessor), since alike pieces one after another can all be the one person, joined in turn.
 * But if another alike candidate is seen at the same time as the one taken, two people are too close
 * to tell apart and nobody is taken; nor when the one taken is below `limit`.
 */
export function clearChoice<T>(candidates: readonly Candidate<T>[], limit: number, margin: number, pick: 'first' | 'last'): T | null {
  if (!candidates.length) return null;
  const top = Math.max(...candidates.map((c) => c.score));
  const alike = candidates.filter((c) => c.score >= top - margin);
  const chosen = alike.reduce((a, b) => ((pick === 'first' ? b.from < a.from : b.to > a.to) ? b : a));
  if (chosen.score < limit) return null;
  return alike.some((c) => c !== chosen && c.from <= chosen.to && c.to >= chosen.from) ? null : chosen.item;
}

/**
 * AFLink: joins tracklets of one person. A may be followed by B when B starts after A ends, no later
 * than linkSeconds, at a place reachable from A's end (`reachable`), and B's head looks at least
 * linkSimilarity like A's tail. A pair is joined only when each is the other's clear choice
 * (`clearChoice`, by linkMargin) among all of those candidates — two people alike near the same place
 * at the same time leave both unjoined. Rounds repeat until nothing joins (a person behind the sign twice: three pieces, one track).
 * The joined track keeps the first piece's number and every point of all pieces.
 */
export function linkTracklets<T extends Tracklet>(tracks: readonly T[], options: OfflineOptions & PlaceRules, frame?: FrameSize): T[] {
  let current = [...tracks].sort((a, b) => a.firstTime - b.firstTime || a.id - b.id);
  for (;;) {
    const pairs: { a: T; b: T; score: number }[] = [];
    for (const a of current) {
      if (!a.tail) continue;
      const end = a.points.at(-1)!;
      for (const b of current) {
        if (b === a || !b.head || b.firstTime <= a.lastTime || b.firstTime - a.lastTime > options.linkSeconds) continue;
        if (!reachable(end, b.points[0]!, options, frame)) continue;
        const score = similarity(a.tail, b.head);
        // Pairs just below the limit still count as rivals of the best.
        if (score >= options.linkSimilarity - options.linkMargin) pairs.push({ a, b, score });
      }
    }
    const next = new Map<T, T>();
    for (const p of pairs) {
      const after = pairs.filter((q) => q.a === p.a).map((q) => ({ item: q.b, score: q.score, from: q.b.firstTime, to: q.b.lastTime }));
      const before = pairs.filter((q) => q.b === p.b).map((q) => ({ item: q.a, score: q.score, from: q.a.firstTime, to: q.a.lastTime }));
      const forA = clearChoice(after, options.linkSimilarity, options.linkMargin, 'first');
      if (forA === p.b && clearChoice(before, options.linkSimilarity, options.linkMargin, 'last') === p.a) next.set(p.a, p.b);
    }
    if (!next.size) return current;
    const followers = new Set(next.values());
    const joined: T[] = [];
    for (const a of current) {
      if (followers.has(a)) continue;
      let track = a;
      for (let b = next.get(a); b; b = next.get(b)) track = join(track, b);
      joined.push(track);
    }
    current = joined.sort((a, b) => a.firstTime - b.firstTime || a.id - b.id);
  }
}

/**
 * The online tracker's appearance-only bridges re-decided with the whole recording
 * (docs/event-analytics.md «Связывание после трекера»): each track is cut at its bridges, and the
 * pieces are linked with all the other tracklets (linkTracklets). Online, a lost track took the one
 * box near it that looked alike enough; offline, everyone who appeared later is a candidate too — a
 * person who stepped out at the edge and walked back in, while someone else came in there. The
 * online decision stands (the piece after is joined back) unless linking gave the piece before a
 * clear continuation of its own or the piece after a clear predecessor: no new limit, linking's own.
 * Pieces after a cut that stay apart get new numbers above every number in `tracks`.
 */
export function redecideBridges<T extends Tracklet>(tracks: readonly T[], options: OfflineOptions & PlaceRules, frame?: FrameSize): T[] {
  let nextId = Math.max(0, ...tracks.map((t) => t.id)) + 1;
  const pieces: T[] = [];
  const cuts: { before: LinkPoint; after: LinkPoint }[] = [];
  for (const t of [...tracks].sort((a, b) => a.id - b.id)) {
    const bridges = (t.bridges ?? []).filter((b) => b.index > 0 && b.index < t.points.length);
    let [start, id, head] = [0, t.id, t.head];
    for (const b of bridges) {
      pieces.push(piece(t, id, start, b.index, head, b.tail));
      cuts.push({ before: t.points[b.index - 1]!, after: t.points[b.index]! });
      [start, id, head] = [b.index, nextId++, b.head];
    }
    pieces.push(bridges.length ? piece(t, id, start, t.points.length, head, t.tail) : { ...t, bridges: undefined });
  }
  let current = linkTracklets(pieces, options, frame);
  for (const cut of cuts) {
    const a = current.find((t) => t.points.at(-1) === cut.before);
    const b = current.find((t) => t.points[0] === cut.after);
    if (a && b && a !== b) current = [...current.filter((t) => t !== a && t !== b), join(a, b)];
  }
  return current.sort((a, b) => a.firstTime - b.firstTime || a.id - b.id);
}

/** Points [from, to) of a track as a tracklet of its own. */
function piece<T extends Tracklet>(t: T, id: number, from: number, to: number, head: Appearance | undefined, tail: Appearance | undefined): T {
  const points = t.points.slice(from, to);
  return { ...t, id, points, firstTime: points[0]!.time, lastTime: points.at(-1)!.time, head, tail, bridges: undefined };
}

function join<T extends Tracklet>(a: T, b: T): T {
  return { ...a, points: [...a.points, ...b.points], lastTime: b.lastTime, tail: b.tail, head: a.head ?? b.head };
}

/**
 * GSI: fills the gaps of a track no longer than interpolateSeconds with a box on every sampled moment
 * (`fps`) in between, each from a local line through the track's seen boxes around the gap, weighted
 * by a Gaussian in time (σ smoothSeconds): a straight walk is filled exactly, a turn follows the boxes
 * around it. The boxes seen stay as the detector saw them; a filled point has score 0, `interpolated`
 * set, and the frame of the video at its moment (`videoFps`).
 */
export function interpolateGaps<T extends Tracklet>(track: T, options: OfflineOptions, fps: number, videoFps: number): T {
  const seen = track.points;
  const step = 1 / fps;
  const filled: LinkPoint[] = [];
  for (let i = 1; i < seen.length; i++) {
    const [p, q] = [seen[i - 1]!, seen[i]!];
    const gap = q.time - p.time;
    if (gap < 1.5 * step || gap > options.interpolateSeconds + step / 2) continue;
    const around = seen.filter((s) => s.time >= p.time - 3 * options.smoothSeconds && s.time <= q.time + 3 * options.smoothSeconds);
    for (let k = 1; p.time + k * step < q.time - step / 2; k++) {
      const time = p.time + k * step;
      const box = localLine(around, time, options.smoothSeconds);
      filled.push({ frame: Math.round(time * videoFps), time, box, score: 0, foot: { x: (box.x1 + box.x2) / 2, y: box.y2 }, interpolated: true });
    }
  }
  if (!filled.length) return track;
  const points = [...seen, ...filled].sort((a, b) => a.time - b.time);
  return { ...track, points };
}

/** Each coordinate of the box at `time`: weighted least squares of a line in time, Gaussian weights. */
function localLine(points: readonly LinkPoint[], time: number, sigma: number): Box {
  const keys = ['x1', 'y1', 'x2', 'y2'] as const;
  let [sw, st, stt] = [0, 0, 0];
  const sv = [0, 0, 0, 0];
  const stv = [0, 0, 0, 0];
  for (const p of points) {
    const t = p.time - time;
    const w = Math.exp(-(t * t) / (2 * sigma * sigma));
    sw += w;
    st += w * t;
    stt += w * t * t;
    for (const [k, key] of keys.entries()) {
      sv[k]! += w * p.box[key];
      stv[k]! += w * t * p.box[key];
    }
  }
  const det = sw * stt - st * st;
  const at = (k: number) => (Math.abs(det) > 1e-12 * sw * sw ? (stt * sv[k]! - st * stv[k]!) / det : sv[k]! / sw);
  return { x1: at(0), y1: at(1), x2: at(2), y2: at(3) };
}

/**
 * The offline step as the tracking job runs it: the online tracker's appearance-only bridges
 * re-decided and tracklets joined (redecideBridges, linkTracklets), then each track's
 * short gaps filled (interpolateGaps); numbers are those of each track's first piece.
 */
export function finishTracks<T extends Tracklet>(
  tracks: readonly T[],
  options: OfflineOptions & PlaceRules,
  run: { fps: number; videoFps: number; frame?: FrameSize },
): T[] {
  return redecideBridges(tracks, options, run.frame)
    .map((t) => interpolateGaps(t, options, run.fps, run.videoFps))
    .sort((a, b) => a.id - b.id);
}

/** A track's head appearance after one more clean sighting: the running mean of its first HEAD_SIGHTINGS. */
export function headAfter(head: Appearance | undefined, seen: Appearance, count: number): Appearance {
  return head ? blend(head, seen, count / (count + 1)) : seen;
}

/** Clean sightings that make a track's head appearance. */
export const HEAD_SIGHTINGS = 5;
