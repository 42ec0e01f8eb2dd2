import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { startFakeS3, type FakeS3 } from '../../test-support/s3-fake';

/**
 * The app with its objects in a bucket (the in-memory fake of the S3 API): an upload lands in the bucket,
 * the ingest job probes and remuxes it through the local cache, the player gets ranges from the bucket,
 * and a sync finds recordings put into the bucket by someone else.
 */
let fake: FakeS3;
let t: TestApp;
let w: VideoWorld;
let cacheDir: string;
let scratch: string;
let clip: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  fake = startFakeS3('plant');
  cacheDir = mkdtempSync(join(tmpdir(), 'norma-s3app-'));
  t = await createTestApp({
    s3: {
      bucket: 'plant',
      endpoint: fake.endpoint,
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      prefix: 'norma',
      virtualHostedStyle: false,
      cacheDir,
    },
  });
  w = await videoWorld(t);
  scratch = join(cacheDir, 'source.mp4');
  await makeClip(scratch, { faststart: false, seconds: 3, creationTime: '2026-11-17T05:00:00Z' });
  clip = new Uint8Array(await Bun.file(scratch).arrayBuffer());
});
afterAll(async () => {
  await t.cleanup();
  await fake.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

const bucketKeys = () => [...fake.objects.keys()].sort();

describe('the app on an S3 bucket', () => {
  it('uploads into the bucket, ingests through the cache and streams ranges from the bucket', async () => {
    expect(t.deps.storage.isLocal).toBe(false);
    const response = await t.request(`/api/v1/upload?camera_id=${w.cameraIds[1]}&filename=cam2_2026-11-17_10-00-00.mp4`, {
      method: 'POST',
      cookie: w.cookies.assessor,
      body: clip,
      headers: { 'content-type': 'video/mp4' },
    });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(bucketKeys()).toEqual(['norma/recordings/site/cam2/cam2_2026-11-17_10-00-00.mp4']);
    expect(fake.objects.get('norma/recordings/site/cam2/cam2_2026-11-17_10-00-00.mp4')!.bytes).toEqual(clip);
    // The start time came from ffprobe on the cached copy.
    const row = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', result.video_id).executeTakeFirstOrThrow();
    expect(new Date(row.start_time).toISOString()).toBe('2026-11-17T07:00:00.000Z');

    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    const done = await (await t.request(`/api/v1/jobs/${result.job_id}`, { cookie: w.cookies.assessor })).json();
    expect(done).toMatchObject({ status: 'success', progress: 100, result: { action: 'remux' } });
    // The remuxed file replaced the upload in the bucket; no work file ever reached it.
    expect(bucketKeys()).toEqual(['norma/recordings/site/cam2/cam2_2026-11-17_10-00-00.mp4']);
    const stored = fake.objects.get('norma/recordings/site/cam2/cam2_2026-11-17_10-00-00.mp4')!.bytes;
    expect(stored).not.toEqual(clip);
    expect(await t.deps.storage.workFiles()).toEqual([]);

    const whole = await t.request(`/api/v1/video?video_id=${result.video_id}`, { cookie: w.cookies.viewer });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(stored.length));
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(stored);
    const before = fake.requests.filter((r) => r === 'GET object').length;
    const part = await t.request(`/api/v1/video?video_id=${result.video_id}`, { cookie: w.cookies.viewer, headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${stored.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(stored.slice(100, 200));
    expect(fake.requests.filter((r) => r === 'GET object').length).toBeGreaterThan(before);
  });

  it('finds recordings that another system put into the bucket', async () => {
    const key = 'recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4';
    await t.deps.storage.put(key, Bun.file(scratch));
    expect(bucketKeys()).toContain(`norma/${key}`);
    // Finished by its recorder a while ago (a fresh file may still be being written: sync leaves it).
    fake.objects.get(`norma/${key}`)!.modifiedAt = new Date(Date.now() - 60_000);
    const response = await t.request(`/api/v1/sync_videos?structure_id=${w.structureId}`, { cookie: w.cookies.assessor });
    expect(response.status).toBe(200);
    const video = await t.deps.db.selectFrom('videos').selectAll().where('storage_key', '=', key).executeTakeFirst();
    expect(video).toMatchObject({ filename: 'cam1_2026-11-16_09-00-00.mp4', size_bytes: clip.length });
  });

  it('stores a map drawing in the bucket and sends it back from there', async () => {
    const cookie = w.cookies.admin;
    const post = (path: string, body: unknown) => t.request(path, { method: 'POST', cookie, body: JSON.stringify(body) });
    expect((await post('/api/v1/projects/create', { name: 'Бакет' })).status).toBe(200);
    const ring = [
      [30.3, 59.93],
      [30.31, 59.93],
      [30.31, 59.94],
      [30.3, 59.94],
      [30.3, 59.93],
    ];
    const area = { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { type: 'area', type_id: 10 } };
    expect((await post('/api/v1/projects/last/save', { type: 'FeatureCollection', features: [area] })).status).toBe(200);
    const build = await post('/api/v1/dwg/build', { format: 'dxf' });
    expect(build.status).toBe(200);
    const { work_item_id: id } = (await build.json()) as { work_item_id: number };
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    expect(await (await t.request(`/api/v1/dwg/status?work_item_id=${id}`, { cookie })).json()).toMatchObject({ status: 'success' });
    const stored = fake.objects.get(`norma/exports/map/${id}.dxf`);
    expect(stored).toBeDefined();
    const download = await t.request(`/api/v1/dwg/download?work_item_id=${id}`, { cookie });
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(stored!.bytes);
  });
});
