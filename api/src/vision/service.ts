import type { z } from '@hono/zod-openapi';
import { sql, type Selectable } from 'kysely';
import { backgroundShortfall } from '@norma/workers/vision';
import type { SessionUser } from '../http/env';
import { subtractIntervals, UNREVIEWED_SOURCE, workplaceEmployee } from '../markup/model-layer.service';
import type { Db } from '../db/database';
import type { ModelsTable } from '../db/schema';
import { ApiError, badRequest, notFound } from '../http/errors';
import { CANCELLED_MESSAGE, endJobs, enqueueJob } from '../jobs/queue';
import type { ObjectStore } from '../storage/object-store';
import {
  VISION_MESSAGES as M,
  type AbsoluteLocationBody,
  type ApplyingBody,
  type ModelItem,
  type MovableLocationBody,
  type MovablesBody,
  type StandLocationBody,
  type StandsBody,
  type TrainingBody,
  type VideoAreaBody,
} from './schema';

export const VISION_TRAIN_JOB = 'vision.train';
export const VISION_APPLY_JOB = 'vision.apply';
/** Where an ONNX person detector is looked for (docs/vision.md «Люди на кадре»). */
export const HUMAN_DETECTOR_KEY = 'models/humans/detector.onnx';

export const modelKey = (organizationId: number, modelId: number) => `models/${organizationId}/${modelId}.onnx`;

type In<S extends z.ZodType> = z.output<S>;
type ModelRow = Selectable<ModelsTable>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// ——— scoping: every id is looked up inside the user's organisation; a foreign one is a 404 ———

export interface VideoInOrganization {
  id: number;
  camera_id: number;
  structure_id: number;
  filename: string;
  storage_key: string;
  start_time: number;
  duration: number | null;
  status: string;
}

/** The row a lookup found, else the 404 with `message`: the one shape of every scoped lookup here. */
async function found<T>(row: Promise<T | undefined>, message: string): Promise<T> {
  const value = await row;
  if (value === undefined) throw notFound(message);
  return value;
}

/** Ids of the cameras of the user's organisation: videos, models and areas belong to one through their camera. */
const ownCameras = (db: Db, user: SessionUser) =>
  db
    .selectFrom('cameras')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .select('cameras.id')
    .where('structures.organization_id', '=', user.organizationId);

export async function videoOf(db: Db, user: SessionUser, videoId: number): Promise<VideoInOrganization> {
  return found(
    db
      .selectFrom('videos')
      .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
      .select([
        'videos.id',
        'videos.camera_id',
        'cameras.structure_id',
        'videos.filename',
        'videos.storage_key',
        'videos.start_time',
        'videos.duration',
        'videos.status',
      ])
      .where('videos.id', '=', videoId)
      .where('videos.camera_id', 'in', ownCameras(db, user))
      .executeTakeFirst(),
    'Видео не найдено',
  );
}

const cameraOf = (db: Db, user: SessionUser, cameraId: number): Promise<{ structure_id: number }> =>
  found(
    db.selectFrom('cameras').select('structure_id').where('id', '=', cameraId).where('id', 'in', ownCameras(db, user)).executeTakeFirst(),
    'Камера не найдена',
  );

const modelRowOf = (db: Db, user: SessionUser, modelId: number): Promise<ModelRow> =>
  found(db.selectFrom('models').selectAll().where('id', '=', modelId).where('camera_id', 'in', ownCameras(db, user)).executeTakeFirst(), M.modelMissing);

const areaOf = (db: Db, user: SessionUser, areaId: number): Promise<{ id: number }> =>
  found(db.selectFrom('video_areas').select('id').where('id', '=', areaId).where('camera_id', 'in', ownCameras(db, user)).executeTakeFirst(), M.areaMissing);

function span(start: number, end: number, duration: number | null) {
  if (!(end > start)) throw badRequest('Конец отрезка должен быть позже начала');
  if (duration !== null && start >= duration) throw badRequest(`Начало отрезка за концом видео (${duration.toFixed(1)} с)`);
  return { start, end: duration === null ? end : Math.min(end, duration) };
}

