import { describe, expect, it } from 'vitest';
import { ByteTracker, type Detection, type TrackerOptions } from './byte-tracker';
import { boxOf, initiate, measurementOf, predict, update, type Box } from './kalman';
import { motScores, type MotBox } from './mot-metrics';

/**
 * The tracker on synthetic scenes whose truth is known (docs/event-analytics.md «Трекер»):
 * people 40 × 100 px, 10 frames per second.
 */
const FPS = 10;
const person = (x: number, y: number): Box => ({ x1: x, y1: y, x2: x + 40, y2: y + 100 });
/** Two appearances that share nothing (similarity 0). */
const RED = Float32Array.from([1, 0]);
const BLUE = Float32Array.from([0, 1]);

/** Runs the tracker over `frames` frames; `scene(f)` gives each frame's detections with their true identities. */
function run(frames: number, scene: (f: number) => (Detection & { truth: number })[], options: Partial<TrackerOptions> = {}) {
  const tracker = new ByteTracker({ fps: FPS, ...options });
  const gt: MotBox[] = [];
  for (let f = 0; f < frames; f++) {
    const detections = scene(f);
    for (const d of detections) if (d.truth > 0) gt.push({ frame: f, id: d.truth, box: d.box });
    tracker.update(f, f / FPS, detections);
  }
  const tracks = tracker.tracks();
  const hyp = tracks.flatMap((t) => t.points.map((p) => ({ frame: p.frame, id: t.id, box: p.box })));
  return { tracks, scores: motScores(gt, hyp) };
}

describe('Kalman filter (constant velocity on centre, aspect, height)', () => {
  it('learns a steady motion and predicts it', () => {
    let state = initiate(measurementOf(person(0, 0)));
    for (let f = 1; f <= 10; f++) state = update(predict(state), measurementOf(person(10 * f, 5 * f)));
    const next = boxOf(predict(state).mean);
    // After ten steps of (+10, +5) px the prediction for step 11 is within a pixel of (110, 55)
    // (standing still would say (100, 50)).
    expect(Math.abs(next.x1 - 110)).toBeLessThan(1);
    expect(Math.abs(next.y1 - 55)).toBeLessThan(1);
    expect(next.y2 - next.y1).toBeCloseTo(100, 3);
    expect(next.x2 - next.x1).toBeCloseTo(40, 3);
  });
});

