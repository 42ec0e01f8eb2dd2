import { sql } from 'kysely';
import type { Db } from '../db/database';

/** The queries of the sign-in lockout (lockout.ts, table sign_in_failures); `login` is already the lockout's key. */

/** Until when the pair is locked, if it has a row. */
export async function signInLock(db: Db, login: string, address: string) {
  return db.selectFrom('sign_in_failures').select('locked_until').where('login', '=', login).where('address', '=', address).executeTakeFirst();
}

/**
 * Counts one more wrong password of the pair in one statement (an upsert); a pair last touched at or
 * before `forgetBefore` starts again from 1. Returns the pair's count.
 */
export async function countSignInFailure(db: Db, login: string, address: string, at: number, forgetBefore: number): Promise<number> {
  const forgotten = sql<boolean>`sign_in_failures.updated_at <= ${forgetBefore}`;
  const { failures } = await db
    .insertInto('sign_in_failures')
    .values({ login, address, failures: 1, locked_until: 0, updated_at: at })
    .onConflict((conflict) =>
      conflict.columns(['login', 'address']).doUpdateSet({
        failures: sql<number>`CASE WHEN ${forgotten} THEN 1 ELSE sign_in_failures.failures + 1 END`,
        updated_at: at,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return failures;
}

export async function lockSignIn(db: Db, login: string, address: string, lockedUntil: number): Promise<void> {
  await db.updateTable('sign_in_failures').set({ locked_until: lockedUntil }).where('login', '=', login).where('address', '=', address).execute();
}

/** Drops the pairs last touched at or before `before`. */
export async function forgetSignInFailures(db: Db, before: number): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('updated_at', '<=', before).execute();
}

export async function clearSignInFailures(db: Db, login: string, address: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('login', '=', login).where('address', '=', address).execute();
}