function readyVideo(video: VideoInOrganization) {
  if (video.status !== 'ready') throw badRequest('Видео ещё не обработано: дождитесь окончания обработки');
}

// ——— models ———

/** The words of a finished applying (apply.job.ts applyMessage) from its job's result; null for a result without them. */
function applyMessageOf(result: string | null): string | null {
  if (!result) return null;
  const message = (JSON.parse(result) as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : null;
}

async function modelItems(db: Db, rows: ModelRow[]): Promise<In<typeof ModelItem>[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const operations = await db.selectFrom('model_operations').selectAll().where('model_id', 'in', ids).orderBy('operation_id').execute();
  const areas = await db.selectFrom('model_video_areas').selectAll().where('model_id', 'in', ids).orderBy('video_area_id').execute();
  const workplaceIds = rows.map((r) => r.workplace_id).filter((w): w is number => w !== null);
  const workplaces = workplaceIds.length ? await db.selectFrom('workplaces').select(['id', 'name']).where('id', 'in', workplaceIds).execute() : [];
  const jobIds = rows.flatMap((r) => [r.job_id, r.apply_job_id]).filter((j): j is number => j !== null);
  const jobs = jobIds.length ? await db.selectFrom('jobs').select(['id', 'status', 'progress', 'error', 'result']).where('id', 'in', jobIds).execute() : [];
  const job = (id: number | null) => jobs.find((j) => j.id === id);
  return rows.map((r) => {
    const training = job(r.job_id);
    const applying = job(r.apply_job_id);
    const status = r.object_storage_key
      ? 'trained'
      : training?.status === 'cancelled'
        ? 'cancelled'
        : training?.status === 'failed' || r.error
          ? 'failed'
          : training?.status === 'running'
            ? 'training'
            : training?.status === 'success'
              ? 'trained'
              : 'queued';
    return {
      meta: {
        id: r.id,
        name: r.name,
        comment: r.comment,
        completion_percentage: r.completion_percentage,
        object_storage_key: r.object_storage_key,
        operation_ids: operations.filter((o) => o.model_id === r.id).map((o) => o.operation_id),
        video_area_ids: areas.filter((a) => a.model_id === r.id).map((a) => a.video_area_id),
        trained_at: iso(r.trained_at),
        camera_id: r.camera_id,
        report: r.report,
        workplace_id: r.workplace_id,
        marked_video_id: r.marked_video_id,
        start_second: r.start_second,
        end_second: r.end_second,
        applied_at: iso(r.applied_at),
        status,
        error: r.error ?? (training?.status === 'failed' ? training.error : null),
        job_id: r.job_id,
        apply_job_id: r.apply_job_id,
        apply_status: applying?.status ?? null,
        apply_progress: applying?.progress ?? null,
        apply_error: applying?.status === 'failed' ? applying.error : null,
        apply_message: applying?.status === 'success' ? applyMessageOf(applying.result) : null,
      },
      workplace_name: workplaces.find((w) => w.id === r.workplace_id)?.name ?? null,
    };
  });
}

/** Models of the video's camera (the /models/{videoId} table), newest last. */
export async function listModels(db: Db, user: SessionUser, videoId: number) {
  const video = await videoOf(db, user, videoId);
  const rows = await db.selectFrom('models').selectAll().where('camera_id', '=', video.camera_id).orderBy('id').execute();
  return { models: await modelItems(db, rows) };
}

export async function getModel(db: Db, user: SessionUser, modelId: number) {
  const [item] = await modelItems(db, [await modelRowOf(db, user, modelId)]);
  return item!;
}

/** The model's ONNX file for the browser (docs/vision.md «Экраны и вывод в браузере»): the same bytes the applying job runs. */
export async function modelFile(db: Db, storage: ObjectStore, user: SessionUser, modelId: number) {
  const row = await modelRowOf(db, user, modelId);
  if (!row.object_storage_key) throw badRequest('Модель ещё не обучена');
  if (!(await storage.exists(row.object_storage_key))) throw notFound('Файл модели не найден в хранилище');
  return storage.file(row.object_storage_key);
}

/**
 * Deletes a model and its file. Its queued or running training and applying jobs are cancelled
 * (a running one stops at its next progress write); markups it wrote stay (no longer linked).
 */
export async function deleteModel(db: Db, storage: ObjectStore, user: SessionUser, modelId: number) {
  const row = await modelRowOf(db, user, modelId);
  const jobIds = [row.job_id, row.apply_job_id].filter((id): id is number => id !== null);
  await db.transaction().execute(async (trx) => {
    await endJobs(trx, jobIds, { status: 'cancelled', error: CANCELLED_MESSAGE }, ['queued', 'running']);
    await trx.deleteFrom('models').where('id', '=', row.id).execute();
  });
  await storage.remove(row.object_storage_key ?? modelKey(user.organizationId, row.id));
  return { deleted: row.id };
}

/**
 * The span a model is evaluated on instead of blocks of its training span: a ready video of the
 * same camera (the areas are that camera's), another video than the marked one, inside its length.
 */
async function testSpan(db: Db, user: SessionUser, marked: VideoInOrganization, test: { video_id: number; start_second: number; end_second: number }) {
  const other = await videoOf(db, user, test.video_id);
  readyVideo(other);
  if (other.camera_id !== marked.camera_id) throw badRequest('test.video_id: видео для проверки должно быть с той же камеры, что и размеченное');
  if (other.id === marked.id) throw badRequest('test.video_id: для проверки выберите другое видео (или не задавайте проверку)');
  const { start, end } = span(test.start_second, test.end_second, other.duration);
  return { video_id: other.id, start_second: start, end_second: end };
}

/** POST /api/v1/start_marker_training: checks everything, creates the model row and queues the training job. */
export async function startTraining(db: Db, user: SessionUser, body: In<typeof TrainingBody>) {
  if (!body.workplace_id) throw badRequest(M.chooseWorkplace);
  const video = await videoOf(db, user, body.marked_video_id);
  readyVideo(video);
  const { start, end } = span(body.start_second, body.end_second, video.duration);
  const workplace = await db
    .selectFrom('workplaces')
    .select(['id', 'name'])
    .where('id', '=', body.workplace_id)
    .where('structure_id', '=', video.structure_id)
    .executeTakeFirst();
  if (!workplace) throw badRequest('Рабочее место не из структуры этого видео');
  const operationIds = [...new Set(body.operation_ids)];
  const operations = await db.selectFrom('operations').select('id').where('id', 'in', operationIds).where('structure_id', '=', video.structure_id).execute();
  if (operations.length !== operationIds.length) throw badRequest('Операции должны быть из структуры этого видео');
  const areaIds = [...new Set(body.video_area_ids)];
  const areas = await db.selectFrom('video_areas').select('id').where('id', 'in', areaIds).where('camera_id', '=', video.camera_id).execute();
  if (areas.length !== areaIds.length) throw badRequest('Области должны быть заданы для камеры этого видео');
  const [from, to] = [video.start_time + start * 1000, video.start_time + end * 1000];
  const marked = await db
    .selectFrom('markups')
    .select(['start_time', 'end_time'])
    .where('structure_id', '=', video.structure_id)
    .where('workplace_id', '=', workplace.id)
    .where('source', '!=', UNREVIEWED_SOURCE)
    .where('operation_id', 'in', operationIds)
    .where('start_time', '<', to)
    .where('end_time', '>', from)
    .execute();
  if (marked.length === 0) throw badRequest('В выбранном отрезке нет разметки выбранных операций на этом рабочем месте: модели не на чем учиться');
  // «Фон (прочее)» needs examples (issue 43): time of the span under none of the chosen operations.
  const other = subtractIntervals(
    from,
    to,
    marked.map((m) => ({ start: m.start_time, end: m.end_time })),
  ).reduce((sum, gap) => sum + gap.end - gap.start, 0);
  const shortfall = backgroundShortfall(end - start, other / 1000);
  if (shortfall) throw badRequest(shortfall);
  const test = body.test ? await testSpan(db, user, video, body.test) : null;
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const model = await trx
      .insertInto('models')
      .values({
        camera_id: video.camera_id,
        workplace_id: workplace.id,
        marked_video_id: video.id,
        name: workplace.name,
        comment: body.comment.trim(),
        start_second: start,
        end_second: end,
        object_storage_key: null,
        trained_at: null,
        created_at: now,
        job_id: null,
        error: null,
        apply_job_id: null,
        applied_at: null,
        spec: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('model_operations')
      .values(operationIds.map((operation_id) => ({ model_id: model.id, operation_id })))
      .execute();
    await trx
      .insertInto('model_video_areas')
      .values(areaIds.map((video_area_id) => ({ model_id: model.id, video_area_id })))
      .execute();
    const jobId = await enqueueJob(trx, {
      kind: VISION_TRAIN_JOB,
      payload: { model_id: model.id, test, ...(body.poses ? { poses: true } : {}) },
      organizationId: user.organizationId,
      maxAttempts: 3,
    });
    await trx
      .updateTable('models')
      .set({ name: `Модель ${model.id}: ${workplace.name}`, job_id: jobId })
      .where('id', '=', model.id)
      .execute();
    return { model_id: model.id, job_id: jobId };
  });
}

/**
 * Who a model's segments are written for: the employee the analyst picked (of the video's
 * structure), else the workplace's employee that day (model-layer.service.ts); never nobody.
 */
async function applyingEmployee(db: Db, user: SessionUser, target: { structureId: number; workplaceId: number; at: number }, picked?: number | null) {
  if (picked != null) {
    const employee = await db.selectFrom('employees').select('id').where('id', '=', picked).where('structure_id', '=', target.structureId).executeTakeFirst();
    if (!employee) throw badRequest('employee_id: сотрудник не из структурной единицы этого видео');
    return employee.id;
  }
  const workplace = await db.selectFrom('workplaces').select('name').where('id', '=', target.workplaceId).executeTakeFirstOrThrow();
  const zone = await db.selectFrom('organizations').select('time_zone').where('id', '=', user.organizationId).executeTakeFirstOrThrow();
  return workplaceEmployee(db, { ...target, workplaceName: workplace.name, timeZone: zone.time_zone });
}

/** POST /api/v1/start_marker_applying: a trained model of the same camera over a span of a video. */
export async function startApplying(db: Db, user: SessionUser, body: In<typeof ApplyingBody>) {
  const model = await modelRowOf(db, user, body.model_id);
  if (!model.object_storage_key) throw badRequest('Модель ещё не обучена: применить можно только обученную модель');
  if (model.workplace_id === null) throw badRequest('Рабочее место модели удалено: обучите модель заново');
  const video = await videoOf(db, user, body.unmarked_video_id);
  readyVideo(video);
  if (video.camera_id !== model.camera_id) throw badRequest('Модель обучена для другой камеры: её области не подходят к этому видео');
  const { start, end } = span(body.start_second, body.end_second, video.duration);
  const employeeId = await applyingEmployee(
    db,
    user,
    { structureId: video.structure_id, workplaceId: model.workplace_id, at: video.start_time + start * 1000 },
    body.employee_id,
  );
  const jobId = await db.transaction().execute(async (trx) => {
    const id = await enqueueJob(trx, {
      kind: VISION_APPLY_JOB,
      payload: { model_id: model.id, video_id: video.id, start_second: start, end_second: end, employee_id: employeeId },
      organizationId: user.organizationId,
      maxAttempts: 3,
    });
    await trx.updateTable('models').set({ apply_job_id: id }).where('id', '=', model.id).execute();
    return id;
  });
  return {
    job_id: jobId,
    model_id: model.id,
    model_name: model.name,
    video_id: video.id,
    video_name: video.filename,
    message: `Модель «${model.name}» применяется к видео «${video.filename}»`,
  };
}

/**
 * What GET /api/v1/model/{id}/picture-check compares (picture-check.ts): the trained model's spec and
 * a ready video of its camera with the span (the whole video by default).
 */
export async function pictureCheckInputs(db: Db, user: SessionUser, modelId: number, query: { video_id: number; start_second?: number; end_second?: number }) {
  const model = await modelRowOf(db, user, modelId);
  if (!model.object_storage_key || !model.spec) throw badRequest('Модель ещё не обучена: проверить кадр можно только для обученной модели');
  const video = await videoOf(db, user, query.video_id);
  readyVideo(video);
  if (video.camera_id !== model.camera_id) throw badRequest('Модель обучена для другой камеры: её области не подходят к этому видео');
  const { start, end } = span(query.start_second ?? 0, query.end_second ?? video.duration ?? 86_400, video.duration);
  return { model: { id: model.id, spec: model.spec }, video, start, end };
}

// ——— video areas ———

type AreaRow = {
  id: number;
  name: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  camera_id: number;
  frame_width: number | null;
  frame_height: number | null;
};
const areaView = (a: AreaRow) => ({
  id: a.id,
  name: a.name,
  x1: a.x1,
  y1: a.y1,
  x2: a.x2,
  y2: a.y2,
  camera_id: a.camera_id,
  frame_width: a.frame_width,
  frame_height: a.frame_height,
});

export async function listAreas(db: Db, user: SessionUser, videoId: number) {
  const video = await videoOf(db, user, videoId);
  const rows = await db.selectFrom('video_areas').selectAll().where('camera_id', '=', video.camera_id).orderBy('id').execute();
  return { video_areas: rows.map(areaView) };
}

/** A rectangle with all four corners and some size, ordered so x1 < x2, y1 < y2; else the given §5 text. */
function rectangle(body: { x1?: number | null; y1?: number | null; x2?: number | null; y2?: number | null }, message: string) {
  const { x1, y1, x2, y2 } = body;
  if (x1 == null || y1 == null || x2 == null || y2 == null || x1 === x2 || y1 === y2) throw badRequest(message);
  return { x1: Math.min(x1, x2), y1: Math.min(y1, y2), x2: Math.max(x1, x2), y2: Math.max(y1, y2) };
}

export async function addArea(db: Db, user: SessionUser, body: In<typeof VideoAreaBody>) {
  const name = (body.name ?? '').trim();
  if (!name) throw badRequest(M.needAreaName);
  const rect = rectangle(body, M.needAreaRectangle);
  // Pixels of the frame it was drawn on (issue 43): both sides or neither, the rectangle inside it.
  if ((body.frame_width == null) !== (body.frame_height == null)) throw badRequest('Укажите и ширину, и высоту кадра области');
  if (body.frame_width != null && body.frame_height != null && (rect.x2 > body.frame_width || rect.y2 > body.frame_height))
    throw badRequest(`Прямоугольник выходит за кадр ${body.frame_width}×${body.frame_height}`);
  await cameraOf(db, user, body.camera_id);
  const row = await db
    .insertInto('video_areas')
    .values({ camera_id: body.camera_id, name, ...rect, frame_width: body.frame_width ?? null, frame_height: body.frame_height ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return areaView(row);
}

export async function deleteArea(db: Db, user: SessionUser, areaId: number) {
  const row = await areaOf(db, user, areaId);
  await db.deleteFrom('video_areas').where('id', '=', row.id).execute();
  return { deleted: row.id };
}

// ——— stands, absolute locations, stand locations ———

const STAND_KIND_LABELS: Record<string, 'stand' | 'basis'> = { stand: 'stand', basis: 'basis', Стенд: 'stand', Базис: 'basis' };

/** Stands of the organisation; a Базис carries its absolute location in the structure when one is set. */
export async function listStands(db: Db, user: SessionUser, structureId: number | null) {
  const stands = await db.selectFrom('stands').select(['id', 'name', 'kind']).where('organization_id', '=', user.organizationId).orderBy('id').execute();
  const locations = structureId
    ? await db.selectFrom('absolute_locations').select(['stand_id', 'x', 'y']).where('structure_id', '=', structureId).orderBy('id').execute()
    : [];
  return {
    stands: stands.map((s) => {
      const at = locations.find((l) => l.stand_id === s.id);
      return { id: s.id, name: s.name, kind: s.kind, x: at?.x ?? null, y: at?.y ?? null };
    }),
  };
}

export async function saveStands(db: Db, user: SessionUser, body: In<typeof StandsBody>, structureId: number | null) {
  if (body.organization_id !== user.organizationId) throw notFound('Организация не найдена');
  const own = await db.selectFrom('stands').select(['id']).where('organization_id', '=', user.organizationId).execute();
  const owned = new Set(own.map((s) => s.id));
  const changes = body.changed_stands.map((s) => {
    const name = (s.name ?? '').trim();
    const kind = s.kind == null || s.kind === '' ? undefined : STAND_KIND_LABELS[s.kind];
    if (s.kind != null && s.kind !== '' && !kind) throw badRequest(M.chooseStand);
    if (s.id === undefined && !kind) throw badRequest(M.chooseStand);
    if (!name) throw badRequest(M.needName);
    if (s.id !== undefined && !owned.has(s.id)) throw notFound('Стенд не найден');
    return { id: s.id, name, kind };
  });
  for (const id of body.stands_to_delete) if (!owned.has(id)) throw notFound('Стенд не найден');
  await db.transaction().execute(async (trx) => {
    for (const change of changes) {
      if (change.id === undefined)
        await trx.insertInto('stands').values({ organization_id: user.organizationId, name: change.name, kind: change.kind! }).execute();
      else
        await trx
          .updateTable('stands')
          .set({ name: change.name, ...(change.kind ? { kind: change.kind } : {}) })
          .where('id', '=', change.id)
          .execute();
    }
    if (body.stands_to_delete.length) await trx.deleteFrom('stands').where('id', 'in', body.stands_to_delete).execute();
  });
  return listStands(db, user, structureId);
}

async function standOf(db: Db, user: SessionUser, standId: number | null | undefined) {
  if (!standId) throw badRequest(M.chooseStand);
  const stand = await db
    .selectFrom('stands')
    .select(['id', 'name'])
    .where('id', '=', standId)
    .where('organization_id', '=', user.organizationId)
    .executeTakeFirst();
  if (!stand) throw notFound('Стенд не найден');
  return stand;
}

export async function listAbsoluteLocations(db: Db, structureId: number) {
  const rows = await db
    .selectFrom('absolute_locations')
    .innerJoin('stands', 'stands.id', 'absolute_locations.stand_id')
    .select(['absolute_locations.id', 'stand_id', 'stands.name', 'structure_id', 'x', 'y'])
    .where('structure_id', '=', structureId)
    .orderBy('absolute_locations.id')
    .execute();
  return { absolute_locations: rows };
}

export async function addAbsoluteLocation(db: Db, user: SessionUser, body: In<typeof AbsoluteLocationBody>) {
  const stand = await standOf(db, user, body.stand_id);
  if (body.x == null || body.y == null) throw badRequest(M.needPoint);
  if (body.structure_id !== undefined) {
    const own = await db
      .selectFrom('structures')
      .select('id')
      .where('id', '=', body.structure_id)
      .where('organization_id', '=', user.organizationId)
      .executeTakeFirst();
    if (!own) throw notFound('Структурная единица не найдена');
  }
  const row = await db
    .insertInto('absolute_locations')
    .values({ stand_id: stand.id, structure_id: body.structure_id ?? null, x: body.x, y: body.y })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, name: stand.name };
}

/** Removes a location row of the organisation (stand, movable or absolute); a foreign or unknown id is the §5 404. */
async function removeLocation(db: Db, user: SessionUser, table: 'stand_locations' | 'movable_locations' | 'absolute_locations', id: number) {
  const owner = table === 'movable_locations' ? 'movables' : 'stands';
  const link = table === 'movable_locations' ? 'movable_id' : 'stand_id';
  // Table and column names come from the fixed union above, never from the request.
  const found = await sql<{ id: number }>`SELECT l.id FROM ${sql.raw(table)} l JOIN ${sql.raw(owner)} o ON o.id = l.${sql.raw(link)}
    WHERE l.id = ${id} AND o.organization_id = ${user.organizationId}`.execute(db);
  const row = found.rows[0];
  if (!row) throw notFound(M.locationMissing);
  await db.deleteFrom(table).where('id', '=', id).execute();
  return { deleted: id };
}

export const removeAbsoluteLocation = (db: Db, user: SessionUser, id: number) => removeLocation(db, user, 'absolute_locations', id);
export const removeStandLocation = (db: Db, user: SessionUser, id: number) => removeLocation(db, user, 'stand_locations', id);
export const removeMovableLocation = (db: Db, user: SessionUser, id: number) => removeLocation(db, user, 'movable_locations', id);

export async function listStandLocations(db: Db, user: SessionUser, videoId: number) {
  const video = await videoOf(db, user, videoId);
  const rows = await db
    .selectFrom('stand_locations')
    .innerJoin('stands', 'stands.id', 'stand_locations.stand_id')
    .select(['stand_locations.id', 'stand_id', 'stands.name', 'camera_id', 'x', 'y', 'checkpoint_time'])
    .where('camera_id', '=', video.camera_id)
    .where('stands.organization_id', '=', user.organizationId)
    .orderBy('stand_locations.id')
    .execute();
  return { stand_locations: rows };
}

export async function addStandLocation(db: Db, user: SessionUser, body: In<typeof StandLocationBody>) {
  const stand = await standOf(db, user, body.stand_id);
  if (body.x == null || body.y == null) throw badRequest(M.needPoint);
  await cameraOf(db, user, body.camera_id);
  const row = await db
    .insertInto('stand_locations')
    .values({ stand_id: stand.id, camera_id: body.camera_id, x: body.x, y: body.y, checkpoint_time: body.checkpoint_time ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, name: stand.name };
}

// ——— movables and their locations ———

export async function listMovables(db: Db, user: SessionUser) {
  const movables = await db.selectFrom('movables').select(['id', 'name']).where('organization_id', '=', user.organizationId).orderBy('id').execute();
  return { movables };
}

export async function saveMovables(db: Db, user: SessionUser, body: In<typeof MovablesBody>) {
  const own = new Set((await db.selectFrom('movables').select('id').where('organization_id', '=', user.organizationId).execute()).map((m) => m.id));
  const changes = body.changed_movables.map((m) => {
    const name = (m.name ?? '').trim();
    if (!name) throw badRequest(M.needName);
    if (m.id !== undefined && !own.has(m.id)) throw notFound('Объект не найден');
    return { id: m.id, name };
  });
  for (const id of body.movables_to_delete) if (!own.has(id)) throw notFound('Объект не найден');
  await db.transaction().execute(async (trx) => {
    for (const change of changes) {
      if (change.id === undefined) await trx.insertInto('movables').values({ organization_id: user.organizationId, name: change.name }).execute();
      else await trx.updateTable('movables').set({ name: change.name }).where('id', '=', change.id).execute();
    }
    if (body.movables_to_delete.length) await trx.deleteFrom('movables').where('id', 'in', body.movables_to_delete).execute();
  });
  return listMovables(db, user);
}

export async function listMovableLocations(db: Db, user: SessionUser, videoId: number) {
  const video = await videoOf(db, user, videoId);
  const rows = await db
    .selectFrom('movable_locations')
    .innerJoin('movables', 'movables.id', 'movable_locations.movable_id')
    .select(['movable_locations.id', 'movable_id', 'movables.name', 'camera_id', 'x1', 'y1', 'x2', 'y2', 'checkpoint_time'])
    .where('camera_id', '=', video.camera_id)
    .where('movables.organization_id', '=', user.organizationId)
    .orderBy('movable_locations.id')
    .execute();
  return { movable_locations: rows };
}

export async function addMovableLocation(db: Db, user: SessionUser, body: In<typeof MovableLocationBody>) {
  if (!body.movable_id) throw badRequest(M.chooseObject);
  const movable = await db
    .selectFrom('movables')
    .select(['id', 'name'])
    .where('id', '=', body.movable_id)
    .where('organization_id', '=', user.organizationId)
    .executeTakeFirst();
  if (!movable) throw notFound('Объект не найден');
  const rect = rectangle(body, M.needRectangle);
  await cameraOf(db, user, body.camera_id);
  const row = await db
    .insertInto('movable_locations')
    .values({ movable_id: movable.id, camera_id: body.camera_id, ...rect, checkpoint_time: body.checkpoint_time ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, name: movable.name };
}

/** A model or detector file that cannot be used: a clear answer, not a 500. */
export const unusableModel = (message: string) => new ApiError(422, 'model_unusable', message);
