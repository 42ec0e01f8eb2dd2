import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mediaTools } from '@norma/workers/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VTEST_AVI, VTEST_MISSING } from '../../../tests/support/vtest';
import { untilState } from '../../../tests/support/wait';
import { insertTrackedVideo, type StoredTrackPoint } from '../../test-support/event-trackings';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertCamera, insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { startWorkers } from '../job-registry';
import type { JobRunner } from '../jobs/runner';
import { startMoveNetThreads, type MoveNetThread } from '../threads/movenet-threads';

/**
 * GET /api/v1/event/figures (issue 44, docs/event-analytics.md «API: цифры»): a hall of four cameras —
 * A and B calibrated and seeing the same two people (B at half A's scale), C without a calibration,
 * D with nothing — with finished trackings stored as the job stores them and calibrations and zones
 * set through the API. The plan positions follow by hand: A maps 10 pixels to 1 m, B 20 pixels to
 * 1 m; a foot point is the bottom centre of the box. Checked: visitors counted once across A and B,
 * a stand's dwell, a safe-zone entry and its moment, C listed and left out of the plan figures but in
 * the frame heat maps, another organisation's 404, bad windows refused in Russian. And real tracks:
 * the tracking job (MoveNet on the server's threads) over the first CLIP seconds of vtest.avi in a
 * hall of its own, a calibration of 0.05 m a pixel, each track's first plan point computed by hand
 * from its stored box.
 */
let t: TestApp;
let w: VideoWorld;

const T0 = Date.UTC(2026, 10, 16, 10, 0, 0);
const T0S = T0 / 1000;
const iso = (ms: number) => new Date(ms).toISOString();

