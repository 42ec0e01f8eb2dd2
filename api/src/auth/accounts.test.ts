import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { loginSkeleton } from './login-skeleton';
import { registerUser } from './service';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ registerPerHour: 3 });
});
afterEach(async () => t.cleanup());

const register = (body: Record<string, string>, ip?: string) => t.request('/api/v2/register', { method: 'POST', body: JSON.stringify(body), ip });

const userCount = async () => Number((await t.deps.db.selectFrom('user').select(t.deps.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('look-alike logins', () => {
  it('folds Cyrillic and Greek letters that look Latin, case and compatibility forms', () => {
    expect(loginSkeleton('аdmin')).toBe('admin'); // Cyrillic «а»
    expect(loginSkeleton('АDМIN')).toBe('admin'); // Cyrillic «А», «М»
    expect(loginSkeleton('ｐetrov')).toBe('petrov'); // full-width «ｐ»
    expect(loginSkeleton('τοp')).toBe('top'); // Greek
    expect(loginSkeleton('иван')).toBe('иbah'); // a Cyrillic login keeps the letters that have no Latin twin
  });

  it('refuses registering «аdmin» (Cyrillic а) beside «admin», and keeps one user', async () => {
    await registerUser(t.deps, { login: 'admin', password: 'secret-pass', firstName: 'А', lastName: 'Б' });
    const response = await register({ login: 'аdmin', password: 'secret-pass', first_name: 'Злой', last_name: 'Двойник' });
    expect(response.status).toBe(409);
    expect((await response.json()).error.message).toBe('Логин слишком похож на существующий');
    expect(await userCount()).toBe(1);
  });

  it('still lets purely Cyrillic logins in, and refuses their Latin look-alike', async () => {
    expect((await register({ login: 'сосна', password: 'secret-pass', first_name: 'С', last_name: 'С' })).status).toBe(200);
    expect((await register({ login: 'Мария', password: 'secret-pass', first_name: 'М', last_name: 'М' })).status).toBe(200);
    const latinTwin = await register({ login: 'cocha', password: 'secret-pass', first_name: 'C', last_name: 'C' });
    expect(latinTwin.status).toBe(409);
    expect(await userCount()).toBe(2);
  });

  it('does not let a signed-in user rename their own login through better-auth update-user', async () => {
    await registerUser(t.deps, { login: 'admin', password: 'secret-pass', firstName: 'А', lastName: 'Б' });
    await registerUser(t.deps, { login: 'viewer', password: 'secret-pass', firstName: 'В', lastName: 'Г' });
    const cookie = await t.signIn('viewer', 'secret-pass');
    const response = await t.request('/api/auth/update-user', {
      method: 'POST',
      cookie,
      headers: { origin: t.config.baseUrl },
      body: JSON.stringify({ username: 'аdmin', displayUsername: 'аdmin', firstName: 'x'.repeat(5000) }),
    });
    expect(response.status).toBe(404);
    const me = await (await t.request('/api/v1/whoami', { cookie })).json();
    expect(me).toMatchObject({ login: 'viewer', first_name: 'В' });
  });
});

describe('better-auth login probe', () => {
  it('is-username-available is not served (it told anyone which logins exist)', async () => {
    await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'А', lastName: 'Б' });
    const response = await t.request('/api/auth/is-username-available', {
      method: 'POST',
      headers: { origin: t.config.baseUrl },
      body: JSON.stringify({ username: 'boss' }),
    });
    expect(response.status).toBe(404);
    expect(JSON.stringify(await response.text())).not.toMatch(/available/);
  });
});

describe('registration limits', () => {
  it('limits registrations per client address per hour; another address still registers', async () => {
    const body = (n: number) => ({ login: `user${'abcdefgh'[n]}`, password: 'secret-pass', first_name: 'И', last_name: 'Ф' });
    for (let n = 0; n < 3; n++) expect((await register(body(n), '10.9.9.9')).status).toBe(200);
    const refused = await register(body(3), '10.9.9.9');
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limited');
    const legacy = await t.request('/api/v2/register?login=legacy&password=secret-pass&first_name=A&last_name=B', { ip: '10.9.9.9' });
    expect(legacy.status).toBe(429);
    expect(await userCount()).toBe(3);
    expect((await register(body(4), '10.8.8.8')).status).toBe(200);
  });

  it('bounds login and name lengths with Russian messages', async () => {
    const longLogin = await register({ login: 'л'.repeat(65), password: 'secret-pass', first_name: 'И', last_name: 'Ф' });
    expect(longLogin.status).toBe(400);
    expect((await longLogin.json()).error.message).toMatch(/Логин не длиннее 64 символов/);
    const longName = await register({ login: 'ok', password: 'secret-pass', first_name: 'И'.repeat(101), last_name: 'Ф' });
    expect(longName.status).toBe(400);
    expect((await longName.json()).error.message).toMatch(/не длиннее 100 символов/);
    expect((await register({ login: 'л'.repeat(64), password: 'secret-pass', first_name: 'И'.repeat(100), last_name: 'Ф' })).status).toBe(200);
    await expect(registerUser(t.deps, { login: 'x'.repeat(65), password: 'secret-pass', firstName: 'A', lastName: 'B' })).rejects.toThrow(/64/);
    expect(await userCount()).toBe(1);
  });
});

describe('bodies that are not JSON', () => {
  for (const path of ['/api/v1/login', '/api/v2/register']) {
    it(`POST ${path} without a content type or with a broken body answers 400, not 500`, async () => {
      const bare = await t.app.request(path, { method: 'POST', body: 'login=a&password=b' });
      expect(bare.status).toBe(400);
      expect((await bare.json()).error.code).toBeTruthy();
      const broken = await t.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"login":' });
      expect(broken.status).toBe(400);
      const empty = await t.app.request(path, { method: 'POST' });
      expect(empty.status).toBe(400);
      expect(await userCount()).toBe(0);
    });
  }
});
