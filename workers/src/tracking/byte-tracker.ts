import { blend, similarity, type Appearance } from './appearance';
import { assignBy, assignByIou } from './assign';
import { boxOf, initiate, measurementOf, predict, update, type Box, type KalmanState } from './kalman';
import {
  clearChoice,
  HEAD_SIGHTINGS,
  headAfter,
  OFFLINE_DEFAULTS,
  reachable,
  type Bridge,
  type Candidate,
  type FrameSize,
  type LinkPoint,
  type OfflineOptions,
  type PlaceRules,
  type Tracklet,
} from './offline';
import { iou } from '../vision/movenet-decode';

/**
 * A multi-object tracker of the ByteTrack family (Zhang et al. 2021; docs/event-analytics.md «Трекер»):
 * a constant-velocity Kalman filter per track, a first optimal association of the high-score
 * detections to all live tracks (those being tracked and those lost for a while) by IoU with the
 * predicted box fused with appearance (colour histograms of the body, appearance.ts; as BoT-SORT and
 * DeepSORT), a second association of the low-score detections to the tracks still unmatched (a
 * person half hidden keeps their identity instead of being dropped and reborn), new tracks confirmed
 * only after `confirmFrames` consecutive matches, lost tracks kept for `lostSeconds` before they die,
 * and re-identification: a newly confirmed track that looks like a track lost or ended in the last
 * `reidSeconds` takes its number (a person who walked behind the sign or out and back in) — only
 * when the two are consistent in time (one after the other), place (reachable at walking speed,
 * offline.ts `reachable`) and appearance, and no other candidate looks nearly as alike. Without
 * appearances (detections with no `feature`) it is plain ByteTrack. Pure: the caller feeds frames in
 * order at a constant step; no I/O. The tracking job then joins and fills the tracks offline
 * (offline.ts `finishTracks`), re-deciding each lost track the tracker took back by its look alone
 * (a bridge, kept on the track) with the whole recording in view.
 */
export interface Detection {
  box: Box;
  score: number;
  /** The person's appearance on this frame (appearanceOf), when the caller has the pixels. */
  feature?: Appearance;
}

export interface TrackerOptions extends Partial<OfflineOptions & PlaceRules> {
  /** Frames fed per second (the sampling rate, not the video's): converts seconds into frames. */
  fps: number;
  /** The picture the boxes are on (source pixels): a track ending at its edge left the picture. */
  frameSize?: FrameSize;
  /** Detections at or above this score take part in the first association and may start tracks. */
  highScore?: number;
  /** Detections at or above this (and below highScore) take part in the second association only. */
  lowScore?: number;
  /** A new track starts only from a detection at or above this score. */
  newTrackScore?: number;
  /** IoU needed in the first association (with the predicted box), the second, and for an unconfirmed track. */
  firstIou?: number;
  secondIou?: number;
  unconfirmedIou?: number;
  /** Consecutive matched frames (birth included) before a track is confirmed. */
  confirmFrames?: number;
  /** How long a lost track waits to be matched again before it dies, in seconds. */
  lostSeconds?: number;
  /** Weight of appearance against IoU in the first association (0: IoU alone). */
  appearanceWeight?: number;
  /** A lost track is matched beyond the IoU gate when it looks at least this alike (and is near enough). */
  recoverSimilarity?: number;
  /** How far a lost person may have gone, in their box heights per second lost (plus half a height). */
  heightsPerSecond?: number;
  /** A new track takes the number of a track lost or ended at most this long ago that looks at least reidSimilarity alike. */
  reidSeconds?: number;
  reidSimilarity?: number;
  /** Re-identification only when the most alike candidate beats the next by this much. */
  reidMargin?: number;
  /** Share of a track's appearance kept at each sighting (the rest is the new one). */
  appearanceKeep?: number;
}

/** One frame of a track: the matched detection's box, its score and the foot point (bottom centre); or a box filled in offline. */
export type TrackPoint = LinkPoint;

/** A track: its points in time order, its appearance at its start (head) and end (tail) when it had pixels. */
export type Track = Tracklet<TrackPoint>;

