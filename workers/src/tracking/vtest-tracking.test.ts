import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VTEST_AVI, VTEST_MISSING, vtestFixture } from '../../../tests/support/vtest';
import { matchFrame, precisionRecall, type DetectionCounts } from '../vision/detection-metrics';
import { decodeFrames } from '../vision/frames';
import { moveNetModel, moveNetPeople } from '../vision/movenet';
import { MOVENET_COLUMNS, movenetInputSize } from '../vision/movenet-decode';
import { ByteTracker, TRACKER_DEFAULTS, type Detection, type Track } from './byte-tracker';
import { motRowsOfTracks, readMot, writeMot } from './mot-format';
import { motScores, type MotBox } from './mot-metrics';

/**
 * The tracker on real footage (issue 44, docs/event-analytics.md «Замер на vtest.avi»): MoveNet
 * multipose (two strips, 768×576, as the server runs it) on every frame of the first SPAN seconds
 * of vtest.avi (10 fps), the detections tracked at 10 and at 5 frames per second. Logged: tracks,
 * their mean length, and the run's speed against real time beside a bare decode of the same span.
 * Checked against hand labels: the boxes the tracker keeps on the labelled frames
 * (tests/fixtures/vtest-people.json, every 25th frame) — confirming tracks must not lose the
 * detector's people; and identities on the first hand-labelled stretch with identities
 * (workers/test-support/fixtures/vtest-tracks.mot, every 5th frame of the first 2.5 s; README
 * beside it) — the MOTA ≥ 0.85 and IDF1 ≥ 0.80 on the frames each rate samples. That
 * stretch is short (22 counted boxes, five people): a start, not yet the measure.
 */
/** Seconds tracked: the identity stretch and four of the detector's hand-labelled frames, in CI's time. */
const SPAN = 8;
const VIDEO_FPS = 10;
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The hand-labelled identities, frames as video frame indices (MOT frame − 1); «consider» 0 → ignore. */
function labelledTracks(): MotBox[] {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'test-support', 'fixtures', 'vtest-tracks.mot'), 'utf8');
  return readMot(text).map((r) => ({ frame: r.frame - 1, id: r.id, box: r.box, ignore: r.conf === 0 }));
}

function track(detections: Detection[][], every: number): { tracks: Track[]; ms: number } {
  const started = performance.now();
  const tracker = new ByteTracker({ fps: VIDEO_FPS / every });
  for (let f = 0; f < detections.length; f += every) tracker.update(f, f / VIDEO_FPS, detections[f]!);
  return { tracks: tracker.tracks(), ms: performance.now() - started };
}

describe.skipIf(VTEST_MISSING)('ByteTracker on MoveNet detections of vtest.avi', () => {
  it('tracks the first seconds at 10 and 5 fps, keeping the labelled people', async () => {
    const fixture = vtestFixture();
    const source = { width: fixture.width, height: fixture.height };
    const input = movenetInputSize(source.width, source.height);
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
    for (const rgb of frames) detections.push(await moveNetPeople(rgb, input, source, MOVENET_COLUMNS, TRACKER_DEFAULTS.lowScore));
    const detectMs = performance.now() - started;
    expect(decoded).toBe(SPAN * VIDEO_FPS);
    expect(detections).toHaveLength(SPAN * VIDEO_FPS);

    const report: Record<string, unknown> = {
      seconds: SPAN,
      bareDecodeXRealTime: round(SPAN / (decodeMs / 1000)),
      detectMsPerFrame: round(detectMs / frames.length, 0),
    };
    for (const every of [1, 2]) {
      const { tracks, ms } = track(detections, every);
      const fps = VIDEO_FPS / every;
      const lengths = tracks.map((t) => t.lastTime - t.firstTime + 1 / fps);
      // The whole job at this rate: decode + MoveNet on these frames + tracking.
      const jobSeconds = (decodeMs + detectMs / every + ms) / 1000;
      report[`${fps}fps`] = {
        tracks: tracks.length,
        meanTrackSeconds: round(lengths.reduce((s, l) => s + l, 0) / Math.max(1, tracks.length)),
        longerThan5s: lengths.filter((l) => l >= 5).length,
        trackerMsPerFrame: round(ms / (detections.length / every), 3),
        xRealTime: round(SPAN / jobSeconds),
      };
      expect(tracks.length).toBeGreaterThan(3);
      // Identities on the labelled frames this rate samples.
      const truth = labelledTracks().filter((b) => b.frame % every === 0);
      const frameSet = new Set(truth.map((b) => b.frame));
      const hyp = tracks.flatMap((t) => t.points.filter((p) => frameSet.has(p.frame)).map((p) => ({ frame: p.frame, id: t.id, box: p.box })));
      const mot = motScores(truth, hyp);
      (report[`${fps}fps`] as Record<string, unknown>).identities = {
        frames: frameSet.size,
        gt: mot.gt,
        mota: round(mot.mota, 3),
        idf1: round(mot.idf1, 3),
        idsw: mot.idsw,
        fn: mot.fn,
        fp: mot.fp,
      };
      expect(mot.gt).toBeGreaterThanOrEqual(every === 1 ? 20 : 10);
      expect(mot.mota).toBeGreaterThanOrEqual(0.85);
      expect(mot.idf1).toBeGreaterThanOrEqual(0.8);
      // The MOT text of the run reads back to the same boxes.
      const rows = motRowsOfTracks(tracks);
      expect(readMot(writeMot(rows)).length).toBe(rows.length);

      if (every === 1) {
        // The tracked boxes on the hand-labelled frames of the span.
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
    console.log(`Трекер на vtest.avi: ${JSON.stringify(report)}`);
  });
});
