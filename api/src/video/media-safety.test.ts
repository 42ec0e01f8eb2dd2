import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../job-registry';
import { mp4Layout } from '@norma/workers/ingest';
import { mediaTools, probe, run } from '@norma/workers/media';
import { configureMediaLimits, DEFAULT_MEDIA_LIMITS } from '@norma/workers/media-limits';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

/**
 * Issue 39, finding 1: an uploaded or synced file is read only as the media container its bytes are.
 * Each file below is a trick that once made ffmpeg read what the file names — another organisation's
 * recording, a file outside the data folder, a loopback URL — or an image or a list of files taken
 * for a video. Each is refused with the same Russian message, nothing of it becomes a video, and
 * nothing it names is read.
 */
let t: TestApp;
let w: VideoWorld;
let outside: string;
let loopback: ReturnType<typeof Bun.serve>;
let loopbackRequests = 0;

const REFUSED = /^Файл не является видеозаписью в поддерживаемом формате \(MP4\/MOV, MKV\/WebM, AVI, MPEG-TS\)/;
const VICTIM_KEY = 'recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4';
const RIVAL_FOLDER = 'recordings/rival/cam1';

const playlist = (...segments: string[]) =>
  ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:10', ...segments.flatMap((s) => ['#EXTINF:4.0,', s]), '#EXT-X-ENDLIST', ''].join('\n');

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  // The demo organisation's recording, and a video file outside the data folder altogether.
  await makeClip(t.deps.storage.pathOf(VICTIM_KEY), { seconds: 4, faststart: true });
  outside = mkdtempSync(join(tmpdir(), 'norma-outside-'));
  await makeClip(join(outside, 'private.ts'), { seconds: 4, format: 'mpegts' });
  const served = await Bun.file(join(outside, 'private.ts')).arrayBuffer();
  loopback = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch() {
      loopbackRequests++;
      return new Response(served, { headers: { 'content-type': 'video/mp2t' } });
    },
  });
});
afterAll(async () => {
  loopback?.stop(true);
  rmSync(outside, { recursive: true, force: true });
  await t.cleanup();
});

/** The rival organisation (self-registered) uploads `body` as an .mp4 to its own camera; its jobs run. */
async function rivalUpload(filename: string, body: string | Uint8Array<ArrayBuffer>) {
  const response = await t.request(`/api/v1/upload?camera_id=${w.foreignCameraId}&filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    cookie: w.cookies.rival,
    body,
    headers: { 'content-type': 'video/mp4' },
  });
  expect(response.status).toBe(200);
  const { video_id, job_id } = (await response.json()) as { video_id: number; job_id: number };
  const runner = startWorkers(t.deps, { pollMs: 20 });
  await runner.drain();
  await runner.stop();
  const job = await (await t.request(`/api/v1/jobs/${job_id}`, { cookie: w.cookies.rival })).json();
  const video = await t.deps.db
    .selectFrom('videos')
    .select(['status', 'error', 'duration', 'storage_key'])
    .where('id', '=', video_id)
    .executeTakeFirstOrThrow();
  return { job, video };
}

const rivalReadyVideos = () => t.deps.db.selectFrom('videos').select('id').where('camera_id', '=', w.foreignCameraId).where('status', '=', 'ready').execute();

describe('uploaded files that name other files or URLs are refused before any decoder reads them', () => {
  const victimPath = () => t.deps.storage.pathOf(VICTIM_KEY);
  const fromRivalFolder = (target: string) => relative(dirname(t.deps.storage.pathOf(`${RIVAL_FOLDER}/x.mp4`)), target);

  it.each([
    ['an HLS playlist naming another organisation’s recording', () => playlist(fromRivalFolder(victimPath()))],
    ['an HLS playlist naming a file outside the data folder', () => playlist(join(outside, 'private.ts'))],
    ['an HLS playlist naming a loopback URL', () => playlist(`http://127.0.0.1:${loopback.port}/private.ts`)],
    ['a concat list', () => `ffconcat version 1.0\nfile '${fromRivalFolder(victimPath())}'\nfile private.mp4\n`],
  ])('%s', async (_name, content) => {
    const { job, video } = await rivalUpload('evil.mp4', content());
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(REFUSED);
    expect(video).toMatchObject({ status: 'failed', duration: null });
    expect(video.error).toBe(job.error);
    // The uploaded bytes are gone and nothing was written beside them.
    expect(readdirSync(t.deps.storage.pathOf(RIVAL_FOLDER))).toEqual([]);
    expect(await rivalReadyVideos()).toEqual([]);
    expect(loopbackRequests).toBe(0);
  });

  it('an image (one frame of an image sequence) named .mp4', async () => {
    const jpeg = join(outside, 'frame.jpg');
    await run((await mediaTools()).ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', jpeg]);
    const { job } = await rivalUpload('frame%03d.mp4', new Uint8Array(await Bun.file(jpeg).arrayBuffer()));
    expect(job.error).toMatch(REFUSED);
    expect(await rivalReadyVideos()).toEqual([]);
  });

  it('the message names no server path', async () => {
    const { job } = await rivalUpload('evil.mp4', playlist(join(outside, 'private.ts')));
    expect(job.error).not.toContain(t.deps.storage.pathOf(RIVAL_FOLDER));
    expect(job.error).not.toContain(outside);
    expect(job.error).not.toMatch(/norma-(test|outside)-/);
  });
});

