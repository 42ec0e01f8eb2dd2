import { onnx } from 'onnx-proto';
import { decodeFrames } from './frames';
import type { Keypoint } from './movenet-decode';
import { createSession, ModelLoadError, ort } from './onnx-runtime';

/**
 * People on a frame (GET /api/v1/humans), the fallback and the pluggable detector: the default is
 * the pretrained MoveNet (movenet.ts). Background subtraction with blob analysis — the background
 * is the per-pixel median of frames around the moment, the foreground mask is where the frame
 * differs from it by more than a threshold, and each 8-connected blob large enough is reported as
 * a "person" at its centroid. It finds anything that moves or appears (a box, a cart), not people
 * as such, and misses someone who stood still through the whole window (docs/vision.md). An ONNX
 * person detector placed in the model store (ONNX_DETECTOR_CONTRACT) is used instead when present.
 */
export const BACKGROUND_DETECTOR = 'background-subtraction-blobs';
export const ONNX_DETECTOR = 'onnx-person-detector';

export const ONNX_DETECTOR_CONTRACT =
  'вход: float32 [1, 3, H, W] (RGB 0…1, H и W заданы в файле); выход: [K, 5] или [1, K, 5] — x1, y1, x2, y2 в пикселях входа и уверенность 0…1';

export interface DetectedHuman {
  /** Centre, in source-video pixels. */
  location: { x: number; y: number };
  box: { x1: number; y1: number; x2: number; y2: number };
  score: number;
  /** Pose keypoints in source pixels (MoveNet only). */
  keypoints?: Keypoint[];
}

export interface Blob {
  x: number;
  y: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  area: number;
}

/** Per-pixel median of equally sized gray frames. */
export function medianBackground(frames: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frames[0]?.length ?? 0);
  const values = new Uint8Array(frames.length);
  for (let i = 0; i < out.length; i++) {
    for (let f = 0; f < frames.length; f++) values[f] = frames[f]![i]!;
    values.sort();
    out[i] = values[values.length >> 1]!;
  }
  return out;
}

/** 1 where |frame − background| > threshold. */
export function foregroundMask(frame: Uint8Array, background: Uint8Array, threshold: number): Uint8Array {
  const mask = new Uint8Array(frame.length);
  for (let i = 0; i < frame.length; i++) mask[i] = Math.abs(frame[i]! - background[i]!) > threshold ? 1 : 0;
  return mask;
}

/** 8-connected components of a 0/1 mask with at least `minArea` pixels: bounding box (x2, y2 exclusive), centroid, area. */
export function findBlobs(mask: Uint8Array, width: number, height: number, minArea: number): Blob[] {
  const seen = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  const blobs: Blob[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let area = 0;
    let sx = 0;
    let sy = 0;
    let x1 = width;
    let y1 = height;
    let x2 = 0;
    let y2 = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      area++;
      sx += x;
      sy += y;
      x1 = Math.min(x1, x);
      y1 = Math.min(y1, y);
      x2 = Math.max(x2, x + 1);
      y2 = Math.max(y2, y + 1);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (mask[q] && !seen[q]) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    if (area >= minArea) blobs.push({ x: sx / area, y: sy / area, x1, y1, x2, y2, area });
  }
  return blobs.sort((a, b) => b.area - a.area);
}

export interface SourceVideo {
  file: string;
  width: number;
  height: number;
  duration: number;
}

const DETECT_WIDTH = 320;
/** Seconds either side of the moment whose frames make the background. */
const BACKGROUND_WINDOW = 20;
const BACKGROUND_FRAMES = 15;
const THRESHOLD = 30;
/** Smallest blob, as a share of the picture. */
const MIN_BLOB_SHARE = 0.002;
const MAX_PEOPLE = 50;

