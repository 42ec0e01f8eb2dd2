import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTrackedVideo, type StoredTrackPoint } from '../../test-support/event-trackings';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { FiguresFold, figuresOf } from './figures';
import { figuresHead, figuresTracks, trackBatches } from './figures.service';

/**
 * The figures folded track by track (issue 44, docs/event-analytics.md «Память задачи»): a hall with
 * two overlapping calibrated cameras (A at 10 pixels a metre, B at 20, seeing the same people) and
 * one without a calibration, whose trackings are stored out of time order (A's later video before
 * B's first). Read in batches of one track, of a few tracks and whole, in two passes as the job reads
 * them, the figures are the same JSON as all the tracks at once, with A's and B's views of one person
 * counted once; the fold holds A's tracks only until B's videos of the same time have been read, and
 * nothing once no unread video of the other camera can overlap.
 */
let t: TestApp;
let w: VideoWorld;

const T0 = Date.UTC(2026, 10, 16, 10, 0, 0);
const WINDOW_MS = 600_000;

/** A path on the plan, metres, one sighting each 0.2 s, as stored points of a camera with `pixelsPerMetre`. */
const stored = (path: (s: number) => [number, number], seconds: number, pixelsPerMetre: number): StoredTrackPoint[] =>
  Array.from({ length: seconds * 5 + 1 }, (_, i) => {
    const [x, y] = path(i / 5);
    return [i * 5, i / 5, x * pixelsPerMetre - 5, y * pixelsPerMetre - 20, 10, 20, 0.9] satisfies StoredTrackPoint;
  });
/** Stands at the stand for 10 s, then walks off. */
const stander = (s: number): [number, number] => (s < 10 ? [5, 5] : [5 + (s - 10) * 0.5, 5]);
/** Walks along y = 8 at 1 m/s through the safe zone. */
const passer = (s: number): [number, number] => [s, 8];
/** Walks a diagonal: through the zone, then the stand for a while. */
const wanderer = (s: number): [number, number] => (s < 6 ? [1 + s * 0.5, 1 + s * 0.5] : s < 14 ? [4.5 + (s - 6) * 0.05, 4.5] : [4.9, 4.5 + (s - 14) * 0.5]);

const square = (side: number): [number, number][] => [
  [0, 0],
  [side, 0],
  [side, side],
  [0, side],
];

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  const [a, b, c] = w.cameraIds as [number, number, number];
  const send = async (method: string, path: string, body: unknown) => {
    const response = await t.request(path, { method, cookie: w.cookies.admin, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
  };
  await send('PUT', `/api/v1/event/calibration?camera_id=${a}`, { frame_width: 200, frame_height: 200, image_points: square(100), plan_points: square(10) });
  await send('PUT', `/api/v1/event/calibration?camera_id=${b}`, { frame_width: 200, frame_height: 200, image_points: square(200), plan_points: square(10) });
  const zone = (name: string, role: string, shape: unknown) => send('POST', '/api/v1/event/zone', { structure_id: w.structureId, name, role, shape });
  await zone('Стенд 1', 'stand', { type: 'circle', center: [5, 5], radius: 1 });
  await zone('Вход', 'zone', { type: 'polygon', points: square(3) });
  await zone('Станок', 'safe', {
    type: 'polygon',
    points: [
      [3, 7],
      [4, 7],
      [4, 9],
      [3, 9],
    ],
  });
  // Tracking ids follow this order: A's second video is read before B's first, which overlaps A's first.
  const video = (camera: number, minute: number, tracks: StoredTrackPoint[][]) =>
    insertTrackedVideo(t.deps.db, camera, { filename: `${camera}-${minute}.mp4`, start: T0 + minute * 60_000 }, tracks);
  await video(a, 0, [stored(stander, 20, 10), stored(passer, 9, 10)]);
  await video(a, 2, [stored(wanderer, 20, 10)]);
  await video(c, 0, [stored(stander, 20, 10)]);
  await video(b, 0, [stored(passer, 9, 20), stored(stander, 20, 20)]);
  await video(b, 2, [stored(wanderer, 20, 20), stored(passer, 9, 20)]);
  await video(a, 4, [stored(stander, 20, 10)]);
});
afterAll(async () => t?.cleanup());

describe('figures folded track by track', () => {
  it('are the same in any batch split as all the tracks at once, overlapping cameras joined', async () => {
    const window = { structureId: w.structureId, fromMs: T0, toMs: T0 + WINDOW_MS };
    const head = await figuresHead(t.deps.db, window);
    const trackingIds = head.runs.map((r) => r.trackingId);
    const whole = figuresOf({ ...head, tracks: (await figuresTracks(t.deps.db, trackingIds))! }, window);
    // 8 plan tracks of A and B: the stander, the passer and the wanderer seen by both are 3 visitors, plus B's
    // second passer and A's later stander.
    expect(whole.visitors).toBe(5);
    expect(whole.routes.visitors.length).toBeGreaterThan(0);
    expect(whole.safe_zone_entries[0]!.entries_total).toBe(2);
    expect(whole.frame_heat_maps.map((m) => m.camera_id)).toEqual(w.cameraIds.slice(0, 3));
    for (const budget of [1, 5_000, 1e9]) {
      const fold = new FiguresFold(head, window);
      for await (const batch of trackBatches(t.deps.db, trackingIds, undefined, budget)) fold.measure(batch.tracks);
      const held: { tracking: number; held: number }[] = [];
      for await (const batch of trackBatches(t.deps.db, trackingIds, undefined, budget)) {
        fold.add(batch.tracks);
        held.push({ tracking: batch.tracks[0]!.trackingId, held: fold.heldTracks });
      }
      expect(JSON.stringify(fold.figures())).toBe(JSON.stringify(whole));
      const after = (k: number) => held.filter((h) => h.tracking === trackingIds[k]).at(-1)!.held;
      // A's first two videos wait for B's of the same minutes; C's tracks (no plan) are never held.
      expect(after(1)).toBe(3);
      expect(after(2)).toBe(3);
      // After B's last video all 7 plan tracks are held (more of that video could still come and overlap A's);
      // the next tracking (A's, minutes later) shows B's is complete: everything joined and folded, and A's last
      // video (no unread video of B can overlap it) is folded at once.
      expect(after(4)).toBe(7);
      expect(after(5)).toBe(0);
    }
  });
});
