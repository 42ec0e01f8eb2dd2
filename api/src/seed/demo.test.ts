import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '@norma/workers/media';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { CLIPS_PER_CAMERA_DAY, DEMO_PASSWORD, demoUsers, planClips } from './demo-plan';
import { defaultVideoCacheDir, seedDemoIfEmpty } from './demo';

let t: TestApp;
const VIDEO_SECONDS = 4;

beforeAll(async () => {
  t = await createTestApp();
  // The exhibition hall on vtest.avi has its own test (demo-hall.test.ts).
  expect(await seedDemoIfEmpty(t.deps, { videoSeconds: VIDEO_SECONDS, videoCacheDir: defaultVideoCacheDir(), hall: false })).toBe(true);
});
afterAll(async () => t.cleanup());

describe('demo organisation', () => {
  it('is seeded once: a second call changes nothing', async () => {
    const before = await t.deps.db.selectFrom('markups').select(t.deps.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(await seedDemoIfEmpty(t.deps, { renderVideos: false })).toBe(false);
    const after = await t.deps.db.selectFrom('markups').select(t.deps.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('has a structure tree at least three levels deep with two leaves of four cameras', async () => {
    const structures = await t.deps.db.selectFrom('structures').selectAll().execute();
    const depth = (id: number | null): number => (id === null ? 0 : 1 + depth(structures.find((s) => s.id === id)!.parent_id));
    expect(Math.max(...structures.map((s) => depth(s.id)))).toBeGreaterThanOrEqual(3);
    const cameras = await t.deps.db.selectFrom('cameras').select(['structure_id', 'camera_key']).execute();
    const byStructure = Map.groupBy(cameras, (c) => c.structure_id);
    expect(byStructure.size).toBe(2);
    for (const list of byStructure.values()) expect(list.map((c) => c.camera_key).sort()).toEqual([1, 2, 3, 4]);
  });

  it('covers every operation type in each leaf and has shifts', async () => {
    const rows = await t.deps.db.selectFrom('operations').select(['structure_id', 'type']).execute();
    for (const [, list] of Map.groupBy(rows, (r) => r.structure_id)) {
      expect(new Set(list.map((r) => r.type))).toEqual(new Set(['main', 'aux', 'pz', 'service', 'move', 'rest', 'idle']));
    }
    expect((await t.deps.db.selectFrom('shifts').selectAll().execute()).length).toBe(2);
  });

  it('has whole-shift markups without overlaps, repeated main operations and product stamps', async () => {
    const markups = await t.deps.db
      .selectFrom('markups')
      .innerJoin('operations', 'operations.id', 'markups.operation_id')
      .select(['markups.employee_id', 'markups.start_time', 'markups.end_time', 'operations.type', 'operations.name', 'markups.video_id'])
      .orderBy('markups.employee_id')
      .orderBy('markups.start_time')
      .execute();
    expect(markups.length).toBeGreaterThan(2000);
    for (let i = 1; i < markups.length; i++) {
      const previous = markups[i - 1]!;
      const current = markups[i]!;
      expect(current.end_time).toBeGreaterThan(current.start_time);
      if (previous.employee_id === current.employee_id) expect(current.start_time).toBeGreaterThanOrEqual(previous.end_time);
    }
    const mainCounts = Map.groupBy(
      markups.filter((m) => m.type === 'main'),
      (m) => m.name,
    );
    for (const list of mainCounts.values()) expect(list.length).toBeGreaterThan(100);
    const products = await t.deps.db.selectFrom('video_stamps').select('type').where('type', '=', 'product').execute();
    expect(products.length).toBeGreaterThan(300);
    expect(markups.some((m) => m.video_id !== null)).toBe(true);
  });

  it('links each markup to a video of its camera whose span contains its start', async () => {
    const rows = await t.deps.db
      .selectFrom('markups')
      .innerJoin('videos', 'videos.id', 'markups.video_id')
      .select(['markups.start_time', 'videos.start_time as video_start', 'videos.duration'])
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.start_time).toBeGreaterThanOrEqual(row.video_start);
      expect(row.start_time).toBeLessThan(row.video_start + row.duration! * 1000);
    }
  });

  it('stores real H.264 MP4 videos with overlapping spans on all four cameras', async () => {
    const videos = await t.deps.db
      .selectFrom('videos')
      .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
      .select(['videos.storage_key', 'videos.start_time', 'videos.duration', 'cameras.camera_key', 'cameras.structure_id'])
      .orderBy('videos.start_time')
      .execute();
    // 2 leaves × 4 cameras × 2 days × 3 clips, less the 4 left for a sync to find.
    expect(videos.length).toBe(44);
    const info = await probe(t.deps.storage.pathOf(videos[0]!.storage_key));
    expect(info.videoCodec).toBe('h264');
    expect(info.width).toBe(640);
    expect(info.height).toBe(360);
    expect(Math.abs(info.durationSeconds - VIDEO_SECONDS)).toBeLessThan(0.5);
    // The first clip of every camera of a leaf covers the instant the fourth camera starts.
    const firstOfLeaf = videos.filter((v) => v.structure_id === videos[0]!.structure_id).slice(0, 4);
    const latestStart = Math.max(...firstOfLeaf.map((v) => v.start_time));
    for (const video of firstOfLeaf) expect(video.start_time + video.duration! * 1000).toBeGreaterThan(latestStart);
  });

  it('leaves the last clip of each packing camera on the second day for a sync to find', async () => {
    const packing = (await t.deps.db.selectFrom('structures').select('id').where('name', '=', 'Участок упаковки').executeTakeFirstOrThrow()).id;
    const cookie = await t.signIn('assessor', DEMO_PASSWORD);
    const lastClipStart = planClips(VIDEO_SECONDS).filter((c) => c.dayIndex === 1 && c.clipIndex === CLIPS_PER_CAMERA_DAY - 1);
    const expected = lastClipStart.map((c) => c.filename);
    expect(expected).toHaveLength(4);
    for (const name of expected) expect(await t.deps.db.selectFrom('videos').select('id').where('filename', '=', name).execute()).toHaveLength(1);
    const response = await t.request(`/api/v1/sync_videos?structure_id=${packing}`, { cookie });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.new_videos).toEqual(expected);
    expect(result.queued_processing_videos).toEqual(lastClipStart.map((c) => `recordings/packing/cam${c.cameraKey}/${c.filename}`));
    const registered = await t.deps.db.selectFrom('videos').selectAll().where('status', '=', 'queued').orderBy('start_time').execute();
    expect(registered.map((v) => v.start_time)).toEqual(lastClipStart.map((c) => c.startMs));
    expect((await (await t.request(`/api/v1/sync_videos?structure_id=${packing}`, { cookie })).json()).new_videos).toEqual([]);
  });

  it('creates one demo user per role, each able to sign in with the documented password', async () => {
    for (const user of demoUsers) {
      const cookie = await t.signIn(user.login, DEMO_PASSWORD);
      const me = await (await t.request('/api/v1/whoami', { cookie })).json();
      expect(me.role).toBe(user.role);
    }
    expect((await (await t.request('/api/v1/instance')).json()).demo).toBe(true);
  });

  it('has one approved norm card in force from its first studied day, built from two days of every employee of the first workshop', async () => {
    const cookie = await t.signIn('viewer', DEMO_PASSWORD);
    const structures = await (await t.request('/api/v2/get_all_structures', { cookie })).json();
    const assembly = structures.find((s: { name: string }) => s.name === 'Участок сборки редукторов');
    const list = await (await t.request(`/api/v1/norms?structure_id=${assembly.id}`, { cookie })).json();
    expect(list.versions).toHaveLength(1);
    expect(list.versions[0]).toMatchObject({ status: 'approved', in_force: true, approved_by_name: 'Смирнова Ирина' });
    const card = await (await t.request(`/api/v1/norms/${list.versions[0].id}`, { cookie })).json();
    expect(card.card.basis).toMatchObject({ days: 2, employees: 3 });
    const normTime = card.card.figures.find((f: { key: string }) => f.key === 'norm_time').value;
    const output = card.card.figures.find((f: { key: string }) => f.key === 'output').value;
    expect(normTime * output).toBeCloseTo(card.card.balance.shift_minutes, 6);
    // The demo shift 08:00–17:00 with an hour's lunch (METHODOLOGY §7), and windows of whole shift-days.
    expect(card.card.balance).toMatchObject({ shift_minutes: 480, meal_break_minutes: 60 });
    expect(card.windows.every((w: { date: string | null }) => w.date !== null)).toBe(true);
  });
});
