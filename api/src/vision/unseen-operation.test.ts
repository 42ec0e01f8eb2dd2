import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mediaTools } from '@norma/workers/media';
import { applyOperationModel, argmaxRows, evaluateLabels, stepLabels, type VisionSpec } from '@norma/workers/vision';
import { describe, expect, it } from 'vitest';
import { demoCameraDays, peopleSpans, demoCameraDaysSuite, trainedDemoModel } from '../../test-support/demo-camera-days';

/**
 * Issue 43: «не уверена» measured on the demo scene, not only on the synthetic one. For each main
 * operation X of the demo camera, a model is trained by the real job on day 1 (16.11) with X left
 * out, two ways:
 *  - «не видела»: X's time is cut out of the day-1 video (ffmpeg drops its frames; the other
 *    operations' markups move with the picture), so the model never sees X at all;
 *  - «прочая работа»: X is only left out of the model's operations, so its time is «Фон (прочее)».
 * Each model is applied, as the applying job applies it, to day 2 (17.11). Over X's true spans of
 * day 2 the test measures the share the model leaves as no operation («не уверена» or «Фон»)
 * against the share it writes as one of its operations, «не уверена» over the time of the
 * operations it saw, and their step F1. Day 2 is the job's test span, so the whole of day 1 goes to
 * training (as in cross-day.test.ts). Both are required: never seen, X is «не уверена»; seen as
 * «Фон (прочее)», X stays background — neither written as an operation (docs/vision.md «Не уверена»).
 */
const VIDEO_SECONDS = 300;
const run = promisify(execFile);
const DAY_MS = 86_400_000;
const demo = demoCameraDaysSuite(VIDEO_SECONDS);

interface Span {
  startSecond: number;
  endSecond: number;
}

/** Seconds of `spans` covered by `cover` (both lists of [start, end) in seconds). */
function overlapSeconds(spans: Span[], cover: Span[]): number {
  let sum = 0;
  for (const s of spans) for (const c of cover) sum += Math.max(0, Math.min(s.endSecond, c.endSecond) - Math.max(s.startSecond, c.startSecond));
  return sum;
}

/** [0, seconds) without `cut`: the kept pieces in order, each with where it starts in the cut video. */
function keptPieces(seconds: number, cut: Span[]): (Span & { at: number })[] {
  const sorted = [...cut].sort((a, b) => a.startSecond - b.startSecond);
  const pieces: (Span & { at: number })[] = [];
  let from = 0;
  let at = 0;
  for (const c of [...sorted, { startSecond: seconds, endSecond: seconds }]) {
    const to = Math.min(seconds, Math.max(from, c.startSecond));
    if (to > from) {
      pieces.push({ startSecond: from, endSecond: to, at });
      at += to - from;
    }
    from = Math.max(from, c.endSecond);
  }
  return pieces;
}

type Days = Awaited<ReturnType<typeof demoCameraDays>>;

/**
 * Day 1 with `left`'s spans cut out, stored as a video of the camera at a time nobody marked, and
 * people's markups of the other operations moved onto it. Returns the video and its length, s.
 */
