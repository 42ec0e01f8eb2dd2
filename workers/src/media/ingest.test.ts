import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, type ProbeResult } from './ffmpeg';
import {
  browserPlan,
  convertArguments,
  type BrowserPlan,
  convertForBrowser,
  INDEX_MAX_BYTES,
  inspectRecording,
  NotAVideoError,
  progressSeconds,
} from './ingest';
import { mp4Layout } from './mp4-layout';
import { makeClip, makeLongRecording } from '../../test-support/test-clips';

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'norma-ingest-'));
  await Promise.all([
    makeClip(file('ready.mp4'), { faststart: true, audio: 'aac' }),
    makeClip(file('moov-at-end.mp4'), { faststart: false }),
    makeClip(file('mpeg4.mp4'), { video: 'mpeg4', faststart: true }),
    makeClip(file('vp9.webm'), { video: 'vp9' }),
    makeClip(file('mp3-audio.mp4'), { faststart: true, audio: 'mp3' }),
  ]);
  writeFileSync(file('text.mp4'), 'это не видео, а текст\n'.repeat(50));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const info = (overrides: Partial<ProbeResult>): ProbeResult => ({
  durationSeconds: 10,
  videoCodec: 'h264',
  audioCodec: null,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  creationTime: null,
  width: 640,
  height: 360,
  pixelFormat: 'yuv420p',
  videoProfile: 'High',
  frameRate: 25,
  container: { demuxer: 'mov', label: 'MP4/MOV' },
  ...overrides,
});

describe('mp4Layout', () => {
  it('finds moov before mdat in a faststart file and after it otherwise', async () => {
    const ready = await mp4Layout(file('ready.mp4'));
    expect(ready.isoBmff).toBe(true);
    expect(ready.moovFirst).toBe(true);
    expect(ready.boxes[0]!.type).toBe('ftyp');
    const late = await mp4Layout(file('moov-at-end.mp4'));
    expect(late.isoBmff).toBe(true);
    expect(late.moovFirst).toBe(false);
    expect(late.boxes.map((b) => b.type)).toEqual(expect.arrayContaining(['mdat', 'moov']));
    // The boxes chain exactly to the end of the file.
    const last = late.boxes.at(-1)!;
    expect(last.offset + last.size).toBe(Bun.file(file('moov-at-end.mp4')).size);
  });

  it('does not take a WebM or a text file for MP4', async () => {
    expect((await mp4Layout(file('vp9.webm'))).isoBmff).toBe(false);
    expect((await mp4Layout(file('text.mp4'))).isoBmff).toBe(false);
  });
});

