import { sql } from 'kysely';
import { precompiled, type Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import { withoutServerPaths } from '../jobs/error-text';
import { endJobs } from '../jobs/queue';
import type { ObjectStore } from '../storage/object-store';
import { logActivities } from './activity.service';
import { MAX_VIDEO_SECONDS, toIso } from '../http/time';

const metaColumns = [
  'videos.id',
  'videos.filename',
  'videos.comment',
  'videos.camera_id',
  'cameras.camera_key',
  'cameras.structure_id',
  'videos.start_time',
  'videos.duration',
  'videos.status',
  'videos.error',
  'videos.damage',
  'videos.job_id',
  'videos.finished',
  'videos.size_bytes',
  'videos.start_source',
  'videos.start_confirmed',
] as const;

/** Video meta (spec 01 §3, spec 02 §3): name, comment, camera, structure, start instant, duration, status. */
const storedVideoQuery = precompiled((db) => db.selectFrom('videos').select(['storage_key', 'filename', 'status']).where('id', '=', 0));

/** Where a video's file is and what to call it: asked by every seek, so compiled once. */
export async function storedVideo(db: Db, videoId: number) {
  const [video] = await storedVideoQuery(db, [videoId]);
  if (!video) throw notFound('Видео не найдено');
  return video;
}

export async function videoMeta(db: Db, videoId: number) {
  const row = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(metaColumns)
    .where('videos.id', '=', videoId)
    .executeTakeFirst();
  if (!row) throw notFound('Видео не найдено');
  // An error stored before the server cut its paths out of job errors (jobs/error-text.ts) is cut here.
  const error = row.error === null ? null : withoutServerPaths(row.error);
  return { ...row, error, start_time: toIso(row.start_time), finished: row.finished === 1, start_confirmed: row.start_confirmed === 1 };
}

export async function setVideoComment(db: Db, videoId: number, comment: string, authorId: string) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('videos').set({ comment }).where('id', '=', videoId).execute();
    await logActivities(trx, [{ videoId, authorId, at: Date.now(), comment: 'Изменён комментарий к видео' }]);
  });
  return videoMeta(db, videoId);
}

/** A stored duration the API trusts: finite, positive, at most MAX_VIDEO_SECONDS (older rows may hold anything). */
export const isSaneDuration = (duration: number | null): duration is number =>
  duration !== null && Number.isFinite(duration) && duration > 0 && duration <= MAX_VIDEO_SECONDS;

/**
 * The duration the browser read from the file's metadata (whole seconds, at most 24 h). The file
 * is the authority: once processing has probed it (status "ready" with a sane duration), a
 * browser value more than a second longer is refused (400) and the probed value stays. Before
 * that (no duration yet, or one the browser wrote) the browser's value is kept when it differs by
 * a second or more. Returns the duration the server now holds.
 */
export async function setVideoDuration(db: Db, videoId: number, duration: number) {
  const row = await db.selectFrom('videos').select(['duration', 'status']).where('id', '=', videoId).executeTakeFirst();
  if (!row) throw notFound('Видео не найдено');
  if (row.status === 'ready' && isSaneDuration(row.duration)) {
    if (duration > row.duration + 1) {
      throw badRequest(`duration: ${duration} с больше длительности файла (${Math.round(row.duration)} с), которую сервер прочитал при обработке`);
    }
    return { video_id: videoId, duration: row.duration };
  }
  if (!isSaneDuration(row.duration) || Math.abs(row.duration - duration) >= 1) {
    await db.updateTable('videos').set({ duration }).where('id', '=', videoId).execute();
    return { video_id: videoId, duration };
  }
  return { video_id: videoId, duration: row.duration };
}

/** Reads a positive whole number of seconds, at most `max`; anything else (hex, exponent, spaces, 1e308) is a 400 naming the field. */
export function wholeSeconds(raw: unknown, name: string, max = MAX_VIDEO_SECONDS): number {
  if (raw === undefined || raw === null || raw === '') throw badRequest(`Не указан параметр ${name}`);
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value <= 0) throw badRequest(`${name}: ожидается целое положительное число секунд`);
  if (value > max) throw badRequest(`${name}: не больше ${max} с (${max / 3600} ч)`);
  return value;
}

const coversInstant = (instant: number) => sql<boolean>`videos.start_time <= ${instant} AND videos.start_time + videos.duration * 1000 > ${instant}`;

/**
 * Videos of the structure's other cameras whose span covers the instant `current_second` of this
 * video names, with the second of that instant in each (switching camera keeps the moment).
 */
