import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { permissions, permissionsOf } from './permissions';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ signInPerMinute: 4 });
});
afterEach(async () => t.cleanup());

const register = (body: Record<string, string>) => t.request('/api/v2/register', { method: 'POST', body: JSON.stringify(body) });

const count = async (table: 'user' | 'organizations' | 'memberships') =>
  Number((await t.deps.db.selectFrom(table).select(t.deps.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('registration', () => {
  it('creates a user who is admin of a new organisation and is signed in', async () => {
    const response = await register({ login: 'Инна_К', password: 'secret-pass', first_name: 'Инна', last_name: 'Козлова' });
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe('Регистрация прошла успешно');
    const cookie = t.cookieOf(response);
    const whoami = await t.request('/api/v1/whoami', { cookie });
    expect(whoami.status).toBe(200);
    const me = await whoami.json();
    expect(me).toMatchObject({ first_name: 'Инна', last_name: 'Козлова', login: 'инна_к', role: 'admin' });
    expect(me.organization.name).toBe('Организация Инна_К');
    expect(me.error).toBeUndefined();
    // The role's permissions, read from the API's own table: the PWA shows only what these allow.
    // The first organisation of the installation is its owner: its admin also reads the site's requests.
    expect(me.permissions).toEqual(permissionsOf('admin', true));
    expect(me.permissions).toContain('organization.admin');
    expect(me.organization.is_demo).toBe(false);
  });

  it('refuses missing fields with the exact text and changes nothing', async () => {
    const response = await register({ login: 'x', password: 'secret-pass', first_name: ' ', last_name: 'Y' });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('Заполните все поля');
    expect(await count('user')).toBe(0);
    expect(await count('organizations')).toBe(0);
  });

  it('refuses a taken login (any case) with 409 and keeps one user', async () => {
    expect((await register({ login: 'petrov', password: 'secret-pass', first_name: 'П', last_name: 'П' })).status).toBe(200);
    const again = await register({ login: 'Petrov', password: 'other-pass', first_name: 'Д', last_name: 'Д' });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe('Пользователь с таким логином уже существует');
    expect(await count('user')).toBe(1);
    expect(await count('organizations')).toBe(1);
  });

  it('refuses a short password and a bad body shape with 400 JSON errors', async () => {
    const short = await register({ login: 'a', password: '123', first_name: 'A', last_name: 'B' });
    expect(short.status).toBe(400);
    expect((await short.json()).error.message).toMatch(/не короче 8/);
    const wrongType = await t.request('/api/v2/register', { method: 'POST', body: JSON.stringify({ login: 5 }) });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error.code).toBe('validation_failed');
    expect(await count('user')).toBe(0);
  });

  it('keeps the legacy GET /api/v2/register working', async () => {
    const response = await t.request('/api/v2/register?login=legacy&password=secret-pass&first_name=Old&last_name=Style');
    expect(response.status).toBe(200);
    expect(await count('memberships')).toBe(1);
  });

  it('does not expose better-auth sign-up, which would skip the organisation', async () => {
    const response = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { origin: t.config.baseUrl },
      body: JSON.stringify({ email: 'a@b.c', password: 'secret-pass', name: 'x', firstName: 'a', lastName: 'b' }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await count('user')).toBe(0);
  });
});

describe('sign-in and session', () => {
  beforeEach(async () => {
    await register({ login: 'olga', password: 'secret-pass', first_name: 'Ольга', last_name: 'Орлова' });
  });

  it('whoami without a session answers with an error field', async () => {
    const response = await t.request('/api/v1/whoami');
    expect(response.status).toBe(200);
    expect((await response.json()).error.code).toBe('unauthorized');
  });

  it('signs in by POST and by the legacy GET, and signs out', async () => {
    const post = await t.signIn('olga', 'secret-pass');
    expect((await (await t.request('/api/v1/whoami', { cookie: post })).json()).first_name).toBe('Ольга');

    const legacy = await t.request('/api/v1/login?email=OLGA&password=secret-pass');
    expect(legacy.status).toBe(200);
    const cookie = t.cookieOf(legacy);
    expect((await (await t.request('/api/v1/whoami', { cookie })).json()).login).toBe('olga');

    const leave = await t.request('/api/v1/leave', { cookie });
    expect((await leave.json()).message).toBe('Вы вышли из системы');
    expect((await (await t.request('/api/v1/whoami', { cookie })).json()).error.code).toBe('unauthorized');
  });

  it('refuses a wrong password with 401 and a clear message', async () => {
    const response = await t.request('/api/v1/login', { method: 'POST', body: JSON.stringify({ login: 'olga', password: 'nope-nope' }) });
    expect(response.status).toBe(401);
    expect((await response.json()).error.message).toBe('Неверный логин или пароль');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('rate-limits sign-in per client address', async () => {
    const attempt = (ip: string) => t.request('/api/v1/login', { method: 'POST', ip, body: JSON.stringify({ login: 'olga', password: 'wrong-pass' }) });
    const ip = `192.168.77.${Math.floor(Math.random() * 250)}`;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt(ip)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    // Another address is not affected.
    expect((await attempt(`${ip}1`)).status).toBe(401);
  });
});

describe('the permission table', () => {
  it('gives each role what the routes check, and whoami sends a role exactly its own', () => {
    expect(permissionsOf('viewer')).toEqual(['workspace.read', 'reports.read', 'reports.window.read', 'video.play']);
    expect(permissionsOf('assessor')).toEqual(['workspace.read', 'reports.read', 'markup.write', 'reports.window.read', 'video.play']);
    expect(permissionsOf('analyst')).toEqual(['workspace.read', 'reports.read', 'markup.write', 'workspace.write', 'reports.window.read', 'video.play']);
    expect(permissionsOf('admin', true)).toEqual(Object.keys(permissions));
    // The site's requests are the installation's: an admin of any other organisation does not get them.
    expect(permissionsOf('admin')).toEqual(Object.keys(permissions).filter((p) => p !== 'site.requests'));
    expect(permissionsOf('viewer', true)).toEqual(permissionsOf('viewer'));
  });
});
