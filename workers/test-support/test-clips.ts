import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mediaTools, run } from '../src/media/ffmpeg';

/** How a test clip is encoded: browser-ready, index at the end, another codec or container. */
export interface ClipSpec {
  seconds?: number;
  video?: 'h264' | 'mpeg4' | 'vp9';
  audio?: 'none' | 'aac' | 'mp3';
  /** MP4 index (moov) first; ffmpeg's default is at the end. */
  faststart?: boolean;
  /** Container creation time written into the file. */
  creationTime?: string;
  size?: string;
  fps?: number;
  format?: 'mp4' | 'webm' | 'matroska' | 'avi' | 'mpegts';
}

/** Makes a real small clip with ffmpeg's test sources (a few hundred KB, well under a second). */
export async function makeClip(path: string, spec: ClipSpec = {}): Promise<void> {
  const { ffmpeg } = await mediaTools();
  const seconds = spec.seconds ?? 4;
  const fps = spec.fps ?? 10;
  const video = spec.video ?? 'h264';
  const audio = spec.audio ?? 'none';
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${spec.size ?? '320x240'}:rate=${fps}:duration=${seconds}`];
  if (audio !== 'none') args.push('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`);
  if (video === 'h264') args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(fps * 2));
  if (video === 'mpeg4') args.push('-c:v', 'mpeg4', '-q:v', '5');
  if (video === 'vp9') args.push('-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k');
  if (audio === 'aac') args.push('-c:a', 'aac', '-b:a', '64k');
  if (audio === 'mp3') args.push('-c:a', 'libmp3lame', '-b:a', '64k');
  if (spec.faststart) args.push('-movflags', '+faststart');
  if (spec.creationTime) args.push('-metadata', `creation_time=${spec.creationTime}`);
  args.push('-f', spec.format ?? (video === 'vp9' ? 'webm' : 'mp4'), path);
  await mkdir(dirname(path), { recursive: true });
  await run(ffmpeg, args);
}

/**
 * A long browser-ready recording (index first) made in seconds: one minute of a small H.264 test
 * picture with B-frames, as cameras' and x264's usual settings write it, repeated by stream copy.
 * At 50 fps, 40 minutes are 120,000 frames and an index (`moov`) of about 1.4 MB.
 */
export async function makeLongRecording(path: string, { minutes, fps = 50 }: { minutes: number; fps?: number }): Promise<void> {
  const { ffmpeg } = await mediaTools();
  await mkdir(dirname(path), { recursive: true });
  const minute = `${path}.minute.mp4`;
  const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];
  await run(ffmpeg, [
    ...quiet,
    ...['-f', 'lavfi', '-i', `testsrc=size=64x64:rate=${fps}:duration=60`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2', '-pix_fmt', 'yuv420p', '-g', String(fps * 2), '-b:v', '20k', minute],
  ]);
  await run(ffmpeg, [...quiet, '-stream_loop', String(minutes - 1), '-i', minute, '-c', 'copy', '-movflags', '+faststart', path]);
  await rm(minute, { force: true });
}
