import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './env';
import { handleError } from './errors';
import { TIME_BUDGET_MESSAGE, timeBudget } from './time-budget';

/** A small app: one read that waits until the test lets it go, one quick read, one write. */
function appWithBudget() {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let writeFinished = false;
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use('*', timeBudget(1));
  app.get('/slow', async (c) => {
    await held;
    return c.json({ ok: true });
  });
  app.get('/quick', (c) => c.json({ ok: true }));
  app.post('/slow-write', async (c) => {
    await held;
    writeFinished = true;
    return c.json({ ok: true });
  });
  return { app, release, writeFinished: () => writeFinished };
}

describe('timeBudget', () => {
  it('answers 503 with the error body when a read outlives its budget', async () => {
    const { app, release } = appWithBudget();
    const response = await app.request('/slow');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: { code: 'time_budget_exceeded', message: TIME_BUDGET_MESSAGE } });
    release();
  });

  it('cuts off every read that outlives its budget, however many wait at once, and lets the quick ones through', async () => {
    const { app, release } = appWithBudget();
    const answers = await Promise.all([app.request('/slow'), app.request('/quick'), app.request('/slow'), app.request('/quick'), app.request('/slow')]);
    expect(answers.map((r) => r.status)).toEqual([503, 200, 503, 200, 503]);
    release();
    // Once nothing waits, a later slow read is still cut off (the shared timer starts again).
    const { app: again, release: releaseAgain } = appWithBudget();
    expect((await again.request('/slow')).status).toBe(503);
    releaseAgain();
  });

  it('lets a read that answers in time through, and never cuts a write short', async () => {
    const { app, release, writeFinished } = appWithBudget();
    expect((await app.request('/quick')).status).toBe(200);
    const write = app.request('/slow-write', { method: 'POST' });
    release();
    expect((await write).status).toBe(200);
    expect(writeFinished()).toBe(true);
  });
});
