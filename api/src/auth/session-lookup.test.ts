import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { registerUser } from './service';

/**
 * The fast session path (auth/service.ts sessionUser): after better-auth checked a cookie once,
 * later requests read the session row directly. Whatever ends or changes a session must still
 * take effect on the very next request.
 */
let t: TestApp;
let orgId: number;

beforeAll(async () => {
  t = await createTestApp();
  const boss = await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'А', lastName: 'Б' });
  orgId = boss.organizationId;
  await registerUser(t.deps, { login: 'worker', password: 'secret-pass', firstName: 'В', lastName: 'Г' }, { organizationId: orgId, role: 'analyst' });
});
afterAll(async () => t.cleanup());

const whoami = async (cookie: string) => (await t.request('/api/v1/whoami', { cookie })).json() as Promise<{ role?: string; error?: unknown }>;

describe('session lookup after the first check', () => {
  it('sees a role change, a deleted session row and a sign-out on the next request', async () => {
    const cookie = await t.signIn('worker', 'secret-pass');
    expect((await whoami(cookie)).role).toBe('analyst');
    expect((await whoami(cookie)).role).toBe('analyst');
    await t.deps.db.updateTable('memberships').set({ role: 'viewer' }).where('organization_id', '=', orgId).where('role', '=', 'analyst').execute();
    expect((await whoami(cookie)).role).toBe('viewer');

    const second = await t.signIn('worker', 'secret-pass');
    expect((await whoami(second)).role).toBe('viewer');
    await t.deps.db.deleteFrom('session').execute();
    expect((await whoami(cookie)).error).toBeDefined();
    expect((await whoami(second)).error).toBeDefined();

    const third = await t.signIn('worker', 'secret-pass');
    expect((await whoami(third)).role).toBe('viewer');
    expect((await t.request('/api/v1/leave', { cookie: third })).status).toBe(200);
    expect((await whoami(third)).error).toBeDefined();
  });

  it('refuses a cookie whose signature is wrong even when its token is a live session', async () => {
    const cookie = await t.signIn('boss', 'secret-pass');
    expect((await whoami(cookie)).role).toBe('admin');
    const [name, value] = cookie.split('=') as [string, string];
    const token = decodeURIComponent(value).split('.')[0]!;
    expect((await whoami(`${name}=${encodeURIComponent(`${token}.forged`)}`)).error).toBeDefined();
  });

  it('lets better-auth extend a session that is due, then reads it directly again', async () => {
    await t.deps.db.deleteFrom('session').execute();
    const cookie = await t.signIn('boss', 'secret-pass');
    expect((await whoami(cookie)).role).toBe('admin');
    // Two days into a 14-day session: due for extension (updateAge is one day).
    const soon = new Date(Date.now() + 12 * 86_400_000).toISOString();
    await t.deps.db.updateTable('session').set({ expiresAt: soon }).execute();
    expect((await whoami(cookie)).role).toBe('admin');
    const rows = await t.deps.db.selectFrom('session').select('expiresAt').execute();
    expect(rows).toHaveLength(1);
    expect(Date.parse(rows[0]!.expiresAt)).toBeGreaterThan(Date.now() + 13 * 86_400_000);
    expect((await whoami(cookie)).role).toBe('admin');
  });
});
