import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { bootstrap } from '../src/boot';
import { configFromEnv, type Config } from '../src/config';
import { sessionCookieOf } from './cookies';

/** True when this test run's API tests run on PostgreSQL (NORMA_TEST_DATABASE=postgres; tests/support/global-setup.ts). */
export const testsOnPostgres = () => Boolean(process.env.NORMA_TEST_POSTGRES_URL);

/** A new, empty database on the test run's PostgreSQL cluster. */
async function createPostgresDatabase(baseUrl: string) {
  const name = `norma_test_${process.pid}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return { url: `${baseUrl}/${name}`, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * A real app on a fresh SQLite file in a temporary folder (or a fresh PostgreSQL database when the
 * test run has a cluster), for API tests.
 * `request` sends like a browser on the same origin would; `signIn` returns a session cookie.
 */
export async function createTestApp(overrides: Partial<Config> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'norma-test-'));
  // NORMA_TEST_POSTGRES_URL (set by the test run's global set-up): the same app on a fresh PostgreSQL database.
  const postgres = process.env.NORMA_TEST_POSTGRES_URL && !overrides.databaseUrl ? await createPostgresDatabase(process.env.NORMA_TEST_POSTGRES_URL) : null;
  // The read budget of the test run (vitest.config.ts): a busy machine must not turn a slow read into a 503.
  const config = {
    ...configFromEnv({ DATA_DIR: dataDir, PORT: '3999', NORMA_READ_TIME_BUDGET_SECONDS: process.env.NORMA_READ_TIME_BUDGET_SECONDS }),
    pwaDir: undefined,
    databaseUrl: postgres?.url,
    ...overrides,
  };
  const { app, deps, close } = await bootstrap(config);
  // better-auth keeps its rate-limit counters per process: give each test app its own address.
  const defaultIp = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const request = (path: string, init: RequestInit & { cookie?: string; ip?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set('cookie', init.cookie);
    headers.set('x-norma-client-ip', init.ip ?? defaultIp);
    if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return app.request(path, { ...init, headers });
  };
  const signIn = async (login: string, password: string) => {
    const response = await request('/api/v1/login', { method: 'POST', body: JSON.stringify({ login, password }) });
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    return sessionCookieOf(response);
  };
  return {
    app,
    deps,
    config,
    request,
    signIn,
    cookieOf: sessionCookieOf,
    async cleanup() {
      await close();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
