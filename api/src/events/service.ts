import type { Selectable } from 'kysely';
import { TRACKER_DEFAULTS } from '@norma/workers/tracking';
import { MOVENET_DETECTOR } from '@norma/workers/vision';
import type { Db } from '../db/database';
import type { EventTrackingsTable } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import type { SessionUser } from '../http/env';
import { CANCELLED_MESSAGE, endJobs, enqueueJob, finishJob } from '../jobs/queue';
import { videoOf } from '../vision/service';
import {
  STAND_ZONE_RADIUS,
  TRACK_POINTS_MAX,
  TRACKING_FPS,
  TRACKS_PAGE,
  type CalibrationInput,
  type TrackingBodyInput,
  type ZoneInput,
  type ZoneShapeValue,
} from './schema';

/**
 * Event analytics (issue 44, docs/event-analytics.md): all the SQL of api/src/events — tracker runs
 * and their tracks, camera calibrations, a hall's zones.
 */

/** The job kind of a tracking (tracking.job.ts; class 'long' in api/src/job-registry.ts). */
export const TRACKING_JOB = 'event_tracking';
/**
 * MoveNet's input width for tracking, the server's own (docs/event-analytics.md «Задача трекинга»,
 * «Запас скорости»): 640 and 704 cost 0.63 and 0.81 of its processor time, but on the whole labelled
 * clip at 5 fps they switch identities 3.8 and 2.3 times a minute (the issue allows 2; 768: none) and
 * 704 counts 16 visitors of 18; 512 loses the small ones outright (detector recall 0.896).
 */
export const TRACKING_INPUT_WIDTH = 768;

/** The settings every run is queued with besides its rate (docs/event-analytics.md «Задача трекинга»). */
export const RUN_SETTINGS = { detector: MOVENET_DETECTOR, input_width: TRACKING_INPUT_WIDTH, thresholds: { ...TRACKER_DEFAULTS } };

export const EVENT_MESSAGES = {
  videoNotReady: 'Видео ещё не готово: трекинг запускается на обработанном видео',
  running: 'Трекинг этого видео уже идёт: дождитесь конца или отмените его',
  nothingToCancel: 'Трекинг этого видео не идёт: отменять нечего',
  noTracks: 'У этого видео нет законченного трекинга: запустите трекинг и дождитесь его конца',
  zoneMissing: 'Зона не найдена',
  standMissing: 'Стенд не найден в организации',
  standLocationMissing: 'У стенда нет абсолютной локации в этой структуре: укажите форму зоны',
  shapeNeeded: 'Укажите форму зоны: многоугольник или круг (без формы — только зона стенда)',
  jobMissing: 'Задача трекинга удалена',
  figuresTooMuch: 'Слишком много треков за это окно: сократите окно',
} as const;

/** Settings of a run (event_trackings.settings). */
export interface TrackingSettingsValue {
  fps_sampled: number;
  detector: string;
  input_width: number;
  thresholds: Record<string, number>;
}

/** The payload of an `event_tracking` job. */
export interface TrackingPayload {
  tracking_id: number;
  video_id: number;
}

/** A track as the job stores it: points [frame, time, x, y, w, h, score] in the video's frames (from 0), seconds and source pixels. */
export interface StoredTrack {
  number: number;
  firstTime: number;
  lastTime: number;
  points: number[][];
}

type ActiveStatus = 'queued' | 'running';
const ACTIVE: ActiveStatus[] = ['queued', 'running'];
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// ——— tracking runs ———

