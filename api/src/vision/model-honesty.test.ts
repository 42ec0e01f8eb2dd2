import { SCENE_AREAS, type SceneOperation, type SceneSegment } from '../../../workers/test-support/vision-scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { markedScene } from '../../test-support/marked-scene';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { applyMessage } from './apply.job';

/**
 * Issue 43: a model is honest about what it knows. The synthetic scene shows A and B (red box in
 * the left area) and pauses for 60 s, then 15 s of C (a blue box in the right area) the model never
 * saw, then A and B again. People's markups cover A and B before 60 s. Training refuses a span
 * without other work; the model says «не уверена» over C instead of calling it A or B; every count
 * of an applying is what was written, in the right Russian plural; a rejected segment stays
 * rejected when the same model is applied again, and a new model brings it back marked.
 */
let t: TestApp;
let w: VideoWorld;
let videoId: number;
let areaIds: number[];
let operationIds: Record<Exclude<SceneOperation, 'idle'>, number>;
const SECONDS = 90;
const HALF = 60;
const START = Date.UTC(2024, 0, 10, 6, 0, 0);

/** A (5 s), pause (4 s), B (5 s), pause (4 s) … over [from, to). */
function cycle(from: number, to: number): SceneSegment[] {
  const order: [SceneOperation, number][] = [
    ['A', 5],
    ['idle', 4],
    ['B', 5],
    ['idle', 4],
  ];
  const out: SceneSegment[] = [];
  for (let at = from, i = 0; at < to; i++) {
    const [operation, seconds] = order[i % order.length]!;
    out.push({ operation, startSecond: at, endSecond: Math.min(to, at + seconds) });
    at += seconds;
  }
  return out;
}
const schedule: SceneSegment[] = [...cycle(0, HALF), { operation: 'C', startSecond: HALF, endSecond: 75 }, ...cycle(75, SECONDS)];

