import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { bootstrap } from '../boot';
import { configFromEnv } from '../config';
import { DISK_FULL_MESSAGE } from '../http/errors';
import { startWorkers } from '../job-registry';
import { createTestApp, testsOnPostgres, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { DATABASE_FILE } from '../db/database';
import { StartupError } from './data-dir';
import { byteLength, fitFileName, MAX_NAME_BYTES } from './file-names';
import { folderObjectStore, type ObjectStore } from './object-store';

/** The error Node's fs gives for a write to a full disk. */
const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

/** The real folder store whose writes fail like a full disk once `roomBytes` are written. */
function fullDiskStore(base: ObjectStore, roomBytes: number): ObjectStore {
  return {
    ...base,
    async create(key) {
      const writer = await base.create(key);
      let written = 0;
      return {
        async write(chunk) {
          written += chunk.byteLength;
          if (written > roomBytes) throw noSpace();
          await writer.write(chunk);
        },
        close: () => writer.close(),
      };
    },
  };
}

describe('a full disk', () => {
  let t: TestApp;
  let w: VideoWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await videoWorld(t);
  });
  afterAll(async () => t.cleanup());

  it('answers an upload with 507 «Недостаточно места на сервере» and keeps nothing of it', async () => {
    const storage = fullDiskStore(t.deps.storage, 10_000);
    const app = createApp({ ...t.deps, storage });
    const response = await app.request(`/api/v1/upload?camera_id=${w.cameraIds[0]}&filename=cam1_2026-11-17_10-00-00.mp4`, {
      method: 'POST',
      body: new Uint8Array(50_000),
      headers: { cookie: w.cookies.assessor, 'content-type': 'video/mp4', 'x-norma-client-ip': '10.1.1.1' },
    });
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({ error: { code: 'insufficient_storage', message: DISK_FULL_MESSAGE } });
    expect(readdirSync(t.deps.storage.pathOf('recordings/site/cam1'))).toEqual([]);
    expect(await t.deps.db.selectFrom('videos').select('id').execute()).toEqual([]);
  });

  // SQLite's max_page_count makes a real full database; PostgreSQL's disk_full (53100) maps to 507 the same way (http/errors.ts).
  it.skipIf(testsOnPostgres())('answers a sign-in whose session row does not fit with 507, not «Неверный логин или пароль»', async () => {
    // A real SQLITE_FULL on the session insert: the database may not grow, and the insert must.
    const { db } = t.deps;
    const pages = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(db)).rows[0]!.page_count;
    await sql.raw('CREATE TABLE test_filler (b BLOB)').execute(db);
    await sql.raw('CREATE TRIGGER test_fill AFTER INSERT ON session BEGIN INSERT INTO test_filler VALUES (zeroblob(4000000)); END').execute(db);
    await sql.raw(`PRAGMA max_page_count = ${pages + 10}`).execute(db);
    try {
      const response = await t.request('/api/v1/login', { method: 'POST', body: JSON.stringify({ login: 'marker', password: 'secret-pass' }) });
      expect(response.status).toBe(507);
      expect((await response.json()).error.message).toBe(DISK_FULL_MESSAGE);
      // A wrong password is still a wrong password.
      const wrong = await t.request('/api/v1/login', { method: 'POST', body: JSON.stringify({ login: 'marker', password: 'wrong-pass' }) });
      expect(wrong.status).toBe(401);
    } finally {
      await sql.raw('DROP TRIGGER test_fill').execute(db);
      await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
    }
  });
});

