import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { defaultVideoCacheDir, seedDemoIfEmpty } from '../seed/demo';
import { DEMO_PASSWORD, demoInstant } from '../seed/demo-plan';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertMarkupRows } from '../../test-support/video-fixtures';
import { INTERACTIVE_FRV, shapeProblems } from './spec-entities';

const at = (local: string) => Date.parse(`${local}+03:00`);
const iso = (local: string) => new Date(at(local)).toISOString();

interface Item {
  operation_name: string;
  time_slot: { fromm: string; to: string };
  duration: number;
  video_segments: { video_id: number; video_segment: { start: number; end: number }; camera_key: number }[];
}

describe('GET /api/v2/frv on hand-placed files of two cameras', () => {
  let t: TestApp;
  let cookie: string;
  let structureId: number;
  const video = {} as Record<'cam1a' | 'cam1b' | 'cam2' | 'processing' | 'otherStructure', number>;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Л', lastName: 'Л' });
    const { db } = t.deps;
    const structure = async (name: string) =>
      (
        await db
          .insertInto('structures')
          .values({ organization_id: user.organizationId, name, parent_id: null, created_at: 0 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    structureId = await structure('Участок');
    const otherId = await structure('Соседний участок');
    const camera = async (structure_id: number, camera_key: number) =>
      (
        await db
          .insertInto('cameras')
          .values({ structure_id, camera_key, name: `Камера ${camera_key}`, storage_folder: `c${structure_id}-${camera_key}` })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const cam1 = await camera(structureId, 1);
    const cam2 = await camera(structureId, 2);
    const foreignCam = await camera(otherId, 1);
    const addVideo = async (camera_id: number, filename: string, start: string, duration: number, status: 'ready' | 'processing' = 'ready') =>
      (
        await db
          .insertInto('videos')
          .values({ camera_id, filename, storage_key: `${camera_id}/${filename}`, start_time: at(start), duration, status, created_at: 0 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    video.cam1a = await addVideo(cam1, 'cam1_10-00-00.mp4', '2026-03-02T10:00:00', 60);
    video.cam1b = await addVideo(cam1, 'cam1_10-01-00.mp4', '2026-03-02T10:01:00', 60);
    video.cam2 = await addVideo(cam2, 'cam2_10-00-30.mp4', '2026-03-02T10:00:30', 60);
    video.processing = await addVideo(cam2, 'cam2_10-01-30.mp4', '2026-03-02T10:01:30', 60, 'processing');
    video.otherStructure = await addVideo(foreignCam, 'other.mp4', '2026-03-02T10:00:00', 600);

    const operation = (
      await db.insertInto('operations').values({ structure_id: structureId, name: 'Сборка', type: 'main' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const workplace = (await db.insertInto('workplaces').values({ structure_id: structureId, name: 'Стол' }).returning('id').executeTakeFirstOrThrow()).id;
    await insertMarkupRows(db, { structure_id: structureId, operation_id: operation, workplace_id: workplace, employee_id: null }, [
      [at('2026-03-02T10:00:40'), at('2026-03-02T10:01:20')], // across cam1's two files and inside cam2's
      [at('2026-03-02T10:05:00'), at('2026-03-02T10:06:00')], // no file covers it
    ]);
    cookie = await t.signIn('lead', 'secret-pass');
  });
  afterAll(async () => t.cleanup());

  const frv = async (from: string, to: string) => {
    const response = await t.request(`/api/v2/frv?structure_id=${structureId}&from_time=${iso(from)}&to_time=${iso(to)}`, { cookie });
    expect(response.status).toBe(200);
    return (await response.json()) as { items: Item[] };
  };

  it('maps a markup onto every file of every camera covering it, clipped to each file', async () => {
    const body = await frv('2026-03-02T09:00:00', '2026-03-02T11:00:00');
    expect(shapeProblems(body, INTERACTIVE_FRV)).toEqual([]);
    expect(body.items).toHaveLength(2);
    const [first, second] = body.items;
    expect(first!.duration).toBe(40);
    expect(first!.video_segments.map((s) => [s.video_id, s.video_segment.start, s.video_segment.end])).toEqual([
      [video.cam1a, 40, 60],
      [video.cam1b, 0, 20],
      [video.cam2, 10, 50],
    ]);
    expect(second!.video_segments).toEqual([]);
  });

  it('clips the markup to the requested window first', async () => {
    const body = await frv('2026-03-02T10:00:50', '2026-03-02T10:01:10');
    expect(body.items[0]!.time_slot).toEqual({ fromm: iso('2026-03-02T10:00:50'), to: iso('2026-03-02T10:01:10') });
    expect(body.items[0]!.duration).toBe(20);
    expect(body.items[0]!.video_segments.map((s) => [s.video_id, s.video_segment.start, s.video_segment.end])).toEqual([
      [video.cam1a, 50, 60],
      [video.cam1b, 0, 10],
      [video.cam2, 20, 40],
    ]);
  });
});

describe('GET /api/v2/frv on the demo recordings', () => {
  let t: TestApp;
  let cookie: string;
  let structureId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await seedDemoIfEmpty(t.deps, { videoSeconds: 4, videoCacheDir: defaultVideoCacheDir(), hall: false });
    cookie = await t.signIn('viewer', DEMO_PASSWORD);
    structureId = (await t.deps.db.selectFrom('structures').select('id').where('name', '=', 'Участок сборки редукторов').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t.cleanup());

  it('gives each markup of the recorded minutes the files of all four cameras, in each file’s seconds', async () => {
    const from = demoInstant('2026-11-16', '09:00:00') - 5_000;
    const to = from + 30_000;
    const response = await t.request(
      `/api/v2/frv?structure_id=${structureId}&from_time=${new Date(from).toISOString()}&to_time=${new Date(to).toISOString()}`,
      { cookie },
    );
    const body = (await response.json()) as { items: Item[] };
    const videos = await t.deps.db
      .selectFrom('videos')
      .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
      .select(['videos.id', 'videos.start_time', 'videos.duration', 'cameras.camera_key'])
      .where('cameras.structure_id', '=', structureId)
      .execute();
    let mapped = 0;
    for (const item of body.items) {
      const start = Date.parse(item.time_slot.fromm);
      const end = Date.parse(item.time_slot.to);
      const covering = videos.filter((v) => v.start_time < end && v.start_time + v.duration! * 1000 > start);
      expect(item.video_segments.map((s) => s.video_id).sort()).toEqual(covering.map((v) => v.id).sort());
      for (const segment of item.video_segments) {
        const v = videos.find((x) => x.id === segment.video_id)!;
        expect(segment.video_segment.start).toBeCloseTo((Math.max(start, v.start_time) - v.start_time) / 1000, 6);
        expect(segment.video_segment.end).toBeCloseTo((Math.min(end, v.start_time + v.duration! * 1000) - v.start_time) / 1000, 6);
        expect(segment.video_segment.start).toBeGreaterThanOrEqual(0);
        expect(segment.video_segment.end).toBeLessThanOrEqual(4);
      }
      if (item.video_segments.length > 0) expect(new Set(item.video_segments.map((s) => s.camera_key))).toEqual(new Set([1, 2, 3, 4]));
      mapped += item.video_segments.length;
    }
    // Three employees, three 4-second files per camera from 09:00: plenty of mapped pieces.
    expect(mapped).toBeGreaterThan(12);
  });
});