const call = async (method: string, path: string, body?: unknown) => {
  const response = await t.request(path, { method, cookie: w.cookies.admin, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  return { status: response.status, body: text && json ? JSON.parse(text) : text };
};

const drain = async () => {
  const runner = startWorkers(t.deps, { pollMs: 50 });
  await runner.drain();
  await runner.stop();
};

const job = (id: number) => t.deps.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const trainingBody = (start: number, end: number) => ({
  workplace_id: w.workplaceIds[0],
  operation_ids: [operationIds.A, operationIds.B],
  marked_video_id: videoId,
  video_area_ids: areaIds,
  start_second: start,
  end_second: end,
  comment: 'честность модели',
});

async function train(start = 0, end = HALF): Promise<number> {
  const started = await call('POST', '/api/v1/start_marker_training', trainingBody(start, end));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await drain();
  expect((await call('GET', `/api/v1/model/${started.body.model_id}`)).body.meta.status).toBe('trained');
  return started.body.model_id as number;
}

interface ApplyResult {
  markups: number;
  found: number;
  under_people: number;
  replaced: number;
  rejected: number;
  rejected_before: number;
  steps: number;
  uncertain_steps: number;
  uncertain_seconds: number;
  uncertain: { start_second: number; end_second: number }[];
  message: string;
}

async function apply(modelId: number, start: number, end: number): Promise<ApplyResult> {
  const started = await call('POST', '/api/v1/start_marker_applying', { model_id: modelId, unmarked_video_id: videoId, start_second: start, end_second: end });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await drain();
  const done = await job(started.body.job_id);
  expect(done.error).toBeNull();
  expect(done.status).toBe('success');
  return JSON.parse(done.result!) as ApplyResult;
}

const layer = (modelId: number) =>
  t.deps.db
    .selectFrom('markups')
    .selectAll()
    .where('video_id', '=', videoId)
    .where('source', '=', 'model')
    .where('model_id', '=', modelId)
    .orderBy('start_time')
    .execute();

/** Seconds of [from, to) (from the video's start) that the model's layer covers. */
async function covered(modelId: number, from: number, to: number): Promise<number> {
  let ms = 0;
  for (const row of await layer(modelId)) ms += Math.max(0, Math.min(row.end_time, START + to * 1000) - Math.max(row.start_time, START + from * 1000));
  return ms / 1000;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  ({ videoId, operationIds } = await markedScene(t, w, schedule, { start: START, seconds: SECONDS, half: HALF }));
  areaIds = [];
  for (const [name, rect] of Object.entries(SCENE_AREAS)) {
    const added = await call('POST', '/api/v1/video-area', { camera_id: w.cameraIds[0], name, ...rect });
    expect(added.status).toBe(200);
    areaIds.push(added.body.id as number);
  }
});
afterAll(async () => t.cleanup());

describe('training always sees other work', () => {
  it('a span without «Фон (прочее)» is refused at the call with the reason, and nothing is queued', async () => {
    const models = async () => (await t.deps.db.selectFrom('models').select('id').execute()).length;
    const before = await models();
    // 0–5 s is all A; 0–9 s has 4 s of pause, under the 5 s minimum.
    for (const [start, end, other] of [
      [0, 5, '0 с из 5 с'],
      [0, 9, '4 с из 9 с'],
    ] as const) {
      const refused = await call('POST', '/api/v1/start_marker_training', trainingBody(start, end));
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('Модели не на чем узнать прочую работу');
      expect(refused.body.error.message).toContain(other);
    }
    expect(await models()).toBe(before);
  });

  it('a job whose span lost its other work meanwhile fails with the same reason', async () => {
    const started = await call('POST', '/api/v1/start_marker_training', trainingBody(0, 18));
    expect(started.status).toBe(200);
    // The pauses of 0–18 s are marked as A after queueing: no other work is left.
    const now = Date.now();
    const ids = [];
    for (const [from, to] of [
      [5, 9],
      [14, 18],
    ]) {
      const row = await t.deps.db
        .insertInto('markups')
        .values({
          structure_id: w.structureId,
          operation_id: operationIds.A,
          workplace_id: w.workplaceIds[0]!,
          employee_id: w.employeeId,
          start_time: START + from! * 1000,
          end_time: START + to! * 1000,
          video_id: videoId,
          author_id: w.admin.id,
          source: 'manual',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    await drain();
    const failed = await job(started.body.job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('Модели не на чем узнать прочую работу');
    const model = (await call('GET', `/api/v1/model/${started.body.model_id}`)).body.meta;
    expect(model).toMatchObject({ status: 'failed', object_storage_key: null });
    expect(model.error).toContain('Модели не на чем узнать прочую работу');
    await t.deps.db.deleteFrom('markups').where('id', 'in', ids).execute();
  });
});

describe('an applied model is honest', () => {
  let modelId: number;

  beforeAll(async () => {
    modelId = await train();
  });

  it('work it never saw is «не уверена», not a chosen operation; work it saw is not', async () => {
    const trained = JSON.parse((await job((await call('GET', `/api/v1/model/${modelId}`)).body.meta.job_id)).result!);
    expect(trained.uncertain_share).toBeLessThan(0.1);
    const unseen = await apply(modelId, HALF, 75);
    // Most of the 15 s of C: «не уверена»; almost none of it written as A or B.
    expect(unseen.uncertain_seconds / 15).toBeGreaterThanOrEqual(0.7);
    expect(unseen.uncertain_steps / unseen.steps).toBeGreaterThanOrEqual(0.7);
    expect(await covered(modelId, HALF, 75)).toBeLessThanOrEqual(15 * 0.3);
    expect(unseen.message).toMatch(/модель не уверена на \d+(,\d)? с/);
    // «Не уверена» spans lie within the applied span and none is an operation row.
    for (const u of unseen.uncertain) {
      expect(u.start_second).toBeGreaterThanOrEqual(HALF);
      expect(u.end_second).toBeLessThanOrEqual(75);
    }
    const seen = await apply(modelId, 75, SECONDS);
    expect(seen.uncertain_seconds / 15).toBeLessThan(0.2);
    expect(seen.markups).toBeGreaterThanOrEqual(2);
  });

  it('applying over people’s markup writes none and says so, with true counts', async () => {
    const result = await apply(modelId, 0, HALF);
    expect(result.found).toBeGreaterThan(0);
    expect(result.markups).toBe(0);
    expect(result.under_people).toBe(result.found);
    expect(await covered(modelId, 0, HALF)).toBe(0);
    expect(result.message).toContain('не записала ни одного отрезка');
    expect(result.message).toContain(
      applyMessage('', { ...zero, underPeople: result.found }, none)
        .split('; ')[1]!
        .replace(/\.$/, ''),
    );
    // The video's history says the same.
    const history = await t.deps.db.selectFrom('activities').select('comment').where('video_id', '=', videoId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(history.comment).toBe(result.message);
  });

  it('every count in the text has its Russian plural', () => {
    const text = (n: number) =>
      applyMessage('М', { ...zero, written: n, replaced: n, underPeople: n, rejected: n, rejectedBefore: n }, { seconds: 2.5, spans: n });
    expect(text(1)).toBe(
      'Модель «М» записала 1 отрезок на проверку; заменён 1 отрезок её прежнего применения; 1 отрезок не записан: там уже есть разметка людей; ' +
        '1 отрезок не записан: там отрезок этой модели уже отклонили; 1 отрезок с отметкой «отклонён в прошлой версии»; ' +
        'модель не уверена на 2,5 с (1 отрезок): такая работа не похожа на то, чему её учили, и операцией не записана.',
    );
    expect(text(2)).toContain('записала 2 отрезка на проверку; заменены 2 отрезка её прежнего применения; 2 отрезка не записаны: там уже есть разметка людей');
    expect(text(5)).toContain(
      'записала 5 отрезков на проверку; заменено 5 отрезков её прежнего применения; 5 отрезков не записано: там уже есть разметка людей',
    );
    expect(text(21)).toContain('записала 21 отрезок на проверку; заменён 21 отрезок её прежнего применения; 21 отрезок не записан');
    expect(text(12)).toContain('записала 12 отрезков');
    expect(applyMessage('М', zero, none)).toBe('Модель «М» не записала ни одного отрезка.');
  });

  it('re-applying replaces and says how many; a rejected segment is not brought back; a new model brings it marked', async () => {
    const first = (await layer(modelId)).filter((r) => r.start_time >= START + 75_000);
    const again = await apply(modelId, 75, SECONDS);
    expect(again).toMatchObject({ replaced: first.length, markups: first.length, rejected: 0 });
    expect(again.message).toContain(`записала ${first.length} `);

    // A person rejects one segment (deletes it unreviewed) on the markup screen; only this model's layer lies after 75 s.
    const screen = (await call('GET', `/api/v1/video_markups/${videoId}`)).body;
    const target = screen.video_markups.find((m: { source: string; start_time: number }) => m.source === 'model' && m.start_time >= 75);
    const save = await call('PUT', `/api/v1/video_markups/${videoId}`, {
      video_markups: [],
      operation_markups_to_delete: [target.id],
      video_stamps: [],
      video_stamps_to_delete: [],
      base_version: screen.version,
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    const remembered = await t.deps.db.selectFrom('model_rejections').selectAll().execute();
    expect(remembered).toHaveLength(1);
    const rejection = remembered[0]!;
    expect(rejection).toMatchObject({ model_id: modelId, video_id: videoId, operation_id: target.operation_id, rejected_by: w.admin.id });

    const overlaps = <R extends { start_time: number; end_time: number }>(rows: R[]) =>
      rows.filter((r) => Math.min(r.end_time, rejection.end_time) - Math.max(r.start_time, rejection.start_time) > 0);
    const reapplied = await apply(modelId, 75, SECONDS);
    expect(reapplied).toMatchObject({ rejected: 1, replaced: first.length - 1, markups: first.length - 1 });
    expect(reapplied.message).toContain('1 отрезок не записан: там отрезок этой модели уже отклонили');
    expect(overlaps(await layer(modelId))).toEqual([]);

    // A new version (another model trained the same way) may bring it back, marked.
    const newer = await train();
    const fresh = await apply(newer, 75, SECONDS);
    expect(fresh.rejected).toBe(0);
    expect(fresh.rejected_before).toBe(1);
    const marked = overlaps(await layer(newer));
    expect(marked).toHaveLength(1);
    expect(marked[0]!.comment).toBe(`Модель ${newer}: отклонён в прошлой версии`);
    expect(marked[0]!.operation_id).toBe(rejection.operation_id);
    expect((await layer(newer)).filter((r) => r.comment?.includes('отклонён'))).toHaveLength(1);
  });
});

const zero = { found: 0, written: 0, underPeople: 0, replaced: 0, rejected: 0, rejectedBefore: 0 };
const none = { seconds: 0, spans: 0 };
