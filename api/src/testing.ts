import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from './boot';
import { configFromEnv, type Config } from './config';

/**
 * A real app on a fresh SQLite file in a temporary folder, for API tests.
 * `request` sends like a browser on the same origin would; `signIn` returns a session cookie.
 */
export async function createTestApp(overrides: Partial<Config> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'norma-test-'));
  const config = { ...configFromEnv({ DATA_DIR: dataDir, PORT: '3999' }), pwaDir: undefined, ...overrides };
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
  const cookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .filter((c) => !c.endsWith('='))
      .join('; ');
  const signIn = async (login: string, password: string) => {
    const response = await request('/api/v1/login', { method: 'POST', body: JSON.stringify({ login, password }) });
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    return cookieOf(response);
  };
  return {
    app,
    deps,
    config,
    request,
    signIn,
    cookieOf,
    async cleanup() {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