const call = async (path: string, cookie?: string) => {
  const response = await t.request(path, { method: 'GET', cookie: cookie ?? w.cookies.admin });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const put = async (path: string, body: unknown) => {
  const response = await t.request(path, { method: 'PUT', cookie: w.cookies.admin, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
};
const post = async (path: string, body: unknown) => {
  const response = await t.request(path, { method: 'POST', cookie: w.cookies.admin, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: number };
};
const message = (reply: { body: Record<string, unknown> }) => (reply.body.error as { message: string }).message;

/** Person 1 stands at (5, 5) for 10 s; person 2 walks along y = 8 from x = 0 to x = 9 at 1 m/s, one sighting a second. */
const person1 = Array.from({ length: 11 }, (_, s) => ({ time: s, x: 5, y: 5 }));
const person2 = Array.from({ length: 10 }, (_, s) => ({ time: s, x: s, y: 8 }));

/** A stored track point [frame, time, x, y, w, h, score] whose box has its bottom centre at plan (x, y) · pixelsPerMetre. */
const stored = (path: { time: number; x: number; y: number }[], pixelsPerMetre: number): StoredTrackPoint[] =>
  path.map((p) => {
    const fx = p.x * pixelsPerMetre;
    const fy = p.y * pixelsPerMetre;
    return [p.time * 25, p.time, fx - 5, fy - 20, 10, 20, 0.9] satisfies StoredTrackPoint;
  });

const square = (side: number): [number, number][] => [
  [0, 0],
  [side, 0],
  [side, side],
  [0, side],
];
let standZone: number;
let safeZone: number;
/** The videos of cameras A, B and C. */
let videos: [number, number, number];

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  const [a, b, c] = w.cameraIds as [number, number, number];
  await put(`/api/v1/event/calibration?camera_id=${a}`, { frame_width: 200, frame_height: 200, image_points: square(100), plan_points: square(10) });
  await put(`/api/v1/event/calibration?camera_id=${b}`, { frame_width: 200, frame_height: 200, image_points: square(200), plan_points: square(10) });
  videos = [
    await insertTrackedVideo(t.deps.db, a, { filename: 'a.mp4', start: T0 }, [stored(person1, 10), stored(person2, 10)]),
    await insertTrackedVideo(t.deps.db, b, { filename: 'b.mp4', start: T0 }, [stored(person2, 20), stored(person1, 20)]),
    await insertTrackedVideo(t.deps.db, c, { filename: 'c.mp4', start: T0 }, [stored(person1, 10)]),
  ];
  standZone = (
    await post('/api/v1/event/zone', { structure_id: w.structureId, name: 'Стенд 1', role: 'stand', shape: { type: 'circle', center: [5, 5], radius: 1 } })
  ).id;
  safeZone = (
    await post('/api/v1/event/zone', {
      structure_id: w.structureId,
      name: 'Станок',
      role: 'safe',
      shape: {
        type: 'polygon',
        points: [
          [3, 7],
          [4, 7],
          [4, 9],
          [3, 9],
        ],
      },
    })
  ).id;
});
afterAll(async () => t?.cleanup());

const figuresUrl = (from: number, to: number, structureId = w.structureId) =>
  `/api/v1/event/figures?structure_id=${structureId}&from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;

interface Figures {
  structure_id: number;
  visitors: number;
  cameras: { camera_id: number; calibrated: boolean; videos: number; tracks: number }[];
  uncalibrated_cameras: number[];
  paths: { track_id: string; camera_id: number; points: { t: number; x: number; y: number }[] }[];
  dwell: { zone_id: number; visits: number; visitors: number; total_seconds: number; visit_moments: Record<string, unknown>[] }[];
  stands: { most_popular: { zone_id: number }[] };
  safe_zone_entries: { zone_id: number; entries_total: number; entries: { entry: number; exit: number; camera_id: number }[] }[];
  frame_heat_maps: { camera_id: number; grid: { seconds: number[] } }[];
}

describe('figures of a hall', () => {
  it('maps foot points through the calibration, joins the overlapping cameras and computes dwell and safe-zone entries', async () => {
    const [a, b, c, d] = w.cameraIds as [number, number, number, number];
    const reply = await call(figuresUrl(T0 - 60_000, T0 + 600_000), w.cookies.viewer);
    expect(reply.status).toBe(200);
    const f = reply.body as unknown as Figures;
    expect(f.structure_id).toBe(w.structureId);
    // Two people, each seen by A and B: counted once; C's track is not on the plan.
    expect(f.visitors).toBe(2);
    expect(f.cameras).toEqual([
      { camera_id: a, name: expect.any(String), calibrated: true, videos: 1, tracks: 2 },
      { camera_id: b, name: expect.any(String), calibrated: true, videos: 1, tracks: 2 },
      { camera_id: c, name: expect.any(String), calibrated: false, videos: 1, tracks: 1 },
      { camera_id: d, name: expect.any(String), calibrated: false, videos: 0, tracks: 0 },
    ]);
    expect(f.uncalibrated_cameras).toEqual([c, d]);
    expect(f.paths.every((p) => p.camera_id !== c)).toBe(true);
    // Person 1 by hand: box (45, 30, 10, 20) on A → foot (50, 50) → (5, 5) m; on B foot (100, 100) → (5, 5) m.
    const standing = f.paths.find((p) => p.points.every((q) => q.x === 5 && q.y === 5));
    expect(standing?.track_id).toMatch(/\+/);
    expect(standing?.points[0]).toEqual({ t: T0S, x: 5, y: 5 });
    const walking = f.paths.find((p) => p !== standing)!;
    expect(walking.points[0]).toEqual({ t: T0S, x: 0, y: 8 });
    expect(walking.points[walking.points.length - 1]).toEqual({ t: T0S + 9, x: 9, y: 8 });

    const stand = f.dwell.find((z) => z.zone_id === standZone)!;
    expect(stand).toMatchObject({ visits: 1, visitors: 1, total_seconds: 10 });
    // The visit with its moments and the video to open: A and B both see its start, A's track (first joined) names it.
    expect(stand.visit_moments).toEqual([
      {
        track_id: standing!.track_id,
        view_id: `${a}:${videos[0]}:1`,
        camera_id: a,
        video_id: videos[0],
        video_second: 0,
        start: T0S,
        end: T0S + 10,
        seconds: 10,
      },
    ]);
    expect(f.stands.most_popular.map((s) => s.zone_id)).toEqual([standZone]);
    const safe = f.safe_zone_entries.find((z) => z.zone_id === safeZone)!;
    // Person 2 reaches x = 3 m at 3 s and leaves past x = 4 m at 4 s.
    expect(safe.entries).toHaveLength(1);
    expect(safe.entries_total).toBe(1);
    expect(safe.entries[0]).toMatchObject({ entry: T0S + 3, exit: T0S + 4, camera_id: a, video_id: videos[0], video_second: 3 });
    // The uncalibrated camera still has its frame heat map.
    const heat = f.frame_heat_maps.find((m) => m.camera_id === c);
    expect(heat?.grid.seconds.reduce((s, v) => s + v, 0)).toBeCloseTo(10, 1);
  });

  it("one call gives every hall video's tracking state, the same as the call per video", async () => {
    const [a, b, c, d] = w.cameraIds as [number, number, number, number];
    const untracked = await insertVideo(t.deps.db, d, { filename: 'd.mp4', start: T0, duration: 60 });
    const reply = await call(`/api/v1/event/trackings?structure_id=${w.structureId}`, w.cookies.viewer);
    expect(reply.status).toBe(200);
    const hall = reply.body as unknown as { structure_id: number; videos: { video_id: number; camera_id: number; run: unknown; finished: unknown }[] };
    expect(hall.structure_id).toBe(w.structureId);
    const ours = hall.videos.filter((v) => [...videos, untracked].includes(v.video_id));
    expect(ours.map((v) => [v.camera_id, v.video_id])).toEqual([
      [a, videos[0]],
      [b, videos[1]],
      [c, videos[2]],
      [d, untracked],
    ]);
    for (const v of hall.videos) {
      const one = (await call(`/api/v1/event/tracking?video_id=${v.video_id}`)).body;
      expect({ ...v, camera_id: undefined }).toEqual({ ...one, camera_id: undefined });
    }
    expect(ours[0]!.finished).toMatchObject({ status: 'done', video_id: videos[0] });
    expect(ours[3]).toMatchObject({ run: null, finished: null });
    // Another organisation's hall: 404; no hall: 400.
    expect((await call(`/api/v1/event/trackings?structure_id=${w.structureId}`, w.cookies.rival)).status).toBe(404);
    expect((await call(`/api/v1/event/trackings?structure_id=${w.foreignStructureId}`)).status).toBe(404);
    expect((await call('/api/v1/event/trackings')).status).toBe(400);
  });

  it('counts nobody in a window the videos do not reach', async () => {
    const f = (await call(figuresUrl(T0 + 3600_000, T0 + 7200_000))).body as unknown as Figures;
    expect(f.visitors).toBe(0);
    expect(f.cameras.every((cam) => cam.videos === 0)).toBe(true);
  });

  it("answers 404 for another organisation's hall and 400 in Russian for a bad window", async () => {
    expect((await call(figuresUrl(T0, T0 + 60_000), w.cookies.rival)).status).toBe(404);
    expect((await call(figuresUrl(T0, T0 + 60_000, w.foreignStructureId))).status).toBe(404);
    // Access is checked before the window is read: a bad window of a foreign hall is still a 404.
    expect((await call(figuresUrl(T0, T0 - 60_000), w.cookies.rival)).status).toBe(404);
    const backwards = await call(figuresUrl(T0, T0 - 60_000));
    expect(backwards.status).toBe(400);
    expect(message(backwards)).toContain('конец окна должен быть позже начала');
    const long = await call(figuresUrl(T0, T0 + 8 * 86_400_000));
    expect(long.status).toBe(400);
    expect(message(long)).toContain('окно не длиннее 7 суток');
    const garbled = await call(`/api/v1/event/figures?structure_id=${w.structureId}&from=вчера&to=${encodeURIComponent(iso(T0))}`);
    expect(garbled.status).toBe(400);
    expect(message(garbled)).toContain('ISO 8601');
    expect((await call(`/api/v1/event/figures?structure_id=${w.structureId}`)).status).toBe(400);
  });
});

const CLIP = 4;

describe.skipIf(VTEST_MISSING)('figures from real tracks of the tracking job', () => {
  let threads: MoveNetThread;
  let runner: JobRunner | null = null;
  let cameraId: number;
  let videoId: number;
  const start = Date.UTC(2026, 10, 17, 9, 0, 0);

  beforeAll(async () => {
    cameraId = await insertCamera(t.deps.db, w.otherStructureId);
    const key = 'recordings/site/hall/vtest-4s.avi';
    const target = t.deps.storage.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const { ffmpeg } = await mediaTools();
    const child = Bun.spawn([ffmpeg, '-hide_banner', '-loglevel', 'error', '-nostdin', '-i', VTEST_AVI, '-t', String(CLIP), '-c', 'copy', '-y', target], {
      stdout: 'ignore',
      stderr: 'pipe',
    });
    const [stderr, status] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    if (status !== 0) throw new Error(`ffmpeg: ${stderr}`);
    videoId = await insertVideo(t.deps.db, cameraId, { filename: 'vtest-4s.avi', start, duration: CLIP, key });
    threads = startMoveNetThreads();
    t.deps.movenetThread = threads;
  });
  afterAll(async () => {
    await runner?.stop();
    threads?.close();
  });

  it('puts each stored foot point on the plan through the calibration and counts every track', async () => {
    // vtest.avi is 768×576: 0.05 m a pixel maps the whole frame onto 38.4 × 28.8 m.
    await put(`/api/v1/event/calibration?camera_id=${cameraId}`, {
      frame_width: 768,
      frame_height: 576,
      image_points: [
        [0, 0],
        [768, 0],
        [768, 576],
        [0, 576],
      ],
      plan_points: [
        [0, 0],
        [38.4, 0],
        [38.4, 28.8],
        [0, 28.8],
      ],
    });
    await post('/api/v1/event/tracking', { video_id: videoId, fps: 5 });
    runner = startWorkers(t.deps, { pollMs: 20 });
    await expect
      .poll(async () => ((await call(`/api/v1/event/tracking?video_id=${videoId}`)).body.run as { status: string }).status, untilState(500))
      .toMatch(/^(done|failed|cancelled)$/);
    expect(((await call(`/api/v1/event/tracking?video_id=${videoId}`)).body.run as { status: string }).status).toBe('done');
    const stored = (await call(`/api/v1/event/tracks?video_id=${videoId}&limit=200`)).body as unknown as {
      total: number;
      tracks: { number: number; points: number[][] }[];
    };
    expect(stored.total).toBeGreaterThan(3);

    const reply = await call(figuresUrl(start - 60_000, start + 60_000, w.otherStructureId));
    expect(reply.status).toBe(200);
    const f = reply.body as unknown as Figures;
    expect(f.uncalibrated_cameras).toEqual([]);
    expect(f.cameras).toEqual([{ camera_id: cameraId, name: expect.any(String), calibrated: true, videos: 1, tracks: stored.total }]);
    expect(f.visitors).toBe(stored.total);
    for (const track of stored.tracks) {
      const [, time, x, y, width, height] = track.points[0]!;
      const path = f.paths.find((p) => p.track_id === `${cameraId}:${videoId}:${track.number}`)!;
      const first = path.points[0]!;
      expect(Math.abs(first.t - (start / 1000 + time!))).toBeLessThan(0.006);
      expect(Math.abs(first.x - (x! + width! / 2) * 0.05)).toBeLessThan(0.006);
      expect(Math.abs(first.y - (y! + height!) * 0.05)).toBeLessThan(0.006);
    }
  });
});
