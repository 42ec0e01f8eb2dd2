/**
 * Vision (issue 14): applying a trained model to a span of a 640×360 25 fps video — decoding,
 * area features, onnxruntime-web inference, smoothing — against a bare ffmpeg decode of the same
 * span at the same sampling (same arguments, raw frames read from the pipe and dropped), in one run.
 * Also the training time of the model on the first half.
 *   node_modules/.bin/bun bench/vision.bench.ts     → bench/results/vision.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaTools } from '../workers/src/media/ffmpeg';
import { applyOperationModel, trainOperationModel } from '../workers/src/vision/pipeline';
import { detectContainer } from '../workers/src/media/container';
import { samplingArguments, workSize } from '../workers/src/vision/frames';
import { makeSceneClip, SCENE_AREAS, sceneOperationAt, sceneSchedule } from '../workers/test-support/vision-scene';

const SECONDS = 240;
const HALF = SECONDS / 2;
const RUNS = 5;
const FPS = 5;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const work = mkdtempSync(join(tmpdir(), 'norma-vision-bench-'));
const file = join(work, 'scene.mp4');
const schedule = sceneSchedule(SECONDS);
await makeSceneClip(file, schedule, { fps: 25 });
const video = { file, width: 640, height: 360 };
const classes = [
  { operationId: null, name: 'фон' },
  { operationId: 1, name: 'A' },
  { operationId: 2, name: 'B' },
  { operationId: 3, name: 'C' },
];
const index = { A: 1, B: 2, C: 3 } as const;
const spans = schedule
  .filter((s) => s.operation !== 'idle' && s.startSecond < HALF)
  .map((s) => ({ classIndex: index[s.operation as 'A' | 'B' | 'C'], startSecond: s.startSecond, endSecond: Math.min(HALF, s.endSecond) }));
const areas = [
  { id: 1, name: 'левая', rect: SCENE_AREAS.left },
  { id: 2, name: 'правая', rect: SCENE_AREAS.right },
];

let started = performance.now();
const trained = await trainOperationModel({ video, startSecond: 0, endSecond: HALF, areas, classes, spans, fps: FPS });
const trainMs = performance.now() - started;

/** The bare decode: the same ffmpeg arguments, frames read from the pipe and dropped. */
async function bareDecode(): Promise<number> {
  const { ffmpeg } = await mediaTools();
  const size = workSize(640, 360);
  const child = Bun.spawn([ffmpeg, ...samplingArguments(file, await detectContainer(file), { startSecond: HALF, endSecond: SECONDS, fps: FPS, ...size })], {
    stdout: 'pipe',
    stderr: 'ignore',
  });
  let bytes = 0;
  for await (const chunk of child.stdout as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  await child.exited;
  return bytes;
}

const bareMs: number[] = [];
const applyMs: number[] = [];
let accuracy = 0;
for (let run = 0; run < RUNS; run++) {
  started = performance.now();
  await bareDecode();
  bareMs.push(performance.now() - started);
  started = performance.now();
  const applied = await applyOperationModel({ video, startSecond: HALF, endSecond: SECONDS, onnx: trained.onnx, spec: trained.spec });
  applyMs.push(performance.now() - started);
  let correct = 0;
  for (let s = HALF; s < SECONDS; s++) {
    const segment = applied.segments.find((x) => s + 0.5 >= x.startSecond && s + 0.5 < x.endSecond);
    if ((segment ? ['', 'A', 'B', 'C'][segment.operationId] : 'idle') === sceneOperationAt(schedule, s + 0.5)) correct++;
  }
  accuracy = correct / HALF;
}

const span = SECONDS - HALF;
const result = {
  name: 'vision',
  date: new Date().toISOString(),
  runtime: `bun ${Bun.version}`,
  cpus: cpus().length,
  video: {
    size: '640x360',
    fps: 25,
    codec: 'h264',
    span_seconds: span,
    sampling_fps: FPS,
    work_size: `${trained.spec.work.width}x${trained.spec.work.height}`,
  },
  train: { seconds: HALF, ms: round(trainMs, 0), steps: trained.report.steps },
  // Runs alternate bare and apply; the machine is shared, so the best of each is the figure (medians beside it).
  bare_decode_ms: round(Math.min(...bareMs), 0),
  apply_ms: round(Math.min(...applyMs), 0),
  apply_to_bare_ratio: round(Math.min(...applyMs) / Math.min(...bareMs), 3),
  apply_to_bare_ratio_median: round(median(applyMs) / median(bareMs), 3),
  apply_realtime_factor: round(span / (Math.min(...applyMs) / 1000), 1),
  bare_realtime_factor: round(span / (Math.min(...bareMs) / 1000), 1),
  apply_accuracy_per_second: round(accuracy, 3),
  runs: { bare_ms: bareMs.map((v) => round(v, 0)), apply_ms: applyMs.map((v) => round(v, 0)) },
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'vision.json'), `${JSON.stringify(result, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
