import { apiUrl, videoUrl } from '../api/paths';
import { pageOffset, TASK_PAGE_SIZE } from './task-pages';
import { warmApiCache } from './apiCache';

/**
 * Keeping a video on the device for offline markup: the whole file goes into the Cache Storage
 * bucket that the service worker serves /api/v1/video from (with Range support), so the player
 * works without a network.
 */
export const VIDEO_CACHE = 'norma-videos';

export async function isKeptOffline(videoId: number): Promise<boolean> {
  if (!('caches' in window)) return false;
  const cache = await caches.open(VIDEO_CACHE);
  return (await cache.match(new URL(videoUrl(videoId), location.origin).href)) !== undefined;
}

/**
 * The reads that open this video's markup screen and the way to it (projects, its task list), put
 * in the API cache now: the service worker keeps them too, but only for pages it already controlled.
 * The URLs are built exactly as the screens build them, so the cache answers them.
 */
export function offlineReadsOf(videoId: number, structureId: number): string[] {
  return [
    apiUrl('/api/v2/get_all_structures'),
    apiUrl('/api/v1/get_tasks', { query: { structure_id: structureId, option: 'all', offset: pageOffset(1), limit: TASK_PAGE_SIZE, filename_pattern: '' } }),
    apiUrl('/api/v1/video_meta/{videoId}', { path: { videoId } }),
    apiUrl('/api/v1/video_markups/{videoId}', { path: { videoId } }),
    apiUrl('/api/v1/available_operations', { query: { video_id: videoId } }),
    apiUrl('/api/v1/workplaces', { query: { video_id: videoId } }),
    apiUrl('/api/v1/employees', { query: { video_id: videoId } }),
    apiUrl('/api/v1/activities', { query: { video_id: videoId, offset: 0, limit: 5 } }),
  ];
}

export async function keepOffline(videoId: number, structureId: number, onProgress: (percent: number) => void): Promise<void> {
  if (!('caches' in window)) throw new Error('Этот браузер не умеет хранить видео для работы без сети.');
  const url = new URL(videoUrl(videoId), location.origin).href;
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok || !response.body) throw new Error(`Не удалось скачать видео (${response.status})`);
  const total = Number(response.headers.get('content-length') ?? 0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (total) onProgress((received / total) * 100);
  }
  const blob = new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'video/mp4' });
  const cache = await caches.open(VIDEO_CACHE);
  await cache.put(url, new Response(blob, { headers: { 'content-type': blob.type, 'content-length': String(blob.size), 'accept-ranges': 'bytes' } }));
  await warmApiCache(offlineReadsOf(videoId, structureId));
  onProgress(100);
}

export async function forgetOffline(videoId: number): Promise<void> {
  if (!('caches' in window)) return;
  const cache = await caches.open(VIDEO_CACHE);
  await cache.delete(new URL(videoUrl(videoId), location.origin).href);
}
