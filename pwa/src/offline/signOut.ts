import { del, get, set } from 'idb-keyval';
import { apiUrl } from '../api/paths';

/**
 * Sign-out without a network (docs/architecture.md, «Выход без сети»). The session cookie is
 * httpOnly: a script cannot delete it, and the browser attaches it to every request to the
 * server. So a sign-out the server did not hear is remembered here, and until the server has ended
 * that session (GET /api/v1/leave) no other request to the API leaves the device: the next person
 * on a shared tablet never works under the cookie of the one who signed out.
 *
 * The flag lives in IndexedDB (the service worker reads it before its Background Sync) and, in
 * pages, in localStorage too: a synchronous read on every request, and other tabs hear of the
 * sign-out at once (the `storage` event). Shared by the page and the worker, so no DOM at module level.
 */
export const PENDING_SIGN_OUT_KEY = 'norma:pending-sign-out';
const LEAVE_PATH = apiUrl('/api/v1/leave');

const pageStorage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

/** The browser's own fetch, kept before the guard below replaces the global one. */
const rawFetch: typeof fetch = globalThis.fetch.bind(globalThis);

/** Remembers that this device signed out; written before anything else of the sign-out happens. */
export async function markPendingSignOut(): Promise<void> {
  try {
    pageStorage()?.setItem(PENDING_SIGN_OUT_KEY, String(Date.now()));
  } catch {
    // Storage disabled: the IndexedDB copy below still holds.
  }
  await set(PENDING_SIGN_OUT_KEY, Date.now());
}

/** Whether a sign-out still waits for the server. Pages read localStorage (cheap, every request); the worker IndexedDB. */
export async function signOutPending(): Promise<boolean> {
  const storage = pageStorage();
  if (storage) return storage.getItem(PENDING_SIGN_OUT_KEY) !== null;
  return (await get(PENDING_SIGN_OUT_KEY).catch(() => undefined)) !== undefined;
}

async function clearPendingSignOut() {
  pageStorage()?.removeItem(PENDING_SIGN_OUT_KEY);
  await del(PENDING_SIGN_OUT_KEY);
}

let settling: Promise<boolean> | null = null;

/**
 * Ends the remembered session on the server, if one is remembered; true when nothing is left to
 * end. Any answer of the server to the sign-out counts (without a session it answers the same);
 * no answer leaves the flag for the next try.
 */
export function settlePendingSignOut(): Promise<boolean> {
  settling ??= (async () => {
    try {
      if (!(await signOutPending())) return true;
      const response = await rawFetch(LEAVE_PATH, { credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok) return false;
      await clearPendingSignOut();
      return true;
    } catch {
      return false;
    } finally {
      settling = null;
    }
  })();
  return settling;
}

function apiPathOf(input: RequestInfo | URL): string | null {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(raw, globalThis.location.href);
  if (url.origin !== globalThis.location.origin || !url.pathname.startsWith('/api/')) return null;
  return url.pathname;
}

let guarded = false;

/**
 * Makes every request to the API wait for a pending sign-out to reach the server first; while it
 * cannot, the request fails as without a network (the screens already handle that), so the old
 * session is never used. Installed once, before the app makes its first request.
 */
export function guardRequestsWhileSignOutPending() {
  if (guarded) return;
  guarded = true;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = apiPathOf(input);
    if (path !== null && path !== LEAVE_PATH && (await signOutPending()) && !(await settlePendingSignOut())) {
      throw new TypeError('Выход ещё не завершён на сервере: запрос не отправлен');
    }
    return rawFetch(input, init);
  };
}
