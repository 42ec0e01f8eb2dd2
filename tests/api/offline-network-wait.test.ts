import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../api/src/config';
import { NETWORK_WAIT_SECONDS } from '../../pwa/src/offline/apiCache';

/**
 * The service worker answers a read from the offline cache only when the server gives no answer at
 * all (pwa/src/offline/apiCache.ts NETWORK_WAIT_SECONDS): it waits longer than the server's own read
 * budget, after which a running server has answered (its data, or 503). A wait shorter than the
 * budget would replace a slow report — a busy server, a month's window — with the last stored answer
 * shown as offline.
 */
describe('the offline cache and the server read budget', () => {
  it('the service worker waits for the network longer than the server takes to answer any read', () => {
    const budgetMs = configFromEnv({}).readTimeBudgetMs;
    expect(budgetMs).toBeGreaterThan(0);
    // One tick of the budget's timer (a tenth of it, at most a second) and the answer's way back.
    expect(NETWORK_WAIT_SECONDS * 1000).toBeGreaterThanOrEqual(budgetMs + Math.min(1000, budgetMs / 10) + 2000);
  });
});
