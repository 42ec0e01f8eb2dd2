import { apiUrl } from '../api/paths';

/**
 * The API reads kept for offline use. The service worker (sw.ts) answers GET /api/v1/* and
 * /api/v2/* NetworkFirst from this Cache Storage bucket; the page warms it for a video saved for
 * offline markup and empties it on sign-out. Shared by the page and the worker, so no DOM here.
 */
export const API_CACHE = 'norma-api';
/** The map editor's basemap archive (PMTiles), kept whole for offline use (sw.ts). */
export const BASEMAP_URL = apiUrl('/api/v1/map/basemap.pmtiles');
export const BASEMAP_CACHE = 'norma-basemap';
/** A page's message to its service worker: fetch these reads and keep them (`{ type, paths }`). */
export const KEEP_READS_MESSAGE = 'norma-keep-reads';
/** Background Sync tag of the outbox of markup saves. */
export const OUTBOX_SYNC_TAG = 'norma-outbox';
/**
 * How long a read waits for the server before the service worker answers it from this cache, s.
 * Longer than the server's own read budget (api/src/http/time-budget.ts, 30 s: a read it cannot
 * finish is answered 503 by then), so a server that is there always answers first, however slow —
 * a report computing for 8 s on a busy server is never replaced by the last stored answer shown as
 * offline — and only a connection that gives no answer at all falls back to the cache. Without any
 * connection the fetch fails at once and the cache answers at once.
 */
export const NETWORK_WAIT_SECONDS = 35;

/** Sign-in, sign-out and share links are never answered from a cache (they are about who asks); nor is a stream of events (the live board's). */
const NEVER_CACHED = /^\/api\/(v\d+\/(whoami|login|leave|register|logout|resolve_hash|share|video$|live_board\/events$)|auth\/)/;

export function isOfflineReadableApi(url: URL): boolean {
  if (!/^\/api\/v\d+\//.test(url.pathname)) return false;
  if (NEVER_CACHED.test(url.pathname)) return false;
  // Anything read through a share key (a guest's view) or as a file stays online-only.
  if (url.searchParams.has('key') || url.searchParams.has('format')) return false;
  return true;
}

/** Fetches `paths` (the exact URLs the screens ask for) and stores the answers for offline use. */
export async function warmApiCache(paths: string[]): Promise<void> {
  if (!('caches' in globalThis)) return;
  const cache = await caches.open(API_CACHE);
  await Promise.all(
    paths.map(async (path) => {
      const url = new URL(path, location.origin).href;
      const response = await fetch(url, { credentials: 'same-origin' });
      if (response.status === 200 && (response.headers.get('content-type') ?? '').includes('application/json')) await cache.put(url, response);
    }),
  );
}

/** Someone else may sign in on this device next: nothing read as this user stays behind. */
export async function clearApiCache(): Promise<void> {
  if ('caches' in globalThis) await caches.delete(API_CACHE);
}

/**
 * After a save the cached markup of the video is the saved one, so a later offline opening starts
 * from the version its draft is based on (not an older one, which would look like a conflict).
 */
export async function rememberMarkups(videoId: number, reply: unknown): Promise<void> {
  if (!('caches' in globalThis)) return;
  const cache = await caches.open(API_CACHE);
  await cache.put(
    new URL(apiUrl('/api/v1/video_markups/{videoId}', { path: { videoId } }), location.origin).href,
    new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } }),
  );
}
