import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '@norma/workers/ingest';
import { probe } from '@norma/workers/media';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

/**
 * Issue 24: a recording cut short (an interrupted copy: the index says 30 s, half the data is there)
 * is detected at ingest and marked damaged with the reason, instead of becoming a normal, shorter video.
 */
let t: TestApp;
let w: VideoWorld;

/** The first half of a whole clip's bytes, as an interrupted copy leaves it. */
const cutInHalf = (whole: string, cut: string) => {
  const bytes = readFileSync(whole);
  writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
};

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  const path = (key: string) => t.deps.storage.pathOf(key);
  await makeClip(path('recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4'), { seconds: 30, faststart: true });
  await makeClip(path('scratch/whole.mp4'), { seconds: 30, faststart: true });
  cutInHalf(path('scratch/whole.mp4'), path('recordings/site/cam1/cam1_2026-11-16_10-00-00.mp4'));
  // Another codec: the browser needs a transcode, which keeps only what can be read.
  await makeClip(path('scratch/mpeg4.mp4'), { seconds: 30, faststart: true, video: 'mpeg4' });
  cutInHalf(path('scratch/mpeg4.mp4'), path('recordings/site/cam1/cam1_2026-11-16_11-00-00.mp4'));
  // Files the recorder finished long ago (a fresh file may still be being written: sync waits for it).
  const past = new Date('2026-11-16T12:00:00Z');
  for (const hour of ['09', '10', '11']) utimesSync(path(`recordings/site/cam1/cam1_2026-11-16_${hour}-00-00.mp4`), past, past);
});
afterAll(async () => t.cleanup());

const videos = () => t.deps.db.selectFrom('videos').select(['id', 'filename', 'status', 'duration', 'damage', 'error']).orderBy('filename').execute();

describe('damaged recordings', () => {
  it('the integrity check tells a whole clip from one cut in half, whose header still says 30 s', async () => {
    const whole = t.deps.storage.pathOf('scratch/whole.mp4');
    const cut = t.deps.storage.pathOf('recordings/site/cam1/cam1_2026-11-16_10-00-00.mp4');
    expect((await probe(cut)).durationSeconds).toBeCloseTo(30, 0);
    expect(await checkIntegrity(whole, 30)).toEqual({ declaredSeconds: 30, readableSeconds: 30, damage: null });
    const damaged = await checkIntegrity(cut, 30);
    expect(damaged.readableSeconds).toBeGreaterThan(5);
    expect(damaged.readableSeconds).toBeLessThan(25);
    expect(damaged.damage).toMatch(/^Запись повреждена: файл обрезан — заявлено 30 с, читается [\d,]+ с/);
  });

  it('ingest marks a cut recording damaged, with the readable duration, and the API shows why', async () => {
    expect((await t.request(`/api/v1/sync_videos?structure_id=${w.structureId}`, { cookie: w.cookies.assessor })).status).toBe(200);
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    const rows = await videos();
    const [whole, cut, transcoded] = rows;
    expect(whole).toMatchObject({ status: 'ready', damage: null });
    expect(whole!.duration).toBeCloseTo(30, 0);
    expect(cut).toMatchObject({ status: 'ready', damage: expect.stringMatching(/^Запись повреждена: файл обрезан — заявлено 30 с/) });
    expect(cut!.duration).toBeLessThan(25);
    expect(transcoded).toMatchObject({ status: 'ready', damage: expect.stringMatching(/^Запись повреждена/) });
    expect(transcoded!.duration).toBeLessThan(25);

    const meta = await (await t.request(`/api/v1/video_meta/${cut!.id}`, { cookie: w.cookies.viewer })).json();
    expect(meta.damage).toBe(cut!.damage);
    const list = await (await t.request(`/api/v1/get_tasks?structure_id=${w.structureId}&option=all&offset=0&limit=10`, { cookie: w.cookies.viewer })).json();
    const damage = Object.fromEntries(list.elements.map((e: { video: { filename: string; damage: string | null } }) => [e.video.filename, e.video.damage]));
    expect(damage).toEqual({
      'cam1_2026-11-16_09-00-00.mp4': null,
      'cam1_2026-11-16_10-00-00.mp4': cut!.damage,
      'cam1_2026-11-16_11-00-00.mp4': transcoded!.damage,
    });
  });
});
