import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../test-support/test-clips';
import { containerOf, detectContainer, SNIFF_BYTES, UnsupportedContainerError } from './container';
import { mediaTools, probe, run } from './ffmpeg';
import { inspectRecording } from './ingest';
import { checkBounds, DEFAULT_MEDIA_LIMITS, decodeCaps, MediaRefusedError } from './limits';
import { spawnCapped } from './process';
import { decodeFrames } from '../vision/frames';

/** Issue 39: containers told from bytes, bounds on the header, caps on every media process. */
let dir: string;
const file = (name: string) => join(dir, name);
const head = (name: string) => new Uint8Array(readFileSync(file(name)).subarray(0, SNIFF_BYTES));

/**
 * A copy of an MP4 whose header claims three days (mvhd, mdhd and tkhd durations rewritten); its
 * packets are the original two seconds.
 */
function claimThreeDays(source: string, target: string) {
  const bytes = readFileSync(source);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const find = (tag: string, from = 0) => bytes.indexOf(Buffer.from(tag, 'latin1'), from);
  const movieScale = view.getUint32(find('mvhd') + 16);
  for (const [tag, durationAt] of [
    ['mvhd', 20],
    ['mdhd', 20],
    ['tkhd', 24],
  ] as const) {
    for (let at = find(tag); at >= 0; at = find(tag, at + 4)) {
      expect(bytes[at + 4], 'version 0 boxes').toBe(0);
      const scale = tag === 'tkhd' ? movieScale : view.getUint32(at + 16);
      view.setUint32(at + durationAt, scale * 3 * 86_400);
    }
  }
  writeFileSync(target, bytes);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'norma-media-safety-'));
  await Promise.all([
    makeClip(file('clip.mp4'), { seconds: 2, faststart: true }),
    makeClip(file('clip.mkv'), { seconds: 2, format: 'matroska' }),
    makeClip(file('clip.webm'), { seconds: 2, video: 'vp9' }),
    makeClip(file('clip.avi'), { seconds: 2, video: 'mpeg4', format: 'avi' }),
    makeClip(file('clip.ts'), { seconds: 2, format: 'mpegts' }),
    makeClip(file('huge.mp4'), { seconds: 0.2, fps: 10, size: '4352x4352' }),
  ]);
  const { ffmpeg } = await mediaTools();
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', file('frame.jpg')]);
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', file('frame.png')]);
  claimThreeDays(file('clip.mp4'), file('three-days.mp4'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('containerOf: the container from the first bytes', () => {
  it.each([
    ['clip.mp4', 'mov'],
    ['clip.mkv', 'matroska'],
    ['clip.webm', 'matroska'],
    ['clip.avi', 'avi'],
    ['clip.ts', 'mpegts'],
  ])('%s is %s', (name, demuxer) => {
    expect(containerOf(head(name))?.demuxer).toBe(demuxer);
  });

  it('an M2TS stream (192-byte packets, as AVCHD cameras write) is MPEG-TS', async () => {
    const { ffmpeg } = await mediaTools();
    await run(ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      file('clip.ts'),
      '-c',
      'copy',
      '-f',
      'mpegts',
      '-mpegts_m2ts_mode',
      '1',
      file('clip.m2ts'),
    ]);
    expect(head('clip.m2ts')[0]).not.toBe(0x47);
    expect(containerOf(head('clip.m2ts'))?.demuxer).toBe('mpegts');
    expect((await probe(file('clip.m2ts'))).videoCodec).toBe('h264');
  });

  it.each([
    ['an HLS playlist', '#EXTM3U\n#EXTINF:4,\n../../site/cam1/a.mp4\n'],
    ['a concat list', "ffconcat version 1.0\nfile 'a.mp4'\n"],
    ['an SDP description', 'v=0\no=- 0 0 IN IP4 127.0.0.1\nm=video 5004 RTP/AVP 96\n'],
    ['text', 'это не видео\n'.repeat(40)],
    ['nothing', ''],
  ])('%s is none', (_name, text) => {
    expect(containerOf(new TextEncoder().encode(text))).toBeNull();
  });

  it.each(['frame.jpg', 'frame.png'])('a picture (%s) is none', (name) => {
    expect(containerOf(head(name))).toBeNull();
  });

  it('detectContainer refuses such a file with the Russian message naming what is accepted', async () => {
    writeFileSync(file('list.mp4'), '#EXTM3U\n#EXTINF:4,\nhttp://127.0.0.1:9/a.ts\n');
    await expect(detectContainer(file('list.mp4'))).rejects.toThrow(UnsupportedContainerError);
    await expect(inspectRecording(file('list.mp4'))).rejects.toThrow(
      /^Файл не является видеозаписью в поддерживаемом формате \(MP4\/MOV, MKV\/WebM, AVI, MPEG-TS\)/,
    );
    await expect(decodeFrames(file('list.mp4'), { startSecond: 0, endSecond: 1, fps: 1, width: 16, height: 16 }, () => {})).rejects.toThrow(
      UnsupportedContainerError,
    );
  });

  it('a real file read as its container gives the same header as before', async () => {
    const info = await probe(file('clip.avi'));
    expect(info).toMatchObject({ videoCodec: 'mpeg4', width: 320, height: 240, frameRate: 10, container: { demuxer: 'avi' } });
    expect(info.durationSeconds).toBeCloseTo(2, 1);
  });
});

describe('bounds, checked on the header before any decoding', () => {
  it('checkBounds refuses a picture, a rate or a length beyond the defaults and passes a 12 Mp camera', () => {
    const shape = { width: 4096, height: 3072, frameRate: 25, durationSeconds: 3600 };
    expect(() => checkBounds(shape)).not.toThrow();
    expect(() => checkBounds({ ...shape, width: 8192, height: 8192 })).toThrow(/^Кадр 8192×8192 больше допустимого: сторона до 4[\s\u00a0]096 пикселей/);
    expect(() => checkBounds({ ...shape, width: 4096, height: 4096 })).toThrow(MediaRefusedError);
    expect(() => checkBounds({ ...shape, frameRate: 240 })).toThrow(/^Частота 240 кадров в секунду больше допустимой \(120\)/);
    expect(() => checkBounds({ ...shape, durationSeconds: 3 * 86_400 })).toThrow(/^Запись длиной 72 ч длиннее допустимой \(24 ч\)/);
  });

  it('a real 4352×4352 file is refused by inspectRecording', async () => {
    await expect(inspectRecording(file('huge.mp4'))).rejects.toThrow(/^Кадр 4352×4352 больше допустимого/);
  });

  it('a real file whose header claims three days is refused', async () => {
    expect((await probe(file('three-days.mp4'))).durationSeconds).toBe(259_200);
    await expect(inspectRecording(file('three-days.mp4'))).rejects.toThrow(/^Запись длиной 72 ч длиннее допустимой/);
  });
});

describe('caps on every media process', () => {
  it('a process past its wall time is killed and says so', async () => {
    const child = spawnCapped('sleep', ['60'], { wallSeconds: 0.2, memoryBytes: DEFAULT_MEDIA_LIMITS.memoryBaseBytes, niceness: 0 });
    const exit = await child.finished;
    expect(exit.code).not.toBe(0);
    expect(exit.overCap).toBe('обработка не уложилась в отведённое время (0 с) и остановлена');
  });

  it('ffmpeg past its address-space cap stops and says so', async () => {
    const { ffmpeg } = await mediaTools();
    // 8192² frames need far more than 400 MB; the libraries alone take about 300.
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=8192x8192:rate=5',
      '-frames:v',
      '10',
      '-c:v',
      'libx264',
      '-f',
      'null',
      '-',
    ];
    const exit = await spawnCapped(ffmpeg, args, { wallSeconds: 600, memoryBytes: 400 * 1024 ** 2, niceness: 0 }).finished;
    expect(exit.code).not.toBe(0);
    expect(exit.overCap).toBe('обработке не хватило отведённой памяти (400 МБ) и она остановлена');
  });

  it('the caps fit the recording: more time and memory for a bigger picture and a longer span', () => {
    const small = decodeCaps(60, { width: 640, height: 360, frameRate: 25 });
    const fullHd = decodeCaps(60, { width: 1920, height: 1080, frameRate: 25 });
    const big = decodeCaps(3600, { width: 3840, height: 2160, frameRate: 25 });
    expect(small.wallSeconds).toBe(120 + 4 * 60);
    expect(fullHd.wallSeconds).toBe(small.wallSeconds);
    expect(big.wallSeconds).toBe(120 + 4 * 3600 * 4);
    expect(fullHd.memoryBytes).toBeGreaterThan(small.memoryBytes);
    expect(big.memoryBytes).toBeGreaterThan(fullHd.memoryBytes);
    // Unknown picture: the largest the bounds allow.
    expect(decodeCaps(60, {}).memoryBytes).toBe(DEFAULT_MEDIA_LIMITS.memoryBaseBytes + DEFAULT_MEDIA_LIMITS.maxPixels * DEFAULT_MEDIA_LIMITS.memoryPerPixel);
  });
});