/**
 * Defaults for MoveNet multipose on footage like vtest.avi (people 40–150 px tall from above),
 * tuned on the first 20 s of vtest.avi only against the hand-labelled identities (every 10th
 * frame; docs/event-analytics.md «Трекер», «Замер»), the rest of the clip held out. MoveNet scores
 * a clearly seen person 0.3–0.9 and a small or half-hidden one 0.1–0.3: 0.15 for the first stage
 * and 0.2 for births keep the people going behind the sign post in their tracks; 0.1 is the floor
 * of the second stage. A lost track waits 3 s (ByteTrack: 1 s): people stand behind the post or
 * behind one another for 1–3 s. The second stage's and the unconfirmed tracks' IoU limits (0.5,
 * 0.3) are ByteTrack's; the first stage's is 0.1 — appearance decides who is who there (weight
 * 0.9). Similarity limits from the first 20 s, each the rule «99 % / 99.9 % of pairs of different
 * people look less alike» on the quantity it compares: a lost track's look against one box — 99 % of
 * different people's box pairs below 0.77, so 0.75 to take a lost track back near where it was; a
 * track's look (its moving average) against a new track's first two sightings on re-identification —
 * 99.9 % below 0.87 (0.871 at 10 fps, 0.867 at 5 fps; single boxes' 0.81, the limit until 29.11.2026,
 * let different people in dark clothes merge). A re-identification must also be reachable at
 * walking speed and beat the next candidate by 0.03 (reidMargin, as the offline linking's margin).
 * The offline step's settings (OFFLINE_DEFAULTS) are part of the defaults.
 */
export const TRACKER_DEFAULTS: Required<Omit<TrackerOptions, 'fps' | 'frameSize'>> = {
  highScore: 0.15,
  lowScore: 0.1,
  newTrackScore: 0.2,
  firstIou: 0.1,
  secondIou: 0.5,
  unconfirmedIou: 0.3,
  confirmFrames: 2,
  lostSeconds: 3,
  appearanceWeight: 0.9,
  recoverSimilarity: 0.75,
  heightsPerSecond: 1,
  reidSeconds: 30,
  reidSimilarity: 0.87,
  reidMargin: 0.03,
  appearanceKeep: 0.9,
  ...OFFLINE_DEFAULTS,
};

type State = 'tentative' | 'tracked' | 'lost';

interface LiveTrack {
  id: number;
  state: State;
  kalman: KalmanState;
  hits: number;
  lastFrame: number;
  lastUpdate: number;
  points: TrackPoint[];
  feature?: Appearance;
  /** The look over the first clean sightings (offline linking compares a track's head with another's tail). */
  head?: Appearance;
  headCount: number;
  /** Gaps bridged by appearance alone, each with the look of the piece after it so far (offline.ts redecideBridges). */
  bridges: (Bridge & { headCount: number })[];
}

/** A detection overlapping another by more than this share of its own area: its colours are partly the other's. */
const OCCLUDED_SHARE = 0.3;

export class ByteTracker {
  private readonly options: Required<Omit<TrackerOptions, 'frameSize'>> & { frameSize?: FrameSize };
  private readonly lostFrames: number;
  private live: LiveTrack[] = [];
  private finished: LiveTrack[] = [];
  private nextId = 1;
  private updates = 0;
  /** The step of the last frame with detections (coasted frames in between do not break a run of hits). */
  private lastDetected = -1;
  private lastFrame = -Infinity;

  constructor(options: TrackerOptions) {
    if (!(options.fps > 0)) throw new Error('Трекер: частота кадров должна быть больше нуля');
    this.options = { ...TRACKER_DEFAULTS, ...options };
    this.lostFrames = Math.max(1, Math.round(this.options.lostSeconds * options.fps));
  }

