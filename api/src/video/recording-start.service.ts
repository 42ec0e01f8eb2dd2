import type { Db } from '../db/database';
import { badRequest, conflict, notFound } from '../http/errors';
import { toIso } from '../http/time';

/**
 * A recording's start (issue 41, docs/video-storage.md «Начало записи»): where it came from, its
 * confirmation, and the video's side of moving it — the markups and stamps keyed to it move in the
 * markup domain (api/src/markup/recording-start.service.ts, moveRecordingStart), in the same transaction.
 */

export type StartSource = 'file_name' | 'creation_time' | 'file_time' | 'manual' | 'unknown';

/** The earliest start a recording may have, and how far past the server's clock (a camera's clock running ahead). */
export const EARLIEST_START = Date.UTC(2000, 0, 1);
export const START_FUTURE_SLACK_MS = 86_400_000;

export const START_TOO_EARLY = 'Начало записи не может быть раньше 01.01.2000';
export const START_IN_FUTURE = 'Начало записи не может быть позже чем через сутки от текущего момента';
export const START_OVERLAPS = 'Запись с таким началом пересекается с другой записью этой камеры';
export const START_NEEDS_ANALYST = 'Изменить подтверждённое начало записи или начало размеченной записи может аналитик или администратор';

/** The video's start as the API answers it: the instant (null while unknown), its source, whether a person confirmed it. */
export async function recordingStartOf(db: Db, videoId: number) {
  const row = await db.selectFrom('videos').select(['id', 'start_time', 'start_source', 'start_confirmed']).where('id', '=', videoId).executeTakeFirst();
  if (!row) throw notFound('Видео не найдено');
  return startReply(row);
}

export function startReply(row: { id: number; start_time: number; start_source: StartSource; start_confirmed: number }) {
  return {
    video_id: row.id,
    start_time: row.start_source === 'unknown' ? null : toIso(row.start_time),
    start_source: row.start_source,
    start_confirmed: row.start_confirmed === 1,
  };
}

/**
 * The structure's recordings whose start nobody has given yet (an upload whose name and metadata
 * told nothing, left before its start was confirmed, or sent by the loader): kept out of tasks and
 * reports, so the task list names them to be given a start. Failed ones are listed with the failures.
 */
export async function recordingsWithoutStart(db: Db, structureId: number) {
  const rows = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.filename', 'videos.status', 'videos.created_at', 'cameras.camera_key'])
    .where('cameras.structure_id', '=', structureId)
    .where('videos.start_source', '=', 'unknown')
    .where('videos.status', '!=', 'failed')
    .orderBy('videos.created_at', 'desc')
    .orderBy('videos.id', 'desc')
    .limit(500)
    .execute();
  return rows.map((row) => ({ ...row, created_at: toIso(row.created_at) }));
}

/** The video whose start is to be set, with what a move needs; another organisation's is not found (404). */
export async function videoForStart(trx: Db, videoId: number, organizationId: number) {
  const video = await trx
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select([
      'videos.id',
      'videos.camera_id',
      'videos.start_time',
      'videos.duration',
      'videos.start_source',
      'videos.start_confirmed',
      'structures.organization_id',
      'organizations.time_zone',
    ])
    .where('videos.id', '=', videoId)
    .executeTakeFirst();
  if (!video || video.organization_id !== organizationId) throw notFound('Видео не найдено');
  return video;
}

/** A start the API takes: after 2000-01-01 and at most a day past `now` (400 with the reason). */
export function checkStartBounds(startTime: number, now: number) {
  if (!Number.isSafeInteger(startTime) || startTime < EARLIEST_START) throw badRequest(START_TOO_EARLY);
  if (startTime > now + START_FUTURE_SLACK_MS) throw badRequest(START_IN_FUTURE);
}

/** 409 when the video, starting at `startTime`, would overlap another recording of its camera (a known start, not failed, with a duration). */
export async function checkNoOverlap(trx: Db, video: { id: number; camera_id: number; duration: number | null }, startTime: number) {
  const end = startTime + Math.max(0, video.duration ?? 0) * 1000;
  if (end <= startTime) return;
  const overlapping = await trx
    .selectFrom('videos')
    .select('filename')
    .where('camera_id', '=', video.camera_id)
    .where('id', '!=', video.id)
    .where('start_source', '!=', 'unknown')
    .where('status', '!=', 'failed')
    .where('duration', '>', 0)
    .where('start_time', '<', end)
    .where((eb) => eb(eb('start_time', '+', eb(eb.ref('duration'), '*', 1000)), '>', startTime))
    .executeTakeFirst();
  if (overlapping) throw conflict(`${START_OVERLAPS}: ${overlapping.filename}`);
}

/** Writes the video's new start: its source, confirmed, and (when markups moved) one more markup version. */
export async function writeVideoStart(trx: Db, videoId: number, start: { startTime: number; source: StartSource; bumpVersion: boolean }) {
  await trx
    .updateTable('videos')
    .set((eb) => ({
      start_time: start.startTime,
      start_source: start.source,
      start_confirmed: 1,
      ...(start.bumpVersion ? { markup_version: eb('markup_version', '+', 1) } : {}),
    }))
    .where('id', '=', videoId)
    .execute();
}
