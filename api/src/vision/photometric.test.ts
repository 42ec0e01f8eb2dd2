import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { applyOperationModel, argmaxRows, evaluateLabels, stepLabels } from '@norma/workers/vision';
import { describe, expect, it } from 'vitest';
import { demoCameraDays, peopleSpans, demoCameraDaysSuite, trainedDemoModel } from '../../test-support/demo-camera-days';

/**
 * Issue 43, finding 4: light other than the training day's. A model of the demo organisation is
 * trained by the real job on the day-1 video of camera 1 (as cross-day.test.ts), then applied by
 * the applying code to the day-2 video re-encoded by ffmpeg with half and double the brightness
 * (luma × 0.5 and × 2) and half and double the contrast (luma spread × 0.5 and × 2 around the
 * picture's mean luma, which stays); every operation keeps step F1 ≥ 0.9 on each. The figures are
 * printed for docs/vision.md «Свет другого дня».
 */
const VIDEO_SECONDS = 300;
const run = promisify(execFile);
/** Conditions of the other day: ffmpeg filters on luma given the picture's mean luma (lutyuv clips to the video's range). */
const CONDITIONS: { name: string; filter: ((mean: number) => string) | null }[] = [
  { name: 'как снято', filter: null },
  { name: 'яркость ×0,5', filter: () => 'lutyuv=y=val*0.5' },
  { name: 'яркость ×2', filter: () => 'lutyuv=y=val*2' },
  { name: 'контраст ×0,5', filter: (mean) => `lutyuv=y=(val-${mean})*0.5+${mean}` },
  { name: 'контраст ×2', filter: (mean) => `lutyuv=y=(val-${mean})*2+${mean}` },
];
const demo = demoCameraDaysSuite(VIDEO_SECONDS);

/** Mean luma of the file's first 30 s (0…255), to show what the filter did. */
async function meanLuma(file: string): Promise<number> {
  const { stdout } = await run('ffmpeg', [
    '-v',
    'error',
    '-t',
    '30',
    '-i',
    file,
    '-vf',
    'signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-',
    '-f',
    'null',
    '-',
  ]);
  const values = [...stdout.matchAll(/YAVG=([\d.]+)/g)].map((m) => Number(m[1]));
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/** Mean |luma difference| between two files of the same frames over their first 30 s (0…255). */
async function lumaChanged(a: string, b: string): Promise<number> {
  const { stdout } = await run('ffmpeg', [
    '-v',
    'error',
    '-t',
    '30',
    '-i',
    a,
    '-t',
    '30',
    '-i',
    b,
    '-filter_complex',
    '[0:v][1:v]blend=all_mode=difference,signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-',
    '-f',
    'null',
    '-',
  ]);
  const values = [...stdout.matchAll(/YAVG=([\d.]+)/g)].map((m) => Number(m[1]));
  return values.reduce((x, y) => x + y, 0) / Math.max(1, values.length);
}

describe('demo scene: another day under other light', () => {
  it('keeps F1 ≥ 0.9 per operation from half to double brightness and contrast', async () => {
    const days = await demoCameraDays(demo.t);
    const { dayTwo, operations } = days;
    const { spec, onnx } = await trainedDemoModel(demo.t, demo.call, days, {
      endSecond: VIDEO_SECONDS,
      test: { video_id: dayTwo.id, start_second: 0, end_second: VIDEO_SECONDS },
      comment: 'день 1 → день 2 при другом свете',
    });

    // People's markups of day 2 as class spans from the video's start (as the training job reads them).
    const classOf = (operationId: number | null) => spec.classes.findIndex((c) => c.operationId === operationId);
    const spans = (await peopleSpans(demo.t, days, dayTwo, VIDEO_SECONDS))
      .filter((m) => operations.some((o) => o.id === m.operationId))
      .map((m) => ({ classIndex: classOf(m.operationId), startSecond: m.startSecond, endSecond: m.endSecond }));
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.every((s) => s.classIndex > 0)).toBe(true);

    const original = await demo.t.deps.storage.local(dayTwo.storage_key);
    const table: string[] = [];
    const failures: string[] = [];
    const filmedLuma = await meanLuma(original);
    for (const condition of CONDITIONS) {
      let file = original;
      if (condition.filter) {
        file = join(demo.scratch, `${CONDITIONS.indexOf(condition)}.mp4`);
        const filter = condition.filter(Math.round(filmedLuma));
        await run('ffmpeg', ['-v', 'error', '-y', '-i', original, '-vf', filter, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-an', file]);
      }
      const luma = await meanLuma(file);
      const out = await applyOperationModel({
        video: { file, width: spec.source.width, height: spec.source.height },
        startSecond: 0,
        endSecond: VIDEO_SECONDS,
        onnx,
        spec,
      });
      const truth = Array.from(stepLabels(out.steps, 0, spec.fps, spans));
      const evaluation = evaluateLabels(truth, Array.from(argmaxRows(out.probabilities, spec.classes.length)), spec.classes.length);
      const perOperation = spec.classes.map((c, i) => ({ name: c.name, f1: evaluation.perClass[i]!.f1 })).slice(1);
      const macro = perOperation.reduce((s, o) => s + o.f1, 0) / perOperation.length;
      const worst = perOperation.reduce((w, o) => (o.f1 < w.f1 ? o : w));
      table.push(`| ${condition.name} | ${luma.toFixed(0)} | ${macro.toFixed(2)} | ${worst.f1.toFixed(2)} («${worst.name}») |`);
      for (const o of perOperation) if (o.f1 < 0.9) failures.push(`${condition.name}: «${o.name}» F1 ${o.f1.toFixed(2)}`);
      // The filter really changed the light (a no-op filter would make this test pass by default).
      if (condition.filter) expect(await lumaChanged(original, file), `luma changed under «${condition.name}»`).toBeGreaterThan(3);
    }
    console.log(['| условие | средняя яркость Y | средний F1 операций | худший F1 операции |', '|---|---|---|---|', ...table].join('\n'));
    expect(failures).toEqual([]);
  });
});
