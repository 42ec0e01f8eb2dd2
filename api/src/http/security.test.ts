import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';

let t: TestApp;
let pwaDir: string;
beforeAll(() => {
  pwaDir = mkdtempSync(join(tmpdir(), 'norma-pwa-'));
  mkdirSync(join(pwaDir, 'assets'));
  writeFileSync(join(pwaDir, 'index.html'), '<!doctype html><title>Norma</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(pwaDir, 'assets', 'app.js'), 'console.log(1)');
});
afterAll(() => rmSync(pwaDir, { recursive: true, force: true }));
afterEach(async () => t?.cleanup());

const userCount = async () => Number((await t.deps.db.selectFrom('user').select(t.deps.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

function expectSecurityHeaders(response: Response) {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("connect-src 'self'");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('referrer-policy')).toBe('same-origin');
}

describe('security headers', () => {
  it('are on API answers, PWA files, the docs page, errors and 404s', async () => {
    t = await createTestApp({ pwaDir });
    const answers = {
      api: await t.request('/api/v1/instance'),
      pwaIndex: await t.request('/'),
      pwaAsset: await t.request('/assets/app.js'),
      pwaDeepLink: await t.request('/projects/7'),
      docs: await t.request('/api/docs'),
      apiNotFound: await t.request('/api/v1/no-such-call'),
      unauthorized: await t.request('/api/v1/admin/users'),
      validation: await t.request('/api/v2/register', { method: 'POST', body: JSON.stringify({ login: 5 }) }),
      betterAuth: await t.request('/api/auth/get-session'),
    };
    expect(answers.api.status).toBe(200);
    expect(answers.pwaAsset.status).toBe(200);
    expect(answers.apiNotFound.status).toBe(404);
    expect(answers.unauthorized.status).toBe(401);
    expect(answers.validation.status).toBe(400);
    for (const [name, response] of Object.entries(answers)) {
      try {
        expectSecurityHeaders(response);
      } catch (error) {
        throw new Error(`${name} (${response.status}): ${(error as Error).message}`, { cause: error });
      }
    }
  });

  it('are on the 404 of an app without the PWA', async () => {
    t = await createTestApp();
    const response = await t.request('/no-such-page');
    expect(response.status).toBe(404);
    expectSecurityHeaders(response);
  });

  it('the docs page runs no inline script: its start-up code is a served file', async () => {
    t = await createTestApp();
    const page = await (await t.request('/api/docs')).text();
    const scripts = [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="/);
      expect(body!.trim()).toBe('');
    }
    const init = await t.request('/api/docs/init.js');
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/javascript/);
    expect(await init.text()).toContain('url: "/api/openapi.json"');
  });

  it('sends HSTS only when the public address is HTTPS', async () => {
    t = await createTestApp();
    expect((await t.request('/api/v1/instance')).headers.get('strict-transport-security')).toBeNull();
    await t.cleanup();
    t = await createTestApp({ baseUrl: 'https://norma.example' });
    expect((await t.request('/api/v1/instance')).headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});

describe('cross-site requests', () => {
  const registration = JSON.stringify({ login: 'mallory', password: 'secret-pass', first_name: 'М', last_name: 'М' });

  it('refuses a write with a foreign Origin (another site, or our host on another port) and changes nothing', async () => {
    t = await createTestApp();
    for (const origin of ['http://evil.example', 'http://localhost:4000', 'null']) {
      const response = await t.request('/api/v2/register', { method: 'POST', headers: { origin }, body: registration });
      expect(response.status).toBe(403);
      const { error } = await response.json();
      expect(error.code).toBe('cross_site_refused');
      expect(error.message).toContain('Откройте Norma по адресу http://localhost:3999');
    }
    expect(await userCount()).toBe(0);
    const own = await t.request('/api/v2/register', { method: 'POST', headers: { origin: t.config.baseUrl }, body: registration });
    expect(own.status).toBe(200);
  });

  it('accepts a write from the page of the address the request went to (a tablet opening the server by its IP)', async () => {
    t = await createTestApp();
    const atAddress = (origin: string) => t.request('http://192.168.10.5:3000/api/v2/register', { method: 'POST', headers: { origin }, body: registration });
    expect((await atAddress('http://192.168.10.5:4000')).status).toBe(403);
    expect(await userCount()).toBe(0);
    expect((await atAddress('http://192.168.10.5:3000')).status).toBe(200);
    expect(await userCount()).toBe(1);
  });

  it('without Origin, reads fetch metadata: cross-site and same-site writes are refused, same-origin and bare clients pass', async () => {
    t = await createTestApp();
    for (const site of ['cross-site', 'same-site']) {
      const response = await t.request('/api/v2/register', { method: 'POST', headers: { 'sec-fetch-site': site }, body: registration });
      expect(response.status).toBe(403);
    }
    expect(await userCount()).toBe(0);
    const sameOrigin = await t.request('/api/v2/register', { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' }, body: registration });
    expect(sameOrigin.status).toBe(200);
    // A client with neither header (the loader, a script) is not a browser and passes.
    expect((await t.request('/api/v1/login', { method: 'POST', body: JSON.stringify({ login: 'mallory', password: 'secret-pass' }) })).status).toBe(200);
  });

  it('refuses state-changing legacy GETs sent from another site: sign-in, registration, sign-out, sync', async () => {
    t = await createTestApp();
    await registerUser(t.deps, { login: 'victim', password: 'secret-pass', firstName: 'В', lastName: 'В' });
    const cookie = await t.signIn('victim', 'secret-pass');
    const crossSite = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };

    const login = await t.request('/api/v1/login?email=victim&password=secret-pass', { headers: crossSite });
    expect(login.status).toBe(403);
    expect(login.headers.getSetCookie()).toEqual([]);
    const register = await t.request('/api/v2/register?login=mallory&password=secret-pass&first_name=M&last_name=M', { headers: crossSite });
    expect(register.status).toBe(403);
    expect(await userCount()).toBe(1);
    const sync = await t.request('/api/v1/sync_videos?structure_id=1', { cookie, headers: crossSite });
    expect(sync.status).toBe(403);
    const leave = await t.request('/api/v1/leave', { cookie, headers: { 'sec-fetch-site': 'same-site' } });
    expect(leave.status).toBe(403);
    expect((await (await t.request('/api/v1/whoami', { cookie })).json()).login).toBe('victim');

    // Reads stay open to links from elsewhere; typed addresses (none) and our own pages change state.
    expect((await t.request('/api/v1/instance', { headers: crossSite })).status).toBe(200);
    expect((await t.request('/api/v1/login?email=victim&password=secret-pass', { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await t.request('/api/v1/leave', { cookie, headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect((await (await t.request('/api/v1/whoami', { cookie })).json()).error.code).toBe('unauthorized');
  });

  it('guards better-auth paths the same way', async () => {
    t = await createTestApp();
    await registerUser(t.deps, { login: 'victim', password: 'secret-pass', firstName: 'В', lastName: 'В' });
    const response = await t.request('/api/auth/sign-in/username', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ username: 'victim', password: 'secret-pass' }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});
