import type { Db } from '../db/database';
import { countAttempt, forgetExpiredWindows } from './rate-limits.service';

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
      const hits = await countAttempt(db, scope, address, at, since);
      // A new window: forget the addresses whose windows have all run out, so the table stays small.
      if (hits === 1) await forgetExpiredWindows(db, scope, since);
      return hits <= max;
    },
  };
}
