import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { sharedRateLimiter } from './rate-limits';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => t.cleanup());

describe('rate limits kept in the database', () => {
  it('holds max attempts per address in a window, starts a new window after it and forgets run-out rows', async () => {
    let clock = 1_000_000;
    const limiter = sharedRateLimiter(t.deps.db, { scope: 'test', max: 2, windowMs: 1000, now: () => clock });
    expect([await limiter.take('a'), await limiter.take('a'), await limiter.take('a')]).toEqual([true, true, false]);
    expect(await limiter.take('b')).toBe(true);
    clock += 999;
    expect(await limiter.take('a')).toBe(false);
    clock += 1;
    expect(await limiter.take('a')).toBe(true);
    // Address b's window ran out when a's new one began: its row is gone.
    const rows = await t.deps.db.selectFrom('rate_limits').select(['address', 'hits']).where('scope', '=', 'test').execute();
    expect(rows).toEqual([{ address: 'a', hits: 1 }]);
  });

  it('counts attempts from two limiters on one database together, also when they arrive at once', async () => {
    const first = sharedRateLimiter(t.deps.db, { scope: 'register', max: 5, windowMs: 60_000 });
    const second = sharedRateLimiter(t.deps.db, { scope: 'register', max: 5, windowMs: 60_000 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? first : second).take('10.1.1.1')));
    expect(results.filter(Boolean)).toHaveLength(5);
    // Another scope has its own count.
    expect(await sharedRateLimiter(t.deps.db, { scope: 'feedback', max: 1, windowMs: 60_000 }).take('10.1.1.1')).toBe(true);
  });
});
