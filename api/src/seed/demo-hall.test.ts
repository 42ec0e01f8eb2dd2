import { probe } from '@norma/workers/media';
import { homographyFromPoints, toPlan } from '@norma/workers/tracking';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VTEST_AVI, VTEST_MISSING } from '../../../tests/support/vtest';
import { untilState } from '../../../tests/support/wait';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { startWorkers } from '../job-registry';
import type { JobRunner } from '../jobs/runner';
import { DEMO_PASSWORD } from './demo-plan';
import { defaultVideoCacheDir, seedDemoIfEmpty } from './demo';
import { DEMO_HALL, HALL_STANDS, SIGN_POST } from './demo-hall';

/**
 * The demo's exhibition hall on vtest.avi (docs/demo-data.md «Выставочный зал»): with the clip the
 * hall, its camera, the converted recording, the calibration, the zones (stands', an ordinary one, a
 * safe one) and a queued tracking exist, read through the API; seeding again adds nothing; the queued
 * job runs on the converted recording (its first frames, then it is cancelled — the whole clip is
 * the background work of `npm start`, not of a test). Without the clip the rest is seeded and the
 * log says in Russian how to add it. The demo's clips are not rendered here (renderVideos: false):
 * demo.test.ts covers them.
 */

interface Zone {
  id: number;
  name: string;
  role: 'zone' | 'stand' | 'safe';
  stand_id: number | null;
  shape: { type: 'circle'; center: [number, number]; radius: number } | { type: 'polygon'; points: [number, number][] };
}

const tableCounts = async (t: TestApp) => {
  const count = async (table: 'structures' | 'cameras' | 'videos' | 'stands' | 'absolute_locations' | 'event_zones' | 'event_calibrations' | 'jobs') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    structures: await count('structures'),
    cameras: await count('cameras'),
    videos: await count('videos'),
    stands: await count('stands'),
    locations: await count('absolute_locations'),
    zones: await count('event_zones'),
    calibrations: await count('event_calibrations'),
    jobs: await count('jobs'),
  };
};

