import { readdirSync, utimesSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mp4Layout } from '@norma/workers/ingest';
import { probe } from '@norma/workers/media';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { SYNC_NEEDS_STRUCTURE } from './intake.routes';
import { makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { UNSUPPORTED_FORMAT } from './upload';

let t: TestApp;
let w: VideoWorld;
const past = new Date('2026-11-16T07:45:00Z');

const place = async (key: string, make: (path: string) => Promise<void> | void) => {
  const path = t.deps.storage.pathOf(key);
  await make(path);
  utimesSync(path, past, past);
  return path;
};

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  await place('recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4', (p) => makeClip(p, { faststart: true, audio: 'aac' }));
  // The same recording copied under another name: not a new video.
  await place('recordings/site/cam1/copy-of-first.mp4', (p) => copyFileSync(t.deps.storage.pathOf('recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4'), p));
  await place('recordings/site/cam1/notes.txt', (p) => writeFileSync(p, 'не видео'));
  await place('recordings/site/cam1/.recorder-tmp.mp4', (p) => writeFileSync(p, 'временный файл'));
  await place('recordings/site/cam2/2026-11-16/cam2_2026-11-16_09-00-03.mp4', (p) => makeClip(p, { faststart: false }));
  await place('recordings/site/cam3/lecture.mp4', (p) => makeClip(p, { video: 'mpeg4', faststart: true, creationTime: '2026-11-16T06:30:00Z' }));
  await place('recordings/site/cam4/clip.webm', (p) => makeClip(p, { video: 'vp9' }));
  await place('recordings/site/cam4/broken.mp4', (p) => writeFileSync(p, 'это не видео\n'.repeat(100)));
});
afterAll(async () => t.cleanup());

const sync = (query: string, cookie = w.cookies.assessor) => t.request(`/api/v1/sync_videos?${query}`, { cookie });
const videoRows = () => t.deps.db.selectFrom('videos').selectAll().orderBy('id').execute();

describe('GET /api/v1/sync_videos', () => {
  it('refuses without a structure with the spec text, and checks access', async () => {
    for (const query of ['', 'structure_id=']) {
      const response = await sync(query);
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toBe(SYNC_NEEDS_STRUCTURE);
    }
    expect((await sync('structure_id=abc')).status).toBe(400);
    expect((await sync(`structure_id=${w.foreignStructureId}`)).status).toBe(404);
    expect((await sync(`structure_id=${w.structureId}`, w.cookies.viewer)).status).toBe(403);
    expect((await sync(`structure_id=${w.structureId}`, '')).status).toBe(401);
    expect(await videoRows()).toEqual([]);
  });

  it('registers new recordings once, with their start instants, and queues an ingest job for each', async () => {
    const response = await sync(`structure_id=${w.structureId}`);
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.new_videos).toEqual(['cam1_2026-11-16_09-00-00.mp4', 'cam2_2026-11-16_09-00-03.mp4', 'lecture.mp4', 'broken.mp4', 'clip.webm']);
    const rows = await videoRows();
    expect(result.queued_processing_videos.sort()).toEqual(rows.map((r) => r.storage_key).sort());
    const byName = Object.fromEntries(rows.map((r) => [r.filename, r]));
    // File name, in the organisation's zone (Moscow, UTC+3).
    expect(new Date(byName['cam1_2026-11-16_09-00-00.mp4']!.start_time).toISOString()).toBe('2026-11-16T06:00:00.000Z');
    expect(new Date(byName['cam2_2026-11-16_09-00-03.mp4']!.start_time).toISOString()).toBe('2026-11-16T06:00:03.000Z');
    expect(byName['cam2_2026-11-16_09-00-03.mp4']!.storage_key).toBe('recordings/site/cam2/2026-11-16/cam2_2026-11-16_09-00-03.mp4');
    // Container creation time (ffprobe).
    expect(new Date(byName['lecture.mp4']!.start_time).toISOString()).toBe('2026-11-16T06:30:00.000Z');
    // Neither: the file's time.
    expect(byName['clip.webm']!.start_time).toBe(past.getTime());
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'queued', duration: null });
      expect(row.content_hash).toMatch(/^[0-9a-f]{64}$/);
      const job = await t.deps.db.selectFrom('jobs').selectAll().where('id', '=', row.job_id!).executeTakeFirstOrThrow();
      expect(job).toMatchObject({ kind: 'ingest_video', status: 'queued', organization_id: w.admin.organizationId });
      expect(JSON.parse(job.payload)).toEqual({ video_id: row.id });
    }
    const again = await (await sync(`structure_id=${w.structureId}`)).json();
    expect(again.new_videos).toEqual([]);
    expect(again.queued_processing_videos).toHaveLength(5);
    expect(await videoRows()).toHaveLength(5);
  });

  it('skips a file still being written', async () => {
    const key = 'recordings/site/cam1/cam1_2026-11-16_09-02-30.mp4';
    await makeClip(t.deps.storage.pathOf(key), { seconds: 1 });
    const result = await (await sync(`structure_id=${w.structureId}`)).json();
    expect(result.new_videos).toEqual([]);
    await t.deps.storage.remove(key);
  });
});

