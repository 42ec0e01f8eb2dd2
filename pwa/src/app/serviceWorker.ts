import { registerSW } from 'virtual:pwa-register';
import { isOfflineReadableApi, KEEP_READS_MESSAGE } from '../offline/apiCache';
import { storedIdentity } from '../state/login';

/**
 * Installs the workbox service worker that keeps the app available offline, once the first screen
 * is usable: its precache (the whole app, about 1.7 MB) must not compete with the screen's own
 * files and data on a slow network. A guest who opened a shared report by its link (a QR code on
 * a phone) gets none of it: they asked for one report, not for the app on their device.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const controlled = navigator.serviceWorker.controller !== null;
  if (!controlled && /^#\/demo\//.test(location.hash) && !storedIdentity()) return;
  // The first visit: the first screen's reads went to the network before the worker took control,
  // so it did not keep them. Once it controls the page, they are read again through it (issue 28).
  if (!controlled) {
    navigator.serviceWorker.addEventListener('controllerchange', () => keepReadsMadeBeforeControl(performance.now()), { once: true });
  }
  afterFirstScreen(() => registerSW({ immediate: true }));
}

/** Runs `task` when the page has loaded and the main thread is first idle. */
function afterFirstScreen(task: () => void) {
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 5000 }) : setTimeout(task, 0));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/**
 * Every API read the page started before `controlledAt` (also those still in flight then) is
 * handed to the worker, which fetches it once more and keeps it (sw.ts). Only reads of a signed-in screen qualify
 * (isOfflineReadableApi: no share-key reads, no sign-in calls), and only 200 JSON answers are stored.
 */
function keepReadsMadeBeforeControl(controlledAt: number) {
  const kept = new Set<string>();
  const keep = (entries: PerformanceEntryList) => {
    const paths: string[] = [];
    for (const entry of entries) {
      if (entry.startTime >= controlledAt) continue;
      const url = new URL(entry.name);
      const path = url.pathname + url.search;
      if (url.origin !== location.origin || !isOfflineReadableApi(url) || kept.has(path)) continue;
      kept.add(path);
      paths.push(path);
    }
    if (paths.length > 0) navigator.serviceWorker.controller?.postMessage({ type: KEEP_READS_MESSAGE, paths });
  };
  new PerformanceObserver((list) => keep(list.getEntries())).observe({ type: 'resource', buffered: true });
}
