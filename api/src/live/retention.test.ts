import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { sweepRetention } from './retention';
import { insertSegment } from './service';

/** Retention removes only the recorder's own videos of the camera, by age and by total size (issue 45). */

let t: TestApp;
let w: VideoWorld;
const DAY = 86_400_000;
const now = Date.parse('2026-11-29T12:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
});

afterAll(async () => {
  await t?.cleanup();
});

/** A video with a stored file; `recorded`: made by the recorder (a stream_segments row). */
async function video(cameraId: number, name: string, start: number, sizeBytes: number, recorded: boolean) {
  const key = `recordings/site/live-${cameraId}/${name}`;
  await t.deps.storage.put(key, new Uint8Array(16));
  const id = await insertVideo(t.deps.db, cameraId, { filename: name, start, duration: 300, key });
  if (recorded) await insertSegment(t.deps.db, { cameraId, videoId: id, start, end: start + 300_000, sizeBytes });
  return { id, key };
}

const exists = async (id: number) => (await t.deps.db.selectFrom('videos').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

describe('retention', () => {
  it('by days: removes the recorded videos that ended before the cutoff with their files, never an upload', async () => {
    const cam = w.cameraIds[0]!;
    const old = await video(cam, 'old.mp4', now - 3 * DAY, 1000, true);
    const fresh = await video(cam, 'fresh.mp4', now - DAY / 2, 1000, true);
    const upload = await video(cam, 'upload.mp4', now - 10 * DAY, 1000, false);
    expect(await sweepRetention(t.deps, { camera_id: cam, retention_days: 2, retention_gb: null }, now)).toBe(1);
    expect(await exists(old.id)).toBe(false);
    expect(await t.deps.storage.exists(old.key)).toBe(false);
    expect(await exists(fresh.id)).toBe(true);
    expect(await exists(upload.id)).toBe(true);
    expect(await t.deps.storage.exists(upload.key)).toBe(true);
    // Nothing set: nothing removed.
    expect(await sweepRetention(t.deps, { camera_id: cam, retention_days: null, retention_gb: null }, now + 100 * DAY)).toBe(0);
    expect(await exists(fresh.id)).toBe(true);
  });

  it('by size: keeps the newest within the budget, removes the older ones; another camera is untouched', async () => {
    const cam = w.cameraIds[1]!;
    const gb = 1024 ** 3;
    const a = await video(cam, 'a.mp4', now - 3 * 3600_000, Math.round(0.4 * gb), true);
    const b = await video(cam, 'b.mp4', now - 2 * 3600_000, Math.round(0.4 * gb), true);
    const c = await video(cam, 'c.mp4', now - 1 * 3600_000, Math.round(0.4 * gb), true);
    const other = await video(w.cameraIds[2]!, 'other.mp4', now - 5 * 3600_000, Math.round(0.4 * gb), true);
    expect(await sweepRetention(t.deps, { camera_id: cam, retention_days: 365, retention_gb: 1 }, now)).toBe(1);
    expect([await exists(a.id), await exists(b.id), await exists(c.id), await exists(other.id)]).toEqual([false, true, true, true]);
  });
});
