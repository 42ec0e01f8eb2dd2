/**
 * The service worker (vite-plugin-pwa `injectManifest`): the app shell is precached, the API's JSON
 * reads are kept for offline use (NetworkFirst), videos saved for offline markup are served from
 * their own cache, and Background Sync sends the outbox of markup saves even with no tab open.
 * Written by hand instead of generated so that a cached answer can be marked as such and the sync
 * event can run the same replay code as the page (docs/markup.md, «Работа без сети»).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { API_CACHE, FROM_CACHE_HEADER, isOfflineReadableApi, KEEP_READS_MESSAGE, OUTBOX_SYNC_TAG, warmApiCache } from './offline/apiCache';
import { replayOutbox } from './offline/replay';
import { VIDEO_CACHE } from './offline/videoCache';

// The DOM lib of the PWA's tsconfig has no service-worker types; this is the little used here.
interface SyncEvent extends Event {
  tag: string;
  waitUntil(promise: Promise<unknown>): void;
}
interface MessageFromPage extends Event {
  data: unknown;
  waitUntil(promise: Promise<unknown>): void;
}
interface WorkerScope {
  __WB_MANIFEST: Array<{ url: string; revision: string | null } | string>;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageFromPage) => void): void;
  clients: { matchAll(options?: { type?: string; includeUncontrolled?: boolean }): Promise<{ postMessage(message: unknown): void }[]> };
}
declare const self: WorkerScope;
const sw = self;

// The first session is controlled too (its reads get cached), and a new version takes over at once.
void sw.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }));

// Videos kept for offline markup (offline/videoCache.ts) are served from here, Range included.
registerRoute(
  ({ url }) => url.pathname === '/api/v1/video' && !url.searchParams.has('key'),
  new CacheFirst({ cacheName: VIDEO_CACHE, plugins: [new CacheableResponsePlugin({ statuses: [200] }), new RangeRequestsPlugin()] }),
);

// The report core (core-wasm, a hashed file the precache list leaves out): kept on first use, so
// reports computed in the browser open offline too (docs/reports.md, «Расчёт в браузере»).
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === location.origin && url.pathname.endsWith('.wasm'),
  new CacheFirst({ cacheName: 'norma-wasm', plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

// Every JSON read of a signed-in screen: the network when there is one, the last answer otherwise.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === location.origin && isOfflineReadableApi(url),
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: 6,
    plugins: [
      {
        // Only successful JSON is kept (not files, not refusals).
        cacheWillUpdate: async ({ response }) =>
          response.status === 200 && (response.headers.get('content-type') ?? '').includes('application/json') ? response : null,
        // A stored answer says so, so the page knows the server was not reached.
        cachedResponseWillBeUsed: async ({ cachedResponse }) => {
          if (!cachedResponse) return cachedResponse;
          const headers = new Headers(cachedResponse.headers);
          headers.set(FROM_CACHE_HEADER, '1');
          return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
        },
      },
    ],
  }),
);

// Background Sync: the browser wakes the worker when the network is back, even with no tab open.
// The replay ends a sign-out made offline first and sends only the signed-in user's saves; when
// the server cannot be asked, it rejects and the browser tries again later.
sw.addEventListener('sync', (event) => {
  if (event.tag !== OUTBOX_SYNC_TAG) return;
  event.waitUntil(
    replayOutbox().then(async (report) => {
      // Open tabs refresh their indicator and any open markup screen.
      for (const client of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true }))
        client.postMessage({ type: 'norma-outbox-replayed', report });
      // Still offline: a rejected promise makes the browser try the sync again later.
      if (report.some((r) => r.result === 'offline')) throw new Error('offline');
    }),
  );
});

// The first visit (app/serviceWorker.ts): the reads a page made before this worker controlled it.
// Fetched here, not by the page: a read of something deleted meanwhile answers 404 in the worker's
// console, not as an error of the page the person is using; only 200 JSON answers are kept.
sw.addEventListener('message', (event) => {
  const message = event.data as { type?: unknown; paths?: unknown } | null;
  if (message?.type !== KEEP_READS_MESSAGE || !Array.isArray(message.paths)) return;
  const paths = message.paths.filter((path): path is string => typeof path === 'string' && isOfflineReadableApi(new URL(path, location.origin)));
  // A network gone again meanwhile only means nothing is kept this time.
  event.waitUntil(warmApiCache(paths).catch(() => {}));
});