/** Background subtraction and blobs around `second` (see the module comment for what it can and cannot find). */
export async function detectByBackground(video: SourceVideo, second: number, signal?: AbortSignal): Promise<DetectedHuman[]> {
  const width = Math.min(DETECT_WIDTH, video.width - (video.width % 2));
  const height = Math.max(2, Math.round((video.height * width) / video.width / 2) * 2);
  const from = Math.max(0, second - BACKGROUND_WINDOW);
  const to = Math.min(video.duration, second + BACKGROUND_WINDOW);
  const frames: Uint8Array[] = [];
  await decodeFrames(
    video.file,
    { startSecond: from, endSecond: to, fps: BACKGROUND_FRAMES / Math.max(1, to - from), width, height, source: video },
    (f) => void frames.push(f.slice()),
    signal,
  );
  let current: Uint8Array | null = null;
  const at = Math.min(second, Math.max(0, video.duration - 0.05));
  await decodeFrames(video.file, { startSecond: at, endSecond: at + 0.5, fps: 25, width, height, source: video }, (f) => void (current ??= f.slice()), signal);
  if (!current || frames.length < 3) return [];
  const mask = foregroundMask(current, medianBackground(frames), THRESHOLD);
  const sx = video.width / width;
  const sy = video.height / height;
  return findBlobs(mask, width, height, Math.max(4, Math.round(width * height * MIN_BLOB_SHARE)))
    .slice(0, MAX_PEOPLE)
    .map((b) => ({
      location: { x: Math.round(b.x * sx), y: Math.round(b.y * sy) },
      box: { x1: Math.round(b.x1 * sx), y1: Math.round(b.y1 * sy), x2: Math.round(b.x2 * sx), y2: Math.round(b.y2 * sy) },
      score: Math.min(1, b.area / (width * height * MIN_BLOB_SHARE * 10)),
    }));
}

/** Runs an ONNX person detector (ONNX_DETECTOR_CONTRACT) on the frame at `second`; boxes scored ≥ 0.5 are people. */
export async function detectByOnnx(bytes: Uint8Array, video: SourceVideo, second: number, signal?: AbortSignal): Promise<DetectedHuman[]> {
  let inputName: string;
  let width: number;
  let height: number;
  try {
    const graph = onnx.ModelProto.decode(bytes).graph!;
    const input = graph.input![0]!;
    inputName = input.name!;
    const dims = input.type!.tensorType!.shape!.dim!.map((d) => Number(d.dimValue ?? 0));
    [height, width] = [dims[2]!, dims[3]!];
    if (dims.length !== 4 || dims[1] !== 3 || !(width > 0) || !(height > 0)) throw new Error('вход не [1, 3, H, W] с заданными H и W');
  } catch (err) {
    throw new ModelLoadError(`Детектор людей не подходит (${ONNX_DETECTOR_CONTRACT}): ${err instanceof Error ? err.message : err}`);
  }
  let session: ort.InferenceSession;
  try {
    session = await createSession(bytes);
  } catch (err) {
    throw new ModelLoadError(`Файл детектора людей не читается: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
  }
  try {
    let rgb: Uint8Array | null = null;
    const at = Math.min(second, Math.max(0, video.duration - 0.05));
    await decodeFrames(
      video.file,
      { startSecond: at, endSecond: at + 0.5, fps: 25, width, height, pixelFormat: 'rgb24', source: video },
      (f) => void (rgb ??= f.slice()),
      signal,
    );
    if (!rgb) return [];
    const pixels = width * height;
    const planar = new Float32Array(3 * pixels);
    for (let i = 0; i < pixels; i++) for (let c = 0; c < 3; c++) planar[c * pixels + i] = rgb[i * 3 + c]! / 255;
    let output: ort.Tensor;
    try {
      output = (await session.run({ [inputName]: new ort.Tensor('float32', planar, [1, 3, height, width]) }))[session.outputNames[0]!]!;
    } catch (err) {
      throw new ModelLoadError(`Детектор людей не выполнился: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
    }
    const dims = output.dims;
    if (output.type !== 'float32' || dims.at(-1) !== 5 || !(dims.length === 2 || (dims.length === 3 && dims[0] === 1)))
      throw new ModelLoadError(`Детектор людей ответил не так (${ONNX_DETECTOR_CONTRACT}): ${output.type} [${dims.join(', ')}]`);
    const data = output.data as Float32Array;
    const sx = video.width / width;
    const sy = video.height / height;
    const people: DetectedHuman[] = [];
    for (let k = 0; k + 5 <= data.length && people.length < MAX_PEOPLE; k += 5) {
      const [x1, y1, x2, y2, score] = [data[k]!, data[k + 1]!, data[k + 2]!, data[k + 3]!, data[k + 4]!];
      if (!(score >= 0.5)) continue;
      const box = { x1: Math.round(x1 * sx), y1: Math.round(y1 * sy), x2: Math.round(x2 * sx), y2: Math.round(y2 * sy) };
      people.push({ location: { x: Math.round(((x1 + x2) / 2) * sx), y: Math.round(((y1 + y2) / 2) * sy) }, box, score });
    }
    return people;
  } finally {
    await session.release();
  }
}
