import { sql } from 'kysely';
import type { Db } from '../db/database';

/** The queries of the shared rate limits (rate-limits.ts, table rate_limits). */

/**
 * Records one attempt of `address` in `scope` in one statement (an upsert): a window that started at
 * or before `expiredSince` starts again at `at`. Returns the attempts of the address's window.
 */
export async function countAttempt(db: Db, scope: string, address: string, at: number, expiredSince: number): Promise<number> {
  const expired = sql<boolean>`rate_limits.window_start <= ${expiredSince}`;
  const { hits } = await db
    .insertInto('rate_limits')
    .values({ scope, address, window_start: at, hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(['scope', 'address']).doUpdateSet({
        hits: sql<number>`CASE WHEN ${expired} THEN 1 ELSE rate_limits.hits + 1 END`,
        window_start: sql<number>`CASE WHEN ${expired} THEN ${at} ELSE rate_limits.window_start END`,
      }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return hits;
}

/** Drops the scope's windows that started at or before `since`. */
export async function forgetExpiredWindows(db: Db, scope: string, since: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('scope', '=', scope).where('window_start', '<=', since).execute();
}

/** When the address's current window in the scope started, if it has one. */
export async function windowStart(db: Db, scope: string, address: string) {
  return db.selectFrom('rate_limits').select('window_start').where('scope', '=', scope).where('address', '=', address).executeTakeFirst();
}
