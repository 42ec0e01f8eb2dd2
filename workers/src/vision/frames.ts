import { mediaTools } from '../media/ffmpeg';

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
}

/** Width of the working picture: low enough to decode-and-scale at many times real time. */
export const WORK_WIDTH = 160;

/** The working picture size for a source of `width`×`height`: WORK_WIDTH wide, even height, aspect kept. */
export function workSize(width: number, height: number): { width: number; height: number } {
  const w = Math.min(WORK_WIDTH, width - (width % 2));
  const h = Math.max(2, Math.round((height * w) / width / 2) * 2);
  return { width: w, height: h };
}

/** The ffmpeg arguments of a sampling: seek, span, fps, area scaling, raw pixels to stdout. */
export function samplingArguments(file: string, sampling: Sampling): string[] {
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
    '-i',
    file,
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
 * `startSecond + i / fps`. An aborted signal kills ffmpeg and rejects.
 */
export async function decodeFrames(
  file: string,
  sampling: Sampling,
  onFrame: (frame: Uint8Array, index: number) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const { ffmpeg } = await mediaTools();
  const channels = sampling.pixelFormat === 'rgb24' ? 3 : 1;
  const frameBytes = sampling.width * sampling.height * channels;
  const child = Bun.spawn([ffmpeg, ...samplingArguments(file, sampling)], { stdout: 'pipe', stderr: 'pipe' });
  const abort = () => child.kill();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  const stderr = new Response(child.stderr).text();
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
    const code = await child.exited;
    if (signal?.aborted) throw new FrameDecodeError('Обработка остановлена');
    if (code !== 0) throw new FrameDecodeError(`Не удалось прочитать кадры видео: ${(await stderr).trim().slice(-500) || `ffmpeg, код ${code}`}`);
    return index;
  } finally {
    signal?.removeEventListener('abort', abort);
    if (child.exitCode === null) child.kill();
  }
}
