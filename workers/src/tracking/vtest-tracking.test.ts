import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VTEST_AVI, VTEST_MISSING, vtestFixture, vtestFrames } from '../../../tests/support/vtest';
import { withAppearance } from '../../test-support/vtest-appearance';
import { vtestDetections, vtestDetectorSettings } from '../../test-support/vtest-detections';
import { differentPeopleSimilarity, differentTrackSimilarity, TUNED_FRAMES } from '../../test-support/vtest-tuning';
import { matchFrame, precisionRecall, type DetectionCounts } from '../vision/detection-metrics';
import { decodeFrames } from '../vision/frames';
import { iou } from '../vision/movenet-decode';
import { moveNetModel, moveNetPeople } from '../vision/movenet';
import { appearanceOf, scaleBox } from './appearance';
import { ByteTracker, TRACKER_DEFAULTS, type Detection, type Track } from './byte-tracker';
import { motRowsOfTracks, readMot, writeMot } from './mot-format';
import { finishTracks } from './offline';
import { motScores, type MotBox } from './mot-metrics';

/**
 * The tracker on real footage (issue 44, docs/event-analytics.md «Замер на vtest.avi»).
 *
 * Whole clip, fast: MoveNet's people on every frame of vtest.avi (795 frames, 10 fps), recorded in
 * workers/test-support/fixtures/vtest-detections.json (the same detector and settings as the
 * server), each person's appearance taken from the decoded clip (test-support/vtest-appearance.ts,
 * as the job takes it from the frame it detected on), tracked at 10 and at 5 frames per second —
 * and, to show what appearance brings, by IoU alone (plain ByteTrack) — and scored against the hand-labelled identities
 * of every 10th frame of the whole clip (workers/test-support/fixtures/vtest-tracks.mot, README
 * beside it) — on the labelled frames only: the hypotheses are the tracks' boxes on those frames.
 * The first 20 s (where TRACKER_DEFAULTS were tuned) and the rest (held out, never tuned on) are
 * reported apart; the issue's targets that are met (ISSUE) and what the tracker reaches (REACHED)
 * are asserted on the whole clip and on the held-out part. The tracks are the job's: the online
 * tracker, then the offline step (offline.ts finishTracks); the online tracker's own are printed too.
 *
 * The record cannot go stale silently: the detector is re-run on three frames and must give the
 * same people. Slow path: the real detector on every frame of the first seconds, tracked.
 */
const VIDEO_FPS = 10;
/**
 * Floors of what the tracker with appearance and the offline step reaches on the whole clip and on
 * the held-out part, per sampling step (1: 10 fps, 2: 5 fps); measured 29.11.2026, late evening
 * (docs/event-analytics.md «Замер»), after the truth's swapped labels on frame 350 were corrected and
 * the offline step re-decides the tracker's appearance-only bridges: no switch on the whole clip at
 * either rate, MOTA ≥ 0.96, IDF1 ≥ 0.95. Floors: the issue's ≤ 2 switches a minute, MOTA and IDF1 0.9.
 * The held-out part was looked at in this and earlier sessions: its figures are an upper estimate.
 */
const REACHED: Record<number, { mota: number; idf1: number; idswPerMinute: number }> = {
  1: { mota: 0.9, idf1: 0.9, idswPerMinute: 2 },
  2: { mota: 0.9, idf1: 0.9, idswPerMinute: 2 },
};
/** The issue's targets on the whole clip (issue 44): MOTA, IDF1, identity switches a minute, distinct visitors within ±1 of the truth. */
const ISSUE = { mota: 0.85, idf1: 0.8, idswPerMinute: 2, visitorsOff: 1 };
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The hand-labelled identities, frames as video frame indices (MOT frame − 1); «consider» 0 → ignore. */
function labelledTracks(): MotBox[] {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'test-support', 'fixtures', 'vtest-tracks.mot'), 'utf8');
  return readMot(text).map((r) => ({ frame: r.frame - 1, id: r.id, box: r.box, ignore: r.conf === 0 }));
}

const FRAME = { width: 768, height: 576 };

/**
 * `every`-th frame tracked as the tracking job does it: the online tracker, then the offline step
 * (offline.ts finishTracks: tracklets of one person joined); `online` — the tracker's own tracks
 * before that step; `iouOnly`: the detections' appearance left out and no offline step (plain ByteTrack).
 */
