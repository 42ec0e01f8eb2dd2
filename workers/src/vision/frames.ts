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
  /**
   * Decode without H.264's deblocking filter (`-skip_loop_filter all`): about a quarter less decoder
   * time, frames about a gray level off the exact ones. Measured, not used by models (docs/vision.md
   * «Кадры декодируются точно»: the browser's live suggestion decodes exactly and then disagrees
   * with the job); bench/vision-throughput.bench.ts measures it.
   */
  skipLoopFilter?: boolean;
  /**
   * Decode only reference frames (`-skip_frame noref`): exact only when every sampled frame is one —
   * a recording Norma encoded with a reference step and a span on it (media/reference-frames.ts
   * `samplesOnlyReferences`); then a fifth of the pictures at 25 fps are decoded (frames.test.ts).
   */
  skipUnreferenced?: boolean;
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
 * input). Models use no decoder shortcut that changes a picture (measured, docs/vision.md «Кадры
 * декодируются точно»): `skipLoopFilter` keeps the demo's cross-day, light, resolution and unseen-work
 * figures but moves the job's answers off the browser's live suggestion (the browser decodes exactly);
 * `-flags2 fast`, `-flags gray`, fast_bilinear scaling and `-threads 1` saved nothing, and H.264 has
 * no `lowres`. The one that saves work without changing a picture is `skipUnreferenced`, on
 * recordings whose sampled frames are all references. So the sampled frames are exactly every
 * (source fps / fps)-th frame of the full decode (frames.test.ts).
 */
export function samplingArguments(file: string, container: Container, sampling: Sampling): string[] {
  return [...spanArguments(file, container, sampling), '-an', '-sn', '-vf', sampleFilter(sampling), ...outputArguments(sampling, 'pipe:1')];
}

/**
 * The ffmpeg arguments of several samplings of one span decoded once (issue 43: a model with poses
 * needs gray work-size frames for the pixel features and RGB frames for MoveNet): the decoded
 * pictures are split, each branch sampled and scaled exactly as `samplingArguments` would, the first
 * written to stdout, the next ones to descriptors 3, 4, … (spawnCapped's extra outputs). The first
 * video stream is the one read (a vision source is a converted recording with one).
 */
function splitSamplingArguments(file: string, container: Container, samplings: Sampling[]): string[] {
  const first = samplings[0]!;
  if (samplings.some((s) => s.startSecond !== first.startSecond || s.endSecond !== first.endSecond)) throw new Error('samplings of one decode share one span');
  const branches = samplings.map((_, i) => `[in${i}]`).join('');
  const graph = [`[0:v:0]split=${samplings.length}${branches}`, ...samplings.map((s, i) => `[in${i}]${sampleFilter(s)}[out${i}]`)].join(';');
  return [
    ...spanArguments(file, container, first),
    '-filter_complex',
    graph,
    ...samplings.flatMap((s, i) => ['-map', `[out${i}]`, ...outputArguments(s, i === 0 ? 'pipe:1' : `pipe:${i + 2}`)]),
  ];
}

/** Seek, span and the input as its detected container only. */
function spanArguments(file: string, container: Container, sampling: Sampling): string[] {
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
    ...(sampling.skipLoopFilter ? ['-skip_loop_filter', 'all'] : []),
    ...(sampling.skipUnreferenced ? ['-skip_frame', 'noref'] : []),
    ...inputArguments(file, container),
  ];
}

/**
 * Sample i is the picture shown at `startSecond + i / fps` — the last frame at or before that moment
 * (`round=up`; ffmpeg's default, the nearest, takes the third of every five at 25 → 5 fps): the
 * frames at the moments themselves, which a recording with a reference step keeps as references.
 */
const sampleFilter = (sampling: Sampling) => `fps=${sampling.fps}:round=up,scale=${sampling.width}:${sampling.height}:flags=area`;

function outputArguments(sampling: Sampling, target: string): string[] {
  return [...(sampling.frames ? ['-frames:v', String(sampling.frames)] : []), '-pix_fmt', sampling.pixelFormat ?? 'gray', '-f', 'rawvideo', target];
}