export async function otherVideos(db: Db, videoId: number, currentSecond: number) {
  const video = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.start_time', 'videos.camera_id', 'cameras.structure_id'])
    .where('videos.id', '=', videoId)
    .executeTakeFirst();
  if (!video) throw notFound('Видео не найдено');
  const instant = video.start_time + Math.round(currentSecond * 1000);
  const rows = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.filename', 'videos.start_time', 'cameras.camera_key'])
    .where('cameras.structure_id', '=', video.structure_id)
    .where('videos.camera_id', '!=', video.camera_id)
    .where('videos.status', '=', 'ready')
    .where('videos.duration', 'is not', null)
    .where(coversInstant(instant))
    .orderBy('cameras.camera_key')
    .orderBy('videos.start_time', 'desc')
    .orderBy('videos.id')
    .execute();
  if (rows.length === 0) return [];
  const linked = await db
    .selectFrom('markups')
    .innerJoin('workplaces', 'workplaces.id', 'markups.workplace_id')
    .select(['markups.video_id', 'workplaces.name'])
    .where(
      'markups.video_id',
      'in',
      rows.map((r) => r.id),
    )
    .groupBy(['markups.video_id', 'workplaces.id'])
    .orderBy('workplaces.name')
    .execute();
  const allWorkplaces = (await db.selectFrom('workplaces').select('name').where('structure_id', '=', video.structure_id).orderBy('name').execute()).map(
    (w) => w.name,
  );
  return rows.map((row) => {
    const names = linked.filter((l) => l.video_id === row.id).map((l) => l.name);
    return {
      video_id: row.id,
      video_filename: row.filename,
      workplace_names: names.length ? names : allWorkplaces,
      current_second: (instant - row.start_time) / 1000,
      camera_key: row.camera_key,
    };
  });
}

/** A video's activity, newest first (the markup screen shows the 5 latest). */
export async function listActivities(db: Db, videoId: number, offset: number, limit: number) {
  const rows = await db
    .selectFrom('activities')
    .leftJoin('user', 'user.id', 'activities.author_id')
    .select(['activities.happened_at', 'activities.comment', 'user.firstName', 'user.lastName'])
    .where('activities.video_id', '=', videoId)
    .orderBy('activities.happened_at', 'desc')
    .orderBy('activities.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    happened_at: toIso(row.happened_at),
    author_name: row.firstName ? `${row.firstName} ${row.lastName ?? ''}`.trim() : 'Система',
    comment: row.comment,
  }));
}

export async function listCameras(db: Db, structureId: number) {
  return db.selectFrom('cameras').select(['id', 'camera_key', 'name']).where('structure_id', '=', structureId).orderBy('camera_key').execute();
}

export async function listCameraVideos(db: Db, cameraId: number) {
  const rows = await db
    .selectFrom('videos')
    .select(['id', 'filename', 'start_time', 'duration', 'status'])
    .where('camera_id', '=', cameraId)
    .orderBy('start_time')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, start_time: toIso(row.start_time) }));
}

/** For the multi-video player: per camera of the structure, the video playing at `at` and its second. */
export async function videosAt(db: Db, structureId: number, at: number) {
  const cameras = await listCameras(db, structureId);
  const playing = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.camera_id', 'videos.filename', 'videos.start_time'])
    .where('cameras.structure_id', '=', structureId)
    .where('videos.status', '=', 'ready')
    .where('videos.duration', 'is not', null)
    .where(coversInstant(at))
    .orderBy('videos.start_time', 'desc')
    .orderBy('videos.id', 'desc')
    .execute();
  return cameras.map((camera) => {
    const video = playing.find((v) => v.camera_id === camera.id);
    return {
      camera_id: camera.id,
      camera_key: camera.camera_key,
      camera_name: camera.name,
      video_id: video?.id ?? null,
      filename: video?.filename ?? null,
      second: video ? (at - video.start_time) / 1000 : null,
      start_time: video ? toIso(video.start_time) : null,
    };
  });
}

/**
 * Deletes a video (a markup task, or a recording whose processing failed): the row and its file. Its
 * markups stay (their video link is cleared by the foreign key), its activity goes with it; a queued
 * ingest job is ended.
 */
export async function deleteVideo(db: Db, storage: ObjectStore, videoId: number): Promise<void> {
  const video = await db.selectFrom('videos').select(['storage_key', 'job_id']).where('id', '=', videoId).executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    if (video.job_id !== null) await endJobs(trx, [video.job_id], { status: 'failed', error: 'Видео удалено' }, ['queued']);
    await trx.deleteFrom('videos').where('id', '=', videoId).execute();
  });
  await storage.remove(video.storage_key);
}
