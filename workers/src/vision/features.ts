/**
 * Features of video areas per time step (docs/vision.md «Признаки»). One step is one sampled gray
 * frame; for every area, in this order:
 *   motion     mean |frame − previous frame| inside the area
 *   changed    share of area pixels whose difference exceeds the change threshold
 *   mean, std  intensity mean and standard deviation
 *   motion_1s  motion averaged over about one second centred on the step
 *   patch_r_c  the area downscaled to PATCH×PATCH cells, each cell's mean intensity
 * Intensities are read one of two ways (`PixelLight`, the model's feature version):
 *   version 1  absolute: v / 255, changed at a difference over CHANGE_THRESHOLD levels;
 *   version 3  relative to the frame's light (issue 43): (v − frame mean) / frame spread, motion
 *              and spread / frame spread, changed at a difference over CHANGE_SPREADS frame
 *              spreads — the same numbers when the light changes a picture v → a·v + b (half to
 *              double brightness or contrast), up to clipping and sensor noise.
 * The first step has no previous frame: its motion features copy the second step's.
 * The browser (onnxruntime-web in the PWA) must compute exactly these numbers.
 */

export const PATCH = 4;
export const CHANGE_THRESHOLD = 15;
/** Version 3: the share of the darkest and of the brightest pixels left out of the frame's light. */
export const TRIM = 0.1;
/** Version 3: a pixel changed when its difference exceeds this many spreads of the frame (about 16 levels on the demo scene, as version 1's 15). */
export const CHANGE_SPREADS = 2;
/** Version 3: the least frame spread divided by, in levels (a blank frame must not blow the features up). */
export const MIN_FRAME_SPREAD = 2;
/** How the pixel features read intensity: 1 — absolute; 3 — relative to the frame's light. */
export type PixelLight = 1 | 3;
export const ABSOLUTE_LIGHT: PixelLight = 1;
export const RELATIVE_LIGHT: PixelLight = 3;
/** The pixel features of a model's feature version (2 and 4 are 1 and 3 with poses, pipeline.ts). */
export const pixelLightOf = (featureVersion: number): PixelLight => (featureVersion >= RELATIVE_LIGHT ? RELATIVE_LIGHT : ABSOLUTE_LIGHT);
const BASE_KINDS = ['motion', 'changed', 'mean', 'std', 'motion_1s'] as const;
export const FEATURES_PER_AREA = BASE_KINDS.length + PATCH * PATCH;

/** A rectangle in working-picture pixels: x1, y1 inclusive, x2, y2 exclusive. */
export interface PixelRect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A rectangle given in source-video pixels (the area as drawn on a full-size frame). */
export interface SourceRect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Scales a source-pixel rectangle to the working picture; at least PATCH×PATCH pixels where the picture allows, clamped inside it. */
export function toWorkRect(area: SourceRect, source: { width: number; height: number }, work: { width: number; height: number }): PixelRect {
  const sx = work.width / source.width;
  const sy = work.height / source.height;
  const clampX = (v: number) => Math.max(0, Math.min(work.width, v));
  const clampY = (v: number) => Math.max(0, Math.min(work.height, v));
  let x1 = clampX(Math.floor(Math.min(area.x1, area.x2) * sx));
  let x2 = clampX(Math.ceil(Math.max(area.x1, area.x2) * sx));
  let y1 = clampY(Math.floor(Math.min(area.y1, area.y2) * sy));
  let y2 = clampY(Math.ceil(Math.max(area.y1, area.y2) * sy));
  const minSide = Math.min(PATCH, work.width, work.height);
  if (x2 - x1 < minSide) [x1, x2] = grow(x1, x2, minSide, work.width);
  if (y2 - y1 < minSide) [y1, y2] = grow(y1, y2, minSide, work.height);
  return { x1, y1, x2, y2 };
}

function grow(a: number, b: number, side: number, limit: number): [number, number] {
  const start = Math.max(0, Math.min(limit - side, Math.floor((a + b - side) / 2)));
  return [start, start + side];
}

/** Feature names, `area<i>.<kind>`, in the column order of the feature matrix. */
export function featureNames(areaLabels: string[]): string[] {
  const kinds = [...BASE_KINDS, ...Array.from({ length: PATCH * PATCH }, (_, i) => `patch_${Math.floor(i / PATCH)}_${i % PATCH}`)];
  return areaLabels.flatMap((label) => kinds.map((kind) => `${label}.${kind}`));
}

/** The matrix of features: `rows` steps × `columns` features, row-major. */
export interface FeatureMatrix {
  rows: number;
  columns: number;
  data: Float32Array;
}

/**
 * Collects features frame by frame (`push`), then `finish` adds the windowed motion. Keeps one
 * previous frame and the growing matrix, never the frames themselves.
 */
export class AreaFeatureExtractor {
  readonly columns: number;
  private previous: Uint8Array | null = null;
  private data: Float32Array;
  private rows = 0;

  constructor(
    private readonly rects: PixelRect[],
    private readonly width: number,
    private readonly fps: number,
    expectedRows = 256,
    private readonly light: PixelLight = RELATIVE_LIGHT,
    /** Training views only (augment.ts): the frame as it would look under other light. */
    private readonly view?: (frame: Uint8Array) => Uint8Array,
  ) {
    this.columns = rects.length * FEATURES_PER_AREA;
    this.data = new Float32Array(Math.max(1, expectedRows) * this.columns);
  }