export class FrameDecodeError extends Error {}

type OnFrame = (frame: Uint8Array, index: number) => void | Promise<void>;

/**
 * Decodes the sampled frames of a span with an ffmpeg child process and hands each frame to
 * `onFrame` as it arrives (stdout is read chunk by chunk: the video is never whole in memory).
 * The frame buffer is reused: copy what must outlive the call. Frame i is at
 * `startSecond + i / fps`. An aborted signal kills ffmpeg and rejects. ffmpeg runs under caps that fit
 * the span (media/limits.ts): a cap that stopped it is a MediaRefusedError.
 */
export async function decodeFrames(file: string, sampling: Sampling, onFrame: OnFrame, signal?: AbortSignal): Promise<number> {
  const [count] = await decodeSamplings(file, [sampling], [onFrame], signal);
  return count!;
}

/**
 * Several samplings of one span (the same start and end) from one decode — one ffmpeg process,
 * each sampling on its own pipe (splitSamplingArguments) — each frame to its sampling's `onFrame`,
 * exactly the frames `decodeFrames` gives for each sampling alone (frames.test.ts). The pipes are
 * read at once, each at its own pace: a slow `onFrame` (MoveNet) holds ffmpeg back, never the
 * others' reading, and nothing piles up in memory. Frame counts in the samplings' order.
 */
export async function decodeFramesTogether(file: string, samplings: Sampling[], onFrames: OnFrame[], signal?: AbortSignal): Promise<number[]> {
  if (samplings.length !== onFrames.length) throw new Error('one onFrame per sampling');
  return decodeSamplings(file, samplings, onFrames, signal);
}

async function decodeSamplings(file: string, samplings: Sampling[], onFrames: OnFrame[], signal?: AbortSignal): Promise<number[]> {
  const container = await detectContainer(file);
  const { ffmpeg } = await mediaTools();
  const first = samplings[0]!;
  const caps = decodeCaps(first.endSecond - first.startSecond, first.source ?? {});
  const args = samplings.length === 1 ? samplingArguments(file, container, first) : splitSamplingArguments(file, container, samplings);
  const child = spawnCapped(ffmpeg, args, caps, samplings.length - 1);
  const abort = () => child.kill();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  let exited = false;
  const finished = child.finished.finally(() => (exited = true));
  try {
    // A failed onFrame stops ffmpeg, so the other pipes end too; the first failure is the answer.
    const reads = [child.stdout, ...child.outputs].map((stream, i) =>
      readFrames(stream, frameBytes(samplings[i]!), onFrames[i]!, signal).catch((error: unknown) => {
        child.kill();
        throw error;
      }),
    );
    const settled = await Promise.allSettled(reads);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const { code, stderr, overCap } = await finished;
    if (signal?.aborted) throw new FrameDecodeError('Обработка остановлена');
    if (overCap) throw new MediaRefusedError(`Кадры видео не прочитаны: ${overCap}`);
    if (code !== 0) throw new FrameDecodeError(`Не удалось прочитать кадры видео: ${withoutPath(stderr.trim().slice(-500), file) || `ffmpeg, код ${code}`}`);
    return settled.map((r) => (r.status === 'fulfilled' ? r.value : 0));
  } finally {
    signal?.removeEventListener('abort', abort);
    if (!exited) child.kill();
  }
}

const frameBytes = (sampling: Sampling) => sampling.width * sampling.height * (sampling.pixelFormat === 'rgb24' ? 3 : 1);

/** The frames of one raw pipe, one reused buffer, to `onFrame` in order; the count read. */
async function readFrames(stream: ReadableStream<Uint8Array>, bytes: number, onFrame: OnFrame, signal?: AbortSignal): Promise<number> {
  const frame = new Uint8Array(bytes);
  let filled = 0;
  let index = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(bytes - filled, chunk.length - offset);
      frame.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === bytes) {
        await onFrame(frame, index++);
        filled = 0;
      }
    }
    if (signal?.aborted) break;
  }
  return index;
}
