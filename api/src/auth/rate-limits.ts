import { sql } from 'kysely';
import type { Db } from '../db/database';

/**
 * Counts attempts per client address in the database (table rate_limits, migration 0013), so that
 * several API processes on one PostgreSQL share one limit (docs/deployment.md). A fixed window per
 * address: the first attempt starts it, and it holds `max` attempts until `windowMs` has passed.
 * One statement records the attempt and reads the count (an upsert: atomic on SQLite and on
 * PostgreSQL), so attempts sent to two processes at once cannot both slip under the limit.
 */
export function sharedRateLimiter(db: Db, { scope, max, windowMs, now = Date.now }: { scope: string; max: number; windowMs: number; now?: () => number }) {
  return {
    /** Records one attempt from `address`; false when the address has used up its window. */
    async take(address: string): Promise<boolean> {
      const at = now();
      const since = at - windowMs;
      const expired = sql<boolean>`rate_limits.window_start <= ${since}`;
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
      // A new window: forget the addresses whose windows have all run out, so the table stays small.
      if (hits === 1) await db.deleteFrom('rate_limits').where('scope', '=', scope).where('window_start', '<=', since).execute();
      return hits <= max;
    },
  };
}