function track(detections: Detection[][], every: number, iouOnly = false): { tracks: Track[]; online: Track[]; ms: number; offlineMs: number } {
  const started = performance.now();
  const fps = VIDEO_FPS / every;
  const tracker = new ByteTracker({ fps, frameSize: FRAME });
  for (let f = 0; f < detections.length; f += every) {
    tracker.update(f, f / VIDEO_FPS, iouOnly ? detections[f]!.map((d) => ({ box: d.box, score: d.score })) : detections[f]!);
  }
  const online = tracker.tracks();
  const linked = performance.now();
  const tracks = iouOnly ? online : finishTracks(online, TRACKER_DEFAULTS, { fps, videoFps: VIDEO_FPS, frame: FRAME });
  return { tracks, online, ms: performance.now() - started, offlineMs: performance.now() - linked };
}

/**
 * Tracked at `fps` (any rate, not only a divisor of the video's) as the job samples: the k-th sampled
 * picture at k / fps seconds is the video frame nearest that moment (ffmpeg's fps filter), its number
 * round(t · video fps); then the offline step.
 */
function trackAtRate(detections: Detection[][], fps: number): Track[] {
  const tracker = new ByteTracker({ fps, frameSize: FRAME });
  for (let k = 0; Math.round((k * VIDEO_FPS) / fps) < detections.length; k++) {
    const frame = Math.round((k * VIDEO_FPS) / fps);
    tracker.update(frame, k / fps, detections[frame]!);
  }
  return finishTracks(tracker.tracks(), TRACKER_DEFAULTS, { fps, videoFps: VIDEO_FPS, frame: FRAME });
}

/** Tracks' boxes on the given frames (as MOT hypotheses). */
function hypotheses(tracks: Track[], frames: Set<number>): MotBox[] {
  return tracks.flatMap((t) => t.points.filter((p) => frames.has(p.frame)).map((p) => ({ frame: p.frame, id: t.id, box: p.box })));
}

/** Identity scores on the labelled frames in [from, to) (video frames), ID switches per minute of that span. */
function scoresOn(truth: MotBox[], tracks: Track[], from: number, to: number) {
  const gt = truth.filter((b) => b.frame >= from && b.frame < to);
  const frames = new Set(gt.map((b) => b.frame));
  const mot = motScores(gt, hypotheses(tracks, frames));
  const minutes = (to - from) / VIDEO_FPS / 60;
  const people = new Set(gt.filter((b) => !b.ignore).map((b) => b.id)).size;
  // Visitors the tracker counts in the span: tracks with a box on one of its labelled frames.
  const visitors = new Set(hypotheses(tracks, frames).map((b) => b.id)).size;
  return {
    frames: frames.size,
    gt: mot.gt,
    mota: round(mot.mota, 3),
    idf1: round(mot.idf1, 3),
    idsw: mot.idsw,
    idswPerMinute: round(mot.idsw / minutes, 2),
    fn: mot.fn,
    fp: mot.fp,
    people,
    visitors,
  };
}

