/**
 * The person detector on real footage (issue 25, docs/vision.md «Детектор людей»), all in one run:
 *  - MoveNet multipose in the worker process (Bun; the network on ONNX Runtime, native, one thread,
 *    as the server runs it): ms per frame and precision / recall at IoU 0.5 on the 32 hand-labelled
 *    frames of vtest.avi; against the whole graph on TensorFlow.js wasm, as the browser runs it,
 *    recorded once on those frames (workers/test-support/fixtures/movenet-reference.json): how many
 *    of its people the server finds the same, and its own precision / recall;
 *  - background subtraction (the fallback) on 8 of those frames, the same measure;
 *  - MoveNet on one strip of a frame (the work of one MoveNet thread per call);
 *  - GET /api/v1/humans on vtest.avi as the server stores it (an uploaded or synced AVI is turned
 *    into H.264 MP4 with a keyframe every 2 s by the ingest job, api/src/video/ingest.job.ts),
 *    on the MoveNet threads as main.ts runs them (two, a strip each); for comparison on the original
 *    AVI (MPEG-4 part 2, a keyframe every 25 s: each seek decodes up to 250 frames) and on one thread
 *    running both strips: ms per call against a bare ffmpeg decode of the same frame at the same size
 *    (ratio), and the memory (RSS) the threads with their copies of the model add;
 *  - MoveNet in Chromium from the app's build (wasm; WebGPU when the browser has an adapter).
 *   node_modules/.bin/bun bench/pose-detector.bench.ts     → bench/results/pose-detector.json
 * Needs vtest.avi (Debian opencv-doc) and a built PWA (npm run build).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createTestApp } from '../api/test-support/testing';
import { insertVideo, videoWorld } from '../api/test-support/video-fixtures';
import { decodeFrames } from '../workers/src/vision/frames';
import { convertForBrowser, inspectRecording } from '../workers/src/media/ingest';
import { detectByBackground } from '../workers/src/vision/humans';
import { matchFrame, precisionRecall, type DetectionCounts } from '../workers/src/vision/detection-metrics';
import { moveNetModel, moveNetStrips } from '../workers/src/vision/movenet';
import { mergeOverlapping, MOVENET_COLUMNS, MOVENET_MIN_SCORE, movenetInputSize, stripTiles } from '../workers/src/vision/movenet-decode';
import { moveNetReference, personDifferences } from '../workers/test-support/movenet-reference';
import { startMoveNetThreads } from '../api/src/threads/movenet-threads';
import { launchBrowser } from '../tests/support/browser';
import { detectInBrowser } from '../tests/support/pose-browser';
import { startServer } from '../tests/support/server';
import { VTEST_AVI, VTEST_MISSING, vtestFixture, vtestFrames } from '../tests/support/vtest';

if (VTEST_MISSING) throw new Error(VTEST_MISSING);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fixture = vtestFixture();
const source = { width: fixture.width, height: fixture.height };
const input = movenetInputSize(fixture.width, fixture.height);
const video = { file: VTEST_AVI, ...source, duration: 79.5 };

// 1. The worker process.
const loadStarted = performance.now();
await moveNetModel();
const loadMs = performance.now() - loadStarted;
const frames = await vtestFrames(
  fixture.frames.map((f) => f.frame),
  input.width,
  input.height,
);
/** Every labelled frame: ms per frame, precision / recall; then each strip of the first 8 frames alone (the work of one MoveNet thread per call). */
async function workerRun() {
  const frameMs: number[] = [];
  const counts: DetectionCounts[] = [];
  for (const [i, labelled] of fixture.frames.entries()) {
    const started = performance.now();
    const people = mergeOverlapping((await moveNetStrips(frames[i]!, input, source, stripTiles(input.width, MOVENET_COLUMNS))).flat());
    frameMs.push(performance.now() - started);
    counts.push(matchFrame(labelled.people, people));
  }
  const stripMs: number[] = [];
  for (const rgb of frames.slice(0, 8))
    for (const tile of stripTiles(input.width, MOVENET_COLUMNS)) {
      const started = performance.now();
      await moveNetStrips(rgb, input, source, [tile]);
      stripMs.push(performance.now() - started);
    }
  const found = precisionRecall(counts);
  const result = {
    ms_per_frame: round(median(frameMs), 0),
    ms_per_strip: round(median(stripMs), 0),
    precision: round(found.precision, 3),
    recall: round(found.recall, 3),
    true_positives: found.truePositives,
    false_positives: found.falsePositives,
    people: found.people,
  };
  console.log(`worker, onnxruntime: ${JSON.stringify(result)}`);
  return result;
}
const native = await workerRun();

/**
 * The recorded whole graph on TensorFlow.js wasm: its precision / recall (strips merged as the
 * server merges them, at the server's score), and, strip by strip at the recorded score, how many of
 * its people the network on ONNX Runtime finds the same (movenet-onnx.test.ts's tolerances).
 */