describe('ingest_video jobs', () => {
  it('make every recording browser-ready (as is, remux, transcode, other container) or fail with a clear message', async () => {
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    const rows = await videoRows();
    const byName = Object.fromEntries(rows.map((r) => [r.filename, r]));
    const jobOf = async (name: string) => {
      const response = await t.request(`/api/v1/jobs/${byName[name]!.job_id}`, { cookie: w.cookies.viewer });
      expect(response.status).toBe(200);
      return response.json();
    };
    for (const [name, action] of [
      ['cam1_2026-11-16_09-00-00.mp4', 'none'],
      ['cam2_2026-11-16_09-00-03.mp4', 'remux'],
      ['lecture.mp4', 'transcode'],
      ['clip.mp4', 'transcode'],
    ] as const) {
      const row = byName[name]!;
      expect(row.status, name).toBe('ready');
      expect(Math.abs(row.duration! - 4), name).toBeLessThan(0.3);
      const job = await jobOf(name);
      expect(job, name).toMatchObject({ status: 'success', progress: 100, error: null, result: { video_id: row.id, action } });
      const path = t.deps.storage.pathOf(row.storage_key);
      expect((await probe(path)).videoCodec, name).toBe('h264');
      expect((await mp4Layout(path)).moovFirst, name).toBe(true);
      expect(row.size_bytes).toBe(Bun.file(path).size);
      // Norma's own encode (10 fps clips) keeps every second frame a reference for the vision decoder; a file served or copied as it came is unknown.
      expect(row.reference_step, name).toBe(action === 'transcode' ? 2 : null);
      expect(job.result.reference_step, name).toBe(row.reference_step);
    }
    // The WebM became an MP4 beside it; the original is gone; its content hash is kept.
    expect(byName['clip.mp4']!.storage_key).toBe('recordings/site/cam4/clip.mp4');
    expect(await t.deps.storage.exists('recordings/site/cam4/clip.webm')).toBe(false);
    // No work files are left in the camera folders.
    for (let key = 1; key <= 4; key++) {
      expect(readdirSync(dirname(t.deps.storage.pathOf(`recordings/site/cam${key}/x`))).filter((f) => f.startsWith('.ingest'))).toEqual([]);
    }
    const broken = byName['broken.mp4']!;
    expect(broken.status).toBe('failed');
    expect(broken.error).toMatch(/^Файл не является видеозаписью в поддерживаемом формате/);
    const failedJob = await jobOf('broken.mp4');
    expect(failedJob).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failedJob.error).toMatch(/^Файл не является видеозаписью в поддерживаемом формате/);
  });

  it('after processing, a sync finds nothing new and nothing waiting', async () => {
    const result = await (await sync(`structure_id=${w.structureId}`)).json();
    expect(result).toEqual({ new_videos: [], queued_processing_videos: [] });
  });
});