  /** Feeds one frame's detections (frames in increasing order); returns the confirmed tracks seen on it. */
  update(frame: number, time: number, detections: Detection[]): { id: number; box: Box; score: number }[] {
    if (frame <= this.lastFrame) throw new Error(`Трекер: кадр ${frame} не позже предыдущего ${this.lastFrame}`);
    this.lastFrame = frame;
    const o = this.options;
    const step = this.updates++;
    const previous = this.lastDetected;
    this.lastDetected = step;
    const clean = detections.map((d) => !detections.some((e) => e !== d && overlapShare(d.box, e.box) > OCCLUDED_SHARE));
    const at = (d: Detection) => ({ frame, time, step, previous, clean: clean[detections.indexOf(d)]! });
    const high = detections.filter((d) => d.score >= o.highScore);
    const low = detections.filter((d) => d.score >= o.lowScore && d.score < o.highScore);
    for (const t of this.live) t.kalman = predict(t.kalman);
    const predicted = (ts: LiveTrack[]) => ts.map((t) => boxOf(t.kalman.mean));
    const seen = (t: LiveTrack, d: Detection) => this.match(t, d, at(d));

    // 1. High-score detections against every confirmed track, tracked or lost: IoU fused with appearance.
    const pool = this.live.filter((t) => t.state !== 'tentative');
    const first = assignBy(
      pool.map((t) => high.map((d) => this.firstSimilarity(t, d, step))),
      0,
      high.length,
    );
    for (const [t, d] of first.pairs) {
      const [track, detection] = [pool[t]!, high[d]!];
      // A lost track taken back beyond the IoU gate, by its look alone: a bridge the offline step re-decides.
      const bridged = track.state === 'lost' && iou(boxOf(track.kalman.mean), detection.box) < o.firstIou;
      this.match(track, detection, at(detection), bridged);
    }

    // 2. Low-score detections against the tracks of the last frame still unmatched, by IoU.
    const remaining = first.rows.map((i) => pool[i]!).filter((t) => t.state === 'tracked');
    const second = assignByIou(
      predicted(remaining),
      low.map((d) => d.box),
      o.secondIou,
    );
    for (const [t, d] of second.pairs) seen(remaining[t]!, low[d]!);
    for (const i of second.rows) remaining[i]!.state = 'lost';

    // 3. Tentative tracks against the high-score detections left; a tentative track missed once dies.
    const freeHigh = first.cols.map((i) => high[i]!);
    const tentative = this.live.filter((t) => t.state === 'tentative');
    const third = assignByIou(
      predicted(tentative),
      freeHigh.map((d) => d.box),
      o.unconfirmedIou,
    );
    for (const [t, d] of third.pairs) seen(tentative[t]!, freeHigh[d]!);
    const dead = new Set(third.rows.map((i) => tentative[i]!));

    // 4. Births from the high-score detections nobody took.
    for (const i of third.cols) {
      const d = freeHigh[i]!;
      if (d.score < o.newTrackScore) continue;
      const track: LiveTrack = {
        id: 0,
        state: 'tentative',
        kalman: initiate(measurementOf(d.box)),
        hits: 0,
        lastFrame: frame,
        lastUpdate: step,
        points: [],
        headCount: 0,
        bridges: [],
      };
      this.match(track, d, at(d));
      this.live.push(track);
    }

    // 5. Deaths: a lost track not seen for longer than the buffer.
    for (const t of this.live) if (t.state === 'lost' && step - t.lastUpdate > this.lostFrames) dead.add(t);
    for (const t of dead) if (t.state !== 'tentative') this.finished.push(t);
    this.live = this.live.filter((t) => !dead.has(t));
    return this.live.filter((t) => t.state === 'tracked' && t.lastFrame === frame).map((t) => ({ id: t.id, ...last(t) }));
  }

  /**
   * A frame the detector skipped: every live track moves on by its filter, nothing is matched, born
   * or lost; the seconds a lost track waits still pass. The caller runs the detector on fewer
   * frames where needsDetection() says the tracks can do without it.
   */
  coast(frame: number) {
    if (frame <= this.lastFrame) throw new Error(`Трекер: кадр ${frame} не позже предыдущего ${this.lastFrame}`);
    this.lastFrame = frame;
    this.updates++;
    for (const t of this.live) t.kalman = predict(t.kalman);
  }

  /**
   * Whether the next frame needs the detector, or the tracks may coast over it: yes while a track is
   * unconfirmed (it needs consecutive sightings) and while two tracks being followed come close —
   * their boxes, widened by `nearHeights` of their height on each side, overlap on the predicted
   * next frame — where identities are decided; people apart keep their numbers over a skipped frame.
   */
  needsDetection(nearHeights = NEAR_HEIGHTS): boolean {
    if (this.live.some((t) => t.state === 'tentative')) return true;
    const boxes = this.live.filter((t) => t.state === 'tracked').map((t) => widened(boxOf(predict(t.kalman).mean), nearHeights));
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (iou(boxes[i]!, boxes[j]!) > 0) return true;
    return false;
  }

  /** Every confirmed track so far (finished and live), with all its points, birth frames included. */
  tracks(): Track[] {
    return [...this.finished, ...this.live.filter((t) => t.state !== 'tentative')]
      .sort((a, b) => a.id - b.id)
      .map((t) => ({
        id: t.id,
        points: t.points,
        firstTime: t.points[0]!.time,
        lastTime: t.points.at(-1)!.time,
        head: t.head,
        tail: t.feature,
        bridges: t.bridges.map(({ index, tail, head }) => ({ index, tail, head })),
      }));
  }

  /**
   * The first association's score of a track and a detection, > 0 when they may pair: IoU with the
   * predicted box at or above firstIou, fused with appearance when both have one; a lost track also
   * pairs beyond the IoU gate with a detection near enough that looks at least recoverSimilarity alike.
   */
  private firstSimilarity(t: LiveTrack, d: Detection, step: number): number {
    const o = this.options;
    const predicted = boxOf(t.kalman.mean);
    const overlap = iou(predicted, d.box);
    const look = t.feature && d.feature ? similarity(t.feature, d.feature) : null;
    if (look === null) return overlap >= o.firstIou ? overlap : -1;
    const fused = (1 - o.appearanceWeight) * overlap + o.appearanceWeight * look;
    if (overlap >= o.firstIou) return fused;
    if (t.state !== 'lost' || look < o.recoverSimilarity) return -1;
    const seconds = (step - t.lastUpdate) / o.fps;
    return near(predicted, d.box, 0.5 + o.heightsPerSecond * seconds) ? fused : -1;
  }

