import { detectContainer, inputArguments, withoutPath, type Container } from '../media/container';
import { mediaTools } from '../media/ffmpeg';
import { decodeCaps, MediaRefusedError, type SourceShape } from '../media/limits';
import { spawnCapped } from '../media/process';

/** How frames are sampled from a video: a span, a fixed rate and a small gray (or RGB) picture. */
export interface Sampling {
  startSecond: number;
  endSecond: number;
  /** Frames per second kept (the fps filter picks the nearest source frame). */
  fps: number;
  width: number;
  height: number;
  /** 'gray': one byte per pixel (features); 'rgb24': three (a person detector). */
  pixelFormat?: 'gray' | 'rgb24';
  /** At most this many frames (ffmpeg stops decoding after them): 1 for a single picture. */
  frames?: number;
  /** The recording's own picture and rate (ffprobe), for the decoder's caps; unknown: the bounds' largest. */
  source?: SourceShape;
}

/** Width of the working picture: low enough to decode-and-scale at many times real time. */
export const WORK_WIDTH = 160;

/** The working picture size for a source of `width`×`height`: WORK_WIDTH wide, even height, aspect kept. */
export function workSize(width: number, height: number): { width: number; height: number } {
  const w = Math.min(WORK_WIDTH, width - (width % 2));
  const h = Math.max(2, Math.round((height * w) / width / 2) * 2);
  return { width: w, height: h };
}

/**
 * The ffmpeg arguments of a sampling: seek, span, fps, area scaling, raw pixels to stdout; the file is
 * read as its detected container only (media/container.ts). Seeking is by keyframe (`-ss` before the
 * input). No decoder shortcut is used (measured, docs/performance.md «Пропускная способность
 * зрения»): `-skip_loop_filter all` saves a quarter of the decoder's time on 1080p, but P-frames then
 * predict from unfiltered pictures and the error grows until the next keyframe (about one gray level
 * at the work size) — enough to move and drop a model's segments; `-skip_frame noref`, `-flags2 fast`,
 * `-flags gray`, fast_bilinear scaling and `-threads 1` saved nothing, and H.264 has no `lowres`. So
 * the sampled frames are exactly every (source fps / fps)-th frame of the full decode (frames.test.ts).
 */
export function samplingArguments(file: string, container: Container, sampling: Sampling): string[] {
  const duration = Math.max(0, sampling.endSecond - sampling.startSecond);
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-ss',
    sampling.startSecond.toFixed(3),
    '-t',
    duration.toFixed(3),
    ...inputArguments(file, container),
    '-an',
    '-sn',
    '-vf',
    `fps=${sampling.fps},scale=${sampling.width}:${sampling.height}:flags=area`,
    ...(sampling.frames ? ['-frames:v', String(sampling.frames)] : []),
    '-pix_fmt',
    sampling.pixelFormat ?? 'gray',
    '-f',
    'rawvideo',
    'pipe:1',
  ];
}

export class FrameDecodeError extends Error {}

/**
 * Decodes the sampled frames of a span with an ffmpeg child process and hands each frame to
 * `onFrame` as it arrives (stdout is read chunk by chunk: the video is never whole in memory).
 * The frame buffer is reused: copy what must outlive the call. Frame i is at
 * `startSecond + i / fps`. An aborted signal kills ffmpeg and rejects. ffmpeg runs under caps that fit
 * the span (media/limits.ts): a cap that stopped it is a MediaRefusedError.
 */
export async function decodeFrames(
  file: string,
  sampling: Sampling,
  onFrame: (frame: Uint8Array, index: number) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const container = await detectContainer(file);
  const { ffmpeg } = await mediaTools();
  const channels = sampling.pixelFormat === 'rgb24' ? 3 : 1;
  const frameBytes = sampling.width * sampling.height * channels;
  const caps = decodeCaps(sampling.endSecond - sampling.startSecond, sampling.source ?? {});
  const child = spawnCapped(ffmpeg, samplingArguments(file, container, sampling), caps);
  const abort = () => child.kill();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  let exited = false;
  const finished = child.finished.finally(() => (exited = true));
  const frame = new Uint8Array(frameBytes);
  let filled = 0;
  let index = 0;
  try {
    for await (const chunk of child.stdout as unknown as AsyncIterable<Uint8Array>) {
      let offset = 0;
      while (offset < chunk.length) {
        const take = Math.min(frameBytes - filled, chunk.length - offset);
        frame.set(chunk.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === frameBytes) {
          await onFrame(frame, index++);
          filled = 0;
        }
      }
      if (signal?.aborted) break;
    }
    const { code, stderr, overCap } = await finished;
    if (signal?.aborted) throw new FrameDecodeError('Обработка остановлена');
    if (overCap) throw new MediaRefusedError(`Кадры видео не прочитаны: ${overCap}`);
    if (code !== 0) throw new FrameDecodeError(`Не удалось прочитать кадры видео: ${withoutPath(stderr.trim().slice(-500), file) || `ffmpeg, код ${code}`}`);
    return index;
  } finally {
    signal?.removeEventListener('abort', abort);
    if (!exited) child.kill();
  }
}
