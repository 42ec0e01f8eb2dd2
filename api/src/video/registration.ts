import { probe } from '@norma/workers/media';
import type { Db } from '../db/database';
import { enqueueJob } from '../jobs/queue';
import { logActivities } from './activity.service';
import type { ObjectStore } from '../storage/object-store';
import { plausibleCreationTime, startFromName } from './recording-name';
import { localToInstant } from '../time-zone';

export const INGEST_JOB = 'ingest_video';

export interface CameraRow {
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

export function cameraContext(db: Db) {
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

export type StartSource = 'file_name' | 'creation_time' | 'file_time';

/**
 * When a recording began: the local time in its name (`cam1_2026-11-16_09-00-00.mp4`, in the
 * organisation's zone), else the container's creation time (ffprobe), else the file's time.
 */
export async function recordingStart(path: string, name: string, timeZone: string, fileTime: number): Promise<{ instant: number; source: StartSource }> {
  const local = startFromName(name);
  if (local) return { instant: localToInstant(local, timeZone), source: 'file_name' };
  try {
    const created = plausibleCreationTime((await probe(path)).creationTime);
    if (created !== null) return { instant: created, source: 'creation_time' };
  } catch {
    // Not readable as video: the ingest job reports that; the file time is used meanwhile.
  }
  return { instant: Math.floor(fileTime), source: 'file_time' };
}

export interface NewRecording {
  camera: CameraContext;
  storageKey: string;
  filename: string;
  contentHash: string;
  sizeBytes: number;
  startTime: number;
  authorId: string | null;
  /** Written to the video's activity list. */
  activity: string;
}

/** Registers a stored file as a video (status "queued") and queues its ingest job, in one transaction. */
export async function registerRecording(db: Db, recording: NewRecording): Promise<{ videoId: number; jobId: number }> {
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const video = await trx
      .insertInto('videos')
      .values({
        camera_id: recording.camera.id,
        filename: recording.filename,
        storage_key: recording.storageKey,
        content_hash: recording.contentHash,
        size_bytes: recording.sizeBytes,
        start_time: recording.startTime,
        duration: null,
        status: 'queued',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobId = await enqueueJob(trx as unknown as Db, {
      kind: INGEST_JOB,
      payload: { video_id: video.id },
      organizationId: recording.camera.organization_id,
    });
    await trx.updateTable('videos').set({ job_id: jobId }).where('id', '=', video.id).execute();
    await logActivities(trx as unknown as Db, [{ videoId: video.id, authorId: recording.authorId, at: now, comment: recording.activity }]);
    return { videoId: video.id, jobId };
  });
}

/**
 * Queues the processing of a video whose processing failed once more, in the caller's transaction
 * (a user's retry, the same recording uploaded again — `file`: its bytes now, and where they are
 * when moved): status "queued", error cleared, a new ingest job (its own attempts), an activity.
 * Null when the video is no longer failed — another retry or upload took it a moment ago — and
 * then nothing is written.
 */
export async function requeueFailedRecording(
  trx: Db,
  video: { id: number; organizationId: number; file?: { storage_key?: string; filename?: string; size_bytes: number; content_hash: string } },
  activity: { authorId: string | null; comment: string },
): Promise<number | null> {
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
}

/** SHA-256 of a stored file, read in chunks (never whole in memory). */
export async function hashStoredFile(storage: ObjectStore, key: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256');
  for await (const chunk of storage.file(key).stream()) hasher.update(chunk);
  return hasher.digest('hex');
}

/** A free storage key in `folder` for `filename`: the name itself, else `name~2.ext`, `name~3.ext`… */
export async function freeStorageKey(db: Db, storage: ObjectStore, folder: string, filename: string): Promise<string> {
  const dot = filename.lastIndexOf('.');
  const stem = dot > 0 ? filename.slice(0, dot) : filename;
  const extension = dot > 0 ? filename.slice(dot) : '';
  for (let n = 1; ; n++) {
    const key = `${folder}/${n === 1 ? filename : `${stem}~${n}${extension}`}`;
    const taken = (await storage.exists(key)) || (await db.selectFrom('videos').select('id').where('storage_key', '=', key).executeTakeFirst());
    if (!taken) return key;
  }
}

/** A unique index refused the row: SQLite's message, PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && ((err as { code?: unknown }).code === '23505' || /UNIQUE constraint failed/i.test(err.message));
}
