import { proxy } from 'valtio';

/**
 * Whether the server answers: one flag for the whole app, shown as one banner (Header). Failed
 * calls set it instead of each showing its own message; any real answer or the browser's
 * `online` event clears it.
 */
export const connectivity = proxy({
  offline: typeof navigator !== 'undefined' && navigator.onLine === false,
  /** What works offline on the screen in view, said by that screen (useOfflineText); null: the app's general text. */
  screenText: null as string | null,
});

const listeners = new Set<() => void>();
/** Called when the connection comes back (the outbox is sent then). */
export function onBackOnline(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function markOffline() {
  connectivity.offline = true;
}

export function markOnline() {
  if (!connectivity.offline) return;
  connectivity.offline = false;
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', markOffline);
  window.addEventListener('online', markOnline);
}
