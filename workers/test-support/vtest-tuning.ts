import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blend, similarity, type Appearance } from '../src/tracking/appearance';
import { ByteTracker, TRACKER_DEFAULTS, type Detection, type TrackerOptions } from '../src/tracking/byte-tracker';
import { finishTracks, HEAD_SIGHTINGS, headAfter } from '../src/tracking/offline';
import { readMot } from '../src/tracking/mot-format';
import { motScores, type MotBox } from '../src/tracking/mot-metrics';
import { iou } from '../src/vision/movenet-decode';
import { withAppearance } from './vtest-appearance';
import { vtestDetections } from './vtest-detections';

/**
 * How TRACKER_DEFAULTS' appearance settings were chosen (docs/event-analytics.md «Трекер»): on the
 * first 20 s of vtest.avi only — this script never scores the rest of the clip. Prints (1) the
 * quantiles of the appearance similarity of different people's boxes on the labelled frames of the
 * first 20 s and of different people's tracks there (the similarity limits are set from them;
 * vtest-tracking.test.ts checks the defaults still follow them), (2) the identity scores of a grid of settings at 10 and 5 fps there.
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

const FRAME = { width: 768, height: 576 };

/**
 * Quantiles of the similarity of different people's tracks on the first 20 s, as re-identification and
 * linking compare them: the tracker's tracks there (each one person: no switch, 9 tracks for 9 people),
 * each one's look at every point (its moving average, as `tail`) against another's head — `reid`: after
 * its first two sightings (what a new track has when confirmed), `link`: the mean of its first five
 * (offline.ts HEAD_SIGHTINGS). The limits reidSimilarity and linkSimilarity follow `q(0.999)` of these.
 */
export function differentTrackSimilarity(detections: Detection[][], every: number): { reid: (q: number) => number; link: (q: number) => number } {
  const tracker = new ByteTracker({ fps: FPS / every, frameSize: FRAME });
  for (let f = 0; f < TUNED_FRAMES; f += every) tracker.update(f, f / FPS, detections[f]!);
  const looks = tracker.tracks().map((t) => {
    let tail: Appearance | undefined;
    const tails: Appearance[] = [];
    const heads: Appearance[] = [];
    for (const p of t.points) {
      const seen = detections[p.frame]!.find((d) => d.box === p.box)?.feature;
      if (!seen) continue;
      tail = tail ? blend(tail, seen, TRACKER_DEFAULTS.appearanceKeep) : seen;
      tails.push(tail);
      if (heads.length < HEAD_SIGHTINGS) heads.push(headAfter(heads.at(-1), seen, heads.length));
    }
    return { tails, heads };
  });
  const reid: number[] = [];
  const link: number[] = [];
  for (const [i, a] of looks.entries())
    for (const [j, b] of looks.entries()) {
      if (i === j || !b.heads.length) continue;
      for (const tail of a.tails) {
        reid.push(similarity(tail, b.heads[Math.min(1, b.heads.length - 1)]!));
        link.push(similarity(tail, b.heads.at(-1)!));
      }
    }
  const quantile = (values: number[]) => {
    values.sort((x, y) => x - y);
    return (q: number) => values[Math.floor(q * (values.length - 1))]!;
  };
  return { reid: quantile(reid), link: quantile(link) };
}

/**
 * The identity scores of `options` on the labelled frames of the first 20 s, every `every`-th frame
 * tracked; `offline`: with the offline step after the tracker (offline.ts finishTracks), as the job runs.
 */
function scores(detections: Detection[][], truth: MotBox[], options: Partial<TrackerOptions>, every: number, offline = true) {
  const fps = FPS / every;
  const tracker = new ByteTracker({ ...options, fps, frameSize: FRAME });
  for (let f = 0; f < TUNED_FRAMES; f += every) tracker.update(f, f / FPS, detections[f]!);
  const tracks = offline ? finishTracks(tracker.tracks(), { ...TRACKER_DEFAULTS, ...options }, { fps, videoFps: FPS, frame: FRAME }) : tracker.tracks();
  const tuned = truth.filter((b) => b.frame < TUNED_FRAMES);
  const frames = new Set(tuned.map((b) => b.frame));
  const hyp = tracks.flatMap((t) => t.points.filter((p) => frames.has(p.frame)).map((p) => ({ frame: p.frame, id: t.id, box: p.box })));
  const m = motScores(tuned, hyp);
  return `MOTA ${m.mota.toFixed(3)} IDF1 ${m.idf1.toFixed(3)} IDSW ${m.idsw} FP ${m.fp} посетителей ${new Set(hyp.map((h) => h.id)).size}`;
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
  for (const every of [1, 2]) {
    const tq = differentTrackSimilarity(detections, every);
    const line = (f: (x: number) => number) => `99 % ${f(0.99).toFixed(3)}, 99,9 % ${f(0.999).toFixed(3)}`;
    console.log(`треки разных людей, ${FPS / every} кадр/с: повторное узнавание ${line(tq.reid)}; связывание ${line(tq.link)}`);
  }
  // The defaults, without and with the offline step (linking and interpolation).
  for (const offline of [false, true])
    console.log(
      `по умолчанию, ${offline ? 'со связыванием' : 'без связывания'} — 10 кадр/с:`,
      scores(detections, truth, {}, 1, offline),
      '| 5 кадр/с:',
      scores(detections, truth, {}, 2, offline),
    );
  if (process.argv.includes('--defaults')) process.exit(0);
  for (const appearanceWeight of [0.3, 0.5, 0.7, 0.9])
    for (const firstIou of [0.1, 0.2])
      for (const recoverSimilarity of [0.7, 0.75, 0.8]) {
        const options = { appearanceWeight, firstIou, recoverSimilarity };
        console.log(JSON.stringify(options), '10 кадр/с:', scores(detections, truth, options, 1), '| 5 кадр/с:', scores(detections, truth, options, 2));
      }
}