function againstReference() {
  const reference = moveNetReference();
  const tiles = stripTiles(input.width, MOVENET_COLUMNS);
  const counts = fixture.frames.map((labelled, i) =>
    matchFrame(labelled.people, mergeOverlapping(reference.frames[i]!.strips.flat().filter((p) => p.score >= MOVENET_MIN_SCORE))),
  );
  return { reference, tiles, found: precisionRecall(counts) };
}
const { reference, tiles: referenceTiles, found: referenceFound } = againstReference();
let samePeople = 0;
let referencePeople = 0;
for (const [i, rgb] of frames.entries()) {
  const strips = await moveNetStrips(rgb, input, source, referenceTiles, reference.minScore);
  strips.forEach((people, t) => {
    const recorded = reference.frames[i]!.strips[t]!;
    referencePeople += recorded.length;
    if (people.length === recorded.length) samePeople += people.filter((p, k) => personDifferences(p, recorded[k]!).length === 0).length;
  });
}
const wasm = {
  precision: round(referenceFound.precision, 3),
  recall: round(referenceFound.recall, 3),
  true_positives: referenceFound.truePositives,
  false_positives: referenceFound.falsePositives,
  people: referenceFound.people,
  onnx_same_people: samePeople,
  recorded_people: referencePeople,
};
console.log(`tfjs wasm, recorded: ${JSON.stringify(wasm)}`);

// 2. The fallback on every fourth labelled frame.
const backgroundCounts: DetectionCounts[] = [];
for (const labelled of fixture.frames.filter((_, i) => i % 4 === 0))
  backgroundCounts.push(matchFrame(labelled.people, await detectByBackground(video, labelled.frame / fixture.fps)));
const background = precisionRecall(backgroundCounts);
console.log(`background subtraction: precision ${round(background.precision, 3)}, recall ${round(background.recall, 3)}`);

// 3. GET /api/v1/humans against a bare decode of the same frame.
const t = await createTestApp();
const world = await videoWorld(t);
const key = 'recordings/site/cam1/vtest.avi';
mkdirSync(dirname(t.deps.storage.pathOf(key)), { recursive: true });
copyFileSync(VTEST_AVI, t.deps.storage.pathOf(key));
const aviVideoId = await insertVideo(t.deps.db, world.cameraIds[0]!, { filename: 'vtest.avi', start: Date.UTC(2024, 0, 10, 6), duration: 79.5, key });
// The same recording as the server keeps it after its ingest job: converted by the job's own code.
const storedKey = 'recordings/site/cam1/vtest.mp4';
const inspected = await inspectRecording(VTEST_AVI);
await convertForBrowser(inspected, VTEST_AVI, t.deps.storage.pathOf(storedKey));
const storedVideoId = await insertVideo(t.deps.db, world.cameraIds[0]!, {
  filename: 'vtest.mp4',
  start: Date.UTC(2024, 0, 11, 6),
  duration: 79.5,
  key: storedKey,
});
const storedVideo = { ...video, file: t.deps.storage.pathOf(storedKey) };
const rssMb = () => round(process.memoryUsage().rss / 2 ** 20, 0);
/** Calls on `count` MoveNet threads (new frames each: answers are remembered per frame), each after a bare decode of the same frame of the same file. */
async function apiCalls(count: number, seconds: number[], firstThreads: boolean, target: { id: number; file: typeof video }) {
  const rssBefore = rssMb();
  const threads = startMoveNetThreads(count);
  t.deps.movenetThread = threads;
  // Loads the threads' models and warms the decoder: kept out of the figures.
  await threads.detect(target.file, 5);
  const rssAdded = rssMb() - rssBefore;
  const apiMs: number[] = [];
  const bareMs: number[] = [];
  for (const second of seconds) {
    let started = performance.now();
    // The same single frame the API decodes (fast seek, one frame, scaled to the model's input by ffmpeg).
    await decodeFrames(target.file.file, { startSecond: second, endSecond: second + 0.5, fps: 25, ...input, pixelFormat: 'rgb24', frames: 1 }, () => {});
    bareMs.push(performance.now() - started);
    started = performance.now();
    const response = await t.request(`/api/v1/humans?video_id=${target.id}&second=${second}`, { cookie: world.cookies.viewer });
    const body = (await response.json()) as { detector: string };
    if (response.status !== 200 || body.detector !== 'movenet-multipose') throw new Error(`humans: ${response.status} ${JSON.stringify(body)}`);
    apiMs.push(performance.now() - started);
  }
  const load = loadavg().map((l) => round(l, 1));
  threads.close();
  t.deps.movenetThread = undefined;
  const result = {
    threads: count,
    file: basename(target.file.file),
    ms_per_call: round(median(apiMs), 0),
    bare_decode_ms: round(median(bareMs), 0),
    ratio_to_bare_decode: round(median(apiMs) / median(bareMs), 1),
    calls_ms: apiMs.map((m) => round(m, 0)),
    // After other threads were closed the process keeps some of their memory: only the first run's figure holds.
    rss_added_mb: firstThreads ? rssAdded : null,
    load_average_1_5_15: load,
  };
  console.log(`api on ${count} thread(s), ${result.file}: ${JSON.stringify(result)}`);
  return result;
}
const seconds = [30, 45, 60, 70, 20];
const stored = { id: storedVideoId, file: storedVideo };
const original = { id: aviVideoId, file: video };
const api = await apiCalls(2, seconds, true, stored);
const apiOriginal = await apiCalls(
  2,
  seconds.map((s) => s + 2),
  false,
  original,
);
const apiOneThread = await apiCalls(
  1,
  seconds.map((s) => s + 1),
  false,
  stored,
);
// The same frames asked again (the stands screen steps back and forth): answered from the cache.
const againMs: number[] = [];
for (const second of seconds) {
  const started = performance.now();
  const response = await t.request(`/api/v1/humans?video_id=${storedVideoId}&second=${second}`, { cookie: world.cookies.viewer });
  if (response.status !== 200) throw new Error(`humans again: ${response.status}`);
  await response.json();
  againMs.push(performance.now() - started);
}
await t.cleanup();
console.log(`same frame again: ${round(median(againMs), 0)} ms`);