describe('browserPlan', () => {
  const mp4 = { isoBmff: true, moovFirst: true, indexBytes: 4_000, fragmented: false, segmentIndex: false };
  it('leaves a browser-ready file alone', () => {
    expect(browserPlan(info({ audioCodec: 'aac' }), mp4)).toEqual({ action: 'none', video: 'copy', audio: 'copy', layout: 'faststart', reasons: [] });
  });
  it('remuxes when only the index is at the end or the container is not MP4', () => {
    const late = browserPlan(info({}), { ...mp4, moovFirst: false });
    expect(late.action).toBe('remux');
    expect(late.reasons[0]).toContain('moov');
    const mkv = browserPlan(info({ formatName: 'matroska,webm' }), { ...mp4, isoBmff: false, moovFirst: false, indexBytes: 0 });
    expect(mkv).toMatchObject({ action: 'remux', video: 'copy', layout: 'faststart' });
  });
  it('lays a long recording out in fragments: an index over 1 MB first is remuxed, a fragmented file needs its segment index', () => {
    const eightHours = info({ durationSeconds: 8 * 3600, frameRate: 25 });
    const bigIndex = browserPlan(eightHours, { ...mp4, indexBytes: 8_400_000 });
    expect(bigIndex).toMatchObject({ action: 'remux', video: 'copy', layout: 'fragmented' });
    expect(bigIndex.reasons).toEqual(['индекс (moov) 8,0 МБ: браузер читает его целиком до первого кадра']);
    // Fragments with a segment index: as is; without one, a seek would read the fragments in turn.
    expect(browserPlan(eightHours, { ...mp4, indexBytes: 900, fragmented: true, segmentIndex: true }).action).toBe('none');
    expect(browserPlan(eightHours, { ...mp4, indexBytes: 900, fragmented: true }).reasons[0]).toContain('sidx');
    // Every rewrite of a long recording is fragmented, a transcode too; a short one keeps one index first.
    expect(browserPlan({ ...eightHours, videoCodec: 'hevc' }, mp4)).toMatchObject({ action: 'transcode', layout: 'fragmented' });
    expect(browserPlan(info({ durationSeconds: 30 * 60 }), { ...mp4, moovFirst: false }).layout).toBe('faststart');
    // A short file's index is small whatever its layout: nothing to do for its fragments.
    expect(browserPlan(info({}), { ...mp4, fragmented: true }).action).toBe('none');
  });
  it('re-encodes only the audio when it is not AAC', () => {
    expect(browserPlan(info({ audioCodec: 'mp3' }), mp4)).toMatchObject({ action: 'remux', video: 'copy', audio: 'aac' });
  });
  it('transcodes other codecs and H.264 the browser cannot decode', () => {
    expect(browserPlan(info({ videoCodec: 'mpeg4' }), mp4)).toMatchObject({ action: 'transcode', video: 'h264' });
    expect(browserPlan(info({ videoCodec: 'hevc' }), mp4).action).toBe('transcode');
    expect(browserPlan(info({ pixelFormat: 'yuv420p10le', videoProfile: 'High 10' }), mp4).action).toBe('transcode');
    expect(browserPlan(info({ pixelFormat: 'yuv444p', videoProfile: 'High 4:4:4 Predictive' }), mp4).action).toBe('transcode');
  });
});

describe('progress from ffmpeg', () => {
  it('reads out_time_us, out_time_ms (microseconds too) and out_time', () => {
    expect(progressSeconds('out_time_us=2500000')).toBe(2.5);
    expect(progressSeconds('out_time_ms=2500000')).toBe(2.5);
    expect(progressSeconds('out_time=00:01:02.500000')).toBe(62.5);
    expect(progressSeconds('out_time=-577014:32:22.775808')).toBe(0);
    expect(progressSeconds('frame=10')).toBeNull();
  });
  it('asks for faststart, the first video and audio streams, and H.264 only when transcoding', () => {
    const input = { path: '/in', container: { demuxer: 'avi', label: 'AVI' } } as const;
    const remux = convertArguments({ action: 'remux', video: 'copy', audio: 'none', layout: 'faststart', reasons: [] }, input, '/out', 3600);
    expect(remux.join(' ')).toContain('-c:v copy');
    expect(remux.join(' ')).toContain('-movflags +faststart');
    expect(remux.join(' ')).toContain('-map 0:a:0?');
    const transcode = convertArguments({ action: 'transcode', video: 'h264', audio: 'aac', layout: 'fragmented', reasons: [] }, input, '/out', 3600);
    expect(transcode.join(' ')).toContain('-movflags +frag_keyframe+empty_moov+default_base_moof+global_sidx');
    expect(transcode.join(' ')).toContain('-c:v libx264');
    expect(transcode.join(' ')).toContain('-c:a aac');
    // Pinned to the detected demuxer and local files, and never longer than the bound.
    expect(remux.join(' ')).toContain('-protocol_whitelist file,pipe -f avi -i file:/in');
    expect(remux.join(' ')).toContain('-t 3600');
  });
});