  push(filmed: Uint8Array): void {
    const frame = this.view ? this.view(filmed) : filmed;
    if ((this.rows + 1) * this.columns > this.data.length) {
      const bigger = new Float32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const row = this.data.subarray(this.rows * this.columns, (this.rows + 1) * this.columns);
    const scale = this.light === RELATIVE_LIGHT ? frameLight(frame) : { offset: 0, unit: 255, changed: CHANGE_THRESHOLD };
    this.rects.forEach((rect, a) =>
      areaFeatures(frame, this.previous, this.width, rect, scale, row.subarray(a * FEATURES_PER_AREA, (a + 1) * FEATURES_PER_AREA)),
    );
    if (!this.previous) this.previous = new Uint8Array(frame.length);
    this.previous.set(frame);
    this.rows++;
  }

  finish(): FeatureMatrix {
    const { rows, columns } = this;
    const data = this.data.subarray(0, rows * columns);
    for (let a = 0; a < this.rects.length; a++) {
      const base = a * FEATURES_PER_AREA;
      if (rows > 1) {
        data[base] = data[columns + base]!;
        data[base + 1] = data[columns + base + 1]!;
      }
      const half = Math.max(1, Math.round(this.fps / 2));
      // Prefix sums of motion give each centred window mean in O(1).
      const prefix = new Float64Array(rows + 1);
      for (let r = 0; r < rows; r++) prefix[r + 1] = prefix[r]! + data[r * columns + base]!;
      for (let r = 0; r < rows; r++) {
        const from = Math.max(0, r - half);
        const to = Math.min(rows, r + half + 1);
        data[r * columns + base + 4] = (prefix[to]! - prefix[from]!) / (to - from);
      }
    }
    return { rows, columns, data: new Float32Array(data) };
  }
}

/** How intensities are read: (v − offset) / unit, differences / unit, a pixel changed over `changed` levels. */
interface LightScale {
  offset: number;
  unit: number;
  changed: number;
}

/**
 * Version 3: the frame's own light — mean and spread of its pixels between the TRIM and 1 − TRIM
 * quantiles (by rank, so a brighter or more contrasted picture keeps the same pixels even where its
 * highlights or shadows clip), the spread at least MIN_FRAME_SPREAD levels.
 */
function frameLight(frame: Uint8Array): LightScale {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < frame.length; i++) histogram[frame[i]!]!++;
  const from = Math.floor(frame.length * TRIM);
  const to = frame.length - from;
  let seen = 0;
  let count = 0;
  let sum = 0;
  let sumSq = 0;
  for (let v = 0; v < 256 && seen < to; v++) {
    const n = histogram[v]!;
    const kept = Math.max(0, Math.min(to, seen + n) - Math.max(from, seen));
    seen += n;
    count += kept;
    sum += kept * v;
    sumSq += kept * v * v;
  }
  const mean = count > 0 ? sum / count : 0;
  const spread = Math.max(MIN_FRAME_SPREAD, Math.sqrt(Math.max(0, count > 0 ? sumSq / count - mean * mean : 0)));
  return { offset: mean, unit: spread, changed: CHANGE_SPREADS * spread };
}

/** The FEATURES_PER_AREA numbers of one area in one frame (motion_1s is filled in later). */
function areaFeatures(frame: Uint8Array, previous: Uint8Array | null, width: number, rect: PixelRect, light: LightScale, out: Float32Array): void {
  const w = rect.x2 - rect.x1;
  const h = rect.y2 - rect.y1;
  const count = w * h;
  let sum = 0;
  let sumSq = 0;
  let diffSum = 0;
  let changed = 0;
  const cells = new Float64Array(PATCH * PATCH);
  const cellCounts = new Float64Array(PATCH * PATCH);
  for (let y = rect.y1; y < rect.y2; y++) {
    const cellRow = Math.min(PATCH - 1, Math.floor(((y - rect.y1) * PATCH) / h)) * PATCH;
    const line = y * width;
    for (let x = rect.x1; x < rect.x2; x++) {
      const v = frame[line + x]!;
      sum += v;
      sumSq += v * v;
      const cell = cellRow + Math.min(PATCH - 1, Math.floor(((x - rect.x1) * PATCH) / w));
      cells[cell]! += v;
      cellCounts[cell]!++;
      if (previous) {
        const d = Math.abs(v - previous[line + x]!);
        diffSum += d;
        if (d > light.changed) changed++;
      }
    }
  }
  const mean = sum / count;
  const { offset, unit } = light;
  out[0] = diffSum / count / unit;
  out[1] = changed / count;
  out[2] = (mean - offset) / unit;
  out[3] = Math.sqrt(Math.max(0, sumSq / count - mean * mean)) / unit;
  out[4] = 0;
  for (let i = 0; i < PATCH * PATCH; i++) out[5 + i] = cellCounts[i]! > 0 ? (cells[i]! / cellCounts[i]! - offset) / unit : 0;
}
