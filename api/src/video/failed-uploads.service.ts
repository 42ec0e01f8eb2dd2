import type { Db } from '../db/database';

/** The reads of recordings whose processing failed (failed-uploads.ts). */

/** The structure's failed videos, newest first, with their camera's number. */
export async function failedVideoRows(db: Db, structureId: number) {
  return db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.filename', 'videos.error', 'videos.created_at', 'cameras.camera_key'])
    .where('cameras.structure_id', '=', structureId)
    .where('videos.status', '=', 'failed')
    .orderBy('videos.created_at', 'desc')
    .orderBy('videos.id', 'desc')
    .execute();
}

export async function videoStatus(db: Db, videoId: number) {
  return db.selectFrom('videos').select('status').where('id', '=', videoId).executeTakeFirst();
}

/** What a retry needs of a video: its state, its file and its organisation. */
export async function videoToRetry(db: Db, videoId: number) {
  return db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .select(['videos.status', 'videos.storage_key', 'structures.organization_id'])
    .where('videos.id', '=', videoId)
    .executeTakeFirst();
}
