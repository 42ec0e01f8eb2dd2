import { seededRandom } from '../random';
import { FEATURES_PER_AREA, PATCH, type FeatureMatrix, type PixelRect } from './features';

/**
 * Training views (docs/vision.md «Другой день»): a camera is never aimed, nor the worker placed,
 * nor the place lit quite the same way on two days, so a model fitted on one day's exact pixels
 * fails on the next. Each training step is therefore also seen once more through the areas moved
 * by a few pixels (as if the camera or the worker stood a little differently) and with the light
 * changed (brightness and contrast). Only for fitting: early stopping and the reported test use the
 * steps as filmed. Nothing changes in the features themselves, so models, ONNX files and the
 * browser's features stay as they were.
 */

/** Moves of the areas, working-picture pixels (a 160-pixel-wide picture: 2 pixels are 8 of a 640-pixel frame). */
export const TRAINING_SHIFTS: [number, number][] = [
  [-2, -1],
  [2, 1],
  [-2, 1],
  [2, -1],
];
/** Lighting of a view: brightness added (share of the range) and contrast factor, drawn uniformly within these. */
export const RELIGHT = { brightness: 0.05, contrast: 0.1 };

/** The rectangle moved by (dx, dy) and kept inside the picture (its size kept where the picture allows). */
export function shiftRect(rect: PixelRect, dx: number, dy: number, work: { width: number; height: number }): PixelRect {
  const move = (a: number, b: number, d: number, limit: number): [number, number] => {
    const shift = Math.max(-a, Math.min(limit - b, d));
    return [a + shift, b + shift];
  };
  const [x1, x2] = move(rect.x1, rect.x2, dx, work.width);
  const [y1, y2] = move(rect.y1, rect.y2, dy, work.height);
  return { x1, y1, x2, y2 };
}

/**
 * The pixel features of one step (`areas` areas, layout of features.ts) as they would be under
 * other light: intensities v → (v − ½)·contrast + ½ + brightness; their spread and the motion
 * scale with the contrast; the share of changed pixels stays.
 */
export function relight(row: Float32Array, areas: number, brightness: number, contrast: number): void {
  for (let a = 0; a < areas; a++) {
    const o = a * FEATURES_PER_AREA;
    row[o] = row[o]! * contrast;
    row[o + 2] = (row[o + 2]! - 0.5) * contrast + 0.5 + brightness;
    row[o + 3] = row[o + 3]! * contrast;
    row[o + 4] = row[o + 4]! * contrast;
    for (let i = 0; i < PATCH * PATCH; i++) row[o + 5 + i] = (row[o + 5 + i]! - 0.5) * contrast + 0.5 + brightness;
  }
}

/**
 * One more row for each of `rows`: step `rows[i]` seen through view i mod views (the pixel columns
 * of that view, the other columns — poses — as filmed), relit at random (seeded).
 */
export function augmentedRows(base: FeatureMatrix, views: FeatureMatrix[], rows: number[], areas: number, seed = 11): FeatureMatrix {
  const random = seededRandom(seed);
  const data = new Float32Array(rows.length * base.columns);
  rows.forEach((r, i) => {
    const out = data.subarray(i * base.columns, (i + 1) * base.columns);
    out.set(base.data.subarray(r * base.columns, (r + 1) * base.columns));
    const view = views[i % views.length];
    if (view) out.set(view.data.subarray(r * view.columns, (r + 1) * view.columns));
    relight(out, areas, (2 * random() - 1) * RELIGHT.brightness, 1 + (2 * random() - 1) * RELIGHT.contrast);
  });
  return { rows: rows.length, columns: base.columns, data };
}