describe('inspectRecording and convertForBrowser on real files', () => {
  it('refuses a file that is not a video with a clear Russian message', async () => {
    await expect(inspectRecording(file('text.mp4'))).rejects.toThrow(NotAVideoError);
    await expect(inspectRecording(file('text.mp4'))).rejects.toThrow(/^Файл не является видеозаписью в поддерживаемом формате/);
  });

  it('refuses a file that looks like MP4 from its first bytes but is not readable, without naming the server path', async () => {
    // An 'ftyp' box followed by noise: the container is recognised, ffprobe finds no video in it.
    const ftyp = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode('ftypisom'), 0, 0, 2, 0, ...new TextEncoder().encode('isomiso2mp41')]);
    writeFileSync(file('noise.mp4'), Buffer.concat([ftyp, Buffer.from('шум, а не видео\n'.repeat(100))]));
    const refusal = inspectRecording(file('noise.mp4'));
    await expect(refusal).rejects.toThrow(NotAVideoError);
    await expect(refusal).rejects.toThrow(/^Файл не удалось прочитать как видео \(ffprobe: /);
    await expect(refusal).rejects.not.toThrow(dir);
  });

  it.each([
    ['moov-at-end.mp4', 'remux'],
    ['mpeg4.mp4', 'transcode'],
    ['vp9.webm', 'transcode'],
    ['mp3-audio.mp4', 'remux'],
  ] as const)('makes %s browser-ready (%s) with rising progress up to 100', async (name, action) => {
    const inspected = await inspectRecording(file(name));
    expect(inspected.plan.action).toBe(action);
    const progress: number[] = [];
    const output = file(`${name}.out.mp4`);
    const written = await convertForBrowser(inspected, file(name), output, { onProgress: (p) => progress.push(p) });
    const after = await inspectRecording(output);
    // A transcoded 10 fps clip keeps every second frame a reference (reference-frames.ts); a copied video keeps its own.
    expect(written.referenceStep).toBe(action === 'transcode' ? 2 : null);
    expect(after.plan).toMatchObject({ action: 'none' });
    expect(after.info.videoCodec).toBe('h264');
    expect(Math.abs(after.info.durationSeconds - 4)).toBeLessThan(0.3);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('rewrites a long recording with a large index into fragments with a segment index: small index first, same length, then as is', async () => {
    const input = file('forty-minutes.mp4');
    await makeLongRecording(input, { minutes: 40 });
    const inspected = await inspectRecording(input);
    expect(inspected.layout.indexBytes).toBeGreaterThan(INDEX_MAX_BYTES);
    expect(inspected.plan).toMatchObject({ action: 'remux', video: 'copy', layout: 'fragmented' });
    const output = file('forty-minutes.out.mp4');
    await convertForBrowser(inspected, input, output);
    const after = await inspectRecording(output);
    expect(after.plan).toMatchObject({ action: 'none' });
    expect(after.layout).toMatchObject({ isoBmff: true, moovFirst: true, fragmented: true, segmentIndex: true });
    // What the browser reads first: the index and the segment index, not the 120,000 frames' tables.
    const [ftyp, moov, sidx] = after.layout.boxes;
    expect([ftyp!.type, moov!.type, sidx!.type]).toEqual(['ftyp', 'moov', 'sidx']);
    expect(moov!.size + sidx!.size).toBeLessThan(inspected.layout.indexBytes / 10);
    expect(Math.abs(after.info.durationSeconds - 40 * 60)).toBeLessThan(0.1);
    expect(after.info.frameRate).toBe(50);
  });

  it('stops ffmpeg when aborted and leaves no output', async () => {
    const input = file('long.mp4');
    await makeClip(input, { video: 'mpeg4', seconds: 30, size: '640x360', fps: 25 });
    const controller = new AbortController();
    const output = file('long.out.mp4');
    const plan: BrowserPlan = { action: 'transcode', video: 'h264', audio: 'none', layout: 'faststart', reasons: [] };
    const running = convertForBrowser({ plan, info: await probe(input) }, input, output, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(running).rejects.toThrow('остановлена');
    expect(await Bun.file(output).exists()).toBe(false);
    expect(await Bun.file(`${output}.part`).exists()).toBe(false);
    expect((await probe(input)).videoCodec).toBe('mpeg4');
  });
});
