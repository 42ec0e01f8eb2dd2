import type { FeatureMatrix, PixelRect } from './features';

/**
 * Training views (docs/vision.md «Другой день», «Свет другого дня»): a camera is never aimed, nor
 * the worker placed, nor the place lit quite the same way on two days, so a model fitted on one
 * day's exact pixels fails on the next. Each training step is therefore also seen once more through
 * the areas moved by a few pixels (as if the camera or the worker stood a little differently) and
 * under other light: the same frames made twice or half as bright or as contrasted before the
 * features are computed. The features (version 3) already divide a change of light out; what such
 * a view teaches is what they cannot — highlights and shadows that clip, gray levels that merge.
 * Only for fitting: early stopping and the reported test use the steps as filmed.
 */

/** Moves of the areas, working-picture pixels (a 160-pixel-wide picture: 2 pixels are 8 of a 640-pixel frame). */
export const TRAINING_SHIFTS: [number, number][] = [
  [-2, -1],
  [2, 1],
  [-2, 1],
  [2, -1],
];

/** Light of a view: gray values v → (v − m)·contrast + m·brightness, m the frame's mean, clipped to 0…255. */
export interface ViewLight {
  brightness: number;
  contrast: number;
}
/** The light of each view (view i of TRAINING_SHIFTS is lit as TRAINING_LIGHTS[i]): the ends of the range a model must hold. */
export const TRAINING_LIGHTS: ViewLight[] = [
  { brightness: 2, contrast: 2 },
  { brightness: 0.5, contrast: 0.5 },
  { brightness: 1, contrast: 2 },
  { brightness: 1, contrast: 0.5 },
];

/** The frame as it would look under `light` (a new picture; the frame is left as it is). */
export function relitFrame(frame: Uint8Array, light: ViewLight): Uint8Array {
  let sum = 0;
  for (let i = 0; i < frame.length; i++) sum += frame[i]!;
  const mean = sum / Math.max(1, frame.length);
  const table = new Uint8Array(256);
  for (let v = 0; v < 256; v++) table[v] = Math.max(0, Math.min(255, Math.round((v - mean) * light.contrast + mean * light.brightness)));
  return frame.map((v) => table[v]!);
}

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
 * One more row for each of `rows`: step `rows[i]` seen through view i mod views (the pixel columns
 * of that view, the other columns — poses — as filmed).
 */
export function augmentedRows(base: FeatureMatrix, views: FeatureMatrix[], rows: number[]): FeatureMatrix {
  const data = new Float32Array(rows.length * base.columns);
  rows.forEach((r, i) => {
    const out = data.subarray(i * base.columns, (i + 1) * base.columns);
    out.set(base.data.subarray(r * base.columns, (r + 1) * base.columns));
    const view = views[i % views.length];
    if (view) out.set(view.data.subarray(r * view.columns, (r + 1) * view.columns));
  });
  return { rows: rows.length, columns: base.columns, data };
}
