import { copyFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NormaClient } from './client';
import { loadState } from './state';
import { uploadPass, type UploaderContext } from './uploader';

/** A stand-in Norma server: sessions, a content check and uploads, with faults on demand. */
function fakeServer() {
  const sessions = new Set<string>();
  const stored = new Map<string, { id: number; name: string }>();
  const received: string[] = [];
  const faults = { status503: 0, refuse413: new Set<string>() };
  let sessionCounter = 0;
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === '/api/v1/login') {
        const body = (await request.json()) as { login: string; password: string };
        if (body.password !== 'верный-пароль')
          return Response.json({ error: { code: 'invalid_credentials', message: 'Неверный логин или пароль' } }, { status: 401 });
        const session = `s${++sessionCounter}`;
        sessions.add(session);
        return new Response('{}', { headers: { 'set-cookie': `norma.session=${session}; Path=/; HttpOnly` } });
      }
      const cookie = /norma\.session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1];
      if (!cookie || !sessions.has(cookie)) return Response.json({ error: { code: 'unauthorized', message: 'Требуется вход в систему' } }, { status: 401 });
      if (url.pathname === '/api/v1/upload_check') {
        const found = stored.get(url.searchParams.get('content_hash')!);
        return Response.json({ exists: Boolean(found), video_id: found?.id ?? null, status: found ? 'ready' : null });
      }
      if (url.pathname === '/api/v1/upload') {
        const name = url.searchParams.get('filename')!;
        const bytes = new Uint8Array(await request.arrayBuffer());
        if (faults.status503 > 0) {
          faults.status503--;
          return Response.json({ error: { code: 'unavailable', message: 'Сервер перезапускается' } }, { status: 503 });
        }
        if (faults.refuse413.has(name))
          return Response.json({ error: { code: 'payload_too_large', message: 'Файл больше допустимого размера (4 ГиБ)' } }, { status: 413 });
        const hash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
        const existing = stored.get(hash);
        if (existing)
          return Response.json(
            { error: { code: 'conflict', message: 'Эта запись уже загружена для этой камеры', details: { video_id: existing.id } } },
            { status: 409 },
          );
        const id = stored.size + 1;
        stored.set(hash, { id, name });
        received.push(name);
        return Response.json({ video_id: id, job_id: 100 + id, filename: name });
      }
      return new Response('нет', { status: 404 });
    },
  });
  return { url: `http://localhost:${server.port}`, sessions, stored, received, faults, stop: () => server.stop(true) };
}

let server: ReturnType<typeof fakeServer>;
let dir: string;
let networkDown = 0;
const calls: string[] = [];

/** fetch that loses the network for the next `networkDown` calls. */
const flakyFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  calls.push(new URL(String(input)).pathname);
  if (networkDown > 0) {
    networkDown--;
    throw new TypeError('fetch failed: ECONNRESET');
  }
  return fetch(input, init);
}) as typeof fetch;

const put = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  const old = new Date(Date.now() - 60_000);
  utimesSync(path, old, old);
  return path;
};

async function context(overrides: Partial<UploaderContext> = {}): Promise<UploaderContext> {
  const statePath = join(dir, '.norma-loader-state.json');
  const lines: string[] = [];
  return {
    folder: dir,
    cameraId: 3,
    statePath,
    state: await loadState(statePath),
    settleMs: 5_000,
    client: new NormaClient({ server: server.url, login: 'оператор', password: 'верный-пароль', fetch: flakyFetch }),
    retry: { attempts: 10, baseDelayMs: 1, maxDelayMs: 5 },
    log: (line) => lines.push(line),
    ...overrides,
  };
}

beforeAll(() => {
  server = fakeServer();
});
afterAll(() => server.stop());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'norma-loader-up-'));
  server.stored.clear();
  server.received.length = 0;
  calls.length = 0;
  networkDown = 0;
  return () => rmSync(dir, { recursive: true, force: true });
});

describe('uploadPass', () => {
  it('sends each new recording once, through network loss, a restarting server and an expired session', async () => {
    put('cam1_2026-11-16_09-00-00.mp4', 'первая запись');
    put('cam1_2026-11-16_09-02-30.mp4', 'вторая запись');
    const ctx = await context();
    networkDown = 3;
    server.faults.status503 = 2;
    const first = await uploadPass(ctx);
    expect(first.uploaded.sort()).toEqual(['cam1_2026-11-16_09-00-00.mp4', 'cam1_2026-11-16_09-02-30.mp4']);
    expect(server.received.sort()).toEqual(first.uploaded);
    expect(calls.filter((c) => c === '/api/v1/upload').length).toBeGreaterThanOrEqual(4);

    // The session expires on the server: the loader signs in again by itself.
    server.sessions.clear();
    put('cam1_2026-11-16_09-05-00.mp4', 'третья запись');
    const second = await uploadPass(ctx);
    expect(second.uploaded).toEqual(['cam1_2026-11-16_09-05-00.mp4']);
    expect(server.received).toHaveLength(3);

    // A restart (state read from disk), a renamed copy: nothing is sent again.
    copyFileSync(join(dir, 'cam1_2026-11-16_09-00-00.mp4'), join(dir, 'copy.mp4'));
    utimesSync(join(dir, 'copy.mp4'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const restarted = await context();
    const third = await uploadPass(restarted);
    expect(third).toEqual({ uploaded: [], alreadyOnServer: [], refused: [] });
    expect(server.received).toHaveLength(3);
    expect(Object.values(restarted.state.uploaded).map((u) => u.how)).toEqual(['uploaded', 'uploaded', 'uploaded']);
  });

  it('asks the server first when the state is lost, and records what it already has', async () => {
    put('cam1_2026-11-16_09-00-00.mp4', 'первая запись');
    await uploadPass(await context());
    rmSync(join(dir, '.norma-loader-state.json'));
    calls.length = 0;
    const fresh = await context();
    const result = await uploadPass(fresh);
    expect(result.alreadyOnServer).toEqual(['cam1_2026-11-16_09-00-00.mp4']);
    expect(calls).not.toContain('/api/v1/upload');
    expect(server.received).toHaveLength(1);
    expect(Object.values(fresh.state.uploaded)[0]).toMatchObject({ how: 'on_server', videoId: 1 });
  });

  it('does not retry a file the server refuses until the file changes', async () => {
    const path = put('huge.mp4', 'слишком большой');
    server.faults.refuse413.add('huge.mp4');
    const ctx = await context();
    const first = await uploadPass(ctx);
    expect(first.refused).toEqual(['huge.mp4']);
    expect(ctx.state.refused[path]?.reason).toContain('больше допустимого размера');
    calls.length = 0;
    expect((await uploadPass(ctx)).refused).toEqual([]);
    expect(calls).toEqual([]);
    server.faults.refuse413.clear();
    put('huge.mp4', 'теперь поменьше');
    expect((await uploadPass(ctx)).uploaded).toEqual(['huge.mp4']);
  });

  it('skips files still being written and stops on a wrong password', async () => {
    writeFileSync(join(dir, 'cam1_now.mp4'), 'пишется');
    // A window no stall of a busy machine outlasts between the write and the scan (5 s once did); put()'s files are 60 s old.
    const ctx = await context({ settleMs: 30_000 });
    expect(await uploadPass(ctx)).toEqual({ uploaded: [], alreadyOnServer: [], refused: [] });
    put('cam1_old.mp4', 'готова');
    const wrong = await context({ client: new NormaClient({ server: server.url, login: 'оператор', password: 'не тот', fetch: flakyFetch }) });
    await expect(uploadPass(wrong)).rejects.toThrow('Неверный логин или пароль');
  });
});
