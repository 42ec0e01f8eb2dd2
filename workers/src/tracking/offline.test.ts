import { describe, expect, it } from 'vitest';
import { ByteTracker } from './byte-tracker';
import type { Box } from './kalman';
import { finishTracks, interpolateGaps, linkTracklets, OFFLINE_DEFAULTS, reachable, redecideBridges, type LinkPoint, type Tracklet } from './offline';

/**
 * The offline step on constructed tracklets (docs/event-analytics.md «Связывание после трекера»):
 * people 40 × 100 px, 10 frames per second, a 768 × 576 picture.
 */
const FPS = 10;
const FRAME = { width: 768, height: 576 };
const person = (x: number, y: number): Box => ({ x1: x, y1: y, x2: x + 40, y2: y + 100 });
const unit = (...v: number[]) => {
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
};
const RED = unit(1, 0);
const BLUE = unit(0, 1);
/** Alike enough to red for a lost track to take it back near where it was (0.8 ≥ 0.75), not for linking (< 0.89). */
const PINK = unit(0.8, 0.6);

/** A tracklet seen on frames [from, to) at `at(f)`, one look all along. */
function tracklet(id: number, from: number, to: number, at: (f: number) => Box, look: Float32Array): Tracklet {
  const points: LinkPoint[] = [];
  for (let f = from; f < to; f++) {
    const box = at(f);
    points.push({ frame: f, time: f / FPS, box, score: 0.8, foot: { x: (box.x1 + box.x2) / 2, y: box.y2 } });
  }
  return { id, points, firstTime: from / FPS, lastTime: (to - 1) / FPS, head: look, tail: look };
}

/** Interpolation on (off by default): gaps up to 3 s. */
const GSI = { ...OFFLINE_DEFAULTS, interpolateSeconds: 3 };
const link = (tracks: Tracklet[]) => linkTracklets(tracks, OFFLINE_DEFAULTS, FRAME).map((t) => [t.id, t.points.length]);

describe('offline linking of tracklets (AFLink)', () => {
  it('links a person who walked behind the sign, and a second hiding twice, into one track each', () => {
    // A (red) walks right at 5 px a frame, hidden on frames 20–39 (2 s), seen again on its line.
    // C (blue) walks left elsewhere, hidden twice (frames 15–24 and 40–49).
    const a = (f: number) => person(100 + 5 * f, 200);
    const c = (f: number) => person(600 - 4 * f, 350);
    const tracks = [
      tracklet(1, 0, 20, a, RED),
      tracklet(2, 0, 15, c, BLUE),
      tracklet(3, 25, 40, c, BLUE),
      tracklet(4, 40, 60, a, RED),
      tracklet(5, 50, 70, c, BLUE),
    ];
    expect(link(tracks)).toEqual([
      [1, 40],
      [2, 50],
    ]);
    // Without appearance nothing is linked.
    expect(link(tracks.map((t) => ({ ...t, head: undefined, tail: undefined })))).toHaveLength(5);
  });

  it('does not link two people visible at once, however alike', () => {
    // Two people in red: the second appears on frame 15 while the first is still seen (to 19).
    const tracks = [tracklet(1, 0, 20, (f) => person(100 + 5 * f, 200), RED), tracklet(2, 15, 40, (f) => person(180 + 5 * f, 200), RED)];
    expect(link(tracks)).toHaveLength(2);
  });

  it('does not link across an impossible jump; a long gap only from edge to edge', () => {
    // Red ends at x 195 at 1.9 s; another red begins 0.7 s later 505 px away (5 heights: 0.7 s of
    // walking reaches 1.41 heights).
    const gone = tracklet(1, 0, 20, (f) => person(100 + 5 * f, 200), RED);
    expect(link([gone, tracklet(2, 26, 40, () => person(700, 200), RED)])).toHaveLength(2);
    // 10 s later in the middle of the picture 4 heights away: someone hidden there for 10 s walks at
    // most the 3 s a person stays hidden (0.5 + 1.3 × 3 = 4.4 heights), so 5 heights is too far, 3 is not.
    expect(link([gone, tracklet(2, 120, 140, () => person(700, 200), RED)])).toHaveLength(2);
    expect(link([gone, tracklet(2, 120, 140, () => person(500, 200), RED)])).toEqual([[1, 40]]);
    // Left at the left edge, back at the right edge (7.2 heights away): 2.1 s later too far (3.2
    // heights), 10 s later reachable (off the picture a person walks the whole gap); 8 s later back at
    // the left edge too.
    const left = tracklet(1, 0, 20, (f) => person(100 - 5 * f, 200), RED);
    expect(left.points.at(-1)!.box.x1).toBeLessThanOrEqual(25);
    expect(link([left, tracklet(2, 40, 60, () => person(728, 200), RED)])).toHaveLength(2);
    expect(link([left, tracklet(2, 120, 140, () => person(728, 200), RED)])).toEqual([[1, 40]]);
    expect(link([left, tracklet(2, 100, 120, () => person(0, 260), RED)])).toEqual([[1, 40]]);
    // Beyond linkSeconds (30 s): no link.
    expect(link([left, tracklet(2, 330, 340, () => person(0, 200), RED)])).toHaveLength(2);
  });

  it('does not link when two candidates are nearly as alike; links the clear one', () => {
    const gone = tracklet(1, 0, 20, (f) => person(100 + 5 * f, 200), RED);
    const near = (id: number, look: Float32Array, y: number) => tracklet(id, 30, 50, (f) => person(200 + 5 * (f - 30), y), look);
    // Two later tracklets look 0.995 and 0.99 like the red one: too close to tell, neither is linked.
    expect(link([gone, near(2, unit(1, 0.1), 200), near(3, unit(1, 0.14), 230)])).toHaveLength(3);
    // One red and one only 0.85 alike (0.15 apart): the red is linked.
    expect(link([gone, near(2, RED, 200), near(3, unit(1, 0.62), 230)])).toEqual([
      [1, 40],
      [3, 20],
    ]);
    // Below linkSimilarity (0.89): 0.876 alike, no link at all.
    expect(link([gone, near(2, unit(1, 0.55), 200)])).toHaveLength(2);
  });

  it('reachable: later, near enough for the time between', () => {
    const p = (t: number, x: number): LinkPoint => ({ frame: t * FPS, time: t, box: person(x, 200), score: 1, foot: { x: x + 20, y: 300 } });
    expect(reachable(p(1, 100), p(1, 100), OFFLINE_DEFAULTS)).toBe(false);
    expect(reachable(p(1, 100), p(2, 280), OFFLINE_DEFAULTS)).toBe(true);
    expect(reachable(p(1, 100), p(2, 281), OFFLINE_DEFAULTS)).toBe(false);
  });
});

