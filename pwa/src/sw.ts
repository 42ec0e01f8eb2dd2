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
import { createPartialResponse, RangeRequestsPlugin } from 'workbox-range-requests';
import {
  API_CACHE,
  BASEMAP_CACHE,
  BASEMAP_URL,
  isOfflineReadableApi,
  KEEP_READS_MESSAGE,
  NETWORK_WAIT_SECONDS,
  OUTBOX_SYNC_TAG,
  warmApiCache,
} from './offline/apiCache';
import { FROM_CACHE_HEADER } from './api/cache-header';
import type { ApiPath } from './api/paths';
import type { MapReplayOutcome } from './offline/mapOutbox';
import { replayOutbox } from './offline/replay';
import { settlePendingSignOut } from './offline/signOut';
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
const VIDEO_PATH: ApiPath<'get'> = '/api/v1/video';
registerRoute(
  ({ url }) => url.pathname === VIDEO_PATH && !url.searchParams.has('key'),
  new CacheFirst({ cacheName: VIDEO_CACHE, plugins: [new CacheableResponsePlugin({ statuses: [200] }), new RangeRequestsPlugin()] }),
);

// Other wasm files (the report core is precached; the models' runtimes are too big to be): kept on
// first use, so what was opened online opens offline too (docs/reports.md, «Расчёт в браузере»).
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === location.origin && url.pathname.endsWith('.wasm'),
  new CacheFirst({ cacheName: 'norma-wasm', plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

// maplibre's worker script (a hashed .mjs the precache list leaves out, docs/map.md «Без сети»):
// kept on first use of the map editor, so the editor opens offline.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === location.origin && url.pathname.startsWith('/assets/') && url.pathname.endsWith('.mjs'),
  new CacheFirst({ cacheName: 'norma-map-worker', plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

/**
 * The basemap archive (PMTiles), read by the map in HTTP Range requests: online they go to the
 * server as before, and the whole file is kept once (again when its ETag changes); offline each
 * range is cut from the kept file (206), so the editor draws its basemap from a cold start.
 */
let keepingBasemap: Promise<void> | null = null;
async function keepBasemap(etag: string | null) {
  const cache = await caches.open(BASEMAP_CACHE);
  const kept = await cache.match(BASEMAP_URL);
  if (kept && etag !== null && kept.headers.get('etag') === etag) return;
  const whole = await fetch(BASEMAP_URL, { credentials: 'same-origin' });
  if (whole.status === 200) await cache.put(BASEMAP_URL, whole);
}
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === location.origin && url.pathname === BASEMAP_URL,
  async ({ request, event }) => {
    try {
      const response = await fetch(request);
      if (response.status === 200 || response.status === 206) {
        keepingBasemap ??= keepBasemap(response.headers.get('etag'))
          .catch(() => {})
          .finally(() => {
            keepingBasemap = null;
          });
        (event as ExtendableEvent).waitUntil(keepingBasemap);
      }
      return response;
    } catch (error) {
      const kept = await (await caches.open(BASEMAP_CACHE)).match(BASEMAP_URL);
      if (!kept) throw error;
      return request.headers.has('range') ? createPartialResponse(request, kept) : kept;
    }
  },
);

/** A JSON answer taken from the cache says so, so the page knows the server was not reached. */
async function markedAsCached(cachedResponse: Response) {
  const headers = new Headers(cachedResponse.headers);
  headers.set(FROM_CACHE_HEADER, '1');
  return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
}

/**
 * The map editor's form and type catalogue is a POST read (`html_menu`, the feature's properties
 * in the body): kept under its body, and offline answered from there. When the screen opens it
 * asks for an area's; the empty forms of the other drawn types are kept with it, so a road, a zone
 * or an object can be drawn offline too. A filled form of an existing feature is kept once opened.
 */
const HTML_MENU: ApiPath<'post'> = '/api/v1/html_menu';
const DRAWN_TYPES = ['area', 'road', 'zone', 'object'];
const htmlMenuKey = (body: string) => new URL(`${HTML_MENU}?body=${encodeURIComponent(body)}`, location.origin).href;
const isJson200 = (response: Response) => response.status === 200 && (response.headers.get('content-type') ?? '').includes('application/json');
registerRoute(
  ({ url }) => url.origin === location.origin && url.pathname === HTML_MENU,
  async ({ request, event }) => {
    const body = await request.clone().text();
    const cache = await caches.open(API_CACHE);
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      const kept = await cache.match(htmlMenuKey(body));
      if (!kept) throw error;
      return markedAsCached(kept);
    }
    if (isJson200(response)) {
      await cache.put(htmlMenuKey(body), response.clone());
      if (body === JSON.stringify({ type: 'area' })) {
        const others = DRAWN_TYPES.filter((type) => type !== 'area').map(async (type) => {
          const other = JSON.stringify({ type });
          const answer = await fetch(HTML_MENU, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: other });
          if (isJson200(answer)) await cache.put(htmlMenuKey(other), answer);
        });
        (event as ExtendableEvent).waitUntil(Promise.all(others).catch(() => {}));
      }
    }
    return response;
  },
  'POST',
);

// Every JSON read of a signed-in screen: the network when there is one, the last answer otherwise.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === location.origin && isOfflineReadableApi(url),
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: NETWORK_WAIT_SECONDS,
    plugins: [
      {
        // Only successful JSON is kept (not files, not refusals).
        cacheWillUpdate: async ({ response }) =>
          response.status === 200 && (response.headers.get('content-type') ?? '').includes('application/json') ? response : null,
        // A stored answer says so, so the page knows the server was not reached.
        cachedResponseWillBeUsed: async ({ cachedResponse }) => (cachedResponse ? markedAsCached(cachedResponse) : cachedResponse),
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
    (async () => {
      const mapReport: MapReplayOutcome[] = [];
      const report = await replayOutbox(undefined, (outcome) => mapReport.push(outcome));
      // Open tabs refresh their indicator and any open markup or map screen.
      for (const client of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true }))
        client.postMessage({ type: 'norma-outbox-replayed', report, mapReport });
      // Still offline: a rejected promise makes the browser try the sync again later.
      if (report.some((r) => r.result === 'offline') || mapReport.some((r) => r.result === 'offline')) throw new Error('offline');
    })(),
  );
});

// The first visit (app/serviceWorker.ts): the reads a page made before this worker controlled it.
// Fetched here, not by the page: a read of something deleted meanwhile answers 404 in the worker's
// console, not as an error of the page the person is using; only 200 JSON answers are kept.
sw.addEventListener('message', (event) => {
  const message = event.data as { type?: unknown; paths?: unknown } | null;
  if (message?.type !== KEEP_READS_MESSAGE || !Array.isArray(message.paths)) return;
  const paths = message.paths.filter((path): path is string => typeof path === 'string' && isOfflineReadableApi(new URL(path, location.origin)));
  // A sign-out the server has not heard yet goes first, as in the Background Sync below: the worker
  // never reads under the session of someone who signed out. A network gone again meanwhile only
  // means nothing is kept this time.
  event.waitUntil((async () => (await settlePendingSignOut()) && (await warmApiCache(paths)))().catch(() => {}));
});
