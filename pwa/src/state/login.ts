import { proxy, useSnapshot } from 'valtio';
import { api, ApiCallError } from '../api/client';
import type { CurrentUser, Permission } from '../api/types';
import { clearApiCache } from '../offline/apiCache';
import { PENDING_SIGN_OUT_KEY, signOutPending } from '../offline/signOut';
import { notify } from '../status/notifications';

/** spec 02 §3 "login": loggedIn flag, firstName, lastName (plus what the header and guards need). */
export const login = proxy({
  loggedIn: false,
  firstName: '',
  lastName: '',
  /** The account's login: whose queued saves and drafts on this device are this user's. */
  userLogin: '',
  role: null as CurrentUser['role'] | null,
  /**
   * What the user's role may do, as the server sends it (whoami, read from the API's own table in
   * api/src/auth/permissions.ts): a screen shows an action only when its permission is here.
   */
  permissions: [] as Permission[],
  organizationName: '',
  /** IANA zone of the organisation: every date and time is shown in it. */
  timeZone: 'Europe/Moscow',
  /** The user's organisation is the demo one (synthetic data): the header's «демо-данные» badge. */
  organizationDemo: false,
  /** True once the first whoami has answered, so guards do not bounce a signed-in user. */
  checked: false,
});

/**
 * The last identity the server confirmed, kept on the device so a signed-in user stays signed in
 * offline (a reopened tab, a home-screen launch). It lasts as long as the server's session
 * (14 days, api/src/auth/auth.ts) from the last confirmation; online, the server decides.
 */
const IDENTITY_KEY = 'norma:identity';
export const IDENTITY_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

interface StoredIdentity {
  user: CurrentUser;
  expiresAt: number;
}

function rememberIdentity(user: CurrentUser) {
  try {
    localStorage.setItem(IDENTITY_KEY, JSON.stringify({ user, expiresAt: Date.now() + IDENTITY_LIFETIME_MS } satisfies StoredIdentity));
  } catch {
    // Storage full or disabled: offline sign-in is just not available.
  }
}

/** The signed-in user this device remembers (for offline sign-in), if the record is still valid. */
export function storedIdentity(): CurrentUser | null {
  try {
    const stored = JSON.parse(localStorage.getItem(IDENTITY_KEY) ?? 'null') as StoredIdentity | null;
    if (stored && stored.expiresAt > Date.now() && stored.user?.organization) return stored.user;
  } catch {}
  forgetIdentity();
  return null;
}

export function forgetIdentity() {
  try {
    localStorage.removeItem(IDENTITY_KEY);
  } catch {}
}

/** Sign-out (or the server saying "not signed in"): nothing of this user stays on the device's caches. */
export function signedOutOnDevice() {
  forgetIdentity();
  void clearApiCache().catch(() => {});
  setLoggedOut();
}

export function setLoggedIn(user: CurrentUser) {
  login.loggedIn = true;
  login.firstName = user.first_name;
  login.lastName = user.last_name;
  login.userLogin = user.login;
  login.role = user.role;
  // An identity kept on the device before whoami carried permissions: nothing is allowed until the server answers.
  login.permissions = Array.isArray(user.permissions) ? [...user.permissions] : [];
  login.organizationName = user.organization.name;
  login.timeZone = user.organization.time_zone;
  // An identity kept on the device before whoami said it: not the demo until the server answers.
  login.organizationDemo = user.organization.is_demo === true;
  login.checked = true;
}

/** On exit the state becomes logged-out with names dropped (spec 01 §4). */
export function setLoggedOut() {
  login.loggedIn = false;
  login.firstName = '';
  login.lastName = '';
  login.userLogin = '';
  login.role = null;
  login.permissions = [];
  login.organizationName = '';
  login.organizationDemo = false;
  login.checked = true;
}

/**
 * Starts a session by `call` (sign-in or registration): on success its message is shown and, once
 * the new user is read back, `opened` runs (the screens open /projects). Answers the failure's text
 * for the form, or null.
 */
export async function startSession(call: () => Promise<{ message: string }>, opened: () => void): Promise<string | null> {
  try {
    notify('success', (await call()).message, { global: true });
    if (await refreshCurrentUser()) opened();
    return null;
  } catch (err) {
    return err instanceof ApiCallError ? err.message : String(err);
  }
}

/**
 * Reads the current user; "not signed in" is an answer here, not an error to show. Without a
 * connection the identity kept on the device stands in; an answer from the server always wins.
 */
export async function refreshCurrentUser(): Promise<boolean> {
  try {
    const user = await api.get('/api/v1/whoami', { quiet: true });
    if (user && !('error' in user)) {
      rememberIdentity(user);
      setLoggedIn(user);
      return true;
    }
  } catch (err) {
    if (err instanceof ApiCallError && err.status === 0) {
      // A sign-out the server has not heard of yet: nobody is signed in on this device.
      const kept = (await signOutPending()) ? null : storedIdentity();
      if (kept) {
        setLoggedIn(kept);
        return true;
      }
      setLoggedOut();
      return false;
    }
    // 401: not signed in.
  }
  signedOutOnDevice();
  return false;
}

/** A sign-out in another tab of this device signs this one out too, at once (not at its next request). */
export function followSignOutInOtherTabs() {
  window.addEventListener('storage', (event) => {
    if (event.key === PENDING_SIGN_OUT_KEY && event.newValue !== null && login.loggedIn) signedOutOnDevice();
  });
}

/** Whether the signed-in user's role may do what a permission covers (the API would refuse otherwise); re-renders when the user changes. */
export function useAllows(permission: Permission): boolean {
  return useSnapshot(login).permissions.includes(permission);
}