describe('interpolation of gaps (GSI)', () => {
  it('fills a gap on a straight walk with the boxes of the walk, marked and scored 0', () => {
    const walk = (f: number) => person(100 + 5 * f, 200 + 2 * f);
    const whole = tracklet(1, 0, 60, walk, RED);
    // Frames 20–39 missing (2 s).
    const gapped = { ...whole, points: whole.points.filter((p) => p.frame < 20 || p.frame >= 40) };
    const filled = interpolateGaps(gapped, GSI, FPS, FPS);
    expect(filled.points.map((p) => p.frame)).toEqual(whole.points.map((p) => p.frame));
    for (const [i, p] of filled.points.entries()) {
      const want = whole.points[i]!;
      for (const k of ['x1', 'y1', 'x2', 'y2'] as const) expect(p.box[k]).toBeCloseTo(want.box[k], 6);
      expect(p.foot.y).toBeCloseTo(want.foot.y, 6);
      expect(p.interpolated ?? false).toBe(p.frame >= 20 && p.frame < 40);
      expect(p.score).toBe(p.interpolated ? 0 : 0.8);
    }
    // At 5 fps on a 10 fps video: every other video frame filled.
    const sampled = { ...whole, points: whole.points.filter((p) => p.frame % 2 === 0 && (p.frame < 20 || p.frame >= 40)) };
    expect(
      interpolateGaps(sampled, GSI, 5, FPS)
        .points.filter((p) => p.interpolated)
        .map((p) => p.frame),
    ).toEqual([20, 22, 24, 26, 28, 30, 32, 34, 36, 38]);
    // Off by default (interpolateSeconds 0); a gap longer than interpolateSeconds (3 s here) is not filled: the person was gone, not hidden.
    const long = { ...whole, points: whole.points.filter((p) => p.frame < 10 || p.frame >= 45) };
    expect(interpolateGaps(gapped, OFFLINE_DEFAULTS, FPS, FPS).points).toHaveLength(gapped.points.length);
    expect(interpolateGaps(long, GSI, FPS, FPS).points).toHaveLength(long.points.length);
  });

  it('finishTracks: the tracker’s pieces of one hidden walker become one filled track', () => {
    // The tracker itself: A (red) hidden 4 s behind something (longer than the 3 s a lost track waits,
    // so the tracker ends it), then seen again on its line; B (blue) walks by meanwhile.
    const tracker = new ByteTracker({ fps: FPS, reidSimilarity: 1.01, frameSize: FRAME });
    const a = (f: number) => person(100 + 3 * f, 200);
    for (let f = 0; f < 80; f++) {
      const seen = [{ box: person(600 - 4 * f, 380), score: 0.8, feature: BLUE }];
      if (f < 20 || f >= 60) seen.push({ box: a(f), score: 0.8, feature: RED });
      tracker.update(f, f / FPS, seen);
    }
    const pieces = tracker.tracks();
    expect(pieces).toHaveLength(3);
    const done = finishTracks(pieces, GSI, { fps: FPS, videoFps: FPS, frame: FRAME });
    expect(done.map((t) => t.points.length).sort()).toEqual([40, 80]);
    // The 4 s gap is longer than interpolateSeconds: A's track keeps its gap.
    expect(done.find((t) => t.points.length === 40)!.points.some((p) => p.interpolated)).toBe(false);
  });

  /** Track `id`: one piece, a bridge, another piece (as the tracker makes it when a lost track is taken back by its look). */
  function bridged(id: number, before: Tracklet, after: Tracklet): Tracklet {
    const bridges = [{ index: before.points.length, tail: before.tail!, head: after.head! }];
    return {
      id,
      points: [...before.points, ...after.points],
      firstTime: before.firstTime,
      lastTime: after.lastTime,
      head: before.head,
      tail: after.tail,
      bridges,
    };
  }
  const redecide = (tracks: Tracklet[]) => redecideBridges(tracks, OFFLINE_DEFAULTS, FRAME).map((t) => [t.id, t.points[0]!.frame, t.points.length]);

  it('re-decides a bridge: the person who stepped out at the edge gets their piece back, the newcomer a number of their own', () => {
    // A (red) walks right out of the picture (frames 0–19, at the right edge by the end); B (pink, like
    // red) comes in there on frame 30 and the lost track takes B; A walks back in on frame 40 (track 2).
    const a = tracklet(0, 0, 20, (f) => person(620 + 5 * f, 200), RED);
    const b = tracklet(0, 30, 80, (f) => person(720 - 4 * (f - 30), 170), PINK);
    const back = tracklet(2, 40, 80, (f) => person(720 - 5 * (f - 40), 200), RED);
    expect(redecide([bridged(1, a, b), back])).toEqual([
      [1, 0, 60],
      [3, 30, 50],
    ]);
  });

  it('keeps a bridge nothing contradicts, and gives way to a clear predecessor of the piece after it', () => {
    const a = tracklet(0, 0, 20, (f) => person(300 + 5 * f, 200), RED);
    const b = tracklet(0, 30, 60, (f) => person(400 + 5 * (f - 30), 200), PINK);
    // Alone: linking would not join pink to red (0.8 < 0.89), but the tracker's decision stands — one track, as it was.
    expect(redecide([bridged(1, a, b)])).toEqual([[1, 0, 50]]);
    // C (pink) ended on frame 24 near where B appears: C is B's clear predecessor, so A's piece stays alone.
    const c = tracklet(2, 0, 25, (f) => person(520 - 4 * f, 200), PINK);
    expect(redecide([bridged(1, a, b), c])).toEqual([
      [1, 0, 20],
      [2, 0, 55],
    ]);
  });

  it('finishTracks: the tracker marks a lost track taken back by its look alone, and the offline step undoes a wrong one', () => {
    const tracker = new ByteTracker({ fps: FPS, frameSize: FRAME });
    for (let f = 0; f < 80; f++) {
      const seen = [];
      if (f < 20) seen.push({ box: person(620 + 5 * f, 200), score: 0.8, feature: RED });
      if (f >= 30) seen.push({ box: person(720 - 4 * (f - 30), 170), score: 0.8, feature: PINK });
      if (f >= 40) seen.push({ box: person(720 - 5 * (f - 40), 200), score: 0.8, feature: RED });
      tracker.update(f, f / FPS, seen);
    }
    const online = tracker.tracks();
    // Online: track 1 took B on frame 30, beyond the IoU gate (a bridge); A back on frame 40 is track 2.
    expect(online.map((t) => [t.id, t.points[0]!.frame, t.points.length, t.bridges!.map((b) => t.points[b.index]!.frame)])).toEqual([
      [1, 0, 70, [30]],
      [2, 40, 40, []],
    ]);
    const done = finishTracks(online, OFFLINE_DEFAULTS, { fps: FPS, videoFps: FPS, frame: FRAME });
    expect(done.map((t) => [t.id, t.points[0]!.frame, t.points.length])).toEqual([
      [1, 0, 60],
      [3, 30, 50],
    ]);
    // Every point of A's track is A's (y 200), every point of B's is B's (y 170).
    expect(done[0]!.points.every((p) => p.box.y1 === 200)).toBe(true);
    expect(done[1]!.points.every((p) => p.box.y1 === 170)).toBe(true);
  });
});
