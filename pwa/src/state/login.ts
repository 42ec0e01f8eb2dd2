import { proxy } from 'valtio';
import { api } from '../api/client';
import type { CurrentUser } from '../api/types';

/** spec 02 §3 "login": loggedIn flag, firstName, lastName (plus what the header and guards need). */
export const login = proxy({
  loggedIn: false,
  firstName: '',
  lastName: '',
  role: null as CurrentUser['role'] | null,
  organizationName: '',
  /** IANA zone of the organisation: every date and time is shown in it. */
  timeZone: 'Europe/Moscow',
  /** True once the first whoami has answered, so guards do not bounce a signed-in user. */
  checked: false,
});

export function setLoggedIn(user: CurrentUser) {
  login.loggedIn = true;
  login.firstName = user.first_name;
  login.lastName = user.last_name;
  login.role = user.role;
  login.organizationName = user.organization.name;
  login.timeZone = user.organization.time_zone;
  login.checked = true;
}

/** On exit the state becomes logged-out with names dropped (spec 01 §4). */
export function setLoggedOut() {
  login.loggedIn = false;
  login.firstName = '';
  login.lastName = '';
  login.role = null;
  login.organizationName = '';
  login.checked = true;
}

/** Reads the current user; "not signed in" is an answer here, not an error to show. */
export async function refreshCurrentUser(): Promise<boolean> {
  try {
    const user = await api.get<CurrentUser & { error?: unknown }>('/api/v1/whoami', undefined, { quiet: true });
    if (user && !('error' in user && user.error)) {
      setLoggedIn(user);
      return true;
    }
  } catch {
    // 401: not signed in.
  }
  setLoggedOut();
  return false;
}