  private match(t: LiveTrack, d: Detection, at: { frame: number; time: number; step: number; previous: number; clean: boolean }, bridged = false) {
    if (bridged && t.feature && d.feature) t.bridges.push({ index: t.points.length, tail: t.feature, head: d.feature, headCount: 0 });
    t.kalman = t.points.length ? update(t.kalman, measurementOf(d.box)) : t.kalman;
    t.hits = t.state === 'lost' || t.lastUpdate < at.previous ? 1 : t.hits + 1;
    t.lastFrame = at.frame;
    t.lastUpdate = at.step;
    t.points.push({ frame: at.frame, time: at.time, box: d.box, score: d.score, foot: { x: (d.box.x1 + d.box.x2) / 2, y: d.box.y2 } });
    if (d.feature && (at.clean || !t.feature)) t.feature = t.feature ? blend(t.feature, d.feature, this.options.appearanceKeep) : d.feature;
    if (d.feature) {
      lookAtStart(t, d.feature, at.clean);
      const bridge = t.bridges.at(-1);
      if (bridge) lookAtStart(bridge, d.feature, at.clean);
    }
    if (t.state === 'tentative' && t.hits >= this.options.confirmFrames) this.confirm(t, at.step);
    if (t.state !== 'tentative' || t.hits >= this.options.confirmFrames) t.state = 'tracked';
  }

  /**
   * A new track's number: that of the most alike track lost (and not seen on this frame) or ended at
   * most reidSeconds ago — seen before this one's first point, where it could walk from there in the
   * time between (offline.ts `reachable`), looking at least reidSimilarity alike, and the clear choice
   * (offline.ts `clearChoice`: another as alike, within reidMargin, seen at the same time — no merge)
   * — whose points it then continues; else the next number.
   */
  private confirm(t: LiveTrack, step: number) {
    const o = this.options;
    const first = t.points[0]!;
    const candidates: Candidate<LiveTrack>[] = [];
    if (t.feature) {
      for (const old of [...this.finished, ...this.live.filter((x) => x.state === 'lost' && x.lastUpdate < step)]) {
        const last = old.points.at(-1)!;
        if (!old.feature || last.frame >= first.frame || first.time - last.time > o.reidSeconds) continue;
        if (!reachable(last, first, o, o.frameSize)) continue;
        const look = similarity(old.feature, t.feature);
        // Candidates just below the limit still count as rivals of the best.
        if (look >= o.reidSimilarity - o.reidMargin) candidates.push({ item: old, score: look, from: old.points[0]!.time, to: last.time });
      }
    }
    const best = clearChoice(candidates, o.reidSimilarity, o.reidMargin, 'last');
    if (!best) {
      t.id = this.nextId++;
      return;
    }
    t.id = best.id;
    t.points = [...best.points, ...t.points];
    t.feature = blend(best.feature!, t.feature!, 0.5);
    t.head = best.head ?? t.head;
    t.bridges = best.bridges;
    this.finished = this.finished.filter((x) => x !== best);
    this.live = this.live.filter((x) => x !== best);
  }
}

/** The look over the first HEAD_SIGHTINGS clean sightings (the first sighting stands in until a clean one comes). */
function lookAtStart(s: { head?: Appearance; headCount: number }, feature: Appearance, clean: boolean) {
  if (s.head && !(clean && s.headCount < HEAD_SIGHTINGS)) return;
  s.head = headAfter(s.headCount ? s.head : undefined, feature, s.headCount);
  if (clean) s.headCount++;
}

/** needsDetection's default: boxes widened by a quarter of their height on each side. */
const NEAR_HEIGHTS = 0.25;

function widened(b: Box, heights: number): Box {
  const m = heights * (b.y2 - b.y1);
  return { x1: b.x1 - m, y1: b.y1 - m, x2: b.x2 + m, y2: b.y2 + m };
}

/** Share of `a`'s area covered by `b`. */
function overlapShare(a: Box, b: Box): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / ((a.x2 - a.x1) * (a.y2 - a.y1));
}

/** Box centres within `heights` of the predicted box's height. */
function near(predicted: Box, box: Box, heights: number): boolean {
  const dx = (predicted.x1 + predicted.x2 - box.x1 - box.x2) / 2;
  const dy = (predicted.y1 + predicted.y2 - box.y1 - box.y2) / 2;
  return Math.hypot(dx, dy) <= heights * (predicted.y2 - predicted.y1);
}

const last = (t: LiveTrack) => {
  const p = t.points.at(-1)!;
  return { box: p.box, score: p.score };
};