async function dayOneWithout(days: Days, left: number, slot: number) {
  const { db, storage } = demo.t.deps;
  const { dayOne, camera } = days;
  const marked = await peopleSpans(demo.t, days, dayOne, VIDEO_SECONDS);
  const pieces = keptPieces(
    VIDEO_SECONDS,
    marked.filter((m) => m.operationId === left),
  );
  const seconds = pieces.reduce((n, p) => n + p.endSecond - p.startSecond, 0);
  const keep = pieces.map((p) => `between(t,${p.startSecond},${p.endSecond - 0.001})`).join('+');
  const { ffmpeg } = await mediaTools();
  const file = join(demo.scratch, `without-${left}.mp4`);
  await run(ffmpeg, [
    '-y',
    '-loglevel',
    'error',
    '-i',
    await storage.local(dayOne.storage_key),
    '-vf',
    `select='${keep}',setpts=N/FRAME_RATE/TB`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '18',
    '-an',
    file,
  ]);
  const key = `recordings/unseen/without-${left}.mp4`;
  await storage.put(key, readFileSync(file));
  const start = dayOne.start_time + 40 * DAY_MS + slot * 3_600_000;
  expect(await peopleSpans(demo.t, days, { start_time: start }, seconds)).toEqual([]);
  const now = Date.now();
  const video = await db
    .insertInto('videos')
    .values({
      camera_id: camera.id,
      filename: `day1_without_${left}.mp4`,
      storage_key: key,
      content_hash: null,
      size_bytes: null,
      start_time: start,
      duration: seconds,
      status: 'ready',
      comment: '',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const m of marked) {
    if (m.operationId === left || !days.operations.some((o) => o.id === m.operationId)) continue;
    for (const p of pieces) {
      const from = Math.max(m.startSecond, p.startSecond);
      const to = Math.min(m.endSecond, p.endSecond);
      if (to - from < 0.01) continue;
      await db
        .insertInto('markups')
        .values({
          structure_id: days.structure.id,
          operation_id: m.operationId,
          workplace_id: days.workplace.id,
          employee_id: null,
          start_time: Math.round(start + (p.at + from - p.startSecond) * 1000),
          end_time: Math.round(start + (p.at + to - p.startSecond) * 1000),
          video_id: video.id,
          author_id: null,
          source: 'manual',
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
  }
  return { videoId: video.id, seconds };
}

/** The model applied to day 2 as the applying job applies it: what it says over `left`'s true spans, and F1 of its operations elsewhere. */
async function onDayTwo(days: Days, left: number, model: { spec: VisionSpec; onnx: Uint8Array }) {
  const { spec, onnx } = model;
  const truth = (await peopleSpans(demo.t, days, days.dayTwo, VIDEO_SECONDS)).map((m) => ({ ...m, endSecond: Math.min(VIDEO_SECONDS, m.endSecond) }));
  const unseen = truth.filter((m) => m.operationId === left);
  const unseenSeconds = unseen.reduce((n, s) => n + s.endSecond - Math.max(0, s.startSecond), 0);
  expect(unseenSeconds, 'seconds of the left-out operation on day 2').toBeGreaterThan(5);
  const out = await applyOperationModel({
    video: { file: await demo.t.deps.storage.local(days.dayTwo.storage_key), width: spec.source.width, height: spec.source.height },
    startSecond: 0,
    endSecond: VIDEO_SECONDS,
    onnx,
    spec,
  });
  const uncertain = overlapSeconds(unseen, out.uncertain) / unseenSeconds;
  const asOperation = overlapSeconds(unseen, out.segments) / unseenSeconds;
  const perOperation = new Map<string, number>();
  for (const s of out.segments) {
    const seconds = overlapSeconds(unseen, [s]);
    if (seconds > 0) perOperation.set(spec.classes[s.classIndex]!.name, (perOperation.get(spec.classes[s.classIndex]!.name) ?? 0) + seconds);
  }

  // Step F1 of the model's operations off X's time (people's markups of its operations; X's steps left out).
  const classOf = (id: number) => spec.classes.findIndex((c) => c.operationId === id);
  const labels = stepLabels(
    out.steps,
    0,
    spec.fps,
    truth.filter((m) => classOf(m.operationId) > 0).map((m) => ({ classIndex: classOf(m.operationId), startSecond: m.startSecond, endSecond: m.endSecond })),
  );
  const predicted = argmaxRows(out.probabilities, spec.classes.length);
  const off = Array.from({ length: out.steps }, (_, i) => i).filter((i) => !unseen.some((s) => i / spec.fps >= s.startSecond && i / spec.fps < s.endSecond));
  const evaluation = evaluateLabels(
    off.map((i) => labels[i]!),
    off.map((i) => predicted[i]!),
    spec.classes.length,
  );
  const f1 = spec.classes.slice(1).map((c, i) => ({ name: c.name, f1: evaluation.perClass[i + 1]!.f1, support: evaluation.perClass[i + 1]!.support }));
  const knownSeconds = VIDEO_SECONDS - unseenSeconds;
  // «Не уверена» off X's time: work the model did see must not become «не уверена» wholesale.
  const uncertainElsewhere = (out.uncertain.reduce((n, u) => n + u.endSecond - u.startSecond, 0) - overlapSeconds(unseen, out.uncertain)) / knownSeconds;
  return { unseenSeconds, uncertain, asOperation, background: 1 - uncertain - asOperation, perOperation, f1, uncertainElsewhere };
}

const pct = (v: number) => `${Math.round(v * 100)} %`;

describe('demo scene: an operation the model never saw', () => {
  it('says «не уверена» over an operation it never saw, and keeps the work it saw an answer with F1 ≥ 0.9', async () => {
    const days = await demoCameraDays(demo.t);
    const table: string[] = [];
    const measured: ({ variant: string; left: string; worstF1: number } & Awaited<ReturnType<typeof onDayTwo>>)[] = [];
    for (const [slot, left] of days.operations.entries()) {
      const others = days.operations.filter((o) => o.id !== left.id).map((o) => o.id);
      const cut = await dayOneWithout(days, left.id, slot);
      const variants = [
        {
          variant: 'не видела',
          training: { markedVideoId: cut.videoId, endSecond: Math.floor(cut.seconds), operationIds: others, comment: `без «${left.name}»` },
        },
        { variant: 'прочая работа', training: { endSecond: VIDEO_SECONDS, operationIds: others, comment: `«${left.name}» — прочая работа` } },
      ];
      for (const { variant, training } of variants) {
        // Day 2 as the job's test span: the whole of day 1 goes to training and early stopping, as in cross-day.test.ts.
        const model = await trainedDemoModel(demo.t, demo.call, days, {
          ...training,
          test: { video_id: days.dayTwo.id, start_second: 0, end_second: VIDEO_SECONDS },
        });
        expect(model.spec.classes.map((c) => c.operationId)).toEqual([null, ...others]);
        const day2 = await onDayTwo(days, left.id, model);
        for (const o of day2.f1) expect(o.support, `steps of «${o.name}» on day 2`).toBeGreaterThan(0);
        const worst = day2.f1.reduce((w, o) => (o.f1 < w.f1 ? o : w));
        const written = [...day2.perOperation].map(([name, s]) => `«${name}» ${s.toFixed(0)} с`).join(', ') || '—';
        table.push(
          `| «${left.name}» | ${variant} | ${day2.unseenSeconds.toFixed(0)} с | ${pct(day2.uncertain)} | ${pct(day2.background)} | ${pct(day2.asOperation)} (${written}) | ${worst.f1.toFixed(2)} («${worst.name}») | ${pct(day2.uncertainElsewhere)} |`,
        );
        measured.push({ variant, left: left.name, ...day2, worstF1: worst.f1 });
      }
    }
    console.log(
      [
        '| оставлена вне модели | как | её время 17.11 | «не уверена» | «Фон (прочее)» | записано операцией модели | худший F1 других операций 17.11 | «не уверена» на их времени |',
        '|---|---|---|---|---|---|---|---|',
        ...table,
      ].join('\n'),
    );
    expect(measured.length).toBe(2 * days.operations.length);
    for (const m of measured) {
      const what = `«${m.left}», ${m.variant}`;
      // Work the model saw stays an answer on the other day: «не уверена» on ≤ 10 % of it (measured 0 %).
      expect(m.uncertainElsewhere, `${what}: «не уверена» off X's time`).toBeLessThanOrEqual(0.1);
      // Never seen: «не уверена» over ≥ 90 % of X's time (measured 99–100 %); seen as other work: «Фон (прочее)»
      // over ≥ 90 % of it (measured 99–100 %, softmax regression); either way ≤ 5 % of it written as an operation (measured 0–1 %) ...
      if (m.variant === 'не видела') expect(m.uncertain, `${what}: share «не уверена»`).toBeGreaterThanOrEqual(0.9);
      else expect(m.background, `${what}: share «Фон (прочее)»`).toBeGreaterThanOrEqual(0.9);
      expect(m.asOperation, `${what}: share written as an operation`).toBeLessThanOrEqual(0.05);
      // ... and the operations it saw keep step F1 ≥ 0.9 on day 2 off X's time (measured 1.00).
      for (const o of m.f1) expect(o.f1, `${what}: F1 of «${o.name}» on day 2`).toBeGreaterThanOrEqual(0.9);
    }
  });
});
