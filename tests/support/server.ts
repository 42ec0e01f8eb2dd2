import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sessionCookieOf } from '../../api/test-support/cookies';

const root = resolve(import.meta.dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * Every started server leaves its pid in this run's folder until it stops, so the run's teardown
 * (tests/support/global-setup.ts) can end those a failed beforeAll never reached afterAll for.
 */
const serverPidDir = process.env.NORMA_TEST_SERVERS_DIR;

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server's process id (benchmarks read its CPU time). */
  pid: number;
  output: () => string;
  stop(): Promise<void>;
  /** Ends the process at once (SIGKILL), as a power cut or the OOM killer would; keeps the data folder. */
  kill(): Promise<void>;
}

/**
 * Starts the real server (`bun api/src/main.ts`, as `npm start` does) on a free port with its
 * own data folder (or the given one, which `stop` then keeps), and waits until it answers.
 */
export async function startServer(env: Record<string, string> = {}, options: { dataDir?: string } = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'norma-e2e-'));
  const url = `http://localhost:${port}`;
  const child = Bun.spawn([join(root, 'node_modules', '.bin', 'bun'), 'api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NORMA_DEMO: '0', NORMA_DEMO_HALL: '0', NORMA_RECORDERS: '0', NORMA_BASE_URL: url, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (serverPidDir) {
    mkdirSync(serverPidDir, { recursive: true });
    const pidFile = join(serverPidDir, String(child.pid));
    writeFileSync(pidFile, '');
    void child.exited.then(() => rmSync(pidFile, { force: true }));
  }
  let log = '';
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) log += decoder.decode(chunk);
  };
  void collect(child.stdout);
  void collect(child.stderr);
  // Seeding the demo organisation's video may take minutes on a busy machine; within the hook's bound.
  const deadline = Date.now() + 540_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
    try {
      const response = await fetch(`${url}/api/v1/instance`);
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`server did not start in time:\n${log}`);
    }
    await Bun.sleep(200);
  }
  return {
    url,
    dataDir,
    pid: child.pid,
    output: () => log,
    async stop() {
      child.kill();
      await child.exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      child.kill('SIGKILL');
      await child.exited;
    },
  };
}

/** A session cookie for API calls made by a test or a benchmark (POST /api/v1/login). */
export async function apiSessionCookie(baseUrl: string, login: string, password = 'norma-demo'): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  if (!response.ok) throw new Error(`sign-in as ${login} failed: ${response.status} ${await response.text()}`);
  return sessionCookieOf(response);
}

/** POSTs JSON as the PWA would (same origin), optionally with a session cookie; anything but 200 fails with the reply. */
export async function postOk(baseUrl: string, path: string, body: unknown, cookie?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * A new organisation of its own for a test: its administrator registers it (`adminLogin`) and adds an
 * analyst `analystLogin` (and any `viewers`), all with `password`. Returns the administrator's and the
 * analyst's session cookies.
 */
export async function analystOrganization(baseUrl: string, password: string, logins: { admin: string; analyst: string; viewers?: string[] }) {
  await postOk(baseUrl, '/api/v2/register', { login: logins.admin, password, first_name: 'Анна', last_name: 'Градова' });
  const admin = await apiSessionCookie(baseUrl, logins.admin, password);
  await postOk(baseUrl, '/api/v1/admin/users', { login: logins.analyst, password, first_name: 'Пётр', last_name: 'Планов', role: 'analyst' }, admin);
  for (const login of logins.viewers ?? []) {
    await postOk(baseUrl, '/api/v1/admin/users', { login, password, first_name: 'Вера', last_name: 'Смотрова', role: 'viewer' }, admin);
  }
  return { admin, analyst: await apiSessionCookie(baseUrl, logins.analyst, password) };
}
