import type { Db } from '../db/database';
import { enqueueJob } from '../jobs/queue';
import { logActivities } from './activity.service';

/**
 * The queries of registering recordings as videos (registration.ts, sync.ts, upload.ts,
 * failed-uploads.ts): cameras with their context, new videos and their ingest jobs, a failed
 * video queued again, and what a sync or an upload asks of the videos there are.
 */

export const INGEST_JOB = 'ingest_video';

interface CameraRow {
  id: number;
  structure_id: number;
  camera_key: number;
  name: string;
  storage_folder: string;
}

/** A camera with its organisation and time zone (recording names carry local time). */
export interface CameraContext extends CameraRow {
  organization_id: number;
  time_zone: string;
}

function cameraContext(db: Db) {
  return db
    .selectFrom('cameras')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select([
      'cameras.id',
      'cameras.structure_id',
      'cameras.camera_key',
      'cameras.name',
      'cameras.storage_folder',
      'structures.organization_id',
      'organizations.time_zone',
    ]);
}

/** A camera with its context; throws when there is none (the route has checked it). */
export async function cameraWithContext(db: Db, cameraId: number): Promise<CameraContext> {
  return cameraContext(db).where('cameras.id', '=', cameraId).executeTakeFirstOrThrow();
}

/** The structure's cameras with their context, by camera number. */
export async function structureCameras(db: Db, structureId: number): Promise<CameraContext[]> {
  return cameraContext(db).where('cameras.structure_id', '=', structureId).orderBy('cameras.camera_key').execute();
}

export interface NewRecording {
  camera: CameraContext;
  storageKey: string;
  filename: string;
  contentHash: string;
  sizeBytes: number;
  startTime: number;
  /** Where the start came from (recording-start.service.ts) and whether it counts as confirmed. */
  startSource: 'file_name' | 'creation_time' | 'file_time' | 'unknown';
  startConfirmed: boolean;
  authorId: string | null;
  /** Written to the video's activity list. */
  activity: string;
}

/** The video row of a stored recording and its activity line; `ready` gives its duration (no ingest follows). */
async function insertRecording(trx: Db, recording: NewRecording, now: number, ready: { durationSeconds: number } | null) {
  const video = await trx
    .insertInto('videos')
    .values({
      camera_id: recording.camera.id,
      filename: recording.filename,
      storage_key: recording.storageKey,
      content_hash: recording.contentHash,
      size_bytes: recording.sizeBytes,
      start_time: recording.startTime,
      start_source: recording.startSource,
      start_confirmed: recording.startConfirmed ? 1 : 0,
      duration: ready ? Math.round(ready.durationSeconds * 1000) / 1000 : null,
      status: ready ? 'ready' : 'queued',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await logActivities(trx, [{ videoId: video.id, authorId: recording.authorId, at: now, comment: recording.activity }]);
  return video.id;
}

/** Registers a stored file as a video (status "queued") and queues its ingest job, in one transaction. */
export async function registerRecording(db: Db, recording: NewRecording): Promise<{ videoId: number; jobId: number }> {
  return db.transaction().execute(async (trx) => {
    const videoId = await insertRecording(trx, recording, Date.now(), null);
    const jobId = await enqueueJob(trx, {
      kind: INGEST_JOB,
      payload: { video_id: videoId },
      organizationId: recording.camera.organization_id,
    });
    await trx.updateTable('videos').set({ job_id: jobId }).where('id', '=', videoId).execute();
    return { videoId, jobId };
  });
}

/**
 * Registers a recording that is browser-ready already — a camera-stream recorder's closed segment it
 * inspected itself (h264 in MP4, index first; api/src/live/recorder.ts) — as a «ready» video with its
 * duration, in one transaction, with no ingest job (docs/live-cameras.md «Один приём на отрезок»).
 */
export async function registerReadyRecording(db: Db, recording: NewRecording & { durationSeconds: number }): Promise<{ videoId: number }> {
  return db.transaction().execute(async (trx) => ({ videoId: await insertRecording(trx, recording, Date.now(), recording) }));
}

/**
 * Queues the processing of a video whose processing failed once more, in one transaction (a user's
 * retry, the same recording uploaded again — `file`: its bytes now, and where they are when moved):
 * status "queued", error cleared, a new ingest job (its own attempts), an activity. Null when the
 * video is no longer failed — another retry or upload took it a moment ago — and then nothing is written.
 */
export async function requeueFailedRecording(
  db: Db,
  video: { id: number; organizationId: number; file?: { storage_key?: string; filename?: string; size_bytes: number; content_hash: string } },
  activity: { authorId: string | null; comment: string },
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const taken = await trx
      .updateTable('videos')
      .set({ status: 'queued', error: null, damage: null, ...video.file })
      .where('id', '=', video.id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) return null;
    const jobId = await enqueueJob(trx, { kind: INGEST_JOB, payload: { video_id: video.id }, organizationId: video.organizationId });
    await trx.updateTable('videos').set({ job_id: jobId }).where('id', '=', video.id).execute();
    await logActivities(trx, [{ videoId: video.id, authorId: activity.authorId, at: Date.now(), comment: activity.comment }]);
    return jobId;
  });
}

/** A video stored under this key, if any. */
export async function videoWithStorageKey(db: Db, storageKey: string) {
  return db.selectFrom('videos').select('id').where('storage_key', '=', storageKey).executeTakeFirst();
}

/** Storage keys of the videos in a folder (`folder/…`). */
export async function storageKeysUnder(db: Db, folder: string): Promise<string[]> {
  return (await db.selectFrom('videos').select('storage_key').where('storage_key', 'like', `${folder}/%`).execute()).map((r) => r.storage_key);
}

/** Content hashes of the camera's videos (those that have one). */
export async function cameraContentHashes(db: Db, cameraId: number): Promise<string[]> {
  return (await db.selectFrom('videos').select('content_hash').where('camera_id', '=', cameraId).where('content_hash', 'is not', null).execute()).map(
    (r) => r.content_hash!,
  );
}

/** Storage keys of the structure's videos waiting for or in processing, by start. */
export async function inFlightStorageKeys(db: Db, structureId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select('videos.storage_key')
    .where('cameras.structure_id', '=', structureId)
    .where('videos.status', 'in', ['queued', 'processing'])
    .orderBy('videos.start_time')
    .orderBy('videos.id')
    .execute();
  return rows.map((r) => r.storage_key);
}

/** The camera's video with this content, if any (the loader asks before it sends a large file). */
export async function videoByContent(db: Db, cameraId: number, contentHash: string) {
  return db
    .selectFrom('videos')
    .select(['id', 'filename', 'status', 'storage_key'])
    .where('camera_id', '=', cameraId)
    .where('content_hash', '=', contentHash)
    .executeTakeFirst();
}
