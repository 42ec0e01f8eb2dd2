import type { Db } from '../db/database';
import { withoutServerPaths } from '../jobs/error-text';
import { UPLOADED_ACTIVITY } from './upload';

/**
 * The processing job's reads and writes of `videos` (the handler is video/ingest.job.ts): the
 * video domain is the one writer of its table, the job goes through here.
 */
export async function setVideoStatus(db: Db, videoId: number, status: 'queued' | 'processing' | 'failed', error: string | null): Promise<void> {
  // The job's message as the user sees it (the task list's «Не удалось обработать»): without the server's paths.
  await db
    .updateTable('videos')
    .set({ status, error: error === null ? null : withoutServerPaths(error) })
    .where('id', '=', videoId)
    .execute();
}

/** The file was converted to .mp4 under a new key (and name). */
export async function moveVideoFile(db: Db, videoId: number, storageKey: string, filename: string): Promise<void> {
  await db.updateTable('videos').set({ storage_key: storageKey, filename }).where('id', '=', videoId).execute();
}

/**
 * Processed: playable, with its (readable) duration, size, for a damaged file why, and the reference
 * step of Norma's own encode (null when the file was served or copied as it came).
 */
export async function markVideoReady(
  db: Db,
  videoId: number,
  ready: { duration: number; sizeBytes: number | null; damage: string | null; referenceStep: number | null },
): Promise<void> {
  await db
    .updateTable('videos')
    .set({ status: 'ready', duration: ready.duration, size_bytes: ready.sizeBytes, error: null, damage: ready.damage, reference_step: ready.referenceStep })
    .where('id', '=', videoId)
    .execute();
}

/** The video an ingest job processes, or undefined when it was deleted before. */
export async function videoToIngest(db: Db, videoId: number) {
  return await db.selectFrom('videos').select(['id', 'storage_key', 'camera_id', 'filename']).where('id', '=', videoId).executeTakeFirst();
}

/** Whether the video is still there (not deleted while its job ran). */
export async function videoExists(db: Db, videoId: number): Promise<boolean> {
  return (await db.selectFrom('videos').select('id').where('id', '=', videoId).executeTakeFirst()) !== undefined;
}

/** Whether the video came by upload (its «uploaded» activity), not from a camera folder. */
export async function wasUploaded(db: Db, videoId: number): Promise<boolean> {
  const uploaded = await db.selectFrom('activities').select('id').where('video_id', '=', videoId).where('comment', '=', UPLOADED_ACTIVITY).executeTakeFirst();
  return uploaded !== undefined;
}
