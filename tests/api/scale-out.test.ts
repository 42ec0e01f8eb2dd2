import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../workers/test-support/test-clips';
import { openPostgres } from '../../api/src/db/postgres';
import { STALE_VERSION_MESSAGE } from '../../api/src/markup/video-markups.service';
import type { OpenedDatabase } from '../../api/src/db/database';
import { startFakeS3, type FakeS3 } from '../../api/test-support/s3-fake';
import { sessionCookieOf } from '../../api/test-support/cookies';
import { insertVideo, markupPlace } from '../../api/test-support/video-fixtures';
import { INGEST_JOB } from '../../api/src/video/registration';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres';
import { startServer, type RunningServer } from '../support/server';
import { untilState } from '../support/wait';

/**
 * The scale-out shape of issue 18 (docs/deployment.md): two API processes and two worker processes
 * on one PostgreSQL and one S3 bucket (the in-memory fake), on loopback, as a reverse proxy without
 * sticky sessions would use them. Sessions, replays of a save, version conflicts, the job queue,
 * video ranges and the sign-in limit work across the processes.
 */

const root = resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'secret-pass';
const RETRY = untilState(250);

let cluster: PostgresCluster | undefined;
let fake: FakeS3 | undefined;
let database: OpenedDatabase | undefined;
const apis: RunningServer[] = [];
const workers: { log: () => string; stop(): Promise<void> }[] = [];
const folders: string[] = [];
let env: Record<string, string>;

const folder = (name: string) => {
  const path = mkdtempSync(join(tmpdir(), `norma-scale-${name}-`));
  folders.push(path);
  return path;
};

