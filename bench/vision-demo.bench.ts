/**
 * Cross-day generalisation on the demo scene (issue 25): for each one-worker camera of the
 * assembly leaf, a model is trained on one day's clip and labels a clip of the other day; per
 * operation precision, recall and F1, segment F1 at IoU 0.5 and edit score from the training
 * report (test on the other day), beside the constant answer.
 *   node_modules/.bin/bun bench/vision-demo.bench.ts     → bench/results/vision-demo.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_WORKPLACE_AREAS, renderDemoClip } from '../workers/src/media/demo-video';
import { trainOperationModel } from '../workers/src/vision/pipeline';
import { defaultVideoCacheDir, demoClip, demoLeaves, planClips, planDays, type PlannedClip } from '../api/src/seed/demo-plan';

const VIDEO_SECONDS = Number(process.env.NORMA_BENCH_VIDEO_SECONDS ?? 300);
const LEAF = 0;
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

const leaf = demoLeaves[LEAF]!;
const days = planDays();
const clips = planClips(VIDEO_SECONDS);
const work = mkdtempSync(join(tmpdir(), 'norma-vision-demo-'));
const classes = [{ operationId: null, name: 'Фон (прочее)' }, ...leaf.cycle.map((op, i) => ({ operationId: i + 1, name: op.name }))];

async function fileOf(clip: PlannedClip): Promise<string> {
  const file = join(work, clip.filename);
  await renderDemoClip(demoClip(LEAF, clip, days), file, defaultVideoCacheDir());
  return file;
}

/** The cycle's operations of the clip's worker as labelled spans, seconds from the clip's start. */
function spansOf(clip: PlannedClip) {
  return (days.get(`${leaf.slug}/${clip.dayIndex}/${clip.cameraKey - 1}`) ?? [])
    .filter((s) => s.operation.type === 'main')
    .map((s) => ({
      classIndex: leaf.cycle.indexOf(s.operation) + 1,
      startSecond: Math.max(0, (s.start - clip.startMs) / 1000),
      endSecond: Math.min(clip.durationSeconds, (s.end - clip.startMs) / 1000),
    }))
    .filter((s) => s.endSecond > s.startSecond);
}

const runs = [];
const started = performance.now();
for (const cameraKey of [1, 2]) {
  for (const [trainDay, testDay] of [
    [0, 1],
    [1, 0],
  ] as const) {
    const trainClip = clips.find((c) => c.cameraKey === cameraKey && c.dayIndex === trainDay && c.clipIndex === 0)!;
    const testClip = clips.find((c) => c.cameraKey === cameraKey && c.dayIndex === testDay && c.clipIndex === 0)!;
    const trainSpans = spansOf(trainClip);
    // Tested on the stretch of the other day that holds the operations the model was taught (an
    // operation it never saw there, e.g. fetching components, would be scored as its mistake).
    const known = new Set(trainSpans.map((s) => s.classIndex));
    const testSpans = spansOf(testClip).filter((s) => known.has(s.classIndex));
    const testFrom = Math.floor(Math.min(...testSpans.map((s) => s.startSecond)));
    const testTo = Math.ceil(Math.max(...testSpans.map((s) => s.endSecond)));
    const video = { file: await fileOf(trainClip), width: 640, height: 360 };
    const test = {
      video: { file: await fileOf(testClip), width: 640, height: 360 },
      startSecond: testFrom,
      endSecond: testTo,
      spans: testSpans,
      description: `${testClip.filename}, ${testFrom}–${testTo} с`,
    };
    const t0 = performance.now();
    const trained = await trainOperationModel({
      video,
      startSecond: 0,
      endSecond: VIDEO_SECONDS,
      areas: DEMO_WORKPLACE_AREAS.map((a, i) => ({ id: i + 1, name: a.name, rect: a })),
      classes,
      spans: trainSpans,
      test,
    });
    const r = trained.report;
    const perOperation = classes.map((c, i) => ({
      name: c.name,
      train_steps: r.trainStepsPerClass[i],
      test_steps: r.evaluation.perClass[i]!.support,
      precision: round(r.evaluation.perClass[i]!.precision),
      recall: round(r.evaluation.perClass[i]!.recall),
      f1: round(r.evaluation.perClass[i]!.f1),
      segment_f1: round(r.segments.perClass[i]!.f1),
      baseline_f1: round(r.baseline.evaluation.perClass[i]!.f1),
    }));
    const present = perOperation.slice(1).filter((p) => p.test_steps > 0);
    const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
    runs.push({
      camera: cameraKey,
      train: trainClip.filename,
      test: test.description,
      train_ms: round(performance.now() - t0, 0),
      accuracy: round(r.evaluation.accuracy),
      baseline_accuracy: round(r.baseline.evaluation.accuracy),
      macro_f1: round(mean(present.map((p) => p.f1))),
      baseline_macro_f1: round(mean(present.map((p) => p.baseline_f1))),
      macro_segment_f1: round(mean(present.map((p) => p.segment_f1))),
      edit_score: round(r.segments.editScore, 1),
      min_f1: round(Math.min(...present.map((p) => p.f1))),
      per_operation: perOperation,
      warnings: r.warnings,
    });
    console.log(JSON.stringify(runs.at(-1)));
  }
}

const result = {
  name: 'vision-demo',
  date: new Date().toISOString(),
  runtime: `bun ${Bun.version}`,
  cpus: cpus().length,
  load_average_1m_at_end: round(loadavg()[0]!, 2),
  scene: { leaf: leaf.name, video_seconds: VIDEO_SECONDS, areas: DEMO_WORKPLACE_AREAS.map((a) => a.name), sampling_fps: 5 },
  note: 'Trained on the first clip of one day, scored on the first clip of the other day of the same camera (both directions), on the stretch that holds the operations trained on.',
  worst: {
    min_f1: Math.min(...runs.map((r) => r.min_f1)),
    min_macro_segment_f1: Math.min(...runs.map((r) => r.macro_segment_f1)),
    min_macro_f1_margin_over_constant: round(Math.min(...runs.map((r) => r.macro_f1 - r.baseline_macro_f1))),
  },
  total_ms: round(performance.now() - started, 0),
  runs,
};
console.log(JSON.stringify(result.worst));
mkdirSync(join(import.meta.dir, 'results'), { recursive: true });
writeFileSync(join(import.meta.dir, 'results', 'vision-demo.json'), `${JSON.stringify(result, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