describe('a playlist in a camera folder (sync) is refused the same way and left where the recorder put it', () => {
  it('is not registered as a video with anything of what it names', async () => {
    const key = `${RIVAL_FOLDER}/cam1_2026-11-16_09-00-00.mp4`;
    const path = t.deps.storage.pathOf(key);
    mkdirSync(dirname(path), { recursive: true });
    const victim = relative(dirname(path), t.deps.storage.pathOf(VICTIM_KEY));
    writeFileSync(path, playlist(victim, victim));
    const past = new Date('2026-11-16T12:00:00Z');
    utimesSync(path, past, past);
    const sync = await t.request(`/api/v1/sync_videos?structure_id=${w.foreignStructureId}`, { cookie: w.cookies.rival });
    expect(sync.status).toBe(200);
    const runner = startWorkers(t.deps, { pollMs: 20 });
    await runner.drain();
    await runner.stop();
    const video = await t.deps.db.selectFrom('videos').select(['status', 'error']).where('storage_key', '=', key).executeTakeFirstOrThrow();
    expect(video.status).toBe('failed');
    expect(video.error).toMatch(REFUSED);
    expect(await rivalReadyVideos()).toEqual([]);
    expect(await Bun.file(path).exists()).toBe(true);
  });
});

describe('real containers still pass: the same recording as MP4, MKV, AVI and MPEG-TS', () => {
  it.each([
    ['mp4', { format: 'mp4' as const }],
    ['mkv', { format: 'matroska' as const }],
    ['avi', { format: 'avi' as const, video: 'mpeg4' as const }],
    ['ts', { format: 'mpegts' as const }],
  ])('.%s becomes a ready video', async (extension, spec) => {
    const source = join(outside, `clip.${extension}`);
    await makeClip(source, { seconds: 3, ...spec });
    const { job, video } = await rivalUpload(`clip-${extension}.mp4`, new Uint8Array(await Bun.file(source).arrayBuffer()));
    expect(job.status).toBe('success');
    expect(video.status).toBe('ready');
    expect(video.duration).toBeCloseTo(3, 0);
  });
});

/**
 * Issue 41, item 2: the cameras' and phones' own files, under their own names, are taken and made
 * what a browser plays (H.264 in MP4, index first) behind the same container rules. Each is made
 * here with Debian's ffmpeg encoders, a second of 320×240.
 */
describe('camera and phone formats are accepted under their own extensions and converted to a playable MP4', () => {
  const encode = async (path: string, codec: string[], format: string) => {
    const { ffmpeg } = await mediaTools();
    const input = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10:duration=2'];
    await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...input, ...codec, '-f', format, path]);
  };
  it.each([
    ['camera.avi', 'a camera’s AVI with MS-MPEG4v3', ['-c:v', 'msmpeg4'], 'avi'],
    ['divx.avi', 'an AVI with MPEG-4 part 2', ['-c:v', 'mpeg4', '-q:v', '5'], 'avi'],
    ['mjpeg.avi', 'an MJPEG AVI', ['-c:v', 'mjpeg', '-q:v', '5', '-pix_fmt', 'yuvj420p'], 'avi'],
    ['phone.mov', 'a phone’s MOV', ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], 'mov'],
    ['clip.mkv', 'an MKV', ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], 'matroska'],
    ['stream.ts', 'an MPEG-TS', ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], 'mpegts'],
    ['hevc.mp4', 'HEVC in MP4', ['-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hvc1', '-x265-params', 'log-level=error'], 'mp4'],
  ])('%s (%s)', async (name, _what, codec, format) => {
    const source = join(outside, `source-${name}`);
    await encode(source, codec, format);
    const { job, video } = await rivalUpload(name, new Uint8Array(await Bun.file(source).arrayBuffer()));
    expect(job.status, JSON.stringify(job.error)).toBe('success');
    expect(video.status).toBe('ready');
    expect(video.duration).toBeCloseTo(2, 0);
    expect(video.storage_key.endsWith('.mp4')).toBe(true);
    const path = t.deps.storage.pathOf(video.storage_key);
    expect((await probe(path)).videoCodec).toBe('h264');
    expect(await mp4Layout(path)).toMatchObject({ isoBmff: true, moovFirst: true });
  });
});

describe('bounds and caps end a job with a plain reason and hold no slot', () => {
  it('a small upload of 4352×4352 frames is refused from its header, and the file is kept', async () => {
    const source = join(outside, 'huge.mp4');
    await makeClip(source, { seconds: 0.3, fps: 10, size: '4352x4352' });
    const bytes = new Uint8Array(await Bun.file(source).arrayBuffer());
    expect(bytes.length).toBeLessThan(500_000);
    const { job, video } = await rivalUpload('huge.mp4', bytes);
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job.error).toMatch(/^Кадр 4352×4352 больше допустимого: сторона до 4[\s\u00a0]096 пикселей, площадь до 12,6 Мп$/);
    expect(video).toMatchObject({ status: 'failed', duration: null });
    expect(await t.deps.storage.exists(video.storage_key)).toBe(true);
  });

  it('a conversion past its memory cap ends the job at once with the reason', async () => {
    const source = join(outside, 'hd.avi');
    await makeClip(source, { seconds: 2, fps: 10, size: '1280x720', video: 'mpeg4', format: 'avi' });
    // Room for ffprobe (about 300 MB of libraries), none for x264 on a 720p picture.
    configureMediaLimits({ ...DEFAULT_MEDIA_LIMITS, memoryBaseBytes: 450 * 1024 ** 2, memoryPerPixel: 0 });
    try {
      const { job, video } = await rivalUpload('hd.mp4', new Uint8Array(await Bun.file(source).arrayBuffer()));
      expect(job).toMatchObject({ status: 'failed', attempts: 1 });
      expect(job.error).toBe('Запись не обработана: обработке не хватило отведённой памяти (450 МБ) и она остановлена');
      expect(video.status).toBe('failed');
    } finally {
      configureMediaLimits(DEFAULT_MEDIA_LIMITS);
    }
  });
});