/** `npm run workers` as a process of its own; its pid is left for the run's teardown like a server's. */
function startWorker(extra: Record<string, string>) {
  const child = Bun.spawn([join(root, 'node_modules', '.bin', 'bun'), 'api/src/worker-main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, ...extra },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const pidDir = process.env.NORMA_TEST_SERVERS_DIR;
  if (pidDir) {
    mkdirSync(pidDir, { recursive: true });
    const pidFile = join(pidDir, String(child.pid));
    writeFileSync(pidFile, '');
    void child.exited.then(() => rmSync(pidFile, { force: true }));
  }
  let log = '';
  for (const stream of [child.stdout, child.stderr]) {
    void (async () => {
      for await (const chunk of stream) log += new TextDecoder().decode(chunk);
    })();
  }
  return {
    log: () => log,
    async stop() {
      child.kill();
      await child.exited;
    },
  };
}

const call = (api: RunningServer, path: string, init: RequestInit & { cookie?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('cookie', init.cookie);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  return fetch(`${api.url}${path}`, { ...init, headers });
};

const signIn = async (api: RunningServer, login: string, password = PASSWORD, forwardedFor?: string) =>
  call(api, '/api/v1/login', {
    method: 'POST',
    body: JSON.stringify({ login, password }),
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

const whoami = async (api: RunningServer, cookie: string) =>
  (await (await call(api, '/api/v1/whoami', { cookie })).json()) as { login?: string; error?: unknown; organization?: { id: number } };

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE norma_plant');
  await admin.end();
  fake = startFakeS3('plant');
  env = {
    DATABASE_URL: `${cluster.baseUrl}/norma_plant`,
    NORMA_S3_BUCKET: 'plant',
    NORMA_S3_ENDPOINT: fake.endpoint,
    NORMA_S3_REGION: 'us-east-1',
    NORMA_S3_ACCESS_KEY_ID: 'plant-key',
    NORMA_S3_SECRET_ACCESS_KEY: 'plant-secret',
    NORMA_AUTH_SECRET: 'one-secret-for-every-process-of-the-plant',
    NORMA_WORKERS: '0',
    NORMA_DEMO: '0',
    NORMA_SIGNIN_PER_MINUTE: '10',
    // The test plays the reverse proxy on loopback: X-Forwarded-For names the client.
    NORMA_TRUSTED_PROXY: '127.0.0.1, ::1',
  };
  // The first API creates the schema; the second one and the workers join it.
  apis.push(await startServer({ ...env, NORMA_S3_CACHE_DIR: folder('api1') }));
  const [second] = await Promise.all([
    startServer({ ...env, NORMA_S3_CACHE_DIR: folder('api2') }),
    (async () => {
      workers.push(startWorker({ DATA_DIR: folder('w1'), NORMA_S3_CACHE_DIR: folder('w1cache') }));
      workers.push(startWorker({ DATA_DIR: folder('w2'), NORMA_S3_CACHE_DIR: folder('w2cache') }));
    })(),
  ]);
  apis.push(second);
  database = openPostgres(env.DATABASE_URL!, { max: 2 });
  // expect.poll belongs to tests; the set-up waits for the workers' start line itself.
  const deadline = Date.now() + RETRY.timeout;
  while (!workers.every((worker) => worker.log().includes('фоновые задачи запущены'))) {
    if (Date.now() > deadline) throw new Error(`workers did not start:\n${workers.map((worker) => worker.log()).join('\n')}`);
    await Bun.sleep(RETRY.interval);
  }
});

afterAll(async () => {
  await Promise.all([...apis.map((api) => api.stop()), ...workers.map((worker) => worker.stop())]);
  await database?.close();
  await fake?.stop();
  cluster?.stop();
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

describe('two API processes and two worker processes on one PostgreSQL and one bucket', () => {
  let cookie: string;
  let ids: { video: number; operation: number; workplace: number; camera: number };

  it('a session made on one API holds on the other, and signing out on either ends it on both', async () => {
    const [api1, api2] = apis as [RunningServer, RunningServer];
    const registered = await call(api1, '/api/v2/register', {
      method: 'POST',
      body: JSON.stringify({ login: 'lead', password: PASSWORD, first_name: 'Мария', last_name: 'Иванова' }),
    });
    expect(registered.status).toBe(200);
    const first = sessionCookieOf(registered);
    expect(await whoami(api2, first)).toMatchObject({ login: 'lead' });
    expect(await whoami(api1, first)).toMatchObject({ login: 'lead' });
    expect((await call(api2, '/api/v1/leave', { cookie: first })).status).toBe(200);
    expect((await whoami(api1, first)).error).toBeDefined();
    expect((await whoami(api2, first)).error).toBeDefined();

    const signedIn = await signIn(api2, 'lead');
    expect(signedIn.status).toBe(200);
    cookie = sessionCookieOf(signedIn);
    const me = await whoami(api1, cookie);
    expect(me).toMatchObject({ login: 'lead' });

    // The workplace the next tests work in: a camera, an operation, a workplace (and an employee) and one video row.
    const db = database!.db;
    const place = await markupPlace(db, me.organization!.id, Date.now(), 'Цех');
    const { cameraId: camera, operationId: operation, workplaceId: workplace } = place;
    const video = await insertVideo(db, camera, { filename: 'marked.mp4', key: 'rec/1/marked.mp4', start: Date.parse('2026-11-16T06:00:00Z'), duration: 100 });
    ids = { video, operation, workplace, camera };
  });

  it('a save replayed to the other API is applied once, and of saves on one version only one is applied (the others 409)', async () => {
    const [api1, api2] = apis as [RunningServer, RunningServer];
    const path = `/api/v1/video_markups/${ids.video}`;
    const version = async (api: RunningServer) => ((await (await call(api, path, { cookie })).json()) as { version: number }).version;
    const row = (start: number) => ({
      id: -1,
      operation_id: ids.operation,
      workplace_id: ids.workplace,
      start_time: start,
      end_time: start + 5,
      comment: null,
    });
    const markupRows = async () =>
      Number(
        (
          await database!.db
            .selectFrom('markups')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('video_id', '=', ids.video)
            .executeTakeFirstOrThrow()
        ).n,
      );

    const save = JSON.stringify({ video_markups: [row(0)], base_version: await version(api1), client_save_id: 'outbox-scale-0001' });
    const once = await call(api1, path, { method: 'PUT', cookie, body: save });
    expect(once.status).toBe(200);
    const replay = await call(api2, path, { method: 'PUT', cookie, body: save });
    expect(replay.status).toBe(200);
    const [onceBody, replayBody] = (await Promise.all([once.json(), replay.json()])) as { version: number; video_markups: unknown[] }[];
    expect(replayBody.version).toBe(onceBody!.version);
    expect(replayBody.video_markups).toHaveLength(1);
    expect(await markupRows()).toBe(1);

    // Saves on one version, two to each API at once: one is applied, the rest are told the version moved on.
    const base = await version(api2);
    const replies = await Promise.all(
      [api1, api2, api1, api2].map((api, i) =>
        call(api, path, { method: 'PUT', cookie, body: JSON.stringify({ video_markups: [row(20 + i * 10)], base_version: base }) }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409]);
    const refused = replies.find((reply) => reply.status === 409)!;
    expect(((await refused.json()) as { error: unknown }).error).toMatchObject({ code: 'conflict', message: STALE_VERSION_MESSAGE });
    expect(await markupRows()).toBe(2);
    expect(await version(api1)).toBe(await version(api2));
  });

  it('uploads through both APIs become jobs that the two workers share, each run once; either API streams ranges', async () => {
    const clipsDir = folder('clips');
    const uploads = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const api = apis[i % 2]!;
        const file = join(clipsDir, `clip${i}.mp4`);
        await makeClip(file, { seconds: 2, creationTime: `2026-11-17T0${i}:00:00Z` });
        const response = await call(api, `/api/v1/upload?camera_id=${ids.camera}&filename=cam1_2026-11-17_1${i}-00-00.mp4`, {
          method: 'POST',
          cookie,
          headers: { 'content-type': 'video/mp4' },
          body: Bun.file(file),
        });
        expect(response.status, await response.clone().text()).toBe(200);
        return (await response.json()) as { job_id: number; video_id: number };
      }),
    );
    // Each job is followed on the API it was not uploaded through.
    for (const [i, { job_id }] of uploads.entries()) {
      const other = apis[(i + 1) % 2]!;
      await expect
        .poll(async () => ((await (await call(other, `/api/v1/jobs/${job_id}`, { cookie })).json()) as { status: string }).status, RETRY)
        .toBe('success');
    }
    const jobs = await database!.db.selectFrom('jobs').select(['id', 'status', 'attempts']).where('kind', '=', INGEST_JOB).orderBy('id').execute();
    expect(jobs).toEqual(uploads.map((u) => ({ id: u.job_id, status: 'success', attempts: 1 })).sort((x, y) => x.id - y.id));
    // Which worker ran which job: each job in exactly one worker's log, and both workers had some.
    const ran = workers.map((worker) => [...worker.log().matchAll(/задача (\d+) \(ingest_video\) выполнена/g)].map((m) => Number(m[1])));
    expect(ran.flat().sort((x, y) => x - y)).toEqual(jobs.map((job) => job.id));
    for (const jobIds of ran) expect(jobIds.length).toBeGreaterThan(0);

    for (const { video_id } of uploads) {
      const { storage_key: key } = await database!.db.selectFrom('videos').select('storage_key').where('id', '=', video_id).executeTakeFirstOrThrow();
      const stored = fake!.objects.get(key!)!.bytes;
      for (const api of apis) {
        const part = await call(api, `/api/v1/video?video_id=${video_id}`, { cookie, headers: { range: 'bytes=100-1099' } });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${stored.length}`);
        expect(new Uint8Array(await part.arrayBuffer())).toEqual(stored.slice(100, 1100));
      }
    }
  });

  it('counts sign-in attempts of one client across both APIs (behind the trusted proxy)', async () => {
    const [api1, api2] = apis as [RunningServer, RunningServer];
    const client = '203.0.113.77';
    const statuses: number[] = [];
    // A login of its own each time: the per-login lockout (auth/lockout.ts) must not answer first.
    for (let i = 0; i < 10; i++) statuses.push((await signIn(api1, `nobody-${i}`, 'wrong-password', client)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const eleventh = await signIn(api2, 'lead', PASSWORD, client);
    expect(eleventh.status).toBe(429);
    expect(((await eleventh.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    // Writing another address in front of its own does not make the client someone else; another client is not affected.
    expect((await signIn(api2, 'lead', PASSWORD, `10.20.30.40, ${client}`)).status).toBe(429);
    expect((await signIn(api2, 'lead', PASSWORD, '198.51.100.5')).status).toBe(200);
    // The lockout per login and address is one for both APIs too: wrong passwords sent to either add up.
    const guesser = '203.0.113.78';
    const guesses: number[] = [];
    for (let i = 0; i < 5; i++) guesses.push((await signIn(i % 2 ? api2 : api1, 'lead', 'wrong-password', guesser)).status);
    expect(guesses).toEqual([401, 401, 401, 401, 429]);
    expect((await signIn(api1, 'lead', PASSWORD, guesser)).status).toBe(429);
    expect((await signIn(api1, 'lead', PASSWORD, '198.51.100.6')).status).toBe(200);
  });
});
