import { createRoute, z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { SHARE_KEY_MISSES_ALLOWED } from '../auth/share-keys';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { FORM_BODY_MAX_BYTES, SIGN_IN_BODY_MAX_BYTES } from './body-limit';
import type { AppEnv } from './env';
import { handleError, MAX_REPORTED_ISSUES } from './errors';
import { fairShare } from './fair-share';
import { createRouter, json } from './openapi';

/*
 * Issue 24, "request size, shape and fair share": each finding is a request here, sent to the real app.
 */

let t: TestApp;
let admin: string;
let viewer: string;
const password = 'long-password';

beforeAll(async () => {
  t = await createTestApp();
  // The first organisation is the calculator's owner: its admin may change the calculator's settings.
  const owner = await registerUser(t.deps, { login: 'owner', password, firstName: 'Анна', lastName: 'Владелец' });
  await registerUser(t.deps, { login: 'watcher', password, firstName: 'Вера', lastName: 'Зритель' }, { organizationId: owner.organizationId, role: 'viewer' });
  admin = await t.signIn('owner', password);
  viewer = await t.signIn('watcher', password);
});
afterAll(() => t.cleanup());

const post = (path: string, body: string, init: { cookie?: string; ip?: string } = {}) => t.request(path, { method: 'POST', body, ...init });
/** A body sent as a stream of chunks with no Content-Length, as a client may. */
const streamed = (text: string, chunkBytes = 16 * 1024) => {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += chunkBytes)));
    },
  });
};

describe('authorisation before the body is parsed', () => {
  const manyBadChanges = JSON.stringify(Array(15_000).fill({}));

  it('an anonymous or non-admin calculator update is refused without reading its elements', async () => {
    const anonymous = await post('/api/v2/update_calculator_defaults', manyBadChanges);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.text()).length).toBeLessThan(1000);
    const notAdmin = await post('/api/v2/update_calculator_defaults', manyBadChanges, { cookie: viewer });
    expect(notAdmin.status).toBe(403);
    expect((await notAdmin.text()).length).toBeLessThan(1000);
  });

  it('a route with a body and no access check in middleware cannot be registered', () => {
    const router = createRouter();
    const route = createRoute({
      method: 'post',
      path: '/x',
      request: { body: { content: { 'application/json': { schema: z.object({ a: z.string().max(1) }) } } } },
      responses: { 200: json(z.object({})) },
    });
    expect(() => router.openapi(route, (c) => c.json({}, 200))).toThrow(/middleware/);
  });
});

describe('a validation error lists a few problems', () => {
  it('an admin sending thousands of bad elements gets one short 400', async () => {
    const response = await post('/api/v2/update_calculator_defaults', JSON.stringify(Array(150).fill({})), { cookie: admin });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text.length).toBeLessThan(4000);
    const body = JSON.parse(text);
    expect(body.error.details.length).toBeLessThanOrEqual(MAX_REPORTED_ISSUES);
    expect(body.error.message).toMatch(/и ещё ошибок: \d+/);
  });

  it('more setting changes than there are settings is one problem', async () => {
    const response = await post('/api/v2/update_calculator_defaults', JSON.stringify(Array(5000).fill({})), { cookie: admin });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details.length).toBeLessThanOrEqual(MAX_REPORTED_ISSUES);
  });

  it('a drawing of 70 000 bad points is one short 400, and nothing is saved', async () => {
    const bad = JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: Array(70_000).fill(['x']) }, properties: { type: 'road' } }],
    });
    expect(bad.length).toBeGreaterThan(400_000);
    const response = await post('/api/v1/projects/last/save', bad, { cookie: admin });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text.length).toBeLessThan(4000);
    expect(JSON.parse(text).error.message).toContain('точка 0');
    const projects = await t.deps.db.selectFrom('map_projects').selectAll().execute();
    for (const project of projects) expect(String(project.drawn_feature_collection ?? '')).not.toContain('"x"');
  });

  it('calculator numbers are decimal: 0x1 and 1e1 are refused', async () => {
    const inputs = 'shifts_per_day=2&business_day_num=21&hours_per_shift=8&average_salary=60000&visible=true&production_type=series';
    expect((await t.request(`/api/v2/get_calculator_public_output?${inputs}&employees_num=20`)).status).toBe(200);
    for (const odd of ['0x14', '2e1', 'Infinity', '1_0'])
      expect((await t.request(`/api/v2/get_calculator_public_output?${inputs}&employees_num=${odd}`)).status, odd).toBe(400);
  });
});