describe.skipIf(VTEST_MISSING)('ByteTracker on MoveNet detections of vtest.avi', () => {
  it('the recorded detections are what MoveNet finds now (three frames re-run)', async () => {
    const recorded = vtestDetections();
    expect(recorded.frames).toHaveLength(795);
    const s = vtestDetectorSettings(768, 576);
    expect(recorded.columns).toBe(s.columns);
    expect(recorded.minScore).toBe(s.minScore);
    await moveNetModel();
    const checked = [0, 400, 790];
    const pictures = await vtestFrames(checked, s.input.width, s.input.height);
    for (const [i, frame] of checked.entries()) {
      const now = await moveNetPeople(pictures[i]!, s.input, s.source, s.columns, s.minScore);
      const before = recorded.frames[frame]!;
      expect(now.length, `кадр ${frame}`).toBe(before.length);
      for (const p of now) {
        const best = Math.max(...before.map((d) => iou(p.box, d.box)));
        expect(best, `кадр ${frame}`).toBeGreaterThanOrEqual(0.95);
      }
    }
  });

  it('tracks the whole clip from the recorded detections at 10 and 5 fps: identities on the labelled frames', async () => {
    const recorded = vtestDetections();
    const detections = await withAppearance(VTEST_AVI, recorded.frames, 768, 576, VIDEO_FPS);
    expect(detections.flat().filter((d) => d.feature).length).toBe(detections.flat().length);
    const truth = labelledTracks();
    const report: Record<string, unknown> = { labelledFrames: new Set(truth.map((b) => b.frame)).size, labelledBoxes: truth.filter((b) => !b.ignore).length };
    // The similarity limits follow their rule on the first 20 s (docs/event-analytics.md «Трекер»),
    // each on the quantity it compares: taking a lost track back near where it was near 99 % of
    // different people's box pairs (measured 0.769, the limit 0.75); re-identification and offline
    // linking near 99.9 % of different people's track pairs (measured 0.871 / 0.867 and 0.891 / 0.882
    // at 10 / 5 fps; the limits 0.87 and 0.89).
    const different = differentPeopleSimilarity(detections, truth);
    expect(Math.abs(TRACKER_DEFAULTS.recoverSimilarity - different(0.99))).toBeLessThanOrEqual(0.03);
    for (const every of [1, 2]) {
      const tracksApart = differentTrackSimilarity(detections, every);
      expect(Math.abs(TRACKER_DEFAULTS.reidSimilarity - tracksApart.reid(0.999))).toBeLessThanOrEqual(0.03);
      expect(Math.abs(TRACKER_DEFAULTS.linkSimilarity - tracksApart.link(0.999))).toBeLessThanOrEqual(0.03);
    }
    for (const every of [1, 2]) {
      const { tracks, online, ms, offlineMs } = track(detections, every);
      const whole = scoresOn(truth, tracks, 0, detections.length);
      const tuned = scoresOn(truth, tracks, 0, TUNED_FRAMES);
      const heldOut = scoresOn(truth, tracks, TUNED_FRAMES, detections.length);
      // The two halves of the clip apart (frames 0–397, 398–794): a change fitted to one half would show on the other.
      const half = Math.ceil(detections.length / 2);
      const halves = [scoresOn(truth, tracks, 0, half), scoresOn(truth, tracks, half, detections.length)];
      const iouOnly = track(detections, every, true).tracks;
      const plain = { whole: scoresOn(truth, iouOnly, 0, detections.length), heldOut: scoresOn(truth, iouOnly, TUNED_FRAMES, detections.length) };
      report[`${VIDEO_FPS / every}fps`] = {
        tracks: tracks.length,
        trackerMsPerFrame: round(ms / (detections.length / every), 3),
        offlineMs: round(offlineMs, 1),
        whole,
        first20s: tuned,
        heldOut,
        halves,
        // The online tracker alone, before the offline step.
        online: {
          whole: scoresOn(truth, online, 0, detections.length),
          first20s: scoresOn(truth, online, 0, TUNED_FRAMES),
          heldOut: scoresOn(truth, online, TUNED_FRAMES, detections.length),
          halves: [scoresOn(truth, online, 0, half), scoresOn(truth, online, half, detections.length)],
        },
        iouOnly: plain,
      };
      expect(whole.gt).toBe(463);
      expect(whole.people).toBe(18);
      // The issue's targets on the whole clip: MOTA ≥ 0.85, IDF1 ≥ 0.80, ≤ 2 switches a minute, visitors ±1.
      expect(whole.mota).toBeGreaterThanOrEqual(ISSUE.mota);
      expect(whole.idf1).toBeGreaterThanOrEqual(ISSUE.idf1);
      expect(whole.idswPerMinute).toBeLessThanOrEqual(ISSUE.idswPerMinute);
      expect(Math.abs(whole.visitors - whole.people)).toBeLessThanOrEqual(ISSUE.visitorsOff);
      const floor = REACHED[every]!;
      for (const s of [whole, heldOut]) {
        expect(s.mota).toBeGreaterThanOrEqual(floor.mota);
        expect(s.idf1).toBeGreaterThanOrEqual(floor.idf1);
        expect(s.idswPerMinute).toBeLessThanOrEqual(floor.idswPerMinute);
        expect(s.fp).toBe(0);
      }
      // Appearance is what keeps the numbers: by IoU alone the same detections switch more and
      // count more visitors, on the held-out part too (measured: 10 fps 4 switches and 18 visitors
      // held out, 5 fps 11 and 26 — with the defaults' first-stage IoU gate).
      expect(heldOut.idsw).toBeLessThan(plain.heldOut.idsw);
      expect(plain.whole.visitors - plain.whole.people).toBeGreaterThan(whole.visitors - whole.people);
      // The MOT text of the run reads back to the same boxes.
      const rows = motRowsOfTracks(tracks);
      expect(readMot(writeMot(rows)).length).toBe(rows.length);
    }
    console.log(`Трекер на всём vtest.avi (записанные детекции): ${JSON.stringify(report)}`);
  });

  it('at 4 fps (a fifth less MoveNet than 5 fps) keeps MOTA, IDF1 and the visitors, every labelled frame sampled', async () => {
    // docs/event-analytics.md «Скорость»: at 4 fps every labelled frame (each whole second) is a sampled
    // one, so the scores compare with 5 and 10 fps on the same boxes.
    const recorded = vtestDetections();
    const detections = await withAppearance(VTEST_AVI, recorded.frames, 768, 576, VIDEO_FPS);
    const truth = labelledTracks();
    const tracks = trackAtRate(detections, 4);
    const whole = scoresOn(truth, tracks, 0, detections.length);
    const heldOut = scoresOn(truth, tracks, TUNED_FRAMES, detections.length);
    console.log(`Трекер на всём vtest.avi при 4 кадр/с: ${JSON.stringify({ whole, first20s: scoresOn(truth, tracks, 0, TUNED_FRAMES), heldOut })}`);
    expect(whole.frames).toBe(80);
    expect(whole.gt).toBe(463);
    // Measured 30.11.2026: MOTA 0.946, IDF1 0.833, 17 visitors of 18 — but 7 switches (5.3 a minute, the
    // issue allows 2): 4 fps is no margin, the job stays at 5 (docs/event-analytics.md «Скорость»).
    expect(whole.mota).toBeGreaterThanOrEqual(ISSUE.mota);
    expect(whole.idf1).toBeGreaterThanOrEqual(ISSUE.idf1);
    expect(Math.abs(whole.visitors - whole.people)).toBeLessThanOrEqual(ISSUE.visitorsOff);
  });

  /**
   * The clip's people as MoveNet found them at `width` (fixtures/vtest-detections-{width}.json), their
   * colours from the picture the job would decode at that size, tracked as the job tracks them at 10
   * and 5 fps and scored on the same labelled frames (docs/event-analytics.md «Запас скорости»).
   */
  async function scoredAtWidth(width: number) {
    const recorded = vtestDetections(width);
    expect(recorded.inputWidth).toBe(width);
    expect(recorded.frames).toHaveLength(795);
    const input = vtestDetectorSettings(768, 576, width).input;
    const detections = await withAppearance(VTEST_AVI, recorded.frames, 768, 576, VIDEO_FPS, input);
    const truth = labelledTracks();
    const report: Record<string, unknown> = { input };
    const scored = [1, 2].map((every) => {
      const { tracks, online } = track(detections, every);
      const whole = scoresOn(truth, tracks, 0, detections.length);
      report[`${VIDEO_FPS / every}fps`] = {
        whole,
        first20s: scoresOn(truth, tracks, 0, TUNED_FRAMES),
        heldOut: scoresOn(truth, tracks, TUNED_FRAMES, detections.length),
        online: scoresOn(truth, online, 0, detections.length),
      };
      expect(whole.gt).toBe(463);
      return whole;
    });
    console.log(`Трекер на всём vtest.avi, MoveNet ${width} (записанные детекции): ${JSON.stringify(report)}`);
    return scored;
  }

  it('with MoveNet at 640 (about 0.7 of its cost) keeps MOTA, IDF1 and the visitors: the recorded 640 detections at 5 and 10 fps', async () => {
    const scored = await scoredAtWidth(640);
    // Measured 30.11.2026: 10 fps MOTA 0.952, IDF1 0.946, 3 switches (2.3 a minute); 5 fps 0.948, 0.849,
    // 5 switches (3.8 a minute) — above the issue's 2 a minute at both rates (768: none): 640 is no margin.
    for (const whole of scored) {
      expect(whole.mota).toBeGreaterThanOrEqual(ISSUE.mota);
      expect(whole.idf1).toBeGreaterThanOrEqual(ISSUE.idf1);
      expect(Math.abs(whole.visitors - whole.people)).toBeLessThanOrEqual(ISSUE.visitorsOff);
    }
  });

  it('with MoveNet at 704 (about 0.88 of its cost) keeps MOTA and IDF1 at 5 and 10 fps, the switches and visitors only at 10', async () => {
    const scored = await scoredAtWidth(704);
    // Measured 30.11.2026: 10 fps MOTA 0.965, IDF1 0.955, 1 switch, 17 visitors of 18 — the targets; but at
    // the job's 5 fps 0.959, 0.934, 3 switches (2.3 a minute) and 16 visitors of 18 — two targets missed
    // (768: none, 17): 704 is no margin at 5 fps, and 10 fps costs twice the detector.
    for (const whole of scored) {
      expect(whole.mota).toBeGreaterThanOrEqual(ISSUE.mota);
      expect(whole.idf1).toBeGreaterThanOrEqual(ISSUE.idf1);
    }
    const [tenFps] = scored;
    expect(tenFps!.idswPerMinute).toBeLessThanOrEqual(ISSUE.idswPerMinute);
    expect(Math.abs(tenFps!.visitors - tenFps!.people)).toBeLessThanOrEqual(ISSUE.visitorsOff);
  });

  it('runs MoveNet and the tracker on the first seconds, keeping the labelled people', async () => {
    // Seconds run through the real detector: four of the detector's hand-labelled frames, in CI's time.
    const SPAN = 8;
    const fixture = vtestFixture();
    const source = { width: fixture.width, height: fixture.height };
    const input = vtestDetectorSettings(source.width, source.height).input;
    const sampling = { startSecond: 0, endSecond: SPAN, fps: VIDEO_FPS, width: input.width, height: input.height, pixelFormat: 'rgb24' as const, source };
    await moveNetModel();

    let started = performance.now();
    const decoded = await decodeFrames(VTEST_AVI, sampling, () => {});
    const decodeMs = performance.now() - started;

    // Detections down to the second stage's floor (lowScore), not only the detector's usual 0.16.
    const frames: Uint8Array[] = [];
    await decodeFrames(VTEST_AVI, sampling, (f) => void frames.push(f.slice()));
    started = performance.now();
    const detections: Detection[][] = [];
    for (const rgb of frames) {
      const people = await moveNetPeople(rgb, input, source, undefined, TRACKER_DEFAULTS.lowScore);
      const picture = { rgb, width: input.width, height: input.height };
      detections.push(people.map((p) => ({ box: p.box, score: p.score, feature: appearanceOf(picture, scaleBox(p.box, source, input)) ?? undefined })));
    }
    const detectMs = performance.now() - started;
    expect(decoded).toBe(SPAN * VIDEO_FPS);
    expect(detections).toHaveLength(SPAN * VIDEO_FPS);

    const report: Record<string, unknown> = {
      seconds: SPAN,
      bareDecodeXRealTime: round(SPAN / (decodeMs / 1000)),
      detectMsPerFrame: round(detectMs / frames.length, 0),
    };
    const truth = labelledTracks();
    for (const every of [1, 2]) {
      const { tracks, ms } = track(detections, every);
      const fps = VIDEO_FPS / every;
      const lengths = tracks.map((t) => t.lastTime - t.firstTime + 1 / fps);
      // The whole job at this rate: decode + MoveNet on these frames + tracking.
      const jobSeconds = (decodeMs + detectMs / every + ms) / 1000;
      const identities = scoresOn(truth, tracks, 0, SPAN * VIDEO_FPS);
      report[`${fps}fps`] = {
        tracks: tracks.length,
        meanTrackSeconds: round(lengths.reduce((s, l) => s + l, 0) / Math.max(1, tracks.length)),
        trackerMsPerFrame: round(ms / (detections.length / every), 3),
        xRealTime: round(SPAN / jobSeconds),
        identities,
      };
      expect(tracks.length).toBeGreaterThan(3);
      // 38 counted boxes on 8 labelled frames, among them the three men crossing at the sign post
      // (frames 20–60): measured with appearance MOTA 0.947 and IDF1 0.973 at both rates, no
      // switch (before appearance: MOTA 0.789, IDF1 0.778 at 10 fps and 0.750 at 5 fps).
      expect(identities.gt).toBe(38);
      expect(identities.mota).toBeGreaterThanOrEqual(0.9);
      expect(identities.idf1).toBeGreaterThanOrEqual(0.9);
      expect(identities.idsw).toBe(0);

      if (every === 1) {
        // The tracked boxes on the detector's hand-labelled frames of the span (tests/fixtures/vtest-people.json).
        const counts: DetectionCounts[] = [];
        for (const labelled of fixture.frames.filter((f) => f.frame < SPAN * VIDEO_FPS)) {
          const boxes = tracks.flatMap((t) => t.points.filter((p) => p.frame === labelled.frame).map((p) => ({ box: p.box, score: p.score })));
          counts.push(matchFrame(labelled.people, boxes));
        }
        const pr = precisionRecall(counts);
        report.labelledFrames = { frames: counts.length, people: pr.people, precision: round(pr.precision, 3), recall: round(pr.recall, 3) };
        expect(pr.people).toBeGreaterThanOrEqual(15);
        expect(pr.precision).toBeGreaterThanOrEqual(0.9);
        expect(pr.recall).toBeGreaterThanOrEqual(0.9);
      }
    }
    console.log(`Трекер на vtest.avi (MoveNet на первых секундах): ${JSON.stringify(report)}`);
  });
});
