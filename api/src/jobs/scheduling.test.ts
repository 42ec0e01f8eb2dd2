import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startJobRunner, type JobHandler, type JobRunner } from './runner';
import { JOB_KIND_CLASSES } from '../job-registry';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { INGEST_JOB } from '../video/registration';
import { MAP_EXPORT_JOB } from '../map/service';
import { VISION_TRAIN_JOB } from '../vision/service';
import { LIVE_LABEL_JOB, LIVE_VIEW_CHECK_JOB } from '../live/live-labels.service';
import { enqueueJob, onJobEnqueued, sqlJobStore } from './queue';
import { STATE_WAIT_MS } from '../../../tests/support/wait';

/**
 * How the runner's slots are shared (issue 39): the claim is fair between organisations, long jobs
 * leave a slot for ingest, and one organisation's uploads never hold every slot. Handlers are
 * stand-ins that hold their slot until the test lets them go; every wait is for a state.
 */

let t: TestApp;
let orgA: number;
let orgB: number;

beforeAll(async () => {
  t = await createTestApp();
  orgA = (await registerUser(t.deps, { login: 'org-a', password: 'secret-pass', firstName: 'А', lastName: 'А' })).organizationId;
  orgB = (await registerUser(t.deps, { login: 'org-b', password: 'secret-pass', firstName: 'Б', lastName: 'Б' })).organizationId;
});
afterAll(async () => t.cleanup());

const runners: JobRunner[] = [];
afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
  // Jobs left running would count for their organisation in the next test's claims.
  await t.deps.db.deleteFrom('jobs').execute();
});