describe('POST /api/v1/upload', () => {
  const upload = (query: string, body: BodyInit | null, cookie = w.cookies.assessor, headers: Record<string, string> = {}) =>
    t.request(`/api/v1/upload?${query}`, { method: 'POST', cookie, body, headers: { 'content-type': 'video/mp4', ...headers } });
  let clip: Uint8Array<ArrayBuffer>;

  beforeAll(async () => {
    const scratch = t.deps.storage.pathOf('scratch/upload-source.mp4');
    await makeClip(scratch, { faststart: false, seconds: 3, creationTime: '2026-11-17T05:00:00Z' });
    clip = new Uint8Array(await Bun.file(scratch).arrayBuffer());
  });

  const camera2Files = () => readdirSync(t.deps.storage.pathOf('recordings/site/cam2'));

  it('stores the file in the camera folder, registers the video and queues its job, which makes it ready', async () => {
    const response = await upload(`camera_id=${w.cameraIds[1]}&filename=cam2_2026-11-17_10-00-00.mp4`, clip);
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result).toMatchObject({ filename: 'cam2_2026-11-17_10-00-00.mp4' });
    const row = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', result.video_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      storage_key: 'recordings/site/cam2/cam2_2026-11-17_10-00-00.mp4',
      status: 'queued',
      job_id: result.job_id,
      size_bytes: clip.length,
    });
    expect(new Date(row.start_time).toISOString()).toBe('2026-11-17T07:00:00.000Z');
    expect(new Uint8Array(await t.deps.storage.file(row.storage_key).arrayBuffer())).toEqual(clip);
    const queued = await (await t.request(`/api/v1/jobs/${result.job_id}`, { cookie: w.cookies.assessor })).json();
    expect(queued).toMatchObject({ kind: 'ingest_video', status: 'queued', progress: 0 });
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    const done = await (await t.request(`/api/v1/jobs/${result.job_id}`, { cookie: w.cookies.assessor })).json();
    expect(done).toMatchObject({ status: 'success', progress: 100, result: { action: 'remux' } });
    const meta = await (await t.request(`/api/v1/video_meta/${result.video_id}`, { cookie: w.cookies.assessor })).json();
    expect(meta).toMatchObject({ status: 'ready', camera_key: 2 });
    expect(Math.abs(meta.duration - 3)).toBeLessThan(0.3);
    const activities = await (await t.request(`/api/v1/activities?video_id=${result.video_id}`, { cookie: w.cookies.assessor })).json();
    expect(activities).toEqual([expect.objectContaining({ author_name: 'Мария Разметчица', comment: 'Видео загружено' })]);
  });

  it('refuses the same content for the camera again with 409, and says so to the loader before it sends', async () => {
    const hash = new Bun.CryptoHasher('sha256').update(clip).digest('hex');
    const check = await t.request(`/api/v1/upload_check?camera_id=${w.cameraIds[1]}&content_hash=${hash}`, { cookie: w.cookies.assessor });
    expect(await check.json()).toMatchObject({ exists: true, status: 'ready' });
    const before = camera2Files();
    const response = await upload(`camera_id=${w.cameraIds[1]}&filename=another-name.mp4`, clip);
    expect(response.status).toBe(409);
    expect((await response.json()).error.message).toBe('Эта запись уже загружена для этой камеры');
    expect(camera2Files()).toEqual(before);
    const other = await t.request(`/api/v1/upload_check?camera_id=${w.cameraIds[1]}&content_hash=${'0'.repeat(64)}`, { cookie: w.cookies.assessor });
    expect(await other.json()).toEqual({ exists: false, video_id: null, status: null });
    expect((await t.request(`/api/v1/upload_check?camera_id=${w.cameraIds[1]}&content_hash=xyz`, { cookie: w.cookies.assessor })).status).toBe(400);
  });

  it('keeps a second file of the same name beside the first', async () => {
    const other = new Uint8Array(clip);
    other[other.length - 1] ^= 0xff;
    const response = await upload(`camera_id=${w.cameraIds[1]}&filename=cam2_2026-11-17_10-00-00.mp4`, other);
    expect(response.status).toBe(200);
    expect((await response.json()).filename).toBe('cam2_2026-11-17_10-00-00~2.mp4');
  });

  it('refuses extensions that are no accepted video container, naming what is accepted, and bad parameters, storing nothing', async () => {
    const before = camera2Files();
    const videosBefore = (await videoRows()).length;
    for (const name of ['clip.flv', 'clip.wmv', 'clip.mpg', 'notes.txt', 'noext']) {
      const wrong = await upload(`camera_id=${w.cameraIds[1]}&filename=${name}`, clip);
      expect(wrong.status, name).toBe(400);
      expect((await wrong.json()).error.message).toBe(UNSUPPORTED_FORMAT);
    }
    expect(UNSUPPORTED_FORMAT).toBe(
      'Ошибка: допускаются видеофайлы MP4, MOV, AVI, MKV, WebM, MPEG-TS (.mp4, .m4v, .mov, .3gp, .mkv, .webm, .avi, .ts, .mts, .m2ts)',
    );
    for (const [query, status] of [
      [`filename=a.mp4`, 400],
      [`camera_id=abc&filename=a.mp4`, 400],
      [`camera_id=${w.cameraIds[1]}`, 400],
      [`camera_id=${w.cameraIds[1]}&filename=../escape.mp4`, 400],
      [`camera_id=${w.cameraIds[1]}&filename=.hidden.mp4`, 400],
      [`camera_id=${w.foreignCameraId}&filename=a.mp4`, 404],
      [`camera_id=987654&filename=a.mp4`, 404],
    ] as const) {
      expect((await upload(query, clip)).status, query).toBe(status);
    }
    expect((await upload(`camera_id=${w.cameraIds[1]}&filename=a.mp4`, clip, w.cookies.viewer)).status).toBe(403);
    expect((await upload(`camera_id=${w.cameraIds[1]}&filename=a.mp4`, clip, '')).status).toBe(401);
    expect((await upload(`camera_id=${w.cameraIds[1]}&filename=a.mp4`, new Uint8Array())).status).toBe(400);
    expect(camera2Files()).toEqual(before);
    expect(await videoRows()).toHaveLength(videosBefore);
  });

  it('transcodes a WebM (VP9) named .mp4 in place into a browser-ready MP4', async () => {
    const scratch = t.deps.storage.pathOf('scratch/vp9.webm');
    await makeClip(scratch, { video: 'vp9', seconds: 3 });
    const response = await upload(`camera_id=${w.cameraIds[3]}&filename=renamed.mp4`, Bun.file(scratch));
    expect(response.status).toBe(200);
    const { job_id, video_id } = await response.json();
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    const job = await (await t.request(`/api/v1/jobs/${job_id}`, { cookie: w.cookies.assessor })).json();
    expect(job).toMatchObject({ status: 'success', result: { action: 'transcode', storage_key: 'recordings/site/cam4/renamed.mp4' } });
    expect(job.result.reasons.join(' ')).toContain('vp9');
    const path = t.deps.storage.pathOf('recordings/site/cam4/renamed.mp4');
    expect((await probe(path)).videoCodec).toBe('h264');
    expect(await mp4Layout(path)).toMatchObject({ isoBmff: true, moovFirst: true });
    const video = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', video_id).executeTakeFirstOrThrow();
    expect(video).toMatchObject({ status: 'ready', filename: 'renamed.mp4', size_bytes: Bun.file(path).size });
  });

  it('accepts a file that is not a video, whose job then fails with a clear Russian message', async () => {
    const response = await upload(`camera_id=${w.cameraIds[2]}&filename=fake.mp4`, 'это текст, а не видео\n'.repeat(200));
    expect(response.status).toBe(200);
    const { job_id, video_id } = await response.json();
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    const job = await (await t.request(`/api/v1/jobs/${job_id}`, { cookie: w.cookies.assessor })).json();
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^Файл не является видеозаписью в поддерживаемом формате/);
    const meta = await (await t.request(`/api/v1/video_meta/${video_id}`, { cookie: w.cookies.assessor })).json();
    expect(meta).toMatchObject({ status: 'failed', error: job.error });
  });
});

