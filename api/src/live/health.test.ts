import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { cameraHealth } from './health';
import { lagP95 } from './live-labels';
import { claimStream, insertSegment, recordFrameRate, setStreamHealth } from './service';

/**
 * Camera health and alerts (issue 45): offline longer than the camera's limit, a recorder fallen
 * behind, the store's disk near full — on a real app and database, the cameras' states written by the
 * recorder's own service functions. The recorder itself on a real stream: recorder.test.ts.
 */

let t: TestApp;
let w: VideoWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
});

afterAll(async () => {
  await t?.cleanup();
});

const health = (structureId: number, cookie = w.cookies.viewer) => t.request(`/api/v1/structure/${structureId}/camera_health`, { cookie });
const put = (cameraId: number, body: unknown) =>
  t.request(`/api/v1/camera/${cameraId}/stream`, { method: 'PUT', cookie: w.cookies.admin, body: JSON.stringify(body) });

describe('camera health', () => {
  it('raises «offline» after the camera’s limit, «behind» when no segment closed for 2 × its length, and reads the disk', async () => {
    const { db } = t.deps;
    const [online, silent, fresh, off] = w.cameraIds as [number, number, number, number];
    expect((await put(online, { url: 'rtsp://10.0.0.7/a', segment_seconds: 10 })).status).toBe(200);
    expect((await put(silent, { url: 'rtsp://10.0.0.7/b', offline_alert_seconds: 30 })).status).toBe(200);
    expect((await put(fresh, { url: 'rtsp://10.0.0.7/c' })).status).toBe(200);
    expect((await put(off, { url: 'rtsp://10.0.0.7/d', enabled: false })).status).toBe(200);
    const now = Date.now();

    // Online, frames coming, but the last segment closed 25 s ago with 10-s segments: behind.
    expect(await claimStream(db, online, 'recorder-x', 60_000)).not.toBeNull();
    await setStreamHealth(db, online, 'recorder-x', { state: 'online', lastFrameAt: now - 1000, connectedAt: now - 120_000 });
    const video = await insertVideo(db, online, { filename: 'seg.mp4', start: now - 35_000, duration: 10, key: 'recordings/site/cam1/live/seg.mp4' });
    await insertSegment(db, { cameraId: online, videoId: video, start: now - 35_000, end: now - 25_000, sizeBytes: 1, closedAt: now - 25_000 });
    // The frame rate the recorder measured on that segment (recorder.test.ts measures a real stream's).
    await recordFrameRate(db, online, 12.5);
    // Last frame 40 s ago with a 30-s limit: offline.
    expect(await claimStream(db, silent, 'recorder-x', 60_000)).not.toBeNull();
    await setStreamHealth(db, silent, 'recorder-x', { state: 'connecting', lastFrameAt: now - 40_000 });

    const reply = await health(w.structureId);
    expect(reply.status).toBe(200);
    const body = await reply.json();
    const of = (id: number) => body.cameras.find((c: { camera_id: number }) => c.camera_id === id);
    expect(body.cameras.map((c: { camera_id: number }) => c.camera_id)).toEqual([online, silent, fresh, off]);
    expect(of(online)).toMatchObject({ state: 'online', recording: true, segment_seconds: 10, last_segment_at: now - 25_000, frame_rate: 12.5 });
    expect(of(fresh).frame_rate).toBeNull();
    expect(of(online).alerts).toEqual([{ kind: 'behind', since: now - 25_000, message: expect.stringMatching(/Камера 1 «Камера 1»: регистратор отстаёт/) }]);
    expect(of(silent)).toMatchObject({ state: 'connecting', offline_alert_seconds: 30 });
    expect(of(silent).alerts).toEqual([
      { kind: 'offline', since: now - 40_000, message: expect.stringMatching(/Камера 2 «Камера 2»: не в сети, нет кадров 4\d с/) },
    ]);
    // Saved a moment ago, no frame yet, within its 60 s: no alert; a stream turned off raises none.
    expect(of(fresh).alerts).toEqual([]);
    expect(of(off)).toMatchObject({ enabled: false, state: 'offline', alerts: [] });
    expect(body.alerts.map((a: { kind: string }) => a.kind)).toEqual(['offline', 'behind']);
    expect(body.disk.total_bytes).toBeGreaterThan(0);
    expect(body.disk.free_bytes).toBeGreaterThan(0);
    expect(body.disk.low).toBe(body.disk.free_bytes < body.disk.threshold_bytes);

    // A connection that has just begun is not behind, whatever segment closed before the outage.
    await setStreamHealth(db, online, 'recorder-x', { connectedAt: Date.now() - 2000 });
    expect((await cameraHealth(t.deps, w.structureId)).cameras[0]!.alerts).toEqual([]);
    // Frames again: the silent camera's alert goes.
    await setStreamHealth(db, silent, 'recorder-x', { state: 'online', lastFrameAt: Date.now(), connectedAt: Date.now() });
    expect((await cameraHealth(t.deps, w.structureId)).cameras[1]!.alerts).toEqual([]);
    // The same camera seen later: 70 s without frames.
    const later = await cameraHealth(t.deps, w.structureId, { now: Date.now() + 70_000 });
    expect(later.cameras.filter((c) => c.alerts.some((a) => a.kind === 'offline')).map((c) => c.camera_id)).toEqual([online, silent, fresh]);

    // The disk: below the threshold the alert is there, in Russian, once.
    const full = await cameraHealth(t.deps, w.structureId, { diskThresholdBytes: Number.MAX_SAFE_INTEGER });
    expect(full.disk!.low).toBe(true);
    expect(full.alerts.filter((a) => a.kind === 'disk')).toEqual([
      { kind: 'disk', since: null, message: expect.stringMatching(/Диск хранилища почти полон: свободно [\d,]+ ГБ из/) },
    ]);
    expect((await cameraHealth(t.deps, w.structureId, { diskThresholdBytes: 0 })).alerts.some((a) => a.kind === 'disk')).toBe(false);

    // A structure without stream cameras: none, no camera alert.
    const other = await (await health(w.otherStructureId)).json();
    expect(other.cameras).toEqual([]);
  });

  it('raises «view» when the last view check of the camera’s active model found its view moved; a check of another model says nothing', async () => {
    const { db } = t.deps;
    const cam = w.cameraIds[0]!;
    const now = Date.now();
    const video = await insertVideo(db, cam, { filename: 'view.mp4', start: now - 60_000, duration: 5, key: 'recordings/site/cam1/live/view.mp4' });
    const model = await db
      .insertInto('models')
      .values({
        camera_id: cam,
        workplace_id: w.workplaceIds[0]!,
        marked_video_id: video,
        name: 'Модель вида',
        comment: '',
        start_second: 0,
        end_second: 5,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const warning = 'Вид камеры не совпадает с видом при обучении (сходство 0,31 при пороге 0,6)';
    // What live.view_check stores (view-check.job.ts; the job on a real stream: recorder.test.ts).
    await db
      .updateTable('camera_streams')
      .set({
        live_model_id: model.id,
        view_checked_at: now - 5000,
        view_model_id: model.id,
        view_video_id: video,
        view_similarity: 0.31,
        view_warnings: JSON.stringify([warning]),
        view_error: null,
      })
      .where('camera_id', '=', cam)
      .execute();
    const body = await (await health(w.structureId)).json();
    const camera = body.cameras.find((c: { camera_id: number }) => c.camera_id === cam);
    expect(camera.view_check).toEqual({ checked_at: now - 5000, view_similarity: 0.31, warnings: [warning], error: null });
    expect(body.alerts.filter((a: { kind: string }) => a.kind === 'view')).toEqual([
      {
        kind: 'view',
        since: now - 5000,
        message: expect.stringMatching(/^Камера 1 «Камера 1»: вид камеры не такой, как при обучении модели живой разметки — Вид камеры не совпадает/),
      },
    ]);
    // The board lists the same alert.
    const board = await (await t.request(`/api/v1/live_board?structure_id=${w.structureId}`, { cookie: w.cookies.viewer })).json();
    expect(board.alerts).toContainEqual(expect.stringMatching(/вид камеры не такой, как при обучении/));
    // A check that could not be made is shown but raises nothing; a check of another model is not this model's.
    await db
      .updateTable('camera_streams')
      .set({ view_error: 'Видео удалено', view_warnings: '[]', view_similarity: null })
      .where('camera_id', '=', cam)
      .execute();
    const failed = (await cameraHealth(t.deps, w.structureId)).cameras.find((c) => c.camera_id === cam)!;
    expect([failed.view_check?.error, failed.alerts.filter((a) => a.kind === 'view')]).toEqual(['Видео удалено', []]);
    await db
      .updateTable('camera_streams')
      .set({ view_model_id: model.id + 1000, view_error: null, view_warnings: JSON.stringify([warning]) })
      .where('camera_id', '=', cam)
      .execute();
    const other = (await cameraHealth(t.deps, w.structureId)).cameras.find((c) => c.camera_id === cam)!;
    expect([other.view_check, other.alerts.filter((a) => a.kind === 'view')]).toEqual([null, []]);
    await db.updateTable('camera_streams').set({ live_model_id: null }).where('camera_id', '=', cam).execute();
  });

  it('checks access: a rival’s structure is not found, a bad id is a 400, no session a 401', async () => {
    expect((await health(w.foreignStructureId)).status).toBe(404);
    expect((await health(w.structureId, w.cookies.rival)).status).toBe(404);
    expect((await t.request('/api/v1/structure/0x10/camera_health', { cookie: w.cookies.viewer })).status).toBe(400);
    expect((await t.request(`/api/v1/structure/${w.structureId}/camera_health`)).status).toBe(401);
  });
});

describe('lag «frame → label»', () => {
  it('is the p95 over every frame of the labelled segments', () => {
    // 5-s segments labelled 2 s after their end: frames wait from 2 s (the last) to 7 s (the first).
    const segments = [0, 5000, 10_000].map((start) => ({ start_time: start, end_time: start + 5000, labeled_at: start + 7000 }));
    expect(lagP95(segments)).toBeGreaterThanOrEqual(6700);
    expect(lagP95(segments)).toBeLessThanOrEqual(6800);
    // One slow segment of forty: its frames are 2.5 % of all, the p95 stays among the others' (1–6 s).
    const slow = [
      ...Array.from({ length: 39 }, (_, i) => ({ start_time: i * 5000, end_time: i * 5000 + 5000, labeled_at: i * 5000 + 6000 })),
      { start_time: 195_000, end_time: 200_000, labeled_at: 260_000 },
    ];
    expect(lagP95(slow)).toBeLessThan(6000);
    // Two slow of twenty (10 %): the p95 is theirs.
    expect(lagP95([...slow.slice(0, 18), { ...slow[39]!, start_time: 90_000, end_time: 95_000, labeled_at: 155_000 }, slow[39]!])).toBeGreaterThan(55_000);
    expect(lagP95([])).toBeNull();
  });
});
