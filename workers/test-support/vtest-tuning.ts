import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { similarity } from '../src/tracking/appearance';
import { ByteTracker, type Detection, type TrackerOptions } from '../src/tracking/byte-tracker';
import { readMot } from '../src/tracking/mot-format';
import { motScores, type MotBox } from '../src/tracking/mot-metrics';
import { iou } from '../src/vision/movenet-decode';
import { withAppearance } from './vtest-appearance';
import { vtestDetections } from './vtest-detections';

/**
 * How TRACKER_DEFAULTS' appearance settings were chosen (docs/event-analytics.md «Трекер»): on the
 * first 20 s of vtest.avi only — this script never scores the rest of the clip. Prints (1) the
 * quantiles of the appearance similarity of different people's boxes on the labelled frames of the
 * first 20 s (the similarity limits are set from them; vtest-tracking.test.ts checks the defaults
 * still follow them), (2) the identity scores of a grid of settings at 10 and 5 fps there.
 *   bun workers/test-support/vtest-tuning.ts
 */
export const TUNED_FRAMES = 200;
const VTEST_AVI = '/usr/share/doc/opencv-doc/examples/data/vtest.avi';
const FPS = 10;

/** Quantile q (0…1) of the similarity of different people's boxes: detections on labelled boxes (IoU ≥ 0.7), pairs of different identities. */
export function differentPeopleSimilarity(detections: Detection[][], truth: MotBox[]): (q: number) => number {
  const seen = truth.flatMap((b) => {
    const d = b.ignore || b.frame >= TUNED_FRAMES ? undefined : detections[b.frame]!.find((x) => x.feature && iou(x.box, b.box) >= 0.7);
    return d ? [{ id: b.id, feature: d.feature! }] : [];
  });
  const different: number[] = [];
  for (const [i, a] of seen.entries()) for (const b of seen.slice(i + 1)) if (a.id !== b.id) different.push(similarity(a.feature, b.feature));
  different.sort((a, b) => a - b);
  return (q) => different[Math.floor(q * (different.length - 1))]!;
}

/** The identity scores of `options` on the labelled frames of the first 20 s, every `every`-th frame tracked. */
function scores(detections: Detection[][], truth: MotBox[], options: Partial<TrackerOptions>, every: number) {
  const tracker = new ByteTracker({ ...options, fps: FPS / every });
  for (let f = 0; f < TUNED_FRAMES; f += every) tracker.update(f, f / FPS, detections[f]!);
  const tuned = truth.filter((b) => b.frame < TUNED_FRAMES);
  const frames = new Set(tuned.map((b) => b.frame));
  const hyp = tracker.tracks().flatMap((t) => t.points.filter((p) => frames.has(p.frame)).map((p) => ({ frame: p.frame, id: t.id, box: p.box })));
  const m = motScores(tuned, hyp);
  return `MOTA ${m.mota.toFixed(3)} IDF1 ${m.idf1.toFixed(3)} IDSW ${m.idsw} посетителей ${new Set(hyp.map((h) => h.id)).size}`;
}

if (import.meta.main) {
  const truth: MotBox[] = readMot(readFileSync(join(import.meta.dirname, 'fixtures', 'vtest-tracks.mot'), 'utf8')).map((r) => ({
    frame: r.frame - 1,
    id: r.id,
    box: r.box,
    ignore: r.conf === 0,
  }));
  const detections = await withAppearance(VTEST_AVI, vtestDetections().frames, 768, 576, FPS);
  const q = differentPeopleSimilarity(detections, truth);
  console.log(`разные люди: 50 % ${q(0.5).toFixed(3)}, 99 % ${q(0.99).toFixed(3)}, 99,9 % ${q(0.999).toFixed(3)}`);
  for (const appearanceWeight of [0.3, 0.5, 0.7, 0.9])
    for (const firstIou of [0.1, 0.2])
      for (const recoverSimilarity of [0.7, 0.75, 0.8]) {
        const options = { appearanceWeight, firstIou, recoverSimilarity };
        console.log(JSON.stringify(options), '10 кадр/с:', scores(detections, truth, options, 1), '| 5 кадр/с:', scores(detections, truth, options, 2));
      }
}
