/**
 * Issue 25: the browser's live suggestion says what the applying job writes. A 90 s synthetic
 * scene (640×360, 25 fps H.264); a model trained on the first half; the applying job's path
 * (applyOperationModel: ffmpeg, features, onnxruntime-web, smoothing) over the second half gives
 * the markups. The same span's frames, decoded as RGB and sent full size, go through the live path
 * of the PWA's built inference worker in Chromium (canvas-size RGBA → gray → work size → sliding
 * window), and the PWA's live smoothing (pwa/src/ml/suggestion-follower.ts, i.e. the job's
 * IncrementalSmoother) runs over the worker's answers in order, here in the bench process. At every
 * step the worker answers (a sampled moment), the suggested class is compared with the class of the
 * job's markup at that second (background where there is none). Also the old raw-argmax display.
 * The PWA must be built (`npm run bench` builds it).
 *   node_modules/.bin/bun bench/vision-live.bench.ts     → bench/results/vision-live.json
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SUGGESTION_MIN_CONFIDENCE, SuggestionFollower } from '../pwa/src/ml/suggestion-follower';
import { launchBrowser } from '../tests/support/browser';
import { startServer } from '../tests/support/server';
import { decodeFrames } from '../workers/src/vision/frames';
import { applyOperationModel, trainOperationModel } from '../workers/src/vision/pipeline';
import { makeSceneClip, sceneSchedule, sceneTraining } from '../workers/test-support/vision-scene';

const SECONDS = 90;
const HALF = SECONDS / 2;
const WIDTH = 640;
const HEIGHT = 360;
const BATCH = 20;
const TARGET = 0.95;
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

const work = mkdtempSync(join(tmpdir(), 'norma-vision-live-'));
const file = join(work, 'scene.mp4');
const schedule = sceneSchedule(SECONDS);
await makeSceneClip(file, schedule, { fps: 25 });
const video = { file, width: WIDTH, height: HEIGHT };
const trained = await trainOperationModel({ video, startSecond: 0, endSecond: HALF, ...sceneTraining(schedule, HALF) });
const { spec, onnx } = trained;
const job = await applyOperationModel({ video, startSecond: HALF, endSecond: SECONDS, onnx, spec });
const jobClassAt = (second: number) => job.segments.find((s) => second >= s.startSecond && second < s.endSecond)?.classIndex ?? 0;

// Full-size RGBA frames of the span, as a canvas holds the player's picture.
const frames: string[] = [];
await decodeFrames(file, { startSecond: HALF, endSecond: SECONDS, fps: spec.fps, width: WIDTH, height: HEIGHT, pixelFormat: 'rgb24' }, (rgb) => {
  const rgba = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgba[j] = rgb[i]!;
    rgba[j + 1] = rgb[i + 1]!;
    rgba[j + 2] = rgb[i + 2]!;
    rgba[j + 3] = 255;
  }
  frames.push(Buffer.from(rgba).toString('base64'));
});

const dist = resolve(import.meta.dir, '..', 'pwa', 'dist');
const workerFile = readdirSync(join(dist, 'assets')).find((f) => /^inference\.worker-.*\.js$/.test(f));
if (!workerFile) throw new Error('pwa/dist has no inference worker: build the PWA');
const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
const answers: { second: number; probabilities: number[] }[] = [];
let backend: string | undefined;
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  backend = await page.evaluate(
    async ({ url, model }) => {
      const worker = new Worker(url, { type: 'module' });
      let next = 0;
      const call = (message: Record<string, unknown>, transfer: Transferable[] = []) =>
        new Promise<Record<string, unknown>>((done, fail) => {
          const id = next++;
          worker.onmessage = (event) => (event.data.type === 'error' ? fail(new Error(event.data.message)) : done(event.data));
          worker.onerror = (event) => fail(new Error(event.message));
          worker.postMessage({ ...message, id }, transfer);
        });
      (globalThis as unknown as { liveCall: typeof call }).liveCall = call;
      const loaded = await call({ type: 'load', model: Uint8Array.from(atob(model), (c) => c.charCodeAt(0)).buffer });
      return loaded.backend as string;
    },
    { url: `/assets/${workerFile}`, model: Buffer.from(onnx).toString('base64') },
  );
  for (let from = 0; from < frames.length; from += BATCH) {
    const replies = await page.evaluate(
      async ({ batch, first, fps, width, height, start }) => {
        const call = (globalThis as unknown as { liveCall: (m: Record<string, unknown>, t?: Transferable[]) => Promise<Record<string, unknown>> }).liveCall;
        const out: { second: number; probabilities: number[] | null }[] = [];
        for (let i = 0; i < batch.length; i++) {
          const rgba = Uint8Array.from(atob(batch[i]!), (c) => c.charCodeAt(0)).buffer;
          const reply = await call({ type: 'live', rgba, width, height, second: start + (first + i) / fps }, [rgba]);
          out.push({ second: reply.second as number, probabilities: reply.probabilities ? [...(reply.probabilities as Float32Array)] : null });
        }
        return out;
      },
      { batch: frames.slice(from, from + BATCH), first: from, fps: spec.fps, width: WIDTH, height: HEIGHT, start: HALF },
    );
    for (const r of replies) if (r.probabilities) answers.push({ second: r.second, probabilities: r.probabilities });
  }
} finally {
  await browser.close();
  await server.stop();
}

// The PWA's live smoothing over the answers, in order, as useLiveSuggestion feeds it.
const follower = new SuggestionFollower({
  minSteps: Math.max(1, Math.round(spec.smoothing.minSegmentSeconds * spec.fps)),
  hysteresis: spec.smoothing.hysteresis,
  stepSeconds: 1 / spec.fps,
});
let settledMoments = 0;
let settledAgree = 0;
let shownMoments = 0;
let shownAgree = 0;
let rawAgree = 0;
// The step's own moment: the middle of its 0.2 s (the job's markup edges fall on step starts).
const expectedAt = (second: number) => jobClassAt(second + 0.5 / spec.fps);
for (const { second, probabilities } of answers) {
  follower.push(second, probabilities);
  const raw = probabilities.reduce((b, v, i, a) => (v > a[b]! ? i : b), 0);
  if (raw === expectedAt(second)) rawAgree++;
  // What the panel shows after this answer: the decided class of a step a little further back.
  const current = follower.decided;
  if (!current) continue;
  const expected = expectedAt(current.second);
  settledMoments++;
  if (current.classIndex === expected) settledAgree++;
  if (current.confidence >= SUGGESTION_MIN_CONFIDENCE) {
    shownMoments++;
    if (current.classIndex === expected) shownAgree++;
  }
}

const result = {
  name: 'vision-live',
  date: new Date().toISOString(),
  runtime: `bun ${Bun.version}`,
  cpus: cpus().length,
  browser_backend: backend ?? '',
  video: { size: `${WIDTH}x${HEIGHT}`, fps: 25, codec: 'h264', span_seconds: SECONDS - HALF, sampling_fps: spec.fps },
  job_segments: job.segments.length,
  sampled_moments: answers.length,
  target_agreement: TARGET,
  // The live suggestion (the decided class of a step minSteps − 1 back) against the job's markups.
  live_agreement: round(settledAgree / settledMoments),
  live_decided_share: round(settledMoments / answers.length),
  // Behind the playhead: the worker's window centre (0.6 s) plus the steps a class needs to be decided.
  display_lag_seconds: round(0.6 + (Math.max(1, Math.round(spec.smoothing.minSegmentSeconds * spec.fps)) - 1) / spec.fps, 1),
  // What the panel shows: the same, only at or above the confidence threshold.
  shown_agreement: round(shownAgree / Math.max(1, shownMoments)),
  shown_share: round(shownMoments / answers.length),
  min_confidence: SUGGESTION_MIN_CONFIDENCE,
  // Before issue 25 the panel showed each step's raw argmax: its agreement with the job, for comparison.
  raw_argmax_agreement: round(rawAgree / answers.length),
  meets_target: settledAgree / settledMoments >= TARGET,
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'vision-live.json'), `${JSON.stringify(result, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
