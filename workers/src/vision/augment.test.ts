import { describe, expect, it } from 'vitest';
import { seededRandom } from '../random';
import { augmentedRows, RELIGHT, relight, shiftRect } from './augment';
import { AreaFeatureExtractor, FEATURES_PER_AREA, type PixelRect } from './features';

/** Training views for another day (docs/vision.md «Другой день»). */
const W = 40;
const H = 20;
/** A gray picture: a dark floor with a bright block whose place depends on the frame. */
function frame(index: number, light = (v: number) => v): Uint8Array {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) out[y * W + x] = light(x >= 5 + index && x < 15 + index && y >= 4 && y < 12 ? 180 : 50 + ((x * 7 + y * 3) % 11));
  return out;
}
function featuresOf(rects: PixelRect[], light?: (v: number) => number) {
  const extractor = new AreaFeatureExtractor(rects, W, 5);
  for (let i = 0; i < 6; i++) extractor.push(frame(i, light));
  return extractor.finish();
}

describe('training views', () => {
  const rects = [
    { x1: 0, y1: 0, x2: 20, y2: 16 },
    { x1: 10, y1: 4, x2: 40, y2: 20 },
  ];

  it('relight gives the features of the same frames under other light (all but the share of changed pixels)', () => {
    const [brightness, contrast] = [0.04, 1.08];
    // The same affine change of gray values, in 0…255 (no value leaves the range here).
    const lit = featuresOf(rects, (v) => (v - 127.5) * contrast + 127.5 + brightness * 255);
    const plain = featuresOf(rects);
    for (let r = 0; r < plain.rows; r++) {
      const row = plain.data.slice(r * plain.columns, (r + 1) * plain.columns);
      relight(row, rects.length, brightness, contrast);
      for (let a = 0; a < rects.length; a++)
        for (let k = 0; k < FEATURES_PER_AREA; k++) {
          if (k === 1) continue;
          expect(row[a * FEATURES_PER_AREA + k]!).toBeCloseTo(lit.data[r * lit.columns + a * FEATURES_PER_AREA + k]!, 2);
        }
    }
    // Brighter light raised the mean: relight did something.
    expect(lit.data[2]!).toBeGreaterThan(plain.data[2]! + 0.02);
  });

  it('a moved area keeps its size inside the picture and stops at the edge', () => {
    expect(shiftRect({ x1: 10, y1: 4, x2: 20, y2: 12 }, 2, -1, { width: W, height: H })).toEqual({ x1: 12, y1: 3, x2: 22, y2: 11 });
    expect(shiftRect({ x1: 0, y1: 0, x2: 40, y2: 20 }, -2, 1, { width: W, height: H })).toEqual({ x1: 0, y1: 0, x2: 40, y2: 20 });
    expect(shiftRect({ x1: 1, y1: 0, x2: 11, y2: 5 }, -2, 0, { width: W, height: H })).toEqual({ x1: 0, y1: 0, x2: 10, y2: 5 });
  });

  it('each augmented row is its step seen through a view, relit, with the other columns as filmed', () => {
    const plain = featuresOf(rects);
    const moved = featuresOf(rects.map((r) => shiftRect(r, 2, 1, { width: W, height: H })));
    // Two extra columns after the pixel features (as poses would be).
    const columns = plain.columns + 2;
    const base = { rows: plain.rows, columns, data: new Float32Array(plain.rows * columns) };
    for (let r = 0; r < plain.rows; r++) {
      base.data.set(plain.data.subarray(r * plain.columns, (r + 1) * plain.columns), r * columns);
      base.data.set([r, -r], r * columns + plain.columns);
    }
    const out = augmentedRows(base, [moved], [3, 1], rects.length);
    expect(out.rows).toBe(2);
    expect(Array.from(out.data.subarray(plain.columns, columns))).toEqual([3, -3]);
    expect(Array.from(out.data.subarray(columns + plain.columns, 2 * columns))).toEqual([1, -1]);
    // The pixel columns are the view's, relit with the seeded draws (two per row).
    const random = seededRandom(11);
    const expected = moved.data.slice(3 * moved.columns, 4 * moved.columns);
    relight(expected, rects.length, (2 * random() - 1) * RELIGHT.brightness, 1 + (2 * random() - 1) * RELIGHT.contrast);
    for (let k = 0; k < plain.columns; k++) expect(out.data[k]).toBeCloseTo(expected[k]!, 6);
    // …and the view differs from the frame as filmed (the moved area cuts the block elsewhere).
    const filmed = plain.data.slice(3 * plain.columns, 4 * plain.columns);
    expect(Math.max(...Array.from(filmed, (v, k) => Math.abs(v - moved.data[3 * moved.columns + k]!)))).toBeGreaterThan(0.05);
  });
});