// 4. Chromium, from the app's build.
const server = await startServer();
const browser = await launchBrowser();
const browserFrames = (
  await vtestFrames(
    fixture.frames.slice(0, 6).map((f) => f.frame),
    fixture.width,
    fixture.height,
  )
).map((rgb) => ({ rgb, ...source }));
const chromium: Record<string, unknown> = {};
try {
  for (const backend of ['wasm', 'webgpu'] as const) {
    try {
      const detection = await detectInBrowser(browser, server.url, browserFrames, backend);
      const ms = detection.runs.slice(1).map((r) => r.milliseconds);
      chromium[backend] = { ms_per_frame: round(median(ms), 0), runs_ms: ms.map((m) => round(m, 0)) };
    } catch (err) {
      chromium[backend] = { not_measured: err instanceof Error ? err.message.split('\n')[0] : String(err) };
    }
    console.log(`chromium ${backend}: ${JSON.stringify(chromium[backend])}`);
  }
} finally {
  await browser.close();
  await server.stop();
}

const out = join(import.meta.dirname, 'results', 'pose-detector.json');
writeFileSync(
  out,
  JSON.stringify(
    {
      name: 'pose-detector',
      date: new Date().toISOString(),
      runtime: `bun ${Bun.version}`,
      cpus: cpus().length,
      // The machine is shared: the load during the run says how far the figures are from a quiet machine.
      load_average_1_5_15: loadavg().map((l) => round(l, 1)),
      chromium: browser.version(),
      footage: 'vtest.avi 768x576, 32 hand-labelled frames (tests/fixtures/vtest-people.json)',
      model: `movenet-multipose, input ${input.width}x${input.height} in two strips`,
      api_decode: 'ffmpeg -ss before -i, one frame (-frames:v 1), scaled to the model input in ffmpeg; the bare decode is the same command',
      // What the server runs: the network on ONNX Runtime (native CPU, one kernel thread), the graph's decoding on TensorFlow.js wasm.
      worker: { backend: 'onnxruntime-node (CPU, one thread) + tfjs wasm for the heads', model_load_ms: round(loadMs, 0), ...native },
      // The whole graph on TensorFlow.js wasm, as the browser runs it, recorded once (the server no longer runs it): its precision / recall, and how many of its people (per strip, score ≥ 0.05) the server's network finds the same.
      worker_tfjs_wasm_recorded: { backend: 'tfjs wasm (SIMD, one thread), recorded: workers/test-support/fixtures/movenet-reference.json', ...wasm },
      background_subtraction: {
        frames: backgroundCounts.length,
        precision: round(background.precision, 3),
        recall: round(background.recall, 3),
        people: background.people,
      },
      // GET /api/v1/humans as main.ts runs it: two MoveNet threads, a strip each (threads/movenet-threads.ts), on the file as the server stores it.
      api: { ...api, same_frame_again_ms: round(median(againMs), 0) },
      // The same on the original AVI (a keyframe every 25 s), which the server never keeps as it is.
      api_original_avi: apiOriginal,
      // The same on one MoveNet thread running both strips (as before): the gain of the second thread.
      api_one_thread: apiOneThread,
      chromium_worker: chromium,
    },
    null,
    2,
  ) + '\n',
);
console.log(`written ${out}`);
process.exit(0);
