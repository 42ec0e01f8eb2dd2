import type { Db } from '../db/database';
import { clearSignInFailures, countSignInFailure, forgetSignInFailures, lockSignIn, signInLock } from './lockout.service';

/**
 * Sign-in lockout per login and client address (issue 24; table sign_in_failures, migration 0015).
 * Wrong passwords for one login from one address lock that pair only, with a delay that doubles with
 * every further failure: an attacker guessing a login locks out the attacker's own address, while
 * the owner signs in from theirs. While a pair is locked its attempts are refused before the password
 * is checked, so the right password does not get in from there either, and refused attempts do not
 * lengthen the lock. A successful sign-in clears the pair. better-auth's per-address limit
 * (auth/auth.ts) stays in front of it against floods from one address across many logins.
 */
export const LOCKOUT = {
  /** Wrong passwords allowed before the first lock. */
  freeFailures: 5,
  /** The first lock; each further failure doubles it. */
  firstDelayMs: 15_000,
  maxDelayMs: 15 * 60_000,
  /** A pair untouched this long is forgotten (its count starts again). */
  forgetAfterMs: 24 * 60 * 60_000,
};

/** How long a pair is locked after `failures` wrong passwords (0: not locked). */
export function lockDelayMs(failures: number): number {
  if (failures < LOCKOUT.freeFailures) return 0;
  return Math.min(LOCKOUT.maxDelayMs, LOCKOUT.firstDelayMs * 2 ** (failures - LOCKOUT.freeFailures));
}

/** better-auth stores logins in lower case; the lockout counts them the same way. */
const loginKey = (login: string) => login.trim().toLowerCase().slice(0, 200);

export function signInLockout(db: Db, now: () => number = Date.now) {
  return {
    /** Milliseconds this login is still locked from this address (0: may try). */
    async lockedFor(login: string, address: string): Promise<number> {
      const row = await signInLock(db, loginKey(login), address);
      return Math.max(0, (row?.locked_until ?? 0) - now());
    },
    /** Records a wrong password; returns how long the pair is now locked (0: not yet). */
    async failed(login: string, address: string): Promise<number> {
      const at = now();
      const failures = await countSignInFailure(db, loginKey(login), address, at, at - LOCKOUT.forgetAfterMs);
      const delay = lockDelayMs(failures);
      if (delay > 0) await lockSignIn(db, loginKey(login), address, at + delay);
      // Now and then, forget old pairs so the table stays small.
      if (failures === 1) await forgetSignInFailures(db, at - LOCKOUT.forgetAfterMs);
      return delay;
    },
    /** The right password: the pair starts again from nothing. */
    async succeeded(login: string, address: string): Promise<void> {
      await clearSignInFailures(db, loginKey(login), address);
    },
  };
}

/** «Повторите через 30 с» / «через 2 мин» for a lock's remaining time. */
export function lockMessage(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const wait = seconds < 120 ? `${seconds} с` : `${Math.ceil(seconds / 60)} мин`;
  return `Слишком много неверных паролей для этого логина с вашего адреса. Повторите через ${wait}.`;
}
