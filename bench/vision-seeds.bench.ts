/**
 * Does a model's quality on another day rest on its random start? (issue 43, docs/vision.md
 * «Случайное начало»). For each one-worker camera of the demo's assembly leaf, the first clip of a
 * day is the training span and the first clip of the other day the test (the direction whose
 * training clip holds enough background to train on, as the job demands); both are decoded once
 * (pipeline.ts prepareTraining) and fitted from every seed of SEEDS, as the job's classifier
 * (DEFAULT_HIDDEN: softmax regression) and as the one-hidden-layer perceptron (16 units) used before.
 * Per run the per-operation F1 on the other day; per kind the worst operation over all runs.
 *   node_modules/.bin/bun bench/vision-seeds.bench.ts     → bench/results/vision-seeds.json
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { DEMO_WORKPLACE_AREAS } from '../workers/src/media/demo-video';
import { DEFAULT_HIDDEN, fitTraining, prepareTraining, type PreparedTraining } from '../workers/src/vision/pipeline';
import { demoCameraClips } from './support/demo-camera-clips';

const VIDEO_SECONDS = Number(process.env.NORMA_BENCH_VIDEO_SECONDS ?? 300);
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
/** Camera, training day, test day (day indexes of the demo). */
const PAIRS: [number, number, number][] = [
  [1, 0, 1],
  [2, 1, 0],
];
const KINDS = [
  { name: 'job', hidden: DEFAULT_HIDDEN },
  { name: 'perceptron_16', hidden: 16 },
];
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

const { leaf, work, classes, fileOf, spansOf, firstClip } = demoCameraClips(VIDEO_SECONDS, 'norma-vision-seeds-');

/** A camera's training day → test day, decoded once. */
async function prepared([cameraKey, trainDay, testDay]: [number, number, number]): Promise<PreparedTraining> {
  const trainClip = firstClip(cameraKey, trainDay);
  const testClip = firstClip(cameraKey, testDay);
  return prepareTraining({
    video: { file: await fileOf(trainClip), width: 640, height: 360 },
    startSecond: 0,
    endSecond: VIDEO_SECONDS,
    areas: DEMO_WORKPLACE_AREAS.map((a, i) => ({ id: i + 1, name: a.name, rect: a })),
    classes,
    spans: spansOf(trainClip),
    test: {
      video: { file: await fileOf(testClip), width: 640, height: 360 },
      startSecond: 0,
      endSecond: VIDEO_SECONDS,
      spans: spansOf(testClip),
      description: `${testClip.filename}, 0–${VIDEO_SECONDS} с`,
    },
  });
}

async function fitted(pair: [number, number, number], prep: PreparedTraining, kind: (typeof KINDS)[number], seed: number) {
  const t0 = performance.now();
  const { report } = await fitTraining({ ...prep, input: { ...prep.input, hidden: kind.hidden } }, { seed });
  const f1 = classes.slice(1).map((c, i) => ({ name: c.name, f1: round(report.evaluation.perClass[i + 1]!.f1) }));
  const run = {
    kind: kind.name,
    hidden: kind.hidden,
    camera: pair[0],
    train_day: pair[1],
    test_day: pair[2],
    seed,
    fit_ms: round(performance.now() - t0, 0),
    best_epoch: report.bestEpoch,
    min_f1: Math.min(...f1.map((o) => o.f1)),
    mean_f1: round(f1.reduce((a, o) => a + o.f1, 0) / f1.length),
    per_operation: f1,
  };
  console.log(JSON.stringify(run));
  return run;
}

type Run = Awaited<ReturnType<typeof fitted>>;
const summary = (runs: Run[]) => ({
  runs: runs.length,
  worst_operation_f1: Math.min(...runs.map((r) => r.min_f1)),
  runs_with_an_operation_below_0_9: runs.filter((r) => r.min_f1 < 0.9).length,
  mean_f1_range: [Math.min(...runs.map((r) => r.mean_f1)), Math.max(...runs.map((r) => r.mean_f1))],
  median_fit_ms: [...runs.map((r) => r.fit_ms)].sort((a, b) => a - b)[Math.floor(runs.length / 2)],
});

const runs: Run[] = [];
for (const pair of PAIRS) {
  const prep = await prepared(pair);
  for (const kind of KINDS) for (const seed of SEEDS) runs.push(await fitted(pair, prep, kind, seed));
}

const result = {
  name: 'vision-seeds',
  date: new Date().toISOString(),
  runtime: `bun ${Bun.version}`,
  cpus: cpus().length,
  load_average_1m_at_end: round(loadavg()[0]!, 2),
  scene: { leaf: leaf.name, video_seconds: VIDEO_SECONDS, pairs: PAIRS.map(([camera, train_day, test_day]) => ({ camera, train_day, test_day })) },
  note: `Each pair's training and test clips decoded once; the same features fitted from ${SEEDS.length} random starts by the job's classifier (hidden ${DEFAULT_HIDDEN}) and by a 16-unit perceptron; F1 per operation on the other day.`,
  kinds: Object.fromEntries(KINDS.map((k) => [k.name, { hidden: k.hidden, ...summary(runs.filter((r) => r.kind === k.name)) }])),
  runs,
};
console.log(JSON.stringify(result.kinds));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'vision-seeds.json'), `${JSON.stringify(result, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
