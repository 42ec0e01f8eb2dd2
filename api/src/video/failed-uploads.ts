import type { Db } from '../db/database';
import { conflict, notFound } from '../http/errors';
import { toIso } from '../http/time';
import { withoutServerPaths } from '../jobs/error-text';
import type { ObjectStore } from '../storage/object-store';
import { failedVideoRows, videoStatus, videoToRetry } from './failed-uploads.service';
import { hashStoredFile, isUniqueViolation } from './registration';
import { requeueFailedRecording } from './registration.service';
import { deleteVideo } from './service';

export const RETRY_ONLY_FAILED = 'Повторить можно только обработку, которая не удалась: запись уже обработана или обрабатывается';
export const RETRY_NO_FILE = 'Файла этой записи больше нет на сервере: загрузите запись заново';
const RETRY_SAME_AS_OTHER = 'Файл этой записи теперь совпадает с другой записью камеры: удалите эту запись';
const RETRY_ACTIVITY = 'Обработка запущена повторно';

/**
 * Recordings of a structure whose processing failed (not a video, unreadable…), newest first:
 * the task list shows only ready videos, so these are listed apart, with their error.
 */
export async function listFailedVideos(db: Db, structureId: number) {
  const rows = await failedVideoRows(db, structureId);
  // Errors stored before the server cut its paths out of them (jobs/error-text.ts) are cut here.
  return rows.map((row) => ({ ...row, error: row.error === null ? null : withoutServerPaths(row.error), created_at: toIso(row.created_at) }));
}

/** Deletes a video whose processing failed: its row and whatever file is left (409 for any other video). */
export async function deleteFailedVideo(db: Db, storage: ObjectStore, videoId: number): Promise<void> {
  const video = await videoStatus(db, videoId);
  if (!video) throw notFound('Видео не найдено');
  if (video.status !== 'failed') throw conflict('Удалить здесь можно только запись, которую не удалось обработать');
  await deleteVideo(db, storage, videoId);
}

/**
 * Processes a recording whose processing failed once more (POST /api/v1/failed_videos/{videoId}/retry):
 * a new ingest job, the video queued again. 409 for a video that did not fail (ready, queued,
 * being processed), for one whose file is gone (an upload that was no video: it has to be uploaded
 * again) and for one whose file now holds another video of the camera.
 */
export async function retryFailedVideo(db: Db, storage: ObjectStore, videoId: number, authorId: string) {
  const video = await videoToRetry(db, videoId);
  if (!video) throw notFound('Видео не найдено');
  if (video.status !== 'failed') throw conflict(RETRY_ONLY_FAILED);
  const stored = await storage.stat(video.storage_key);
  if (!stored) throw conflict(RETRY_NO_FILE);
  // The file may have changed since it failed (a recorder that had not finished it): the video is what it holds now.
  const file = { size_bytes: stored.size, content_hash: await hashStoredFile(storage, video.storage_key) };
  const jobId = await requeueFailedRecording(db, { id: videoId, organizationId: video.organization_id, file }, { authorId, comment: RETRY_ACTIVITY }).catch(
    (err: unknown) => {
      if (isUniqueViolation(err)) throw conflict(RETRY_SAME_AS_OTHER);
      throw err;
    },
  );
  // Another retry or an upload of the same recording took it a moment ago.
  if (jobId === null) throw conflict(RETRY_ONLY_FAILED);
  return { video_id: videoId, job_id: jobId };
}