describe('body limits, enforced while reading', () => {
  const loginBody = (bytes: number) => JSON.stringify({ login: 'owner', password: 'p'.repeat(bytes) });

  it('sign-in takes kilobytes: a larger body is a JSON 413, with or without Content-Length', async () => {
    const big = loginBody(SIGN_IN_BODY_MAX_BYTES + 1);
    const declared = await t.request('/api/v1/login', { method: 'POST', body: big, headers: { 'content-length': String(big.length) } });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe('payload_too_large');
    const chunked = await t.request('/api/v1/login', { method: 'POST', body: streamed(big), duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    // better-auth's own sign-in as well: it never sees the body.
    const direct = await post('/api/auth/sign-in/username', JSON.stringify({ username: 'owner', password: 'p'.repeat(SIGN_IN_BODY_MAX_BYTES) }));
    expect(direct.status).toBe(413);
    // A normal sign-in still works.
    expect((await post('/api/v1/login', JSON.stringify({ login: 'owner', password }))).status).toBe(200);
  });

  it('a form takes at most 64 KiB; a drawing more', async () => {
    const form = JSON.stringify({ name: 'x'.repeat(FORM_BODY_MAX_BYTES) });
    const refused = await post('/api/v1/projects/create', form, { cookie: admin });
    expect(refused.status).toBe(413);
    // A drawing of 200 KB is within its own limit (it reaches validation: the type is wrong on purpose).
    const drawing = JSON.stringify({ type: 'FeatureCollection', features: [], pad: 'x'.repeat(200_000) });
    expect((await post('/api/v1/projects/last/save', drawing, { cookie: admin })).status).not.toBe(413);
  });
});

describe('share-key guessing', () => {
  it(`after ${SHARE_KEY_MISSES_ALLOWED} unknown keys an address gets 429 with Retry-After; other addresses do not`, async () => {
    const ip = '192.0.2.77';
    const guess = (i: number, from = ip) => t.request(`/api/v1/resolve_hash/${'A'.repeat(20)}${String(i).padStart(12, '0')}`, { ip: from });
    for (let i = 0; i < SHARE_KEY_MISSES_ALLOWED; i++) expect((await guess(i)).status).toBe(404);
    const refused = await guess(SHARE_KEY_MISSES_ALLOWED);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Still refused, via the header route too, without another lookup.
    expect((await guess(SHARE_KEY_MISSES_ALLOWED + 1)).status).toBe(429);
    expect((await guess(0, '192.0.2.78')).status).toBe(404);
  });
});

describe('fair share of heavy reads', () => {
  /** A real Hono app with the fair-share middleware and a handler that runs until the test lets it end. */
  function heavyApp() {
    const app = new Hono<AppEnv>();
    app.onError(handleError);
    const running: (() => void)[] = [];
    app.use('*', async (c, next) => {
      c.set('user', { id: c.req.header('x-user') ?? 'a' } as never);
      await next();
    });
    app.use('*', fairShare({ total: 3, perUser: 2, queueTotal: 4, queuePerUser: 2, retryAfterSeconds: 7 }, new Set(['/heavy'])));
    app.get('/heavy', async (c) => {
      await new Promise<void>((resolve) => running.push(resolve));
      return c.text('done');
    });
    app.get('/cheap', (c) => c.text('cheap'));
    const call = (path: string, user: string) => app.request(path, { headers: { 'x-user': user } });
    /** Waits until `n` handlers are running. */
    const runningCount = async (n: number) => {
      for (let i = 0; i < 10_000 && running.length < n; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(running.length).toBe(n);
    };
    return { call, running, runningCount };
  }

  it('runs at most two per user and three in all, queues a few, and answers 429 with Retry-After beyond', async () => {
    const { call, running, runningCount } = heavyApp();
    const first = [call('/heavy', 'a'), call('/heavy', 'a')];
    await runningCount(2);
    // The user's next two wait; the fifth is refused at once.
    const queued = [call('/heavy', 'a'), call('/heavy', 'a')];
    const refused = await call('/heavy', 'a');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect((await refused.json()).error.code).toBe('rate_limited');
    // Another user still gets a slot (3 in all), and cheap calls are never held.
    const other = call('/heavy', 'b');
    await runningCount(3);
    expect(await (await call('/cheap', 'a')).text()).toBe('cheap');
    // A fourth user waits for the total limit.
    const waitingForTotal = call('/heavy', 'c');
    // As slots free, the waiting ones run, and every one ends with its answer.
    for (let done = 0; done < 6; done++) {
      for (let i = 0; i < 1000 && running.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
      running.shift()!();
    }
    const answers = await Promise.all([...first, ...queued, other, waitingForTotal]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
