import { sql } from 'kysely';
import type { Db } from '../db/database';

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
      const row = await db
        .selectFrom('sign_in_failures')
        .select('locked_until')
        .where('login', '=', loginKey(login))
        .where('address', '=', address)
        .executeTakeFirst();
      return Math.max(0, (row?.locked_until ?? 0) - now());
    },
    /** Records a wrong password; returns how long the pair is now locked (0: not yet). */
    async failed(login: string, address: string): Promise<number> {
      const at = now();
      const forgotten = sql<boolean>`sign_in_failures.updated_at <= ${at - LOCKOUT.forgetAfterMs}`;
      const { failures } = await db
        .insertInto('sign_in_failures')
        .values({ login: loginKey(login), address, failures: 1, locked_until: 0, updated_at: at })
        .onConflict((conflict) =>
          conflict.columns(['login', 'address']).doUpdateSet({
            failures: sql<number>`CASE WHEN ${forgotten} THEN 1 ELSE sign_in_failures.failures + 1 END`,
            updated_at: at,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      const delay = lockDelayMs(failures);
      if (delay > 0)
        await db
          .updateTable('sign_in_failures')
          .set({ locked_until: at + delay })
          .where('login', '=', loginKey(login))
          .where('address', '=', address)
          .execute();
      // Now and then, forget old pairs so the table stays small.
      if (failures === 1)
        await db
          .deleteFrom('sign_in_failures')
          .where('updated_at', '<=', at - LOCKOUT.forgetAfterMs)
          .execute();
      return delay;
    },
    /** The right password: the pair starts again from nothing. */
    async succeeded(login: string, address: string): Promise<void> {
      await db.deleteFrom('sign_in_failures').where('login', '=', loginKey(login)).where('address', '=', address).execute();
    },
  };
}

/** «Повторите через 30 с» / «через 2 мин» for a lock's remaining time. */
export function lockMessage(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const wait = seconds < 120 ? `${seconds} с` : `${Math.ceil(seconds / 60)} мин`;
  return `Слишком много неверных паролей для этого логина с вашего адреса. Повторите через ${wait}.`;
}
