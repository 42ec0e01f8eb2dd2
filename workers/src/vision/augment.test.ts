import { describe, expect, it } from 'vitest';
import { augmentedRows, relitFrame, shiftRect, TRAINING_LIGHTS, TRAINING_SHIFTS } from './augment';
import { AreaFeatureExtractor, RELATIVE_LIGHT, type PixelRect } from './features';

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
function featuresOf(rects: PixelRect[], light?: (v: number) => number, view?: (frame: Uint8Array) => Uint8Array) {
  const extractor = new AreaFeatureExtractor(rects, W, 5, 8, RELATIVE_LIGHT, view);
  for (let i = 0; i < 6; i++) extractor.push(frame(i, light));
  return extractor.finish();
}

describe('training views', () => {
  const rects = [
    { x1: 0, y1: 0, x2: 20, y2: 16 },
    { x1: 10, y1: 4, x2: 40, y2: 20 },
  ];

  it('a view under other light sees the frame twice or half as bright or as contrasted, clipped to the gray range', () => {
    const picture = Uint8Array.from([0, 40, 50, 60, 200, 250]);
    // Mean 100: brightness × 2 is a gain of 2; contrast × 2 doubles the distance from the mean.
    expect(Array.from(relitFrame(picture, { brightness: 2, contrast: 2 }))).toEqual([0, 80, 100, 120, 255, 255]);
    expect(Array.from(relitFrame(picture, { brightness: 0.5, contrast: 0.5 }))).toEqual([0, 20, 25, 30, 100, 125]);
    expect(Array.from(relitFrame(picture, { brightness: 1, contrast: 2 }))).toEqual([0, 0, 0, 20, 255, 255]);
    expect(Array.from(picture)).toEqual([0, 40, 50, 60, 200, 250]);
    // Every moved view has a light of its own, the ends of half to double brightness and contrast among them.
    expect(TRAINING_LIGHTS).toHaveLength(TRAINING_SHIFTS.length);
    expect(TRAINING_LIGHTS.map((l) => l.brightness * l.contrast).sort()).toEqual([0.25, 0.5, 2, 4]);
  });

  it('the extractor computes a view from the relit frames, not the frames as filmed', () => {
    const light = TRAINING_LIGHTS[0]!;
    const viewed = featuresOf(rects, undefined, (f) => relitFrame(f, light));
    const lit = featuresOf(rects, (v) => Math.min(255, v * light.brightness));
    expect(Array.from(viewed.data)).toEqual(Array.from(lit.data));
  });

  it('a moved area keeps its size inside the picture and stops at the edge', () => {
    expect(shiftRect({ x1: 10, y1: 4, x2: 20, y2: 12 }, 2, -1, { width: W, height: H })).toEqual({ x1: 12, y1: 3, x2: 22, y2: 11 });
    expect(shiftRect({ x1: 0, y1: 0, x2: 40, y2: 20 }, -2, 1, { width: W, height: H })).toEqual({ x1: 0, y1: 0, x2: 40, y2: 20 });
    expect(shiftRect({ x1: 1, y1: 0, x2: 11, y2: 5 }, -2, 0, { width: W, height: H })).toEqual({ x1: 0, y1: 0, x2: 10, y2: 5 });
  });

  it('each augmented row is its step seen through a view, with the other columns as filmed', () => {
    const plain = featuresOf(rects);
    const moved = featuresOf(rects.map((r) => shiftRect(r, 2, 1, { width: W, height: H })));
    // Two extra columns after the pixel features (as poses would be).
    const columns = plain.columns + 2;
    const base = { rows: plain.rows, columns, data: new Float32Array(plain.rows * columns) };
    for (let r = 0; r < plain.rows; r++) {
      base.data.set(plain.data.subarray(r * plain.columns, (r + 1) * plain.columns), r * columns);
      base.data.set([r, -r], r * columns + plain.columns);
    }
    const out = augmentedRows(base, [moved], [3, 1]);
    expect(out.rows).toBe(2);
    expect(Array.from(out.data.subarray(plain.columns, columns))).toEqual([3, -3]);
    expect(Array.from(out.data.subarray(columns + plain.columns, 2 * columns))).toEqual([1, -1]);
    // The pixel columns are the view's.
    expect(Array.from(out.data.subarray(0, plain.columns))).toEqual(Array.from(moved.data.subarray(3 * moved.columns, 4 * moved.columns)));
    // …and the view differs from the frame as filmed (the moved area cuts the block elsewhere).
    const filmed = plain.data.slice(3 * plain.columns, 4 * plain.columns);
    expect(Math.max(...Array.from(filmed, (v, k) => Math.abs(v - moved.data[3 * moved.columns + k]!)))).toBeGreaterThan(0.05);
  });
});
