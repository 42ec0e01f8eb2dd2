import { describe, expect, it } from 'vitest';
import { ABSOLUTE_LIGHT, AreaFeatureExtractor, FEATURES_PER_AREA, pixelLightOf, RELATIVE_LIGHT, type PixelLight } from './features';
import { FEATURE_VERSION, POSE_FEATURE_VERSION } from './pipeline';

/** Pixel features under other light (issue 43; docs/vision.md «Свет другого дня»). */
const W = 40;
const H = 20;
/** A gray picture: a textured floor with a bright block moving right, its gray values passed through `light`. */
function frame(index: number, light: (v: number) => number): Uint8Array {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const v = x >= 5 + 2 * index && x < 15 + 2 * index && y >= 4 && y < 12 ? 110 : 40 + ((x * 7 + y * 3) % 23);
      out[y * W + x] = Math.max(0, Math.min(255, Math.round(light(v))));
    }
  return out;
}
const rects = [
  { x1: 0, y1: 0, x2: 20, y2: 16 },
  { x1: 10, y1: 4, x2: 40, y2: 20 },
];
function featuresOf(version: PixelLight, light: (v: number) => number = (v) => v) {
  const extractor = new AreaFeatureExtractor(rects, W, 5, 8, version);
  for (let i = 0; i < 6; i++) extractor.push(frame(i, light));
  return extractor.finish();
}
/** The largest difference between two matrices of the same shape. */
const largestGap = (a: Float32Array, b: Float32Array) => Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i]!)));

const LIGHTS: [string, (v: number) => number][] = [
  ['half the brightness', (v) => v * 0.5],
  ['double the brightness', (v) => v * 2],
  ['half the contrast', (v) => (v - 60) * 0.5 + 60],
  ['double the contrast', (v) => (v - 60) * 2 + 60],
];

describe('pixel features under other light', () => {
  const filmed = featuresOf(RELATIVE_LIGHT);

  it.each(LIGHTS)('version 3 gives nearly the same numbers at %s', (_, light) => {
    const lit = featuresOf(RELATIVE_LIGHT, light);
    expect(lit.columns).toBe(rects.length * FEATURES_PER_AREA);
    // Rounding to whole gray levels is all that differs (half a level of a frame spread of about 3 levels at half the light).
    expect(largestGap(filmed.data, lit.data)).toBeLessThan(0.15);
    // The block really moves and stands out: the features are not constant.
    expect(largestGap(filmed.data.subarray(0, filmed.columns), filmed.data.subarray(3 * filmed.columns, 4 * filmed.columns))).toBeGreaterThan(0.5);
  });

  it('version 1 (absolute) moves with the light, as models trained with it always did', () => {
    const plain = featuresOf(ABSOLUTE_LIGHT);
    const dark = featuresOf(ABSOLUTE_LIGHT, (v) => v * 0.5);
    expect(plain.data[2]!).toBeCloseTo(dark.data[2]! * 2, 1);
    expect(largestGap(plain.data, dark.data)).toBeGreaterThan(0.1);
  });

  it('a blank frame gives finite numbers', () => {
    const extractor = new AreaFeatureExtractor(rects, W, 5, 2, RELATIVE_LIGHT);
    extractor.push(new Uint8Array(W * H).fill(90));
    extractor.push(new Uint8Array(W * H).fill(90));
    expect(Array.from(extractor.finish().data).every((v) => v === 0)).toBe(true);
  });

  it('models keep the features they were trained with', () => {
    expect(pixelLightOf(1)).toBe(ABSOLUTE_LIGHT);
    expect(pixelLightOf(2)).toBe(ABSOLUTE_LIGHT);
    expect(pixelLightOf(FEATURE_VERSION)).toBe(RELATIVE_LIGHT);
    expect(pixelLightOf(POSE_FEATURE_VERSION)).toBe(RELATIVE_LIGHT);
  });
});
