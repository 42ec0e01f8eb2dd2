import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { FailedVideo } from '../../api/types';
import { formatDateTime } from '../../format/time';
import { useAllows } from '../../state/login';
import { notify } from '../../status/notifications';

/** Deletes a recording whose processing failed (DELETE /api/v1/failed_videos/{id}); true when done. */
export async function deleteFailedVideo(videoId: number): Promise<boolean> {
  const reply = await api.delete('/api/v1/failed_videos/{videoId}', { path: { videoId } }).catch(() => null);
  if (reply) notify('success', reply.message);
  return reply !== null;
}

/**
 * Processes a recording whose processing failed once more (POST /api/v1/failed_videos/{id}/retry,
 * e.g. after a full disk was freed): the new ingest job, or null when refused (the client has shown why).
 */
export async function retryFailedVideo(videoId: number): Promise<{ job_id: number } | null> {
  const reply = await api.post('/api/v1/failed_videos/{videoId}/retry', { path: { videoId } }).catch(() => null);
  if (reply) notify('success', 'Обработка запущена заново');
  return reply;
}

/**
 * Recordings of the structure that could not be processed, with the reason and buttons to process
 * again and to delete: the task list shows only ready videos, so without this block they would be invisible.
 */
export function FailedUploads({ structureId, timeZone, refreshKey }: { structureId: number; timeZone: string; refreshKey?: unknown }) {
  const [failed, setFailed] = useState<FailedVideo[]>([]);
  // DELETE /api/v1/failed_videos/{id} and its retry need markup.write.
  const canChange = useAllows('markup.write');
  const load = useCallback(() => {
    api.get('/api/v1/failed_videos', { query: { structure_id: structureId }, quiet: true }).then(setFailed, () => setFailed([]));
  }, [structureId]);
  useEffect(load, [load, refreshKey]);
  if (failed.length === 0) return null;
  return (
    <section className="card failed-uploads" data-testid="failed-uploads">
      <h2>Не удалось обработать</h2>
      <ul>
        {failed.map((video) => (
          <li key={video.id} data-testid="failed-upload">
            <strong>{video.filename}</strong>{' '}
            <span className="muted">
              камера {video.camera_key}, {formatDateTime(video.created_at, timeZone)}
            </span>
            <div>{video.error ?? 'Причина неизвестна'}</div>
            {canChange && (
              <div className="row-actions">
                <button type="button" className="button secondary" onClick={async () => (await retryFailedVideo(video.id)) && load()}>
                  Повторить обработку
                </button>
                <button type="button" className="button danger secondary" onClick={async () => (await deleteFailedVideo(video.id)) && load()}>
                  Удалить
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
