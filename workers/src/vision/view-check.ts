import { decodeFrames } from './frames';

/**
 * Is this the picture a model was trained on (docs/vision.md «Разрешение и вид камеры»)? A model
 * keeps a small signature of its training view: the per-pixel median of a few frames spread over
 * the marked span (people and parts move, the room does not), VIEW_WIDTH pixels wide, turned into
 * gradient magnitudes (edges of benches, racks, walls — not the light level). A video is compared
 * by the same signature at the same size: normalised cross-correlation of the two gradient
 * pictures. The aspect ratio is compared from the sizes alone.
 */

/** Width of the signature picture (height by the source's aspect ratio, even). */
export const VIEW_WIDTH = 64;
/** Frames whose per-pixel median is the view: enough to drop a passing worker. */
export const VIEW_SAMPLES = 15;
/**
 * Below this correlation the camera's view is taken as moved. Measured on the demo scene
 * (docs/vision.md «Разрешение и вид камеры»): the same camera on another day (other light, aim off
 * by a few pixels, shakes, passers-by), at 320, 640 or 1280 pixels wide, correlates at 0.97, the
 * same day's other half hour at 0.81 (the worker and parts stand elsewhere); a 5 % crop 0.83; a
 * 10 % crop 0.33 (centred) and 0.63 (at a corner); a 4:3 cut 0.66.
 */
export const VIEW_MOVED_BELOW = 0.7;
/**
 * A training view with edges (signature values at half saturation or more) on less than this share of
 * its picture has nothing fixed to compare: a bare wall, or a synthetic scene of noise and moving
 * boxes (its median is flat gray; any two such signatures correlate at −0.1…0.3, which read as «moved»).
 * Such a view is not compared (no similarity, no warning; `viewNotCompared` says why). Measured
 * (docs/live-cameras.md «Сверка вида на настоящем потоке»): vtest.avi 52 % of its signature, the
 * demo's cameras 1 and 4 26 % and 35 %, the synthetic scene 0 %.
 */
export const VIEW_MIN_DETAIL = 0.02;
const DETAIL_LEVEL = 128;

/** The share of a signature's picture that is an edge (0–1). */
export function viewDetail(signature: ViewSignature): number {
  if (signature.gradient.length === 0) return 0;
  return signature.gradient.filter((v) => v >= DETAIL_LEVEL).length / signature.gradient.length;
}

/** An aspect ratio differing from the training picture's by more than this share is warned about. */
export const ASPECT_TOLERANCE = 0.01;

/** The training view: a gradient picture, `width`×`height`, values 0–255 row by row. */
export interface ViewSignature {
  width: number;
  height: number;
  gradient: number[];
}

export interface ViewSource {
  file: string;
  width: number;
  height: number;
}

/** The signature size of a `width`×`height` picture. */
export function viewSize(width: number, height: number): { width: number; height: number } {
  return { width: VIEW_WIDTH, height: Math.max(2, Math.round((height * VIEW_WIDTH) / width / 2) * 2) };
}

/**
 * The signature of a span of a video at `size` (default: its own aspect ratio): VIEW_SAMPLES single
 * frames, each decoded after a seek (a long span costs no more than a short one).
 */
export async function viewSignature(
  video: ViewSource,
  span: { startSecond: number; endSecond: number },
  size = viewSize(video.width, video.height),
  signal?: AbortSignal,
): Promise<ViewSignature> {
  const pixels = size.width * size.height;
  const frames: Uint8Array[] = [];
  const length = Math.max(0, span.endSecond - span.startSecond);
  for (let i = 0; i < VIEW_SAMPLES; i++) {
    const at = span.startSecond + (length * (i + 0.5)) / VIEW_SAMPLES;
    await decodeFrames(
      video.file,
      { startSecond: at, endSecond: at + 1, fps: 5, width: size.width, height: size.height, frames: 1, source: video },
      (frame) => void frames.push(frame.slice(0, pixels)),
      signal,
    );
  }
  if (frames.length === 0) throw new Error('В выбранном отрезке видео не удалось прочитать ни одного кадра');
  return { ...size, gradient: Array.from(gradientOf(medianOf(frames, pixels), size.width, size.height)) };
}