const jobStatus = async (id: number) => (await t.deps.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const runningIds = async () => (await t.deps.db.selectFrom('jobs').select('id').where('status', '=', 'running').orderBy('id').execute()).map((row) => row.id);
const waitFor = async (check: () => Promise<boolean>, what: string) => {
  const deadline = Date.now() + STATE_WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
};
/** Queues `count` jobs one after another (each older than the next); their ids. */
async function queue(kind: string, organizationId: number | null, count = 1) {
  const ids: number[] = [];
  for (let n = 0; n < count; n++) ids.push(await enqueueJob(t.deps.db, { kind, payload: {}, organizationId }));
  return ids;
}

/**
 * Stand-in handlers for `kinds`: each job records its start and holds its slot until
 * `finish(id)` (or the runner stops).
 */
function holdingHandlers(kinds: string[]) {
  const started: number[] = [];
  const gates = new Map<number, () => void>();
  const handler: JobHandler = {
    run: ({ job, signal }) =>
      new Promise((resolve) => {
        started.push(job.id);
        gates.set(job.id, () => resolve({ done: job.id }));
        signal.addEventListener('abort', () => resolve(null));
      }),
  };
  return {
    handlers: Object.fromEntries(kinds.map((kind) => [kind, handler])),
    started,
    finish: (id: number) => gates.get(id)!(),
  };
}

function runner(handlers: Record<string, JobHandler>, slots: number): JobRunner {
  const started = startJobRunner({ store: sqlJobStore(t.deps.db), handlers, concurrency: slots, classes: JOB_KIND_CLASSES, pollMs: 20 });
  const off = onJobEnqueued(() => started.wake());
  const wrapped = {
    ...started,
    stop: async () => {
      off();
      await started.stop();
    },
  };
  runners.push(wrapped);
  return wrapped;
}

describe('job slots shared between organisations and kinds', () => {
  it('a claim takes the oldest ready job of the organisation running the fewest jobs; jobs of no organisation are a group of their own', async () => {
    const store = sqlJobStore(t.deps.db);
    // Organisation B queues first, then a job of no organisation, then organisation A.
    const b = await queue('test_fair', orgB, 3);
    const none = await queue('test_fair', null);
    const a = await queue('test_fair', orgA);
    const order: (number | undefined)[] = [];
    for (let n = 1; n <= 5; n++) order.push((await store.claim(`fair#${n}`, ['test_fair']))?.id);
    // All idle: B's oldest. Then the groups that run nothing (the older first), then B again.
    expect(order).toEqual([b[0], none[0], a[0], b[1], b[2]]);
    expect(await store.claim('fair#6', ['test_fair'])).toBeNull();
  });

  it("with two slots, organisation A's one job starts before the second of the many that B queued first", async () => {
    const b = await queue(INGEST_JOB, orgB, 4);
    const [a] = await queue(INGEST_JOB, orgA);
    const held = holdingHandlers([INGEST_JOB]);
    runner(held.handlers, 2);
    await waitFor(async () => held.started.length >= 2, 'two jobs started');
    expect(held.started).toEqual([b[0], a]);
    // B's own uploads never hold both slots: its second waits for its first, not for A.
    held.finish(a!);
    await waitFor(async () => (await jobStatus(a!)) === 'success', "A's job done");
    expect(await jobStatus(b[1]!)).toBe('queued');
    held.finish(b[0]!);
    await waitFor(async () => held.started.length >= 3, "B's second job started");
    expect(held.started[2]).toBe(b[1]);
  });

  it("another organisation's ingest starts at once while one organisation's uploads are processed", async () => {
    const b = await queue(INGEST_JOB, orgB, 3);
    const held = holdingHandlers([INGEST_JOB]);
    runner(held.handlers, 2);
    await waitFor(async () => (await jobStatus(b[0]!)) === 'running', "B's first upload running");
    const [a] = await queue(INGEST_JOB, orgA);
    await waitFor(async () => (await runningIds()).length >= 2, 'both slots busy');
    expect(await runningIds()).toEqual([b[0], a]);
    expect(held.started).toEqual([b[0], a]);
  });

  it('long jobs never take the last slot: an ingest queued after them is claimed while they wait', async () => {
    const trainings = await queue(VISION_TRAIN_JOB, orgB, 2);
    const [exportJob] = await queue(MAP_EXPORT_JOB, orgA);
    const [ingest] = await queue(INGEST_JOB, orgA);
    const held = holdingHandlers([VISION_TRAIN_JOB, MAP_EXPORT_JOB, INGEST_JOB]);
    runner(held.handlers, 2);
    await waitFor(async () => (await runningIds()).length >= 2, 'both slots busy');
    expect(await runningIds()).toEqual([trainings[0], ingest]);
    // The ingest done, its slot is still the last free one: no long job takes it.
    held.finish(ingest!);
    await waitFor(async () => (await jobStatus(ingest!)) === 'success', 'the ingest done');
    const [next] = await queue(INGEST_JOB, orgB);
    await waitFor(async () => (await jobStatus(next!)) === 'running', 'the next ingest running');
    expect(await runningIds()).toEqual([trainings[0], next]);
    expect(await jobStatus(exportJob!)).toBe('queued');
    // With three slots, long jobs take two: the third stays free for an ingest.
    await runners.splice(0)[0]!.stop();
    const three = holdingHandlers([VISION_TRAIN_JOB, MAP_EXPORT_JOB, INGEST_JOB]);
    runner(three.handlers, 3);
    await waitFor(async () => (await runningIds()).length >= 3, 'three slots busy');
    const running = await runningIds();
    expect(running.filter((id) => [...trainings, exportJob].includes(id))).toHaveLength(2);
    expect(running).toContain(next);
  });

  it('a live camera job takes the last slot beside a training, in its organisation’s line by time, and gives way to another organisation', async () => {
    const [training] = await queue(VISION_TRAIN_JOB, orgA);
    const [ingest] = await queue(INGEST_JOB, orgA);
    const [live] = await queue(LIVE_LABEL_JOB, orgA);
    const held = holdingHandlers([VISION_TRAIN_JOB, INGEST_JOB, LIVE_LABEL_JOB]);
    runner(held.handlers, 2);
    await waitFor(async () => (await runningIds()).length >= 2, 'both slots busy');
    // The organisation's upload queued before the live job goes first: live work does not jump the line.
    expect(await runningIds()).toEqual([training, ingest]);
    held.finish(ingest!);
    // The last free slot: no long job may take it, the live job may (a training does not hold labels up).
    await waitFor(async () => (await jobStatus(live!)) === 'running', 'the live job running beside the training');
    expect(await runningIds()).toEqual([training, live]);
    // While it runs, the organisation's next live job and another organisation's upload wait; the upload goes first.
    const [nextLive] = await queue(LIVE_LABEL_JOB, orgA);
    const [other] = await queue(INGEST_JOB, orgB);
    held.finish(live!);
    await waitFor(async () => (await jobStatus(other!)) === 'running', "the other organisation's upload running");
    expect(await jobStatus(nextLive!)).toBe('queued');
    held.finish(other!);
    await waitFor(async () => (await jobStatus(nextLive!)) === 'running', 'the next live job running');
    expect(await runningIds()).toEqual([training, nextLive]);
  });

  it('a camera’s view check runs in a slot but never the last: the camera’s labels queued after it still get one', async () => {
    const held = holdingHandlers([LIVE_VIEW_CHECK_JOB, LIVE_LABEL_JOB]);
    const [check] = await queue(LIVE_VIEW_CHECK_JOB, orgA);
    const [otherCheck] = await queue(LIVE_VIEW_CHECK_JOB, orgA);
    runner(held.handlers, 2);
    await waitFor(async () => (await jobStatus(check!)) === 'running', 'the view check running');
    // The second check would take the last slot: it waits (a long kind), though the queue has nothing else.
    const [live] = await queue(LIVE_LABEL_JOB, orgA);
    await waitFor(async () => (await jobStatus(live!)) === 'running', 'the live labels running beside the check');
    expect(await runningIds()).toEqual([check, live]);
    expect(await jobStatus(otherCheck!)).toBe('queued');
    held.finish(check!);
    held.finish(live!);
    await waitFor(async () => (await jobStatus(otherCheck!)) === 'running', 'the next view check running');
  });
});