describe.skipIf(VTEST_MISSING)('the demo hall on vtest.avi', () => {
  let t: TestApp;
  let runner: JobRunner | null = null;
  let cookie: string;
  let hallId: number;
  let cameraId: number;
  let videoId: number;
  const lines: string[] = [];
  const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await t.request(path, { method: init.method ?? 'GET', cookie, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const seeded = await seedDemoIfEmpty(t.deps, {
      renderVideos: false,
      hall: true,
      vtestPath: VTEST_AVI,
      videoCacheDir: defaultVideoCacheDir(),
      log: (l) => lines.push(l),
    });
    expect(seeded).toBe(true);
    cookie = await t.signIn('analyst', DEMO_PASSWORD);
    const structures = (await (await t.request('/api/v2/get_all_structures', { cookie })).json()) as { id: number; name: string }[];
    hallId = structures.find((s) => s.name === DEMO_HALL.structure)!.id;
    cameraId = (await t.deps.db.selectFrom('cameras').select('id').where('structure_id', '=', hallId).executeTakeFirstOrThrow()).id;
    videoId = (await t.deps.db.selectFrom('videos').select('id').where('camera_id', '=', cameraId).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await runner?.stop();
    await t?.cleanup();
  });

  it('has the hall under the plant with its camera and the clip as a ready H.264 recording starting on the first day at 10:00', async () => {
    const hall = await t.deps.db.selectFrom('structures').select(['parent_id']).where('id', '=', hallId).executeTakeFirstOrThrow();
    const root = await t.deps.db.selectFrom('structures').select('name').where('id', '=', hall.parent_id!).executeTakeFirstOrThrow();
    expect(root.name).toBe('Северный машиностроительный завод');
    const cameras = await t.deps.db.selectFrom('cameras').select(['name', 'camera_key']).where('structure_id', '=', hallId).execute();
    expect(cameras).toEqual([{ name: 'Камера над входом', camera_key: 1 }]);
    const video = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(video).toMatchObject({ status: 'ready', start_time: Date.parse('2026-11-16T07:00:00Z'), filename: 'cam1_2026-11-16_10-00-00.mp4' });
    expect(Math.abs(video.duration! - 79.5)).toBeLessThan(0.5);
    const info = await probe(t.deps.storage.pathOf(video.storage_key));
    expect(info).toMatchObject({ videoCodec: 'h264', width: 768, height: 576 });
    expect(lines.some((l) => l.includes('трекинг поставлен в очередь'))).toBe(true);
  });

  it('has a calibration that puts the sign post where its safe zone is, and the stands, the entrance and the safe zone', async () => {
    const { body } = await call(`/api/v1/event/calibration?camera_id=${cameraId}`);
    const calibration = body.calibration as { frame_width: number; image_points: [number, number][]; plan_points: [number, number][] };
    expect(calibration.frame_width).toBe(768);
    const post = toPlan(homographyFromPoints(calibration.image_points, calibration.plan_points), [433, 391])!;
    expect(Math.hypot(post[0] - SIGN_POST[0], post[1] - SIGN_POST[1])).toBeLessThan(0.05);

    const zones = (await call(`/api/v1/event/zones?structure_id=${hallId}`)).body.zones as Zone[];
    expect(zones.map((z) => [z.name, z.role]).sort()).toEqual(
      [
        ['Безопасная зона: столб знака', 'safe'],
        ['Вход', 'zone'],
        ['Стенд «Редукторы»', 'stand'],
        ['Стенд «Упаковка»', 'stand'],
      ].sort(),
    );
    const safe = zones.find((z) => z.role === 'safe')!;
    expect(safe.shape).toEqual({ type: 'circle', center: SIGN_POST, radius: 1.5 });
    const locations = (await call(`/api/v1/absolute_locations?structure_id=${hallId}`)).body.absolute_locations as { stand_id: number; x: number; y: number }[];
    for (const stand of HALL_STANDS) {
      const zone = zones.find((z) => z.name === stand.name)!;
      const at = locations.find((l) => l.stand_id === zone.stand_id)!;
      // The API's default zone of a stand: a 1.5 m circle around its absolute location in the hall.
      expect([at.x, at.y]).toEqual(stand.at);
      expect(zone.shape).toEqual({ type: 'circle', center: stand.at, radius: 1.5 });
    }
    const kinds = await t.deps.db.selectFrom('stands').select(['name', 'kind']).orderBy('id').execute();
    expect(kinds).toEqual([
      { name: 'Стенд «Редукторы»', kind: 'stand' },
      { name: 'Стенд «Упаковка»', kind: 'stand' },
      { name: 'Базис: столб знака', kind: 'basis' },
    ]);
  });

  it('queues a tracking of the recording, and a second seed adds nothing', async () => {
    const state = (await call(`/api/v1/event/tracking?video_id=${videoId}`)).body as { run: { status: string; settings: { fps_sampled: number } } };
    expect(state.run).toMatchObject({ status: 'queued', settings: { fps_sampled: 5 } });
    const before = await tableCounts(t);
    expect(await seedDemoIfEmpty(t.deps, { renderVideos: false, hall: true, vtestPath: VTEST_AVI })).toBe(false);
    expect(await tableCounts(t)).toEqual(before);
  });

  it('runs the queued job on the converted recording: its first frames, then it is cancelled and writes nothing', async () => {
    const progress = async () => ((await call(`/api/v1/event/tracking?video_id=${videoId}`)).body.run as { status: string; progress: number }) ?? null;
    runner = startWorkers(t.deps, { pollMs: 20 });
    await expect.poll(async () => (await progress()).progress > 0, untilState(500)).toBe(true);
    expect((await progress()).status).toBe('running');
    expect((await call('/api/v1/event/tracking/cancel', { method: 'POST', body: { video_id: videoId } })).status).toBe(200);
    expect((await progress()).status).toBe('cancelled');
    await runner.stop();
    runner = null;
    expect(await t.deps.db.selectFrom('event_tracks').select('id').execute()).toEqual([]);
  });
});

describe('the demo without vtest.avi', () => {
  let t: TestApp;
  afterAll(async () => t?.cleanup());

  it('seeds everything else and says in one Russian line how to add the clip', async () => {
    t = await createTestApp();
    const lines: string[] = [];
    const missing = '/nonexistent/opencv-doc/vtest.avi';
    expect(await seedDemoIfEmpty(t.deps, { renderVideos: false, hall: true, vtestPath: missing, log: (l) => lines.push(l) })).toBe(true);
    const said = lines.filter((l) => l.includes('opencv-doc'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(missing);
    expect(said[0]).toContain('apt-get install opencv-doc');
    const names = (await t.deps.db.selectFrom('structures').select('name').execute()).map((s) => s.name);
    expect(names).not.toContain(DEMO_HALL.structure);
    expect(names).toContain('Участок сборки редукторов');
    expect(await t.deps.db.selectFrom('markups').select('id').limit(1).execute()).toHaveLength(1);
    const counts = await tableCounts(t);
    expect(counts).toMatchObject({ stands: 0, zones: 0, calibrations: 0 });
    expect(await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'event_tracking').execute()).toEqual([]);
  });
});
