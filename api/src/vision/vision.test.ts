import { makeSceneClip, SCENE_AREAS, sceneOperationAt, sceneSchedule, type SceneOperation } from '../../../workers/test-support/vision-scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { markedScene } from '../../test-support/marked-scene';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { VISION_MESSAGES } from './schema';
import { modelKey } from './service';
import { untilState } from '../../../tests/support/wait';

/**
 * Issue 14 end to end over the API: a synthetic 640×360 video whose operations are visually
 * distinct (workers/test-support/vision-scene.ts), markups on the first half, training, applying to the
 * second half and the F1 of the model's markups against the known truth, second by second.
 */
let t: TestApp;
let w: VideoWorld;
let videoId: number;
let operationIds: Record<Exclude<SceneOperation, 'idle'>, number>;
const SECONDS = 90;
const HALF = 45;
const START = Date.UTC(2024, 0, 10, 6, 0, 0);
const schedule = sceneSchedule(SECONDS);

const call = async (method: string, path: string, who: keyof VideoWorld['cookies'] | null, body?: unknown) => {
  const response = await t.request(path, { method, cookie: who ? w.cookies[who] : undefined, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  ({ videoId, operationIds } = await markedScene(t, w, schedule, { start: START, seconds: SECONDS, half: HALF }));
});
afterAll(async () => t.cleanup());

let areaIds: number[] = [];

describe('video areas', () => {
  it('refuses an area without a name or a rectangle with the spec texts, and other roles and organisations', async () => {
    const camera_id = w.cameraIds[0]!;
    const noName = await call('POST', '/api/v1/video-area', 'admin', { camera_id, name: ' ', ...SCENE_AREAS.left });
    expect(noName).toMatchObject({ status: 400, body: { error: { message: VISION_MESSAGES.needAreaName } } });
    const noRectangle = await call('POST', '/api/v1/video-area', 'admin', { camera_id, name: 'Левая', x1: 1, y1: 2, x2: null, y2: 5 });
    expect(noRectangle).toMatchObject({ status: 400, body: { error: { message: VISION_MESSAGES.needAreaRectangle } } });
    expect((await call('POST', '/api/v1/video-area', 'viewer', { camera_id, name: 'Левая', ...SCENE_AREAS.left })).status).toBe(403);
    expect((await call('POST', '/api/v1/video-area', 'rival', { camera_id, name: 'Левая', ...SCENE_AREAS.left })).status).toBe(404);
    expect((await call('GET', `/api/v1/video-areas?video_id=${videoId}`, 'rival')).status).toBe(404);
    expect((await call('GET', `/api/v1/video-areas?video_id=${videoId}`, 'viewer')).body).toEqual({ video_areas: [] });
  });

  it('adds areas (corners ordered) and lists them for the video', async () => {
    const left = await call('POST', '/api/v1/video-area', 'admin', { camera_id: w.cameraIds[0], name: 'Левая', ...SCENE_AREAS.left });
    const { x1, y1, x2, y2 } = SCENE_AREAS.right;
    const right = await call('POST', '/api/v1/video-area', 'admin', { camera_id: w.cameraIds[0], name: 'Правая', x1: x2, y1: y2, x2: x1, y2: y1 });
    expect(right.body).toMatchObject({ name: 'Правая', ...SCENE_AREAS.right });
    areaIds = [left.body.id, right.body.id];
    const list = await call('GET', `/api/v1/video-areas?video_id=${videoId}`, 'viewer');
    expect(list.body.video_areas.map((a: { id: number }) => a.id)).toEqual(areaIds);
    expect((await call('DELETE', '/api/v1/video-area/999999', 'admin')).body.error.message).toBe(VISION_MESSAGES.areaMissing);
  });
});

describe('training and applying', () => {
  let modelId: number;
  const training = () => ({
    workplace_id: w.workplaceIds[0],
    operation_ids: [operationIds.A, operationIds.B, operationIds.C],
    marked_video_id: videoId,
    video_area_ids: areaIds,
    start_second: 0,
    end_second: HALF,
    comment: 'синтетика',
  });
  const jobOf = (id: number) => t.deps.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('refuses training without a workplace, for a viewer, for another organisation and without markups', async () => {
    const noWorkplace = await call('POST', '/api/v1/start_marker_training', 'admin', { ...training(), workplace_id: null });
    expect(noWorkplace).toMatchObject({ status: 400, body: { error: { message: VISION_MESSAGES.chooseWorkplace } } });
    expect((await call('POST', '/api/v1/start_marker_training', 'viewer', training())).status).toBe(403);
    expect((await call('POST', '/api/v1/start_marker_training', 'rival', training())).status).toBe(404);
    const unmarked = await call('POST', '/api/v1/start_marker_training', 'admin', { ...training(), start_second: HALF, end_second: SECONDS });
    expect(unmarked.status).toBe(400);
    expect(await t.deps.db.selectFrom('models').selectAll().execute()).toHaveLength(0);
  });

  it('trains: the job succeeds, the ONNX file is in the object store, the report has per-operation F1', async () => {
    const started = await call('POST', '/api/v1/start_marker_training', 'admin', training());
    expect(started.status).toBe(200);
    modelId = started.body.model_id;
    const runner = startWorkers(t.deps, { pollMs: 50 });
    await runner.drain();
    await runner.stop();
    const job = await jobOf(started.body.job_id);
    expect(job.error).toBeNull();
    expect(job.status).toBe('success');
    // Test steps: interleaved blocks of the span that neither fitting nor early stopping used (issue 25).
    const result = JSON.parse(job.result!);
    const heldOut = result.held_out as {
      operation_id: number | null;
      f1: number;
      steps: number;
      train_steps: number;
      segment_f1: number;
      baseline_f1: number;
    }[];
    expect(heldOut.map((h) => h.operation_id)).toEqual([null, ...Object.values(operationIds).sort((a, b) => a - b)]);
    expect(result.test.source).toBe('blocks');
    expect(result.train_steps + result.validation_steps + result.test.steps).toBe(result.steps);
    expect(heldOut.reduce((n, h) => n + h.steps, 0)).toBe(result.test.steps);
    // Every operation is trained on; one that no test block holds is named in a warning, never scored as if tested.
    const names: Record<number, string> = { [operationIds.A]: 'Сборка с движением', [operationIds.B]: 'Контроль на месте', [operationIds.C]: 'Работа справа' };
    for (const h of heldOut.filter((x) => x.operation_id !== null)) {
      expect(h.train_steps, `train steps of ${h.operation_id}`).toBeGreaterThan(0);
      if (h.steps === 0) expect(result.warnings.join(' ')).toContain(`Операция «${names[h.operation_id!]}»: нет шагов для проверки`);
      else expect(h.f1).toBeGreaterThan(0);
    }
    expect(heldOut.filter((h) => h.operation_id !== null && h.steps > 0).length).toBeGreaterThanOrEqual(2);
    // Short test blocks are a hard, honest test; the model still beats the constant answer clearly.
    expect(result.accuracy).toBeGreaterThan(0.7);
    expect(result.accuracy).toBeGreaterThan(result.baseline.accuracy + 0.2);
    expect(result.edit_score).toBeGreaterThan(0);
    expect(result.warnings.join(' ')).not.toMatch(/нет ни одного шага|не лучше постоянного/);

    const { models } = (await call('GET', `/api/v1/models?video_id=${videoId}`, 'viewer')).body;
    expect(models).toHaveLength(1);
    const [model] = models;
    expect(model).toMatchObject({
      workplace_name: 'Стол № 1',
      meta: {
        id: modelId,
        completion_percentage: 100,
        status: 'trained',
        operation_ids: Object.values(operationIds).sort((a, b) => a - b),
        video_area_ids: areaIds,
      },
    });
    expect(model.meta.object_storage_key).toMatch(/\.onnx$/);
    expect(await t.deps.storage.exists(model.meta.object_storage_key)).toBe(true);
    const bytes = new Uint8Array(await t.deps.storage.file(model.meta.object_storage_key).arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    expect(model.meta.report).toContain('F1');
    expect(model.meta.report).toContain('Контроль на месте');
    expect(model.meta.report).toContain('Матрица ошибок');
    expect(model.meta.report).toContain('Постоянный ответ');
    expect(model.meta.report).toContain('F1 отрезков@0,5');
    expect(model.meta.report).toContain('edit score');
    expect((await call('GET', `/api/v1/model/${modelId}`, 'viewer')).body.meta.report).toBe(model.meta.report);
    expect((await call('GET', `/api/v1/model/${modelId}`, 'rival')).body.error.message).toBe(VISION_MESSAGES.modelMissing);
  });

  it('evaluates on another video of the camera when asked, and says so in the report and the result', async () => {
    const key = 'recordings/site/cam1/scene-next-day.mp4';
    await makeSceneClip(t.deps.storage.pathOf(key), schedule, { fps: 10 });
    const nextDay = START + 86_400_000;
    const otherId = await insertVideo(t.deps.db, w.cameraIds[0]!, { filename: 'scene-next-day.mp4', start: nextDay, duration: SECONDS, key });
    const now = Date.now();
    for (const segment of schedule.filter((s) => s.operation !== 'idle' && s.startSecond < 30))
      await t.deps.db
        .insertInto('markups')
        .values({
          structure_id: w.structureId,
          operation_id: operationIds[segment.operation as 'A'],
          workplace_id: w.workplaceIds[0]!,
          employee_id: w.employeeId,
          start_time: nextDay + segment.startSecond * 1000,
          end_time: nextDay + Math.min(30, segment.endSecond) * 1000,
          video_id: otherId,
          author_id: w.admin.id,
          source: 'manual',
          created_at: now,
          updated_at: now,
        })
        .execute();
    const same = await call('POST', '/api/v1/start_marker_training', 'admin', { ...training(), test: { video_id: videoId, start_second: 0, end_second: 30 } });
    expect(same.status).toBe(400);
    const started = await call('POST', '/api/v1/start_marker_training', 'admin', {
      ...training(),
      test: { video_id: otherId, start_second: 0, end_second: 30 },
    });
    expect(started.status).toBe(200);
    const runner = startWorkers(t.deps, { pollMs: 50 });
    await runner.drain();
    await runner.stop();
    const job = await jobOf(started.body.job_id);
    expect(job.error).toBeNull();
    const result = JSON.parse(job.result!);
    expect(result.test.source).toBe('other');
    expect(result.test.steps).toBeGreaterThanOrEqual(30 * 5);
    expect(result.test.description).toContain('scene-next-day.mp4');
    // Independent count: test steps per class from the next day's markups at the step instants.
    const labelAt = (second: number) => {
      const s = schedule.find((x) => second >= x.startSecond && second < Math.min(30, x.endSecond));
      return !s || s.operation === 'idle' ? null : operationIds[s.operation as 'A'];
    };
    for (const h of result.held_out as { operation_id: number | null; steps: number }[]) {
      const expected = Array.from({ length: result.test.steps }, (_, i) => labelAt(i / 5)).filter((l) => l === h.operation_id).length;
      expect(h.steps, `steps of ${h.operation_id}`).toBe(expected);
    }
    const report = (await call('GET', `/api/v1/model/${started.body.model_id}`, 'viewer')).body.meta.report as string;
    expect(report).toContain('видео «scene-next-day.mp4», 0–30 с');
    await call('DELETE', `/api/v1/model/${started.body.model_id}`, 'admin');
    await t.deps.db.deleteFrom('markups').where('video_id', '=', otherId).execute();
  });

  const modelMarkups = () =>
    t.deps.db.selectFrom('markups').selectAll().where('model_id', '=', modelId).where('video_id', '=', videoId).orderBy('start_time').execute();

  it('applies to the unmarked second half: markups by the model with F1 ≥ 0.9 per operation, second by second', async () => {
    expect(
      (
        await call('POST', '/api/v1/start_marker_applying', 'viewer', {
          model_id: modelId,
          unmarked_video_id: videoId,
          start_second: HALF,
          end_second: SECONDS,
        })
      ).status,
    ).toBe(403);
    expect(
      (await call('POST', '/api/v1/start_marker_applying', 'rival', { model_id: modelId, unmarked_video_id: videoId, start_second: HALF, end_second: SECONDS }))
        .status,
    ).toBe(404);
    const started = await call('POST', '/api/v1/start_marker_applying', 'admin', {
      model_id: modelId,
      unmarked_video_id: videoId,
      start_second: HALF,
      end_second: SECONDS,
    });
    expect(started.status).toBe(200);
    expect(started.body.message).toContain('scene.mp4');
    const runner = startWorkers(t.deps, { pollMs: 50 });
    await runner.drain();
    await runner.stop();
    expect((await jobOf(started.body.job_id)).status).toBe('success');

    const rows = await modelMarkups();
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(row).toMatchObject({ source: 'model', author_id: null, workplace_id: w.workplaceIds[0] });
      expect(row.start_time).toBeGreaterThanOrEqual(START + HALF * 1000);
    }
    const names = Object.fromEntries(Object.entries(operationIds).map(([k, v]) => [v, k]));
    const predictedAt = (second: number) => {
      const at = START + second * 1000;
      const row = rows.find((r) => at >= r.start_time && at < r.end_time);
      return row ? names[row.operation_id] : 'idle';
    };
    for (const operation of ['A', 'B', 'C'] as const) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (let s = HALF; s < SECONDS; s++) {
        const truth = sceneOperationAt(schedule, s + 0.5) === operation;
        const predicted = predictedAt(s + 0.5) === operation;
        if (truth && predicted) tp++;
        else if (predicted) fp++;
        else if (truth) fn++;
      }
      const f1 = (2 * tp) / (2 * tp + fp + fn);
      expect(f1, `F1 of ${operation}`).toBeGreaterThanOrEqual(0.9);
    }
    const meta = (await call('GET', `/api/v1/model/${modelId}`, 'viewer')).body.meta;
    expect(meta.applied_at).not.toBeNull();
    expect(meta.apply_status).toBe('success');
  });

  it('applying again replaces the model’s own markups in the span (a rerun is idempotent)', async () => {
    const before = (await modelMarkups()).map((r) => [r.operation_id, r.start_time, r.end_time]);
    await call('POST', '/api/v1/start_marker_applying', 'admin', { model_id: modelId, unmarked_video_id: videoId, start_second: HALF, end_second: SECONDS });
    const runner = startWorkers(t.deps, { pollMs: 50 });
    await runner.drain();
    await runner.stop();
    expect((await modelMarkups()).map((r) => [r.operation_id, r.start_time, r.end_time])).toEqual(before);
  });

  const cancelJob = (id: number, who: keyof VideoWorld['cookies']) => call('POST', `/api/v1/jobs/${id}/cancel`, who);
  const progressOf = async (id: number) => (await jobOf(id)).progress;

  it('cancels a running training: the job and the model show it, no model file is left; viewer 403, rival 404', async () => {
    const started = await call('POST', '/api/v1/start_marker_training', 'admin', { ...training(), comment: 'отменят' });
    const jobId: number = started.body.job_id;
    const runner = startWorkers(t.deps, { pollMs: 50 });
    await expect.poll(() => progressOf(jobId), untilState(20)).toBeGreaterThan(0);
    expect((await cancelJob(jobId, 'viewer')).status).toBe(403);
    expect((await cancelJob(jobId, 'rival')).status).toBe(404);
    const cancelled = await cancelJob(jobId, 'admin');
    expect(cancelled).toMatchObject({ status: 200, body: { id: jobId, status: 'cancelled' } });
    await runner.drain();
    await runner.stop();
    expect(await jobOf(jobId)).toMatchObject({ status: 'cancelled', attempts: 1, result: null });
    const meta = (await call('GET', `/api/v1/model/${started.body.model_id}`, 'viewer')).body.meta;
    expect(meta).toMatchObject({ status: 'cancelled', object_storage_key: null, trained_at: null });
    expect(await t.deps.storage.exists(modelKey(w.admin.organizationId, started.body.model_id))).toBe(false);
    const finished = await cancelJob(jobId, 'admin');
    expect(finished.status).toBe(409);
    await call('DELETE', `/api/v1/model/${started.body.model_id}`, 'admin');
  });

  it('deleting a model cancels its queued training', async () => {
    const started = await call('POST', '/api/v1/start_marker_training', 'admin', training());
    expect((await call('DELETE', `/api/v1/model/${started.body.model_id}`, 'admin')).status).toBe(200);
    expect((await jobOf(started.body.job_id)).status).toBe('cancelled');
  });

  it('cancels a running applying: the model’s markups stay as they were', async () => {
    const before = await modelMarkups();
    const started = await call('POST', '/api/v1/start_marker_applying', 'admin', {
      model_id: modelId,
      unmarked_video_id: videoId,
      start_second: 0,
      end_second: SECONDS,
    });
    const runner = startWorkers(t.deps, { pollMs: 50 });
    await expect.poll(() => progressOf(started.body.job_id), untilState(20)).toBeGreaterThan(0);
    expect((await cancelJob(started.body.job_id, 'admin')).status).toBe(200);
    await runner.drain();
    await runner.stop();
    expect((await jobOf(started.body.job_id)).status).toBe('cancelled');
    expect(await modelMarkups()).toEqual(before);
    expect((await call('GET', `/api/v1/model/${modelId}`, 'viewer')).body.meta).toMatchObject({ status: 'trained', apply_status: 'cancelled' });
  });

  it('a corrupt model file fails the applying job with a clear error and changes no markups', async () => {
    const before = await modelMarkups();
    const row = await t.deps.db.selectFrom('models').select('object_storage_key').where('id', '=', modelId).executeTakeFirstOrThrow();
    await t.deps.storage.put(row.object_storage_key!, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    const started = await call('POST', '/api/v1/start_marker_applying', 'admin', {
      model_id: modelId,
      unmarked_video_id: videoId,
      start_second: HALF,
      end_second: SECONDS,
    });
    const runner = startWorkers(t.deps, { pollMs: 50 });
    await runner.drain();
    await runner.stop();
    const job = await jobOf(started.body.job_id);
    expect(job.status).toBe('failed');
    expect(job.attempts).toBe(1);
    expect(job.error).toMatch(/^Файл модели не читается/);
    expect((await call('GET', `/api/v1/model/${modelId}`, 'viewer')).body.meta.apply_error).toBe(job.error);
    expect(await modelMarkups()).toEqual(before);
  });

  it('deletes a model (viewer 403, then 404 with the spec text); its file goes', async () => {
    const row = await t.deps.db.selectFrom('models').select('object_storage_key').where('id', '=', modelId).executeTakeFirstOrThrow();
    expect((await call('DELETE', `/api/v1/model/${modelId}`, 'viewer')).status).toBe(403);
    expect((await call('DELETE', `/api/v1/model/${modelId}`, 'rival')).status).toBe(404);
    expect((await call('DELETE', `/api/v1/model/${modelId}`, 'admin')).body).toEqual({ deleted: modelId });
    expect(await t.deps.storage.exists(row.object_storage_key!)).toBe(false);
    expect((await call('DELETE', `/api/v1/model/${modelId}`, 'admin')).body.error.message).toBe(VISION_MESSAGES.modelMissing);
  });
});

describe('people on a frame', () => {
  it('finds the box as a blob by background subtraction (asked for by name), named honestly', async () => {
    const c = schedule.find((s) => s.operation === 'C')!;
    const second = (c.startSecond + c.endSecond) / 2;
    // The synthetic scene has boxes, not people: the default MoveNet is checked on real footage (humans-movenet.test.ts).
    const reply = await call('GET', `/api/v1/humans?video_id=${videoId}&second=${second}&detector=background-subtraction-blobs`, 'viewer');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ detector: 'background-subtraction-blobs', width: 640, height: 360 });
    const inRight = reply.body.humans.filter(
      (h: { location: { x: number; y: number } }) =>
        h.location.x > SCENE_AREAS.right.x1 && h.location.x < SCENE_AREAS.right.x2 && h.location.y > 120 && h.location.y < 240,
    );
    expect(inRight.length).toBeGreaterThanOrEqual(1);
    expect((await call('GET', `/api/v1/humans?video_id=${videoId}&second=${second}`, 'rival')).status).toBe(404);
    expect((await call('GET', `/api/v1/humans?video_id=${videoId}&second=5000`, 'viewer')).status).toBe(400);
  });
});