function medianOf(frames: Uint8Array[], pixels: number): Float32Array {
  const out = new Float32Array(pixels);
  const values = new Float32Array(frames.length);
  for (let p = 0; p < pixels; p++) {
    for (let f = 0; f < frames.length; f++) values[f] = frames[f]![p]!;
    values.sort();
    out[p] = values[frames.length >> 1]!;
  }
  return out;
}

/**
 * Edges: the gradient magnitude (central differences) saturated at EDGE gray levels, so a faint
 * bench edge counts as much as a bright part passing by, then a 3×3 box blur so that a shift of a
 * pixel or two (a camera's shake, its aim a little off) keeps the edges overlapping; 0–255.
 */
const EDGE = 24;
function gradientOf(picture: Float32Array, width: number, height: number): Uint8Array {
  const at = (source: ArrayLike<number>, x: number, y: number) => source[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  const edges = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      edges[y * width + x] = Math.min(1, Math.hypot(at(picture, x + 1, y) - at(picture, x - 1, y), at(picture, x, y + 1) - at(picture, x, y - 1)) / EDGE);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += at(edges, x + dx, y + dy);
      out[y * width + x] = Math.round((sum / 9) * 255);
    }
  return out;
}

/** Normalised cross-correlation of two signatures of one size (−1…1; 0 when either is flat). */
export function viewSimilarity(a: ViewSignature, b: ViewSignature): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('Подписи вида разного размера');
  const n = a.gradient.length;
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / n;
  const ma = mean(a.gradient);
  const mb = mean(b.gradient);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const da = a.gradient[i]! - ma;
    const db = b.gradient[i]! - mb;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** What an applied picture's check reports: the aspect ratios' relative difference, the view's correlation (null: not compared), warnings in Russian. */
export interface PictureCheck {
  aspectChange: number;
  viewSimilarity: number | null;
  warnings: string[];
  /** Why the view was not compared although the model keeps a signature (its training view has no fixed details), in Russian. */
  viewNotCompared?: string;
}

/** The reason a featureless training view is not compared (VIEW_MIN_DETAIL). */
export const VIEW_WITHOUT_DETAILS =
  'Вид камеры не сверен: на кадрах обучения модели нет неподвижных деталей (столов, стеллажей, стен), с которыми можно сравнить вид';

/**
 * Compares a video's picture with a model's training picture: its aspect ratio, and — when the
 * model keeps a view signature with details to compare (VIEW_MIN_DETAIL) — the view of the span
 * (signature at the model's signature size).
 */
export async function checkPicture(
  model: { source: { width: number; height: number }; view?: ViewSignature },
  video: ViewSource,
  span: { startSecond: number; endSecond: number },
  signal?: AbortSignal,
): Promise<PictureCheck> {
  const trained = model.source.width / model.source.height;
  const applied = video.width / video.height;
  const aspectChange = Math.abs(applied - trained) / trained;
  const warnings: string[] = [];
  if (aspectChange > ASPECT_TOLERANCE)
    warnings.push(
      `Соотношение сторон кадра другое: модель обучена на ${model.source.width}×${model.source.height}, видео ${video.width}×${video.height} (разница ${(aspectChange * 100).toFixed(1).replace('.', ',')} %). Области растянуты на новый кадр и могут не совпасть с местами работы — проверьте их или обучите модель на этом видео.`,
    );
  let similarity: number | null = null;
  if (model.view && viewDetail(model.view) < VIEW_MIN_DETAIL) return { aspectChange, viewSimilarity: null, warnings, viewNotCompared: VIEW_WITHOUT_DETAILS };
  if (model.view) {
    const signature = await viewSignature(video, span, { width: model.view.width, height: model.view.height }, signal);
    similarity = viewSimilarity(model.view, signature);
    if (similarity < VIEW_MOVED_BELOW)
      warnings.push(
        `Вид камеры не совпадает с видом при обучении (сходство ${similarity.toFixed(2).replace('.', ',')} при пороге ${String(VIEW_MOVED_BELOW).replace('.', ',')}): камеру, вероятно, сдвинули или обрезали кадр. Проверьте области на кадре этого видео или обучите модель заново.`,
      );
  }
  return { aspectChange, viewSimilarity: similarity, warnings };
}
