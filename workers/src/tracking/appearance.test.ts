import { describe, expect, it } from 'vitest';
import { appearanceOf, blend, scaleBox, similarity, type Picture } from './appearance';
import type { Box } from './kalman';

/** A grey picture with people drawn as a top and trousers of solid colours. */
function picture(people: { box: Box; top: number[]; legs: number[] }[]): Picture {
  const width = 200;
  const height = 150;
  const rgb = new Uint8Array(width * height * 3).fill(120);
  for (const { box, top, legs } of people) {
    for (let y = box.y1; y < box.y2; y++)
      for (let x = box.x1; x < box.x2; x++) {
        const colour = y < (box.y1 + box.y2) / 2 ? top : legs;
        rgb.set(colour, (y * width + x) * 3);
      }
  }
  return { rgb, width, height };
}

const RED = [200, 30, 30];
const BLUE = [30, 40, 190];
const BLACK = [15, 15, 15];

describe('appearance: colour histograms of the body', () => {
  it('finds the same clothes alike wherever the person stands, and other clothes unlike', () => {
    const a = { x1: 10, y1: 10, x2: 40, y2: 90 };
    const b = { x1: 120, y1: 40, x2: 150, y2: 120 };
    const same = picture([
      { box: a, top: RED, legs: BLUE },
      { box: b, top: RED, legs: BLUE },
    ]);
    const fa = appearanceOf(same, a)!;
    const fb = appearanceOf(same, b)!;
    // Unit length: the similarity of a feature with itself is 1.
    expect(similarity(fa, fa)).toBeCloseTo(1, 5);
    expect(similarity(fa, fb)).toBeCloseTo(1, 5);
    // Top and trousers swapped: the stripes differ in colour, though the colours are the same.
    const swapped = appearanceOf(picture([{ box: b, top: BLUE, legs: RED }]), b)!;
    expect(similarity(fa, swapped)).toBeLessThan(0.1);
    // Black trousers instead of blue: the top still matches, half of the stripes do not.
    const black = appearanceOf(picture([{ box: b, top: RED, legs: BLACK }]), b)!;
    expect(similarity(fa, black)).toBeGreaterThan(0.4);
    expect(similarity(fa, black)).toBeLessThan(0.6);
  });

  it('has no appearance for a box too small or outside the picture; scales source boxes; blends', () => {
    const p = picture([]);
    expect(appearanceOf(p, { x1: 10, y1: 10, x2: 12, y2: 20 })).toBeNull();
    expect(appearanceOf(p, { x1: 300, y1: 10, x2: 340, y2: 100 })).toBeNull();
    expect(scaleBox({ x1: 100, y1: 50, x2: 200, y2: 250 }, { width: 1000, height: 500 }, { width: 500, height: 250 })).toEqual({
      x1: 50,
      y1: 25,
      x2: 100,
      y2: 125,
    });
    const red = Float32Array.from([1, 0]);
    const blue = Float32Array.from([0, 1]);
    const mixed = blend(red, blue, 0.9);
    expect(Math.hypot(...mixed)).toBeCloseTo(1, 6);
    expect(similarity(mixed, red)).toBeGreaterThan(0.99);
    expect(similarity(mixed, blue)).toBeGreaterThan(0.1);
  });
});
