import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionUser } from '../auth/service';
import { shareKeyCreators } from '../auth/share-keys';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { untilState } from '../../../tests/support/wait';
import { CLIENT_IP_HEADER, SHARE_KEY_HEADER } from './client-address';
import type { AppEnv } from './env';
import { handleError } from './errors';
import { currentRequesterAlone, fairShare, HEAVY_READ_BUSY, HEAVY_REQUESTS, heavyRequestMatcher, type FairShareLimits } from './fair-share';

/*
 * Issue 39, findings 3 and 4: share keys multiplied one user's heavy requests, and building a norm
 * card was not a heavy request. The middleware here is the app's own, on the app's real database
 * and sessions, with tiny limits and handlers that run until the test lets them end.
 */

let t: TestApp;
let w: VideoWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
});
afterAll(() => t.cleanup());

/** One held handler: which call it serves and how to let it end. */
interface Held {
  label: string;
  end: () => void;
}

/**
 * An app like the real one around the fair-share middleware — the real session lookup, the real
 * share-key creators of the test database, the real list of heavy requests — whose heavy handlers
 * wait until the test ends them, and whose cheap handlers answer at once.
 */
function heldApp(limits: FairShareLimits) {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  const running: Held[] = [];
  app.use('*', async (c, next) => {
    c.set('user', await sessionUser(t.deps, c.req.raw.headers));
    await next();
  });
  const middleware = fairShare(limits, HEAVY_REQUESTS, shareKeyCreators(t.deps.db));
  app.use('*', middleware);
  // Each held handler's test of whether its request is its requester's only one in flight.
  const aloneOf = new Map<string, () => boolean>();
  const hold = async (label: string) => {
    aloneOf.set(label, currentRequesterAlone());
    await new Promise<void>((end) => running.push({ label, end }));
    return label;
  };
  app.get('/api/v2/frv', async (c) => c.text(await hold(c.req.header('x-label') ?? '')));
  app.post('/api/v1/norms', async (c) => c.text(await hold(c.req.header('x-label') ?? '')));
  app.put('/api/v1/norms/:id', async (c) => c.text(await hold(c.req.header('x-label') ?? '')));
  app.get('/api/v1/norms', (c) => c.text('list'));
  app.get('/api/v1/norms/:id', (c) => c.text('card'));
  const call = async (method: string, path: string, label: string, init: { cookie?: string; key?: string; ip?: string } = {}) =>
    app.request(path, {
      method,
      headers: {
        'x-label': label,
        [CLIENT_IP_HEADER]: init.ip ?? '198.51.100.1',
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.key ? { [SHARE_KEY_HEADER]: init.key } : {}),
      },
    });
  /** The labels of the handlers running now, sorted. */
  const labels = () => running.map((h) => h.label).sort();
  /** Waits until exactly these handlers are running. */
  const runningAre = (expected: string[]) => expect.poll(labels, untilState(5)).toEqual([...expected].sort());
  /** Lets the handler with this label end. */
  const end = (label: string) => {
    const index = running.findIndex((h) => h.label === label);
    expect(index).toBeGreaterThanOrEqual(0);
    running.splice(index, 1)[0]!.end();
  };
  /** Waits until this many heavy requests wait for a slot. */
  const waitingAre = (count: number) => expect.poll(middleware.waitingNow, untilState(5)).toBe(count);
  /** Whether the held request with this label is, now, its requester's only heavy request running or waiting. */
  const alone = (label: string) => aloneOf.get(label)!();
  return { call, runningAre, waitingAre, end, labels, alone };
}