/** Queues a tracking of the video (POST /api/v1/event/tracking); one at a time per video. */
export async function startTracking(db: Db, user: SessionUser, body: TrackingBodyInput, settings: Omit<TrackingSettingsValue, 'fps_sampled'>) {
  const video = await videoOf(db, user, body.video_id);
  if (video.status !== 'ready') throw conflict(EVENT_MESSAGES.videoNotReady);
  const value: TrackingSettingsValue = { fps_sampled: body.fps ?? TRACKING_FPS.default, ...settings };
  await db.transaction().execute(async (trx) => {
    if (await activeJobId(trx, video.id)) throw conflict(EVENT_MESSAGES.running);
    // Runs that failed or were cancelled leave nothing worth keeping; the finished one stays until the new one finishes.
    await trx.deleteFrom('event_trackings').where('video_id', '=', video.id).where('status', '!=', 'done').execute();
    const now = Date.now();
    const { id } = await trx
      .insertInto('event_trackings')
      .values({ video_id: video.id, settings: JSON.stringify(value), created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const payload: TrackingPayload = { tracking_id: id, video_id: video.id };
    const jobId = await enqueueJob(trx, { kind: TRACKING_JOB, payload, organizationId: user.organizationId });
    await trx.updateTable('event_trackings').set({ job_id: jobId }).where('id', '=', id).execute();
  });
  return trackingState(db, video.id);
}

/** The job of the video's run now queued or running, if any. */
async function activeJobId(db: Db, videoId: number): Promise<number | null> {
  const row = await db
    .selectFrom('event_trackings')
    .innerJoin('jobs', 'jobs.id', 'event_trackings.job_id')
    .select('jobs.id')
    .where('event_trackings.video_id', '=', videoId)
    .where('event_trackings.status', '!=', 'done')
    .where('jobs.status', 'in', ACTIVE)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Cancels the video's running or queued tracking (POST /api/v1/event/tracking/cancel), as the vision jobs are cancelled. */
export async function cancelTracking(db: Db, user: SessionUser, videoId: number) {
  await videoOf(db, user, videoId);
  const jobId = await activeJobId(db, videoId);
  if (!jobId || (await endJobs(db, [jobId], { status: 'cancelled', error: CANCELLED_MESSAGE }, ACTIVE)) === 0) throw conflict(EVENT_MESSAGES.nothingToCancel);
  return trackingState(db, videoId);
}

type RunRow = Selectable<EventTrackingsTable> & { job_status: string | null; job_progress: number | null; job_error: string | null };

const runsOf = (db: Db, videoId: number) =>
  db
    .selectFrom('event_trackings')
    .leftJoin('jobs', 'jobs.id', 'event_trackings.job_id')
    .selectAll('event_trackings')
    .select(['jobs.status as job_status', 'jobs.progress as job_progress', 'jobs.error as job_error'])
    .where('event_trackings.video_id', '=', videoId)
    .orderBy('event_trackings.id', 'desc');

function runView(row: RunRow) {
  const done = row.status === 'done';
  const status = done ? 'done' : row.job_status === null ? 'failed' : row.job_status === 'success' ? 'done' : row.job_status;
  return {
    id: row.id,
    video_id: row.video_id,
    job_id: row.job_id,
    status: status as 'queued' | 'running' | 'done' | 'failed' | 'cancelled',
    progress: done ? 100 : (row.job_progress ?? 0),
    settings: JSON.parse(row.settings) as TrackingSettingsValue,
    video_fps: row.video_fps,
    frame_width: row.frame_width,
    frame_height: row.frame_height,
    stats:
      row.stats === null ? null : (JSON.parse(row.stats) as { tracks: number; frames: number; seconds: number; work_seconds: number; x_real_time: number }),
    error: done ? null : row.job_status === null ? EVENT_MESSAGES.jobMissing : status === 'failed' || status === 'cancelled' ? row.job_error : null,
    created_at: iso(row.created_at)!,
    finished_at: iso(row.finished_at),
  };
}

/** GET /api/v1/event/tracking: the video's last run and its last finished one. */
export async function trackingState(db: Db, videoId: number) {
  const last = await runsOf(db, videoId).limit(1).executeTakeFirst();
  const finished = last?.status === 'done' ? last : await runsOf(db, videoId).where('event_trackings.status', '=', 'done').limit(1).executeTakeFirst();
  return { video_id: videoId, run: last ? runView(last) : null, finished: finished ? runView(finished) : null };
}

/**
 * GET /api/v1/event/trackings: every video of the hall's cameras (by camera, then start) with its
 * tracking state as GET /api/v1/event/tracking gives it — two reads, whatever the number of videos.
 */
export async function hallTrackings(db: Db, structureId: number) {
  const videos = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.camera_id'])
    .where('cameras.structure_id', '=', structureId)
    .orderBy('videos.camera_id')
    .orderBy('videos.start_time')
    .orderBy('videos.id')
    .execute();
  const rows = await db
    .selectFrom('event_trackings')
    .innerJoin('videos', 'videos.id', 'event_trackings.video_id')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .leftJoin('jobs', 'jobs.id', 'event_trackings.job_id')
    .selectAll('event_trackings')
    .select(['jobs.status as job_status', 'jobs.progress as job_progress', 'jobs.error as job_error'])
    .where('cameras.structure_id', '=', structureId)
    .orderBy('event_trackings.id', 'desc')
    .execute();
  // Newest first: a video's first row is its last run, its first done row the last finished one.
  const last = new Map<number, RunRow>();
  const finished = new Map<number, RunRow>();
  for (const row of rows) {
    if (!last.has(row.video_id)) last.set(row.video_id, row);
    if (row.status === 'done' && !finished.has(row.video_id)) finished.set(row.video_id, row);
  }
  return {
    structure_id: structureId,
    videos: videos.map((v) => {
      const run = last.get(v.id);
      const done = finished.get(v.id);
      return { video_id: v.id, camera_id: v.camera_id, run: run ? runView(run) : null, finished: done ? runView(done) : null };
    }),
  };
}

/** The run a tracking job works for (undefined: deleted meanwhile, with its video). */
export async function trackingRun(db: Db, trackingId: number) {
  return db.selectFrom('event_trackings').select(['id', 'video_id', 'settings', 'status']).where('id', '=', trackingId).executeTakeFirst();
}

/** Tracks are inserted this many at a time (seven parameters a row stays far below every engine's limit). */
const INSERT_BATCH = 200;

/**
 * A finished run: its tracks, its figures, the end of the video's earlier runs and the job's success,
 * in one transaction — a job cancelled meanwhile, or a run deleted with its video, writes nothing,
 * and a job taken over after its worker died starts again from the frames and commits once.
 */
export async function commitTracking(
  db: Db,
  job: { id: number; workerId: string },
  run: { id: number; videoId: number },
  result: { videoFps: number; frameWidth: number; frameHeight: number; stats: Record<string, number>; tracks: StoredTrack[] },
  jobResult: unknown,
): Promise<'done' | 'cancelled' | 'gone'> {
  const outcome = await db
    .transaction()
    .execute(async (trx) => {
      const row = await trx.selectFrom('event_trackings').select('id').where('id', '=', run.id).executeTakeFirst();
      if (!row) throw new RolledBack('gone');
      await trx.deleteFrom('event_trackings').where('video_id', '=', run.videoId).where('id', '!=', run.id).execute();
      await trx.deleteFrom('event_tracks').where('tracking_id', '=', run.id).execute();
      for (let i = 0; i < result.tracks.length; i += INSERT_BATCH) {
        const batch = result.tracks.slice(i, i + INSERT_BATCH).map((t) => ({
          tracking_id: run.id,
          track_number: t.number,
          first_time: t.firstTime,
          last_time: t.lastTime,
          points: JSON.stringify(t.points),
        }));
        await trx.insertInto('event_tracks').values(batch).execute();
      }
      await trx
        .updateTable('event_trackings')
        .set({
          status: 'done',
          video_fps: result.videoFps,
          frame_width: result.frameWidth,
          frame_height: result.frameHeight,
          stats: JSON.stringify(result.stats),
          finished_at: Date.now(),
        })
        .where('id', '=', run.id)
        .execute();
      if (!(await finishJob(trx, job.id, job.workerId, jobResult))) throw new RolledBack('cancelled');
      return 'done' as const;
    })
    .catch((err: unknown) => {
      if (err instanceof RolledBack) return err.reason;
      throw err;
    });
  return outcome;
}

class RolledBack extends Error {
  constructor(readonly reason: 'cancelled' | 'gone') {
    super(reason);
  }
}

/** The video's last finished run, or a 404 with the Russian message. */
async function finishedRun(db: Db, videoId: number) {
  const row = await db
    .selectFrom('event_trackings')
    .select(['id', 'video_fps', 'frame_width', 'frame_height'])
    .where('video_id', '=', videoId)
    .where('status', '=', 'done')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) throw notFound(EVENT_MESSAGES.noTracks);
  return row;
}

/** Every point of the track, or at most TRACK_POINTS_MAX of them taken evenly (the first and the last kept). */
function thinned(points: number[][]): number[][] {
  if (points.length <= TRACK_POINTS_MAX) return points;
  const step = (points.length - 1) / (TRACK_POINTS_MAX - 1);
  return Array.from({ length: TRACK_POINTS_MAX }, (_, i) => points[Math.round(i * step)]!);
}

/** GET /api/v1/event/tracks: a page of the finished run's tracks by number, each with at most TRACK_POINTS_MAX points. */
export async function tracksPage(db: Db, videoId: number, page: { offset?: number; limit?: number }) {
  const run = await finishedRun(db, videoId);
  const offset = page.offset ?? 0;
  const { total } = await db
    .selectFrom('event_tracks')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('tracking_id', '=', run.id)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('event_tracks')
    .select(['track_number', 'first_time', 'last_time', 'points'])
    .where('tracking_id', '=', run.id)
    .orderBy('track_number')
    .offset(offset)
    .limit(page.limit ?? TRACKS_PAGE.default)
    .execute();
  return {
    tracking_id: run.id,
    video_fps: run.video_fps,
    frame_width: run.frame_width,
    frame_height: run.frame_height,
    total: Number(total),
    offset,
    tracks: rows.map((r) => {
      const points = JSON.parse(r.points) as number[][];
      return { number: r.track_number, first_time: r.first_time, last_time: r.last_time, points_total: points.length, points: thinned(points) };
    }),
  };
}

/** Every track of the finished run, whole (the MOTChallenge export). */
export async function allTracks(db: Db, videoId: number) {
  const run = await finishedRun(db, videoId);
  const rows = await db.selectFrom('event_tracks').select(['track_number', 'points']).where('tracking_id', '=', run.id).orderBy('track_number').execute();
  return { run, tracks: rows.map((r) => ({ number: r.track_number, points: JSON.parse(r.points) as number[][] })) };
}

/** The video's file name (the export's name follows it). */
export async function videoFilename(db: Db, user: SessionUser, videoId: number): Promise<string> {
  return (await videoOf(db, user, videoId)).filename;
}

// ——— calibration ———

export async function calibrationOf(db: Db, cameraId: number) {
  const row = await db.selectFrom('event_calibrations').selectAll().where('camera_id', '=', cameraId).executeTakeFirst();
  if (!row) return { calibration: null };
  return {
    calibration: {
      camera_id: row.camera_id,
      frame_width: row.frame_width,
      frame_height: row.frame_height,
      image_points: JSON.parse(row.image_points) as [number, number][],
      plan_points: JSON.parse(row.plan_points) as [number, number][],
      updated_at: iso(row.updated_at)!,
    },
  };
}

/** PUT /api/v1/event/calibration: the camera's one calibration, replaced. */
export async function saveCalibration(db: Db, cameraId: number, input: CalibrationInput) {
  const values = {
    frame_width: input.frame_width,
    frame_height: input.frame_height,
    image_points: JSON.stringify(input.image_points),
    plan_points: JSON.stringify(input.plan_points),
    updated_at: Date.now(),
  };
  await db
    .insertInto('event_calibrations')
    .values({ camera_id: cameraId, ...values })
    .onConflict((oc) => oc.column('camera_id').doUpdateSet(values))
    .execute();
  return calibrationOf(db, cameraId);
}

// ——— zones ———

type ZoneRow = { id: number; structure_id: number; name: string; role: 'zone' | 'stand' | 'safe'; stand_id: number | null; shape: string; updated_at: number };
const zoneView = (row: ZoneRow) => ({
  id: row.id,
  structure_id: row.structure_id,
  name: row.name,
  role: row.role,
  stand_id: row.stand_id,
  shape: JSON.parse(row.shape) as ZoneShapeValue,
  updated_at: iso(row.updated_at)!,
});
const ZONE_COLUMNS = ['id', 'structure_id', 'name', 'role', 'stand_id', 'shape', 'updated_at'] as const;

export async function listZones(db: Db, structureId: number) {
  const rows = await db.selectFrom('event_zones').select(ZONE_COLUMNS).where('structure_id', '=', structureId).orderBy('id').execute();
  return { zones: rows.map(zoneView) };
}

/** The structure and organisation of a zone (the access check of PUT/DELETE), undefined when there is none. */
export async function zoneStructure(db: Db, zoneId: number) {
  return db
    .selectFrom('event_zones')
    .innerJoin('structures', 'structures.id', 'event_zones.structure_id')
    .select(['event_zones.structure_id as structureId', 'structures.organization_id as organizationId'])
    .where('event_zones.id', '=', zoneId)
    .executeTakeFirst();
}

/** The shape to store: the given one, or a stand's circle around its absolute location in the structure. */
async function zoneShape(db: Db, user: SessionUser, structureId: number, input: ZoneInput): Promise<ZoneShapeValue> {
  if (input.stand_id != null) {
    const stand = await db
      .selectFrom('stands')
      .select('id')
      .where('id', '=', input.stand_id)
      .where('organization_id', '=', user.organizationId)
      .executeTakeFirst();
    if (!stand) throw notFound(EVENT_MESSAGES.standMissing);
  }
  if (input.shape) return input.shape;
  if (input.role !== 'stand' || input.stand_id == null) throw badRequest(EVENT_MESSAGES.shapeNeeded);
  const at = await db
    .selectFrom('absolute_locations')
    .select(['x', 'y'])
    .where('stand_id', '=', input.stand_id)
    .where('structure_id', '=', structureId)
    .orderBy('id')
    .executeTakeFirst();
  if (!at) throw badRequest(EVENT_MESSAGES.standLocationMissing);
  return { type: 'circle', center: [at.x, at.y], radius: STAND_ZONE_RADIUS };
}

export async function createZone(db: Db, user: SessionUser, structureId: number, input: ZoneInput) {
  const shape = await zoneShape(db, user, structureId, input);
  const now = Date.now();
  const row = await db
    .insertInto('event_zones')
    .values({
      structure_id: structureId,
      name: input.name,
      role: input.role,
      stand_id: input.stand_id ?? null,
      shape: JSON.stringify(shape),
      created_at: now,
      updated_at: now,
    })
    .returning(ZONE_COLUMNS)
    .executeTakeFirstOrThrow();
  return zoneView(row);
}

export async function updateZone(db: Db, user: SessionUser, zoneId: number, input: ZoneInput) {
  const where = await zoneStructure(db, zoneId);
  if (!where) throw notFound(EVENT_MESSAGES.zoneMissing);
  const shape = await zoneShape(db, user, where.structureId, input);
  const row = await db
    .updateTable('event_zones')
    .set({ name: input.name, role: input.role, stand_id: input.stand_id ?? null, shape: JSON.stringify(shape), updated_at: Date.now() })
    .where('id', '=', zoneId)
    .returning(ZONE_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound(EVENT_MESSAGES.zoneMissing);
  return zoneView(row);
}

export async function deleteZone(db: Db, zoneId: number) {
  const result = await db.deleteFrom('event_zones').where('id', '=', zoneId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(EVENT_MESSAGES.zoneMissing);
  return { deleted: Number(result.numDeletedRows) };
}