describe('stored file names', () => {
  it('are cut to 255 bytes of UTF-8 on a character boundary, keeping the extension', () => {
    const cyrillic = `${'Запись'.repeat(40)}.mp4`;
    const fitted = fitFileName(cyrillic);
    expect(byteLength(fitted)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(fitted.endsWith('.mp4')).toBe(true);
    expect(cyrillic.startsWith(fitted.slice(0, -4))).toBe(true);
    expect(fitFileName('short.mp4')).toBe('short.mp4');
    // Four-byte characters are never split.
    const emoji = fitFileName(`${'😀'.repeat(100)}.mp4`, 8);
    expect(byteLength(emoji)).toBeLessThanOrEqual(MAX_NAME_BYTES - 8);
    expect(emoji).toMatch(/^(😀)+\.mp4$/u);
  });

  describe('on upload', () => {
    let t: TestApp;
    let w: VideoWorld;
    beforeAll(async () => {
      t = await createTestApp();
      w = await videoWorld(t);
    });
    afterAll(async () => t.cleanup());

    it('a name of 200 Cyrillic letters (400 bytes) is stored under a shortened name, not a 500', async () => {
      const name = `${'я'.repeat(196)}.mp4`;
      const upload = (body: Uint8Array<ArrayBuffer>) =>
        t.request(`/api/v1/upload?camera_id=${w.cameraIds[0]}&filename=${encodeURIComponent(name)}`, {
          method: 'POST',
          cookie: w.cookies.assessor,
          body,
          headers: { 'content-type': 'video/mp4' },
        });
      const first = await upload(new Uint8Array(1000).fill(1));
      expect(first.status).toBe(200);
      const stored = (await first.json()).filename as string;
      expect(byteLength(stored)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(stored).toMatch(/^я+\.mp4$/);
      // The same name again (other content) gets the `~2` suffix and still fits.
      const second = await upload(new Uint8Array(1000).fill(2));
      expect(second.status).toBe(200);
      const again = (await second.json()).filename as string;
      expect(again).toMatch(/^я+~2\.mp4$/);
      expect(byteLength(again)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(readdirSync(t.deps.storage.pathOf('recordings/site/cam1')).sort()).toEqual([stored, again].sort());
    });
  });
});

describe('failed uploads', () => {
  let t: TestApp;
  let w: VideoWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await videoWorld(t);
  });
  afterAll(async () => t.cleanup());

  it('an upload that is no video loses its file, is listed with its error and can be deleted', async () => {
    const response = await t.request(`/api/v1/upload?camera_id=${w.cameraIds[1]}&filename=fake.mp4`, {
      method: 'POST',
      cookie: w.cookies.assessor,
      body: 'это текст, а не видео\n'.repeat(200),
      headers: { 'content-type': 'video/mp4' },
    });
    expect(response.status).toBe(200);
    const { video_id } = await response.json();
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    expect(existsSync(t.deps.storage.pathOf('recordings/site/cam2/fake.mp4'))).toBe(false);

    const listed = await t.request(`/api/v1/failed_videos?structure_id=${w.structureId}`, { cookie: w.cookies.viewer });
    expect(listed.status).toBe(200);
    const rows = await listed.json();
    expect(rows).toEqual([expect.objectContaining({ id: video_id, filename: 'fake.mp4', camera_key: 2 })]);
    expect(rows[0].error).toMatch(/^Файл не является видеозаписью в поддерживаемом формате.*Файл удалён с сервера$/);
    expect(await (await t.request(`/api/v1/failed_videos?structure_id=${w.structureId}`, { cookie: w.cookies.rival })).status).toBe(404);

    expect((await t.request(`/api/v1/failed_videos/${video_id}`, { method: 'DELETE', cookie: w.cookies.viewer })).status).toBe(403);
    const deleted = await t.request(`/api/v1/failed_videos/${video_id}`, { method: 'DELETE', cookie: w.cookies.assessor });
    expect(deleted.status).toBe(200);
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', video_id).execute()).toEqual([]);
    expect(await (await t.request(`/api/v1/failed_videos?structure_id=${w.structureId}`, { cookie: w.cookies.viewer })).json()).toEqual([]);
  });

  it('refuses to delete a video that did not fail (409) and keeps it', async () => {
    const row = await t.deps.db
      .insertInto('videos')
      .values({
        camera_id: w.cameraIds[0]!,
        filename: 'ok.mp4',
        storage_key: 'recordings/site/cam1/ok.mp4',
        content_hash: null,
        size_bytes: null,
        start_time: 0,
        duration: 10,
        status: 'ready',
        comment: '',
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const response = await t.request(`/api/v1/failed_videos/${row.id}`, { method: 'DELETE', cookie: w.cookies.assessor });
    expect(response.status).toBe(409);
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', row.id).execute()).toHaveLength(1);
  });
});

describe('DATA_DIR at start-up', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'norma-datadir-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const boot = async (env: Record<string, string>) => {
    const started = await bootstrap({ ...configFromEnv(env), pwaDir: undefined });
    await started.close();
  };

  it('removes upload work files left by a stopped server, and nothing else', async () => {
    const dir = fresh();
    await boot({ DATA_DIR: dir });
    const store = folderObjectStore(join(dir, 'objects'));
    mkdirSync(store.pathOf('recordings/cam1'), { recursive: true });
    writeFileSync(store.pathOf('recordings/cam1/.upload-1234.part'), 'половина файла');
    writeFileSync(store.pathOf('recordings/cam1/cam1_2026-11-16_09-00-00.mp4'), 'запись');
    writeFileSync(store.pathOf('recordings/cam1/.recorder-tmp.mp4'), 'чужой рабочий файл');
    await boot({ DATA_DIR: dir });
    expect(readdirSync(store.pathOf('recordings/cam1')).sort()).toEqual(['.recorder-tmp.mp4', 'cam1_2026-11-16_09-00-00.mp4']);
  });

  it('refuses a 0-byte database unless NORMA_FIRST_RUN=1', async () => {
    const dir = fresh();
    writeFileSync(join(dir, DATABASE_FILE), '');
    await expect(boot({ DATA_DIR: dir })).rejects.toThrow(StartupError);
    await expect(boot({ DATA_DIR: dir })).rejects.toThrow(/пуста \(0 байт\).*NORMA_FIRST_RUN=1/);
    await boot({ DATA_DIR: dir, NORMA_FIRST_RUN: '1' });
  });

  it('refuses a folder with objects/ or auth-secret but no database unless NORMA_FIRST_RUN=1', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'objects'));
    writeFileSync(join(dir, 'auth-secret'), 'secret');
    await expect(boot({ DATA_DIR: dir })).rejects.toThrow(/нет базы norma\.sqlite.*objects, auth-secret/);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(false);
    await boot({ DATA_DIR: dir, NORMA_FIRST_RUN: '1' });
  });

  it('refuses a DATA_DIR that was given but does not exist unless NORMA_FIRST_RUN=1; an empty one is a first run', async () => {
    const missing = join(fresh(), 'disk', 'norma');
    await expect(boot({ DATA_DIR: missing })).rejects.toThrow(/не найдена.*NORMA_FIRST_RUN=1/);
    expect(existsSync(missing)).toBe(false);
    await boot({ DATA_DIR: missing, NORMA_FIRST_RUN: '1' });
    expect(existsSync(join(missing, DATABASE_FILE))).toBe(true);
    await boot({ DATA_DIR: fresh() });
  });

  it('refuses a corrupt database file and a DATA_DIR that is a file', async () => {
    const dir = fresh();
    writeFileSync(join(dir, DATABASE_FILE), crypto.getRandomValues(new Uint8Array(8192)));
    await expect(boot({ DATA_DIR: dir })).rejects.toThrow(/повреждена/);
    const file = join(fresh(), 'data');
    writeFileSync(file, 'не папка');
    await expect(boot({ DATA_DIR: file })).rejects.toThrow(/это файл, а не папка/);
  });
});
