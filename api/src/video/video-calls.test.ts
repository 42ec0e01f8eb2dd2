import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

let t: TestApp;
let w: VideoWorld;
let loaderDir: string;
const at = (time: string) => Date.parse(`2026-11-16T${time}Z`);
const ids: Record<string, number> = {};

beforeAll(async () => {
  loaderDir = mkdtempSync(join(tmpdir(), 'norma-loader-dist-'));
  t = await createTestApp({ loaderDir });
  w = await videoWorld(t);
  const [cam1, cam2, cam3, cam4] = w.cameraIds as [number, number, number, number];
  ids.a = await insertVideo(t.deps.db, cam1, { filename: 'cam1_2026-11-16_09-00-00.mp4', start: at('06:00:00'), duration: 150, comment: 'первая' });
  ids.laterOnCam1 = await insertVideo(t.deps.db, cam1, { filename: 'cam1_2026-11-16_09-10-00.mp4', start: at('06:10:00'), duration: 150 });
  ids.b = await insertVideo(t.deps.db, cam2, { filename: 'cam2_2026-11-16_09-00-03.mp4', start: at('06:00:03'), duration: 150 });
  ids.queuedOnCam2 = await insertVideo(t.deps.db, cam2, { filename: 'cam2-queued.mp4', start: at('06:00:00'), duration: 150, status: 'queued' });
  ids.c = await insertVideo(t.deps.db, cam3, { filename: 'cam3_2026-11-16_09-02-00.mp4', start: at('06:02:00'), duration: 150 });
  ids.d = await insertVideo(t.deps.db, cam4, { filename: 'cam4_2026-11-16_08-59-00.mp4', start: at('05:59:00'), duration: 60 });
  const elsewhere = (
    await t.deps.db
      .insertInto('cameras')
      .values({ structure_id: w.otherStructureId, camera_key: 2, name: 'Соседняя', storage_folder: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  ids.elsewhere = await insertVideo(t.deps.db, elsewhere, { filename: 'other-structure.mp4', start: at('06:00:00'), duration: 150 });
  ids.foreign = await insertVideo(t.deps.db, w.foreignCameraId, { filename: 'foreign.mp4', start: at('06:00:00'), duration: 150 });
  const now = Date.now();
  await t.deps.db
    .insertInto('markups')
    .values({
      structure_id: w.structureId,
      operation_id: w.operationIds.main,
      workplace_id: w.workplaceIds[1]!,
      employee_id: null,
      start_time: at('06:00:05'),
      end_time: at('06:00:20'),
      comment: null,
      video_id: ids.b,
      author_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await t.deps.db
    .insertInto('activities')
    .values([
      { video_id: ids.a, author_id: w.assessor.id, happened_at: at('07:00:00'), comment: 'Разметка сохранена' },
      { video_id: ids.a, author_id: null, happened_at: at('06:30:00'), comment: 'Запись найдена при синхронизации' },
      ...[1, 2, 3, 4, 5].map((n) => ({ video_id: ids.a!, author_id: w.admin.id, happened_at: at(`08:0${n}:00`), comment: `Действие ${n}` })),
      { video_id: ids.b, author_id: w.admin.id, happened_at: at('09:00:00'), comment: 'Чужое для видео A' },
    ])
    .execute();
});
afterAll(async () => {
  await t.cleanup();
  rmSync(loaderDir, { recursive: true, force: true });
});

const get = (path: string, cookie = w.cookies.viewer) => t.request(path, { cookie });
const post = (path: string, body: unknown, cookie = w.cookies.assessor) =>
  t.request(path, { method: 'POST', cookie, body: typeof body === 'string' ? body : JSON.stringify(body) });
const durationOf = async (id: number) => (await t.deps.db.selectFrom('videos').select('duration').where('id', '=', id).executeTakeFirstOrThrow()).duration;

describe('video meta', () => {
  it('GET gives the fields of the contract', async () => {
    const response = await get(`/api/v1/video_meta/${ids.a}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: ids.a,
      filename: 'cam1_2026-11-16_09-00-00.mp4',
      comment: 'первая',
      camera_id: w.cameraIds[0],
      camera_key: 1,
      structure_id: w.structureId,
      start_time: '2026-11-16T06:00:00.000Z',
      duration: 150,
      status: 'ready',
    });
    expect((await get(`/api/v1/video_meta/${ids.foreign}`)).status).toBe(404);
    expect((await get('/api/v1/video_meta/abc')).status).toBe(400);
    expect((await get(`/api/v1/video_meta/${ids.a}`, '')).status).toBe(401);
  });

  it('POST changes the comment, notes it in the activity and answers with the meta', async () => {
    const response = await post(`/api/v1/video_meta/${ids.c}`, { comment: 'Смена Б, камера загрязнена' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: ids.c, comment: 'Смена Б, камера загрязнена', camera_key: 3 });
    const activity = await (await get(`/api/v1/activities?video_id=${ids.c}`)).json();
    expect(activity[0]).toMatchObject({ author_name: 'Мария Разметчица', comment: 'Изменён комментарий к видео' });
  });

  it('POST refuses bad bodies, viewers and other organisations, changing nothing', async () => {
    for (const body of [{}, { comment: 5 }, { comment: 'x'.repeat(2001) }, 'не json']) {
      expect((await post(`/api/v1/video_meta/${ids.d}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await post(`/api/v1/video_meta/${ids.d}`, { comment: 'нет' }, w.cookies.viewer)).status).toBe(403);
    expect((await post(`/api/v1/video_meta/${ids.foreign}`, { comment: 'нет' })).status).toBe(404);
    const row = await t.deps.db.selectFrom('videos').select('comment').where('id', 'in', [ids.d!, ids.foreign!]).execute();
    expect(row.map((r) => r.comment)).toEqual(['', '']);
  });
});

describe('POST /api/v1/set_duration', () => {
  it('takes video_id and duration from the JSON body or the query', async () => {
    // A video not probed yet (still queued): the browser's reading is what the server holds.
    const fromBody = await post('/api/v1/set_duration', { video_id: ids.queuedOnCam2, duration: 200 });
    expect(fromBody.status).toBe(200);
    expect(await fromBody.json()).toEqual({ video_id: ids.queuedOnCam2, duration: 200 });
    expect(await durationOf(ids.queuedOnCam2!)).toBe(200);
    const fromQuery = await t.request(`/api/v1/set_duration?video_id=${ids.queuedOnCam2}&duration=150`, { method: 'POST', cookie: w.cookies.assessor });
    expect(await fromQuery.json()).toEqual({ video_id: ids.queuedOnCam2, duration: 150 });
    expect(await durationOf(ids.queuedOnCam2!)).toBe(150);
  });

  it('is a write: a viewer gets 403 and the duration stays', async () => {
    const response = await post('/api/v1/set_duration', { video_id: ids.queuedOnCam2, duration: 90 }, w.cookies.viewer);
    expect(response.status).toBe(403);
    expect(await durationOf(ids.queuedOnCam2!)).toBe(150);
  });

  it('keeps a precise probed duration that the whole seconds only round', async () => {
    await t.deps.db.updateTable('videos').set({ duration: 150.48 }).where('id', '=', ids.laterOnCam1!).execute();
    const response = await post('/api/v1/set_duration', { video_id: ids.laterOnCam1, duration: 150 });
    expect(await response.json()).toEqual({ video_id: ids.laterOnCam1, duration: 150.48 });
  });

  it('refuses a non-positive or fractional duration and unknown or foreign videos, changing nothing', async () => {
    for (const duration of [0, -5, 12.5, 'abc', null, '', 1e308, 86_401, '1e3', '0x10']) {
      const response = await post('/api/v1/set_duration', { video_id: ids.a, duration });
      expect(response.status, String(duration)).toBe(400);
      expect((await response.json()).error.message, String(duration)).toContain('duration');
    }
    expect((await post('/api/v1/set_duration', { video_id: ids.a })).status).toBe(400);
    expect((await post('/api/v1/set_duration', { duration: 10 })).status).toBe(400);
    expect((await post('/api/v1/set_duration', { video_id: ids.foreign, duration: 10 })).status).toBe(404);
    expect((await post('/api/v1/set_duration', { video_id: 987654, duration: 10 })).status).toBe(404);
    expect(await durationOf(ids.a!)).toBe(150);
    expect(await durationOf(ids.foreign!)).toBe(150);
  });
});

describe('GET /api/v1/other_videos', () => {
  it('lists the other cameras’ videos covering the same instant, with that instant’s second in each', async () => {
    const response = await get(`/api/v1/other_videos?video_id=${ids.a}&current_second=10`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { video_id: ids.b, video_filename: 'cam2_2026-11-16_09-00-03.mp4', workplace_names: ['Стол № 2'], current_second: 7, camera_key: 2 },
    ]);
    const later = await (await get(`/api/v1/other_videos?video_id=${ids.a}&current_second=140.5`)).json();
    expect(later).toEqual([
      expect.objectContaining({ video_id: ids.b, current_second: 137.5 }),
      {
        video_id: ids.c,
        video_filename: 'cam3_2026-11-16_09-02-00.mp4',
        workplace_names: ['Стол № 1', 'Стол № 2', 'Стол № 3'],
        current_second: 20.5,
        camera_key: 3,
      },
    ]);
    // At A's first second: B has not begun, the fourth camera's clip has just ended (end exclusive),
    // and the second camera's queued video is not playable yet.
    expect(await (await get(`/api/v1/other_videos?video_id=${ids.a}&current_second=0`)).json()).toEqual([]);
  });

  it('refuses bad parameters and other organisations', async () => {
    expect((await get(`/api/v1/other_videos?video_id=${ids.a}`)).status).toBe(400);
    expect((await get(`/api/v1/other_videos?video_id=${ids.a}&current_second=-1`)).status).toBe(400);
    expect((await get(`/api/v1/other_videos?video_id=${ids.a}&current_second=abc`)).status).toBe(400);
    expect((await get(`/api/v1/other_videos?video_id=${ids.foreign}&current_second=1`)).status).toBe(404);
  });
});

describe('GET /api/v1/activities', () => {
  it('gives the newest first, five by default, with offset and limit', async () => {
    const five = await (await get(`/api/v1/activities?video_id=${ids.a}`)).json();
    expect(five.map((a: { comment: string }) => a.comment)).toEqual(['Действие 5', 'Действие 4', 'Действие 3', 'Действие 2', 'Действие 1']);
    expect(five[0]).toEqual({ happened_at: '2026-11-16T08:05:00.000Z', author_name: 'Анна Ведущая', comment: 'Действие 5' });
    const rest = await (await get(`/api/v1/activities?video_id=${ids.a}&offset=5&limit=5`)).json();
    expect(rest).toEqual([
      { happened_at: '2026-11-16T07:00:00.000Z', author_name: 'Мария Разметчица', comment: 'Разметка сохранена' },
      { happened_at: '2026-11-16T06:30:00.000Z', author_name: 'Система', comment: 'Запись найдена при синхронизации' },
    ]);
  });

  it('refuses bad paging and other organisations', async () => {
    for (const query of ['offset=-1', 'limit=0', 'limit=101', 'limit=x']) {
      expect((await get(`/api/v1/activities?video_id=${ids.a}&${query}`)).status, query).toBe(400);
    }
    expect((await get('/api/v1/activities')).status).toBe(400);
    expect((await get(`/api/v1/activities?video_id=${ids.foreign}`)).status).toBe(404);
  });
});

describe('cameras and their videos', () => {
  it('GET /api/v1/cameras lists the structure’s cameras by key', async () => {
    const response = await get(`/api/v1/cameras?structure_id=${w.structureId}`);
    expect(await response.json()).toEqual([1, 2, 3, 4].map((key) => ({ id: w.cameraIds[key - 1], camera_key: key, name: `Камера ${key}` })));
    expect((await get(`/api/v1/cameras?structure_id=${w.foreignStructureId}`)).status).toBe(404);
    expect((await get('/api/v1/cameras')).status).toBe(400);
  });

  it('GET /api/v1/videos lists a camera’s videos by start time, any status', async () => {
    const response = await get(`/api/v1/videos?camera_id=${w.cameraIds[1]}`);
    expect(await response.json()).toEqual([
      { id: ids.queuedOnCam2, filename: 'cam2-queued.mp4', start_time: '2026-11-16T06:00:00.000Z', duration: 150, status: 'queued' },
      { id: ids.b, filename: 'cam2_2026-11-16_09-00-03.mp4', start_time: '2026-11-16T06:00:03.000Z', duration: 150, status: 'ready' },
    ]);
    expect((await get(`/api/v1/videos?camera_id=${w.foreignCameraId}`)).status).toBe(404);
    expect((await get('/api/v1/videos?camera_id=0')).status).toBe(400);
  });

  it('GET /api/v1/videos_at gives each camera’s video and second at an instant, or nothing', async () => {
    const response = await get(`/api/v1/videos_at?structure_id=${w.structureId}&at=2026-11-16T09:02:10%2B03:00`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        camera_id: w.cameraIds[0],
        camera_key: 1,
        camera_name: 'Камера 1',
        video_id: ids.a,
        filename: 'cam1_2026-11-16_09-00-00.mp4',
        second: 130,
        start_time: '2026-11-16T06:00:00.000Z',
      },
      {
        camera_id: w.cameraIds[1],
        camera_key: 2,
        camera_name: 'Камера 2',
        video_id: ids.b,
        filename: 'cam2_2026-11-16_09-00-03.mp4',
        second: 127,
        start_time: '2026-11-16T06:00:03.000Z',
      },
      {
        camera_id: w.cameraIds[2],
        camera_key: 3,
        camera_name: 'Камера 3',
        video_id: ids.c,
        filename: 'cam3_2026-11-16_09-02-00.mp4',
        second: 10,
        start_time: '2026-11-16T06:02:00.000Z',
      },
      { camera_id: w.cameraIds[3], camera_key: 4, camera_name: 'Камера 4', video_id: null, filename: null, second: null, start_time: null },
    ]);
    expect((await get(`/api/v1/videos_at?structure_id=${w.structureId}`)).status).toBe(400);
    expect((await get(`/api/v1/videos_at?structure_id=${w.structureId}&at=2026-11-16T09:00:00`)).status).toBe(400);
    expect((await get(`/api/v1/videos_at?structure_id=${w.foreignStructureId}&at=2026-11-16T06:00:00Z`)).status).toBe(404);
  });
});

describe('loader packages', () => {
  it('lists every platform and marks what the server has; downloads only those', async () => {
    mkdirSync(join(t.config.dataDir, 'loader'), { recursive: true });
    writeFileSync(join(t.config.dataDir, 'loader', 'norma-loader_1.0.0_amd64.deb'), 'deb-bytes');
    writeFileSync(join(loaderDir, 'norma-loader-1.0.0-x64.msi'), 'msi-bytes!');
    const response = await get('/api/v1/loader');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      version: '1.0.0',
      packages: [
        {
          platform: 'windows',
          format: 'msi',
          file: 'norma-loader-1.0.0-x64.msi',
          available: true,
          url: '/api/v1/loader/norma-loader-1.0.0-x64.msi',
          size_bytes: 10,
        },
        { platform: 'macos', format: 'dmg', file: 'norma-loader-1.0.0-arm64.dmg', available: false, url: null, size_bytes: null },
        {
          platform: 'linux',
          format: 'deb',
          file: 'norma-loader_1.0.0_amd64.deb',
          available: true,
          url: '/api/v1/loader/norma-loader_1.0.0_amd64.deb',
          size_bytes: 9,
        },
      ],
    });
    const deb = await get('/api/v1/loader/norma-loader_1.0.0_amd64.deb');
    expect(deb.status).toBe(200);
    expect(deb.headers.get('content-disposition')).toBe('attachment; filename="norma-loader_1.0.0_amd64.deb"');
    expect(await deb.text()).toBe('deb-bytes');
    expect((await get('/api/v1/loader/norma-loader-1.0.0-arm64.dmg')).status).toBe(404);
    expect((await get('/api/v1/loader/..%2F..%2Fnorma.sqlite')).status).toBe(404);
    expect((await get('/api/v1/loader', '')).status).toBe(401);
  });
});
