import type { Db } from '../db/database';
import { conflict, notFound } from '../http/errors';
import { toIso } from '../http/time';
import type { ObjectStore } from '../storage/object-store';
import { deleteVideo } from './service';

/**
 * Recordings of a structure whose processing failed (not a video, unreadable…), newest first:
 * the task list shows only ready videos, so these are listed apart, with their error.
 */
export async function listFailedVideos(db: Db, structureId: number) {
  const rows = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.filename', 'videos.error', 'videos.created_at', 'cameras.camera_key'])
    .where('cameras.structure_id', '=', structureId)
    .where('videos.status', '=', 'failed')
    .orderBy('videos.created_at', 'desc')
    .orderBy('videos.id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, created_at: toIso(row.created_at) }));
}

/** Deletes a video whose processing failed: its row and whatever file is left (409 for any other video). */
export async function deleteFailedVideo(db: Db, storage: ObjectStore, videoId: number): Promise<void> {
  const video = await db.selectFrom('videos').select('status').where('id', '=', videoId).executeTakeFirst();
  if (!video) throw notFound('Видео не найдено');
  if (video.status !== 'failed') throw conflict('Удалить здесь можно только запись, которую не удалось обработать');
  await deleteVideo(db, storage, videoId);
}
