import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError, retryDelayMs, startJobRunner, type JobHandler, type JobRunner } from './runner';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { VISION_APPLY_JOB } from '../vision/service';
import { CANCEL_MESSAGES } from '../vision/cancel';
import { enqueueJob, finishJob, onJobEnqueued, sqlJobStore } from './queue';
import { STATE_WAIT_MS } from '../../../tests/support/wait';

let t: TestApp;
let cookie: string;
let rivalCookie: string;
let organizationId: number;

beforeAll(async () => {
  t = await createTestApp();
  organizationId = (await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Л', lastName: 'Л' })).organizationId;
  await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });
  cookie = await t.signIn('lead', 'secret-pass');
  rivalCookie = await t.signIn('rival', 'secret-pass');
});
afterAll(async () => t.cleanup());

const jobRow = (id: number) => t.deps.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const waitFor = async (check: () => Promise<boolean>, what: string, ms = STATE_WAIT_MS) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
};

function runner(handlers: Record<string, JobHandler>, options: { staleMs?: number; heartbeatMs?: number } = {}): JobRunner {
  const started = startJobRunner({ store: sqlJobStore(t.deps.db), handlers, pollMs: 20, ...options });
  const off = onJobEnqueued(() => started.wake());
  return {
    ...started,
    stop: async () => {
      off();
      await started.stop();
    },
  };
}