describe('ByteTracker on synthetic scenes', () => {
  it('keeps two people apart through a crossing with a few hidden frames', () => {
    // A walks right at y 100, B walks left at y 130 (B nearer the camera, in front). They meet near
    // frame 20: A is half hidden on frames 18–19 (low score 0.12) and not detected at all on 20–22.
    const scene = (f: number) => {
      const out: (Detection & { truth: number })[] = [{ box: person(500 - 10 * f, 130), score: 0.8, truth: 2 }];
      if (f < 18 || f > 22) out.push({ box: person(100 + 10 * f, 100), score: 0.8, truth: 1 });
      else if (f < 20) out.push({ box: person(100 + 10 * f, 100), score: 0.12, truth: 1 });
      return out;
    };
    const { tracks, scores } = run(41, scene);
    expect(tracks).toHaveLength(2);
    expect(scores.idsw).toBe(0);
    // Every true box is matched, the three hidden frames were never in the truth: MOTA = IDF1 = 1.
    expect(scores.mota).toBe(1);
    expect(scores.idf1).toBe(1);
    // A's low-score frames went into A's track (the second association), not into a new one.
    const a = tracks.find((t) => t.points[0]!.box.x1 === 100)!;
    expect(a.points.filter((p) => p.score === 0.12).map((p) => p.frame)).toEqual([18, 19]);
    expect(a.points.map((p) => p.frame)).not.toContain(21);
    expect([a.firstTime, a.lastTime]).toEqual([0, 4]);

    // Without the second stage (low-score boxes ignored) A is still recovered after the gap, but
    // its half-hidden frames are lost: two misses more.
    const firstOnly = run(41, scene, { lowScore: 0.2 });
    expect(firstOnly.scores.idsw).toBe(0);
    expect(firstOnly.scores.fn).toBe(2);
  });

  it('keeps a person standing still with jitter and a short dropout as one track, foot at the bottom centre', () => {
    const jitter = [0, 1, -1, 2, 0, -2, 1, 0, -1, 1];
    const scene = (f: number) => (f >= 10 && f <= 14 ? [] : [{ box: person(300 + jitter[f % 10]!, 200 - jitter[(f + 3) % 10]!), score: 0.6, truth: 1 }]);
    const { tracks, scores } = run(40, scene);
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.points).toHaveLength(35);
    expect(scores).toMatchObject({ idsw: 0, fn: 0, fp: 0 });
    const p = tracks[0]!.points[0]!;
    expect(p.foot).toEqual({ x: (p.box.x1 + p.box.x2) / 2, y: p.box.y2 });
  });

  it('gives a person entering and leaving one track with their lifetime; a one-frame ghost never becomes a track', () => {
    // The person walks in at frame 5 and out after frame 24; a false box flashes on frame 30.
    const scene = (f: number) => [
      ...(f >= 5 && f <= 24 ? [{ box: person(20 * (f - 5), 50), score: 0.7, truth: 1 }] : []),
      ...(f === 30 ? [{ box: person(600, 300), score: 0.9, truth: 0 }] : []),
    ];
    const { tracks } = run(60, scene);
    expect(tracks).toHaveLength(1);
    expect(tracks[0]!.points).toHaveLength(20);
    expect([tracks[0]!.firstTime, tracks[0]!.lastTime]).toEqual([0.5, 2.4]);
  });

  it('ends a track lost for longer than the buffer: the same place later is a new person', () => {
    // Gone on frames 10–24: 15 frames, longer than a 1 s (10 frames) buffer.
    const scene = (f: number) => (f >= 10 && f < 25 ? [] : [{ box: person(300, 200), score: 0.7, truth: f < 10 ? 1 : 2 }]);
    const { tracks, scores } = run(40, scene, { lostSeconds: 1 });
    expect(tracks.map((t) => [t.id, t.points.length, t.firstTime, t.lastTime])).toEqual([
      [1, 10, 0, 0.9],
      [2, 15, 2.5, 3.9],
    ]);
    expect(scores.idsw).toBe(0);
    // The same gap within a 2-second buffer, or the default 3 s, keeps the identity (the person just stood hidden).
    expect(run(40, scene, { lostSeconds: 2 }).tracks).toHaveLength(1);
    expect(run(40, scene).tracks).toHaveLength(1);
  });

  it('confirms a track only after confirmFrames consecutive matches, keeping its first boxes', () => {
    const scene = (f: number) => (f < 2 || f >= 4 ? [{ box: person(10 * f, 0), score: 0.9, truth: f < 2 ? 1 : 2 }] : []);
    // Frames 0–1 (two matches) — confirmed with three; 4–9 — confirmed, with its first two boxes.
    const { tracks } = run(10, scene, { confirmFrames: 3 });
    expect(tracks.map((t) => t.points.map((p) => p.frame))).toEqual([[4, 5, 6, 7, 8, 9]]);
    expect(() => new ByteTracker({ fps: 0 })).toThrow('частота кадров');
    const tracker = new ByteTracker({ fps: FPS });
    tracker.update(3, 0.3, []);
    expect(() => tracker.update(3, 0.3, [])).toThrow('не позже предыдущего');
  });

  it('keeps two people who meet and turn back apart by their appearance, where IoU alone swaps them', () => {
    // A (red) walks right, B (blue) walks left on the same line; they meet at frame 12 (one box
    // over the other), then each turns back. The filter expects each to go on: by IoU alone the
    // tracks swap people; with appearance each keeps its own.
    const at = (f: number, sign: number) => person(300 + sign * 8 * Math.abs(f - 12), 100);
    const scene = (colours: boolean) => (f: number) => [
      { box: at(f, -1), score: 0.8, truth: 1, ...(colours ? { feature: RED } : {}) },
      { box: at(f, 1), score: 0.8, truth: 2, ...(colours ? { feature: BLUE } : {}) },
    ];
    const plain = run(30, scene(false));
    expect(plain.scores.idsw).toBeGreaterThan(0);
    const seen = run(30, scene(true));
    expect(seen.tracks).toHaveLength(2);
    expect(seen.scores).toMatchObject({ idsw: 0, mota: 1, idf1: 1 });
  });

  it('re-identifies a person who left and came back by appearance; someone else, or too late, is a new track', () => {
    // A (red) on frames 0–19, gone 5 s (longer than the 3 s a lost track waits), back on 70–89 a
    // little further; C (blue) appears where A was on frames 40–59.
    const scene = (back: number, colour: Float32Array) => (f: number) => [
      ...(f < 20 ? [{ box: person(100 + 5 * f, 100), score: 0.8, truth: 1, feature: RED }] : []),
      ...(f >= 40 && f < 60 ? [{ box: person(200, 100), score: 0.8, truth: 3, feature: BLUE }] : []),
      ...(f >= back && f < back + 20 ? [{ box: person(260, 110), score: 0.8, truth: 1, feature: colour }] : []),
    ];
    const { tracks, scores } = run(100, scene(70, RED));
    // A's two stretches are one track (id 1, 40 points); C is its own.
    expect(tracks.map((t) => [t.id, t.points.length])).toEqual([
      [1, 40],
      [2, 20],
    ]);
    expect(scores.idf1).toBe(1);
    // Someone in blue coming back is not A: A's track keeps its 20 points (the newcomer looks like C,
    // who ended at frame 59, and is taken for C).
    const blue = run(100, scene(70, BLUE)).tracks;
    expect(blue.find((t) => t.id === 1)!.points).toHaveLength(20);
    // Beyond reidSeconds A is a new track.
    expect(run(100, scene(70, RED), { reidSeconds: 4 }).tracks).toHaveLength(3);
    // With re-identification off A's return is a new track.
    expect(run(100, scene(70, RED), { reidSimilarity: 1.01 }).tracks).toHaveLength(3);
  });

  it('re-identifies only where the person could have walked, and not when two candidates look nearly the same', () => {
    // A (red) walks right on frames 0–19 and is gone; a person in red appears 1.1 s later 4 heights
    // away (walking reaches 1.9): someone else, a new track.
    const jump = (f: number) => [
      ...(f < 20 ? [{ box: person(100 + 5 * f, 100), score: 0.8, truth: 1, feature: RED }] : []),
      ...(f >= 30 && f < 50 ? [{ box: person(600, 100), score: 0.8, truth: 2, feature: RED }] : []),
    ];
    expect(run(50, jump).tracks.map((t) => t.id)).toEqual([1, 2]);
    // A (red) and B (0.995 alike) walk side by side on frames 0–19 and are gone; 4 s later a person
    // in red appears near both: too close to tell, a new track; with A alone it is A again.
    const alike = Float32Array.from([1, 0.1].map((v) => v / Math.hypot(1, 0.1)));
    const pair = (withB: boolean) => (f: number) => [
      ...(f < 20 ? [{ box: person(100 + 5 * f, 100), score: 0.8, truth: 1, feature: RED }] : []),
      ...(withB && f < 20 ? [{ box: person(100 + 5 * f, 230), score: 0.8, truth: 2, feature: alike }] : []),
      ...(f >= 60 && f < 80 ? [{ box: person(230, 160), score: 0.8, truth: 1, feature: RED }] : []),
    ];
    expect(run(80, pair(true)).tracks.map((t) => [t.id, t.points.length])).toEqual([
      [1, 20],
      [2, 20],
      [3, 20],
    ]);
    expect(run(80, pair(false)).tracks.map((t) => [t.id, t.points.length])).toEqual([[1, 40]]);
  });

  it('coasts over frames without detection: tracks keep their numbers; detection is asked for where people come close', () => {
    const tracker = new ByteTracker({ fps: FPS });
    // A walks right, B left, 500 px apart at first; they pass each other at frame 25.
    const a = (f: number) => person(100 + 10 * f, 100);
    const b = (f: number) => person(600 - 10 * f, 100);
    const both = (f: number) => [
      { box: a(f), score: 0.8, feature: RED },
      { box: b(f), score: 0.8, feature: BLUE },
    ];
    tracker.update(0, 0, both(0));
    // Unconfirmed tracks need the next frame.
    expect(tracker.needsDetection()).toBe(true);
    tracker.update(1, 0.1, both(1));
    expect(tracker.needsDetection()).toBe(false);
    // Every other frame detected, and every frame where their boxes (widened by a quarter of the
    // height) come to overlap: from frame 21 (a gap under 50 px) until they are apart again.
    for (let f = 2; f < 30; f++) {
      if (f % 2 === 0 || tracker.needsDetection()) tracker.update(f, f / FPS, both(f));
      else tracker.coast(f);
    }
    const tracks = tracker.tracks();
    expect(tracks).toHaveLength(2);
    const frames = tracks[0]!.points.map((p) => p.frame);
    expect(tracks[1]!.points.map((p) => p.frame)).toEqual(frames);
    expect(frames.filter((f) => f % 2 === 1)).toEqual([1, 21, 23, 25, 27, 29]);
    // Each track is one person all along: A's boxes only move right.
    const xs = tracks.map((t) => t.points.map((p) => p.box.x1));
    expect(xs.map((x) => x.every((v, i) => i === 0 || v > x[i - 1]!)).sort()).toEqual([false, true]);
    expect(xs.map((x) => x.every((v, i) => i === 0 || v < x[i - 1]!)).sort()).toEqual([false, true]);
    expect(() => tracker.coast(29)).toThrow('не позже предыдущего');
  });
});
