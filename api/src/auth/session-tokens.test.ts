import { join } from 'node:path';
import { makeSignature } from 'better-auth/crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { registerUser } from './service';
import { hashSessionToken } from './session-tokens';

const COOKIE = 'better-auth.session_token';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await registerUser(t.deps, { login: 'olga', password: 'secret-pass', firstName: 'Ольга', lastName: 'Орлова' });
});
afterEach(async () => t.cleanup());

/** The token inside a signed session cookie (`token.signature`, URL-encoded). */
function tokenOf(cookie: string): string {
  const value = cookie
    .split('; ')
    .find((part) => part.startsWith(`${COOKIE}=`))!
    .slice(COOKIE.length + 1);
  return decodeURIComponent(value).split('.')[0]!;
}

/** A session cookie for `token`, signed as better-auth signs it, with the secret kept in DATA_DIR. */
async function signedCookie(token: string): Promise<string> {
  const secret = (await Bun.file(join(t.config.dataDir, 'auth-secret')).text()).trim();
  return `${COOKIE}=${encodeURIComponent(`${token}.${await makeSignature(token, secret)}`)}`;
}

const storedTokens = async () => (await sql<{ token: string }>`SELECT token FROM "session"`.execute(t.deps.db)).rows.map((row) => row.token);

const whoami = async (cookie: string) => (await t.request('/api/v1/whoami', { cookie })).json();

describe('session tokens at rest', () => {
  it('keeps only the SHA-256 of the cookie token in the database', async () => {
    const token = tokenOf(await t.signIn('olga', 'secret-pass'));
    expect(await storedTokens()).toEqual([hashSessionToken(token)]);
    expect(await storedTokens()).not.toContain(token);
  });

  it('a copy of DATA_DIR (database and secret) gives no working session', async () => {
    const cookie = await t.signIn('olga', 'secret-pass');
    expect((await whoami(cookie)).login).toBe('olga');
    // Control: a cookie forged from the real token with the stored secret works, so the forging is right…
    expect((await whoami(await signedCookie(tokenOf(cookie)))).login).toBe('olga');
    // …and the same forging from what the database holds opens nothing.
    const [stored] = await storedTokens();
    const reply = await whoami(await signedCookie(stored!));
    expect(reply.error.code).toBe('unauthorized');
    const write = await t.request('/api/v1/admin/users', { cookie: await signedCookie(stored!) });
    expect(write.status).toBe(401);
  });

  it('sign-out deletes the hashed row', async () => {
    const cookie = await t.signIn('olga', 'secret-pass');
    expect(await storedTokens()).toHaveLength(1);
    expect((await t.request('/api/v1/leave', { cookie })).status).toBe(200);
    expect(await storedTokens()).toHaveLength(0);
    expect((await whoami(cookie)).error.code).toBe('unauthorized');
  });

  it('closes the better-auth session paths that would work on hashes (list, revoke one, revoke others)', async () => {
    const cookie = await t.signIn('olga', 'secret-pass');
    for (const path of ['/api/auth/list-sessions', '/api/auth/revoke-session', '/api/auth/revoke-other-sessions']) {
      const response = await t.request(path, {
        method: path.endsWith('list-sessions') ? 'GET' : 'POST',
        cookie,
        body: path.endsWith('list-sessions') ? undefined : '{}',
      });
      expect(response.status).toBe(404);
    }
    expect((await whoami(cookie)).login).toBe('olga');
  });

  it('a session refresh keeps the hash stored and hands the raw token back to better-auth', async () => {
    const token = tokenOf(await t.signIn('olga', 'secret-pass'));
    const ctx = await t.deps.auth.$context;
    const later = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    const updated = await ctx.internalAdapter.updateSession(token, { expiresAt: later });
    expect(updated?.token).toBe(token);
    expect(await storedTokens()).toEqual([hashSessionToken(token)]);
    const found = await ctx.internalAdapter.findSession(token);
    expect(found?.session.token).toBe(token);
    expect(found?.session.expiresAt.getTime()).toBe(later.getTime());
  });
});