describe('job queue', () => {
  it('runs a queued job, records progress and result, and shows it to its organisation only', async () => {
    const seen: number[] = [];
    const r = runner({
      test_echo: {
        async run({ job, progress }) {
          progress(40);
          await Bun.sleep(300);
          seen.push((await jobRow(job.id)).progress);
          return { echoed: job.payload };
        },
      },
    });
    const id = await enqueueJob(t.deps.db, { kind: 'test_echo', payload: { n: 7 }, organizationId });
    await waitFor(async () => (await jobRow(id)).status === 'success', 'success');
    await r.stop();
    expect(seen).toEqual([40]);
    const response = await t.request(`/api/v1/jobs/${id}`, { cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id,
      kind: 'test_echo',
      status: 'success',
      progress: 100,
      error: null,
      result: { echoed: { n: 7 } },
      attempts: 1,
    });
    expect((await t.request(`/api/v1/jobs/${id}`, { cookie: rivalCookie })).status).toBe(404);
    expect((await t.request(`/api/v1/jobs/${id}`)).status).toBe(401);
    expect((await t.request('/api/v1/jobs/abc', { cookie })).status).toBe(400);
    expect((await t.request('/api/v1/jobs/999999', { cookie })).status).toBe(404);
  });

  it('never gives the same job to two workers', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => enqueueJob(t.deps.db, { kind: 'test_claim', payload: {}, organizationId })));
    const store = sqlJobStore(t.deps.db);
    const claims = await Promise.all([1, 2, 3, 4, 5].map((n) => store.claim(`worker-${n}`, ['test_claim'])));
    const taken = claims.filter((c) => c !== null).map((c) => c!.id);
    expect(taken.sort()).toEqual(ids.sort());
    expect(claims.filter((c) => c === null)).toHaveLength(2);
    expect((await jobRow(ids[0]!)).status).toBe('running');
  });

  it('retries a failed attempt with back-off, then succeeds', async () => {
    let calls = 0;
    const retried: string[] = [];
    const r = runner({
      test_flaky: {
        async run() {
          calls++;
          if (calls === 1) throw new Error('сеть недоступна');
          return 'ok';
        },
        async retrying(_job, message) {
          retried.push(message);
        },
      },
    });
    const before = Date.now();
    const id = await enqueueJob(t.deps.db, { kind: 'test_flaky', payload: {}, organizationId });
    await waitFor(async () => (await jobRow(id)).attempts === 1 && (await jobRow(id)).status === 'queued', 'first failure');
    const waiting = await jobRow(id);
    expect(waiting.error).toBe('сеть недоступна');
    expect(waiting.run_after - before).toBeGreaterThanOrEqual(retryDelayMs(1));
    expect(retried).toEqual(['сеть недоступна']);
    const view = await (await t.request(`/api/v1/jobs/${id}`, { cookie })).json();
    expect(view).toMatchObject({ status: 'queued', error: null, last_error: 'сеть недоступна' });
    // Not before its time…
    await Bun.sleep(100);
    expect(calls).toBe(1);
    // …and at once when the back-off is over.
    await t.deps.db.updateTable('jobs').set({ run_after: Date.now() }).where('id', '=', id).execute();
    r.wake();
    await waitFor(async () => (await jobRow(id)).status === 'success', 'success after retry');
    await r.stop();
    expect(calls).toBe(2);
    expect((await jobRow(id)).attempts).toBe(2);
  });

  it('fails for good after max_attempts, and at once on a permanent error', async () => {
    const failed: [number, string][] = [];
    const r = runner({
      test_broken: {
        async run() {
          throw new Error('всегда ломается');
        },
        async failed(job, message) {
          failed.push([job.id, message]);
        },
      },
      test_bad_input: {
        async run() {
          throw new PermanentJobError('Файл не является видео');
        },
        async failed(job, message) {
          failed.push([job.id, message]);
        },
      },
    });
    const broken = await enqueueJob(t.deps.db, { kind: 'test_broken', payload: {}, organizationId, maxAttempts: 2 });
    await waitFor(async () => (await jobRow(broken)).attempts === 1 && (await jobRow(broken)).status === 'queued', 'first failure');
    await t.deps.db.updateTable('jobs').set({ run_after: Date.now() }).where('id', '=', broken).execute();
    r.wake();
    await waitFor(async () => (await jobRow(broken)).status === 'failed', 'final failure');
    const bad = await enqueueJob(t.deps.db, { kind: 'test_bad_input', payload: {}, organizationId });
    await waitFor(async () => (await jobRow(bad)).status === 'failed', 'permanent failure');
    await r.stop();
    expect((await jobRow(broken)).attempts).toBe(2);
    expect((await jobRow(bad)).attempts).toBe(1);
    expect(failed).toEqual([
      [broken, 'всегда ломается'],
      [bad, 'Файл не является видео'],
    ]);
    const view = await (await t.request(`/api/v1/jobs/${bad}`, { cookie })).json();
    expect(view).toMatchObject({ status: 'failed', error: 'Файл не является видео', result: null });
  });

  it('re-queues a job whose worker died (stale lock) and runs it again', async () => {
    const id = await enqueueJob(t.deps.db, { kind: 'test_resume', payload: {}, organizationId });
    // A worker of a previous process took it and vanished.
    const claimed = await sqlJobStore(t.deps.db).claim('dead-worker', ['test_resume']);
    expect(claimed?.id).toBe(id);
    await t.deps.db
      .updateTable('jobs')
      .set({ locked_at: Date.now() - 120_000 })
      .where('id', '=', id)
      .execute();
    let ran = 0;
    const r = runner({ test_resume: { run: async () => ++ran } }, { staleMs: 60_000 });
    await waitFor(async () => (await jobRow(id)).status === 'success', 'resumed job');
    await r.stop();
    expect(ran).toBe(1);
    expect(await jobRow(id)).toMatchObject({ attempts: 2, locked_by: null });
  });

  it('a worker whose event loop stalls past the stale period keeps its job: taken once, never by itself (issue 24)', async () => {
    // A busy machine: the handler blocks the loop for longer than the stale period, again and again, so
    // the runner's own stale check and its heartbeats come due together when the loop wakes.
    const runs: number[] = [];
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    const r = runner(
      {
        test_stall: {
          async run({ job, progress }) {
            runs.push(job.attempts);
            for (let round = 1; round <= 4; round++) {
              busy(450);
              await Bun.sleep(1);
              progress(round * 20);
            }
            return { attempts: job.attempts };
          },
        },
      },
      { staleMs: 300, heartbeatMs: 75 },
    );
    const id = await enqueueJob(t.deps.db, { kind: 'test_stall', payload: {}, organizationId });
    await waitFor(async () => ['success', 'failed'].includes((await jobRow(id)).status), 'the job to end', 30_000);
    await r.drain();
    await r.stop();
    expect(runs).toEqual([1]);
    expect(await jobRow(id)).toMatchObject({ status: 'success', attempts: 1, progress: 100 });
  });

  it('fences every write by the claim: an older claim of the same worker can neither renew, finish nor fail the job', async () => {
    const store = sqlJobStore(t.deps.db);
    const id = await enqueueJob(t.deps.db, { kind: 'test_fence', payload: {}, organizationId });
    const first = await store.claim('worker-a#1', ['test_fence']);
    expect(first?.id).toBe(id);
    await t.deps.db
      .updateTable('jobs')
      .set({ locked_at: Date.now() - 120_000 })
      .where('id', '=', id)
      .execute();
    expect(await store.requeueStale(60_000)).toEqual([]);
    const second = await store.claim('worker-a#2', ['test_fence']);
    expect(second).toMatchObject({ id, attempts: 2 });
    expect(await store.heartbeat(id, 'worker-a#1')).toBe(false);
    expect(await store.progress(id, 'worker-a#1', 50)).toBe(false);
    expect(await finishJob(t.deps.db, id, 'worker-a#1', { stale: true })).toBe(false);
    expect(await store.fail(id, 'worker-a#1', 'stale', true)).toBe('lost');
    expect(await jobRow(id)).toMatchObject({ status: 'running', locked_by: 'worker-a#2', attempts: 2 });
    expect(await finishJob(t.deps.db, id, 'worker-a#2', { ok: true })).toBe(true);
  });

  it('keeps a long job alive with heartbeats and gives it back on stop without counting the attempt', async () => {
    let started = false;
    const r = runner(
      {
        test_long: {
          run: ({ signal }) =>
            new Promise((resolve) => {
              started = true;
              signal.addEventListener('abort', () => resolve(null));
            }),
        },
      },
      // 30 heartbeats per stale period: a busy shared machine may stall the loop, not that long.
      { staleMs: 1500, heartbeatMs: 50 },
    );
    const id = await enqueueJob(t.deps.db, { kind: 'test_long', payload: {}, organizationId });
    await waitFor(async () => started, 'start');
    // Until the lock has been renewed a whole stale period after it was taken: without heartbeats
    // the job would have been taken back by then.
    const takenAt = (await jobRow(id)).locked_at!;
    await waitFor(async () => ((await jobRow(id)).locked_at ?? 0) > takenAt + 1500, 'a heartbeat past the stale period');
    // Heartbeats kept the lock fresh: still running, still the first attempt.
    expect(await jobRow(id)).toMatchObject({ status: 'running', attempts: 1 });
    await r.stop();
    expect(await jobRow(id)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
  });

  describe('cancel', () => {
    const cancel = (id: number | string, who = cookie) => t.request(`/api/v1/jobs/${id}/cancel`, { method: 'POST', cookie: who });

    it('stops a running job: cancelled at once, the handler aborted at its next progress write, its fenced result refused', async () => {
      let finishedAfterCancel: boolean | null = null;
      const hooks: string[] = [];
      let progressed = false;
      const r = runner({
        // A cancellable kind; the handler is a stand-in that reports progress until it is aborted.
        [VISION_APPLY_JOB]: {
          async run({ job, workerId, signal, progress }) {
            for (let step = 1; !signal.aborted; step++) {
              progress(step % 100);
              progressed = true;
              await Bun.sleep(30);
            }
            finishedAfterCancel = await finishJob(t.deps.db, job.id, workerId, { late: true });
            return null;
          },
          async failed() {
            hooks.push('failed');
          },
          async retrying() {
            hooks.push('retrying');
          },
        },
      });
      const id = await enqueueJob(t.deps.db, { kind: VISION_APPLY_JOB, payload: {}, organizationId });
      await waitFor(async () => progressed && (await jobRow(id)).progress > 0, 'progress');
      expect((await cancel(id, rivalCookie)).status).toBe(404);
      const response = await cancel(id);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id, status: 'cancelled', error: 'Задача отменена' });
      await waitFor(async () => finishedAfterCancel !== null, 'the handler to stop');
      await r.stop();
      expect(finishedAfterCancel).toBe(false);
      expect(hooks).toEqual([]);
      expect(await jobRow(id)).toMatchObject({ status: 'cancelled', attempts: 1, locked_by: null, result: null });
      // Finished now: a second cancel is a conflict.
      const again = await cancel(id);
      expect(again.status).toBe(409);
      expect((await again.json()).error.message).toBe(CANCEL_MESSAGES.finished);
    });

    it('a queued job cancelled never runs; other kinds, finished jobs and bad ids are refused', async () => {
      let ran = 0;
      const queued = await enqueueJob(t.deps.db, { kind: VISION_APPLY_JOB, payload: {}, organizationId });
      expect((await cancel(queued)).status).toBe(200);
      const r = runner({ [VISION_APPLY_JOB]: { run: async () => ++ran } });
      await r.drain();
      await r.stop();
      expect(ran).toBe(0);
      expect((await jobRow(queued)).status).toBe('cancelled');

      const ingestLike = await enqueueJob(t.deps.db, { kind: 'test_not_cancellable', payload: {}, organizationId });
      const refused = await cancel(ingestLike);
      expect(refused.status).toBe(409);
      expect((await refused.json()).error.message).toBe(CANCEL_MESSAGES.notCancellable);
      expect((await jobRow(ingestLike)).status).toBe('queued');
      await t.deps.db.deleteFrom('jobs').where('id', '=', ingestLike).execute();

      expect((await cancel('abc')).status).toBe(400);
      const missing = await cancel(999_999);
      expect(missing.status).toBe(404);
      expect((await missing.json()).error.message).toBe(CANCEL_MESSAGES.missing);
      expect((await t.request(`/api/v1/jobs/${queued}/cancel`, { method: 'POST' })).status).toBe(401);
    });
  });
});