const keyOf = async (cookie: string) => {
  const response = await t.request('/api/v1/generate_hash', {
    method: 'POST',
    cookie,
    body: JSON.stringify({ structure_id: w.structureId, from_time: '2026-11-16T06:00:00Z', to_time: '2026-11-16T07:00:00Z' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { hash: string }).hash;
};
const frv = '/api/v2/frv';
/**
 * Of two calls sent together that the limits let only one of wait: the one answered at once (it must
 * be a 429) and the other, still waiting, by its label. Both running is a failure at once.
 */
async function oneRefused(running: () => string[], calls: [Promise<Response>, string][]) {
  let first: { r: Response; label: string } | null = null;
  for (const [response, label] of calls) void response.then((r) => (first ??= { r, label }));
  const bothRun = () => calls.every(([, label]) => running().includes(label));
  await expect.poll(() => first !== null || bothRun(), untilState(5)).toBe(true);
  expect(bothRun(), 'both ran: neither waited nor was refused').toBe(false);
  const answered = first!;
  const [waiting, waitingLabel] = calls.find(([, label]) => label !== answered.label)!;
  return { refused: answered.r, waiting, waitingLabel };
}
const oneEach: FairShareLimits = { total: 4, perUser: 1, queueTotal: 8, queuePerUser: 1, retryAfterSeconds: 3 };

describe('heavy requests with share keys count as the user who created the keys', () => {
  it("one user's requests through three of their keys and their own session run one at a time; another user's go through", async () => {
    const { call, runningAre, end, labels } = heldApp(oneEach);
    const viewerKeys = [await keyOf(w.cookies.viewer), await keyOf(w.cookies.viewer), await keyOf(w.cookies.viewer)];
    const assessorKey = await keyOf(w.cookies.assessor);

    const first = call('GET', frv, 'viewer key 1', { key: viewerKeys[0], ip: '198.51.100.1' });
    await runningAre(['viewer key 1']);
    // Two more keys of the same viewer, from other addresses: one waits in the viewer's one-place queue, the other is refused.
    const { refused, waiting, waitingLabel } = await oneRefused(labels, [
      [call('GET', frv, 'viewer key 2', { key: viewerKeys[1], ip: '198.51.100.2' }), 'viewer key 2'],
      [call('GET', frv, 'viewer key 3', { key: viewerKeys[2], ip: '198.51.100.3' }), 'viewer key 3'],
    ]);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect((await refused.json()).error.message).toBe(HEAVY_READ_BUSY);
    // Signed in, the same viewer is the same requester: the queue is full, so 429 at once.
    expect((await call('GET', frv, 'viewer session', { cookie: w.cookies.viewer })).status).toBe(429);
    // Another user's key runs beside the viewer's.
    const other = call('GET', frv, 'assessor key', { key: assessorKey, ip: '198.51.100.1' });
    await runningAre(['assessor key', 'viewer key 1']);

    // The viewer's slot comes free: the waiting request of theirs runs, and every held one ends with its answer.
    end('viewer key 1');
    await runningAre(['assessor key', waitingLabel]);
    end('assessor key');
    end(waitingLabel);
    const answers = await Promise.all([first, waiting, other]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await Promise.all(answers.map((r) => r.text()))).toEqual(['viewer key 1', waitingLabel, 'assessor key']);
  });

  it('unknown keys count under the client address, not one requester per invented key', async () => {
    const { call, runningAre, end, labels } = heldApp(oneEach);
    const invented = (i: number) => `${'B'.repeat(24)}${String(i).padStart(8, '0')}`;
    const first = call('GET', frv, 'guess 1', { key: invented(1), ip: '203.0.113.5' });
    await runningAre(['guess 1']);
    const { refused, waiting, waitingLabel } = await oneRefused(labels, [
      [call('GET', frv, 'guess 2', { key: invented(2), ip: '203.0.113.5' }), 'guess 2'],
      [call('GET', frv, 'guess 3', { key: invented(3), ip: '203.0.113.5' }), 'guess 3'],
    ]);
    expect(refused.status).toBe(429);
    // Another address is another requester.
    const elsewhere = call('GET', frv, 'guess elsewhere', { key: invented(4), ip: '203.0.113.6' });
    await runningAre(['guess 1', 'guess elsewhere']);
    end('guess 1');
    await runningAre(['guess elsewhere', waitingLabel]);
    end('guess elsewhere');
    end(waitingLabel);
    expect((await Promise.all([first, elsewhere, waiting])).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('a revoked key counts under its address, at once', async () => {
    const { call, runningAre, end, labels } = heldApp(oneEach);
    const revoked = await keyOf(w.cookies.viewer);
    // The key's creator is looked up (and kept) while the key is live.
    const before = call('GET', frv, 'while live', { key: revoked, ip: '203.0.113.9' });
    await runningAre(['while live']);
    end('while live');
    expect((await before).status).toBe(200);
    expect((await t.request(`/api/v1/share/${revoked}`, { method: 'DELETE', cookie: w.cookies.viewer })).status).toBe(200);

    // An address runs one request; the revoked key from it is that address's too: it and one more from there — one waits, one is refused.
    const ip = '203.0.113.10';
    const anonymous = call('GET', frv, 'anonymous', { key: `${'C'.repeat(32)}`, ip });
    await runningAre(['anonymous']);
    const { refused, waiting, waitingLabel } = await oneRefused(labels, [
      [call('GET', frv, 'revoked key', { key: revoked, ip }), 'revoked key'],
      [call('GET', frv, 'another guess', { key: `${'D'.repeat(32)}`, ip }), 'another guess'],
    ]);
    expect(refused.status).toBe(429);
    // The viewer, whose key it was, is not held up by it.
    const viewer = call('GET', frv, 'viewer', { cookie: w.cookies.viewer });
    await runningAre(['anonymous', 'viewer']);
    end('anonymous');
    await runningAre(['viewer', waitingLabel]);
    end('viewer');
    end(waitingLabel);
    expect((await Promise.all([anonymous, viewer, waiting])).map((r) => r.status)).toEqual([200, 200, 200]);
  });
});

describe('building a norm card is a heavy request; listing and reading cards are not', () => {
  it('matches on method and path', () => {
    const heavy = heavyRequestMatcher(HEAVY_REQUESTS);
    expect(heavy('POST', '/api/v1/norms')).toBe(true);
    expect(heavy('PUT', '/api/v1/norms/12')).toBe(true);
    expect(heavy('GET', '/api/v1/norms')).toBe(false);
    expect(heavy('GET', '/api/v1/norms/12')).toBe(false);
    expect(heavy('POST', '/api/v1/norms/12/approve')).toBe(false);
    expect(heavy('PUT', '/api/v1/norms/12/extra')).toBe(false);
    expect(heavy('GET', '/api/v2/report')).toBe(true);
    // HEAD is a GET that keeps its body: it computes as much.
    expect(heavy('HEAD', '/api/v1/dump')).toBe(true);
    expect(heavy('POST', '/api/v2/report')).toBe(false);
    // An entry without a method matches every method.
    expect(heavyRequestMatcher(['/heavy'])('DELETE', '/heavy')).toBe(true);
  });

  it("one user's card builds run one at a time while their card list answers at once", async () => {
    const { call, runningAre, end, labels } = heldApp(oneEach);
    const admin = { cookie: w.cookies.admin };
    const first = call('POST', '/api/v1/norms', 'build 1', admin);
    await runningAre(['build 1']);
    const { refused, waiting, waitingLabel } = await oneRefused(labels, [
      [call('PUT', '/api/v1/norms/7', 'rebuild 7', admin), 'rebuild 7'],
      [call('POST', '/api/v1/norms', 'build 3', admin), 'build 3'],
    ]);
    expect(refused.status).toBe(429);
    // The user's heavy queue is full, yet the list and a card are cheap and answer.
    expect(await (await call('GET', '/api/v1/norms', 'list', admin)).text()).toBe('list');
    expect(await (await call('GET', '/api/v1/norms/7', 'card', admin)).text()).toBe('card');
    // Another user builds beside them.
    const other = call('POST', '/api/v1/norms', 'other build', { cookie: w.cookies.assessor });
    await runningAre(['build 1', 'other build']);
    end('build 1');
    await runningAre(['other build', waitingLabel]);
    end('other build');
    end(waitingLabel);
    expect((await Promise.all([first, other, waiting])).map((r) => r.status)).toEqual([200, 200, 200]);
  });
});

describe('waiting heavy requests take turns by requester', () => {
  // Issue 47, finding 4: first come, first served let users who keep many reports going hold up a bystander's one.
  const twoAtOnce: FairShareLimits = { total: 2, perUser: 2, queueTotal: 16, queuePerUser: 4, retryAfterSeconds: 3 };

  it('a user with nothing running goes before the flood, and floods alternate', async () => {
    const { call, runningAre, waitingAre, end } = heldApp(twoAtOnce);
    const flood = { cookie: w.cookies.admin };
    const second = { cookie: w.cookies.assessor };
    const bystander = { cookie: w.cookies.viewer };
    const calls = [call('GET', frv, 'flood 1', flood), call('GET', frv, 'flood 2', flood)];
    await runningAre(['flood 1', 'flood 2']);
    // The flood queues more, then a second flooder, then the bystander's one report — in that order.
    // One at a time: each is in line before the next is sent (a request is in line once its session is read).
    const queued = [
      ['flood 3', flood],
      ['flood 4', flood],
      ['flood 5', flood],
      ['second 1', second],
      ['second 2', second],
      ['bystander', bystander],
    ] as const;
    for (const [index, [label, who]] of queued.entries()) {
      calls.push(call('GET', frv, label, who));
      await waitingAre(index + 1);
    }

    // A slot frees: not «flood 3», which came first, but a requester with nothing running — the second flooder, who came before the bystander.
    end('flood 1');
    await runningAre(['flood 2', 'second 1']);
    // The next slot: the bystander has nothing running, the flood and the second flooder one each.
    end('flood 2');
    await runningAre(['second 1', 'bystander']);
    // Then the flood (nothing running now) before the second flooder's second.
    end('bystander');
    await runningAre(['second 1', 'flood 3']);
    end('second 1');
    await runningAre(['flood 3', 'second 2']);
    for (const label of ['flood 3', 'second 2']) end(label);
    await runningAre(['flood 4', 'flood 5']);
    for (const label of ['flood 4', 'flood 5']) end(label);
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual(Array(8).fill(200));
  });
});

describe('a reserve slot for a requester with nothing running', () => {
  const withReserve: FairShareLimits = { total: 2, perUser: 2, queueTotal: 16, queuePerUser: 4, retryAfterSeconds: 3, reserve: 1 };

  it("a bystander's request runs at once beside a flood that fills every slot; the flood never takes the reserve", async () => {
    const { call, runningAre, waitingAre, end } = heldApp(withReserve);
    const flood = { cookie: w.cookies.admin };
    const calls = [call('GET', frv, 'flood 1', flood), call('GET', frv, 'flood 2', flood)];
    await runningAre(['flood 1', 'flood 2']);
    calls.push(call('GET', frv, 'flood 3', flood));
    await waitingAre(1);
    calls.push(call('GET', frv, 'bystander', { cookie: w.cookies.viewer }));
    await runningAre(['flood 1', 'flood 2', 'bystander']);
    // The reserve is taken: another requester with nothing running waits now.
    calls.push(call('GET', frv, 'second', { cookie: w.cookies.assessor }));
    await waitingAre(2);
    // The reserve comes free: the one with nothing running takes it, not the flood's third.
    end('bystander');
    await runningAre(['flood 1', 'flood 2', 'second']);
    await waitingAre(1);
    // Running are as many as `total` again, one each: the flood's third waits until another ends.
    end('flood 1');
    await runningAre(['flood 2', 'second']);
    await waitingAre(1);
    end('flood 2');
    await runningAre(['second', 'flood 3']);
    for (const label of ['second', 'flood 3']) end(label);
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual(Array(5).fill(200));
  });

  it('one with nothing running but more in line does not take the reserve', async () => {
    const { call, runningAre, waitingAre, end } = heldApp(withReserve);
    const calls = [call('GET', frv, 'A1', { cookie: w.cookies.admin }), call('GET', frv, 'A2', { cookie: w.cookies.admin })];
    await runningAre(['A1', 'A2']);
    // B's first comes with nothing else of B's in line: it takes the reserve; B's next two wait.
    calls.push(call('GET', frv, 'B1', { cookie: w.cookies.assessor }));
    await runningAre(['A1', 'A2', 'B1']);
    calls.push(call('GET', frv, 'B2', { cookie: w.cookies.assessor }));
    await waitingAre(1);
    calls.push(call('GET', frv, 'B3', { cookie: w.cookies.assessor }));
    await waitingAre(2);
    // B1 ends: B has nothing running but two in line — that is keeping requests going, not a bystander's one.
    end('B1');
    await runningAre(['A1', 'A2']);
    await waitingAre(2);
    // A bystander's one request takes the reserve at once.
    calls.push(call('GET', frv, 'bystander', { cookie: w.cookies.viewer }));
    await runningAre(['A1', 'A2', 'bystander']);
    // Running are `total` again (the bystander's counts now): B waits for the next slot.
    end('A1');
    await runningAre(['A2', 'bystander']);
    end('bystander');
    await runningAre(['A2', 'B2']);
    end('A2');
    await runningAre(['B2', 'B3']);
    for (const label of ['B2', 'B3']) end(label);
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual(Array(6).fill(200));
  });
});

/*
 * Issue 47, finding 4: the report threads' express thread is for a bystander's one request. A flooder's request
 * may reach the threads while nothing else of theirs is on them; it is still not alone at the fair share.
 */
describe("a heavy request knows whether it is its requester's only one", () => {
  it('alone while nothing else of theirs runs or waits; not while another does; alone again after', async () => {
    const { call, runningAre, waitingAre, end, alone } = heldApp({ total: 2, perUser: 2, queueTotal: 16, queuePerUser: 4, retryAfterSeconds: 3 });
    const flood = { cookie: w.cookies.admin };
    const calls = [call('GET', frv, 'A1', flood)];
    await runningAre(['A1']);
    expect(alone('A1')).toBe(true);
    calls.push(call('GET', frv, 'A2', flood));
    await runningAre(['A1', 'A2']);
    expect([alone('A1'), alone('A2')]).toEqual([false, false]);
    // A third waits for a slot: A2 alone running is not alone while it waits.
    calls.push(call('GET', frv, 'A3', flood));
    await waitingAre(1);
    calls.push(call('GET', frv, 'bystander', { cookie: w.cookies.viewer }));
    await waitingAre(2);
    end('A1');
    await runningAre(['A2', 'bystander']);
    expect([alone('A2'), alone('bystander')]).toEqual([false, true]);
    end('bystander');
    await runningAre(['A2', 'A3']);
    end('A2');
    await runningAre(['A3']);
    expect(alone('A3')).toBe(true);
    end('A3');
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual(Array(4).fill(200));
  });
});