describe('upload size limit', () => {
  let small: TestApp;
  let cookie: string;
  let cameraId: number;

  beforeAll(async () => {
    small = await createTestApp({ uploadMaxBytes: 10_000 });
    const world = await videoWorld(small);
    cookie = world.cookies.assessor;
    cameraId = world.cameraIds[0]!;
  });
  afterAll(async () => small.cleanup());

  const folderEntries = () => {
    try {
      return readdirSync(small.deps.storage.pathOf('recordings/site/cam1'));
    } catch {
      return [];
    }
  };

  it('answers 413 in JSON to a declared size over the limit and to a streamed body that grows past it, keeping nothing', async () => {
    const declared = await small.request(`/api/v1/upload?camera_id=${cameraId}&filename=big.mp4`, {
      method: 'POST',
      cookie,
      body: new Uint8Array(20_000),
      headers: { 'content-type': 'video/mp4' },
    });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe('payload_too_large');
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 50_000) return controller.close();
        sent += 4096;
        controller.enqueue(new Uint8Array(4096));
      },
    });
    const streamed = await small.request(`/api/v1/upload?camera_id=${cameraId}&filename=big.mp4`, {
      method: 'POST',
      cookie,
      body: stream,
      headers: { 'content-type': 'video/mp4' },
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await streamed.json()).error.message).toContain('больше допустимого размера');
    expect(folderEntries()).toEqual([]);
    expect(await small.deps.db.selectFrom('videos').select('id').execute()).toEqual([]);
  });
});