describe('stands, movables and locations', () => {
  it('keeps stands and bases of the organisation with the spec texts', async () => {
    const org = w.admin.organizationId;
    expect((await call('POST', '/api/v1/stands', 'admin', { organization_id: org, changed_stands: [{ name: 'Пресс' }] })).body.error.message).toBe(
      VISION_MESSAGES.chooseStand,
    );
    expect((await call('POST', '/api/v1/stands', 'admin', { organization_id: org, changed_stands: [{ name: ' ', kind: 'Базис' }] })).body.error.message).toBe(
      VISION_MESSAGES.needName,
    );
    expect((await call('POST', '/api/v1/stands', 'viewer', { organization_id: org, changed_stands: [{ name: 'Пресс', kind: 'Стенд' }] })).status).toBe(403);
    expect((await call('POST', '/api/v1/stands', 'rival', { organization_id: org, changed_stands: [{ name: 'Пресс', kind: 'Стенд' }] })).status).toBe(404);
    const saved = await call('POST', '/api/v1/stands', 'admin', {
      organization_id: org,
      changed_stands: [
        { name: 'Пресс', kind: 'Стенд' },
        { name: 'Угол цеха', kind: 'basis' },
      ],
    });
    expect(saved.body.stands.map((s: { name: string; kind: string }) => [s.name, s.kind])).toEqual([
      ['Пресс', 'stand'],
      ['Угол цеха', 'basis'],
    ]);
    const [press, corner] = saved.body.stands;
    expect(
      (await call('POST', '/api/v1/absolute_location', 'admin', { stand_id: corner.id, structure_id: w.structureId, x: null, y: 3 })).body.error.message,
    ).toBe(VISION_MESSAGES.needPoint);
    const absolute = await call('POST', '/api/v1/absolute_location', 'admin', { stand_id: corner.id, structure_id: w.structureId, x: 12.5, y: 3 });
    expect(absolute.body).toMatchObject({ stand_id: corner.id, x: 12.5, y: 3 });
    const all = await call('GET', `/api/v1/all_stands?video_id=${videoId}`, 'viewer');
    expect(all.body.stands.find((s: { id: number }) => s.id === corner.id)).toMatchObject({ x: 12.5, y: 3 });
    expect((await call('GET', `/api/v1/absolute_locations?structure_id=${w.structureId}`, 'viewer')).body.absolute_locations).toHaveLength(1);
    expect((await call('GET', `/api/v1/all_stands?video_id=${videoId}`, 'rival')).status).toBe(404);

    expect((await call('POST', '/api/v1/stand_location', 'admin', { camera_id: w.cameraIds[0], x: 1, y: 2 })).body.error.message).toBe(
      VISION_MESSAGES.chooseStand,
    );
    expect((await call('POST', '/api/v1/stand_location', 'admin', { stand_id: press.id, camera_id: w.cameraIds[0], x: 1 })).body.error.message).toBe(
      VISION_MESSAGES.needPoint,
    );
    const point = await call('POST', '/api/v1/stand_location', 'admin', { stand_id: press.id, camera_id: w.cameraIds[0], x: 101, y: 52, checkpoint_time: 12 });
    expect(point.body).toMatchObject({ name: 'Пресс', x: 101, y: 52, checkpoint_time: 12 });
    expect((await call('GET', `/api/v1/stand_locations?video_id=${videoId}`, 'viewer')).body.stand_locations).toHaveLength(1);
    expect((await call('DELETE', `/api/v1/stand_location/remove/${point.body.id}`, 'rival')).body.error.message).toBe(VISION_MESSAGES.locationMissing);
    expect((await call('DELETE', `/api/v1/stand_location/remove/${point.body.id}`, 'admin')).status).toBe(200);
    expect((await call('DELETE', `/api/v1/stand_location/remove/${point.body.id}`, 'admin')).body.error.message).toBe(VISION_MESSAGES.locationMissing);
    expect((await call('DELETE', `/api/v1/absolute_location/remove/${absolute.body.id}`, 'admin')).status).toBe(200);
  });

  it('keeps movables and their rectangles with the spec texts', async () => {
    const saved = await call('POST', '/api/v1/movables', 'admin', { changed_movables: [{ name: 'Тележка' }] });
    const cart = saved.body.movables[0];
    expect(cart.name).toBe('Тележка');
    expect((await call('POST', '/api/v1/movable_location', 'admin', { camera_id: w.cameraIds[0], x1: 1, y1: 1, x2: 5, y2: 5 })).body.error.message).toBe(
      VISION_MESSAGES.chooseObject,
    );
    expect(
      (await call('POST', '/api/v1/movable_location', 'admin', { movable_id: cart.id, camera_id: w.cameraIds[0], x1: 1, y1: 1, x2: 5 })).body.error.message,
    ).toBe(VISION_MESSAGES.needRectangle);
    const placed = await call('POST', '/api/v1/movable_location', 'admin', { movable_id: cart.id, camera_id: w.cameraIds[0], x1: 50, y1: 40, x2: 10, y2: 4 });
    expect(placed.body).toMatchObject({ x1: 10, y1: 4, x2: 50, y2: 40, name: 'Тележка' });
    expect((await call('GET', `/api/v1/movable_locations?video_id=${videoId}`, 'viewer')).body.movable_locations).toHaveLength(1);
    expect((await call('GET', `/api/v1/movables?video_id=${videoId}`, 'rival')).status).toBe(404);
    expect((await call('DELETE', `/api/v1/movable_location/remove/${placed.body.id}`, 'admin')).status).toBe(200);
  });
});
