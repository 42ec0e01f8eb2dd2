import { describe, expect, it } from 'vitest';
import type { Point } from './geometry';
import { CalibrationError, homographyFromPoints, invertHomography, toImage, toPlan } from './homography';

const SQUARE: Point[] = [
  [0, 0],
  [100, 0],
  [100, 100],
  [0, 100],
];

function close(p: Point | null, q: Point, digits = 9): void {
  expect(p).not.toBeNull();
  expect(p![0]).toBeCloseTo(q[0], digits);
  expect(p![1]).toBeCloseTo(q[1], digits);
}

describe('homography from four points', () => {
  it('maps a square of 100 px onto a 10 × 5 m rectangle (a pure scaling)', () => {
    const h = homographyFromPoints(SQUARE, [
      [0, 0],
      [10, 0],
      [10, 5],
      [0, 5],
    ]);
    // u = x / 10, v = y / 20: the centre (50, 50) → (5, 2.5); (20, 80) → (2, 4); a corner to its corner.
    close(toPlan(h, [50, 50]), [5, 2.5]);
    close(toPlan(h, [20, 80]), [2, 4]);
    close(toPlan(h, [100, 100]), [10, 5]);
    // No perspective: the last row is (0, 0, 1) up to the scale.
    expect(Math.abs(h[6]) + Math.abs(h[7])).toBeLessThan(1e-12);
  });

  it('recovers a known perspective H = [[1, 0, 0], [0, 1, 0], [0.001, 0, 1]]', () => {
    // u = x / (1 + 0.001 x), v = y / (1 + 0.001 x): (1000, 0) → (500, 0), (1000, 1000) → (500, 500), (0, 1000) stays.
    const image: Point[] = [
      [0, 0],
      [1000, 0],
      [1000, 1000],
      [0, 1000],
    ];
    const h = homographyFromPoints(image, [
      [0, 0],
      [500, 0],
      [500, 500],
      [0, 1000],
    ]);
    const k = h[8];
    [1, 0, 0, 0, 1, 0, 0.001, 0, 1].forEach((v, i) => expect(h[i]! / k).toBeCloseTo(v, 12));
    // (500, 500): w = 1.5 → (333.33…, 333.33…); (500, 1000): (333.33…, 666.66…).
    close(toPlan(h, [500, 500]), [1000 / 3, 1000 / 3]);
    close(toPlan(h, [500, 1000]), [1000 / 3, 2000 / 3]);
    // The horizon is x = −1000 (w = 0): on it and beyond, no plan point.
    expect(toPlan(h, [-1000, 0])).toBeNull();
    expect(toPlan(h, [-1500, 300])).toBeNull();
    // Just in front of it: w = 0.001, u = −999 / 0.001 = −999 000 m — far, but a point.
    close(toPlan(h, [-999, 0]), [-999000, 0], 3);
    // Back: the plan's own horizon is u = 1000 (x = u / (1 − 0.001 u)): plan points there have no frame point.
    const inv = invertHomography(h);
    close(toImage(inv, [1000 / 3, 1000 / 3]), [500, 500]);
    expect(toImage(inv, [1000, 0])).toBeNull();
    expect(toImage(inv, [1500, 0])).toBeNull();
  });

  it('round trip frame → plan → frame and plan → frame → plan within 1e-9 on a tilted camera', () => {
    // A camera looking at a 10 × 20 m floor from its side: the far edge is shorter on the frame.
    const image: Point[] = [
      [100, 400],
      [700, 420],
      [600, 100],
      [200, 90],
    ];
    const plan: Point[] = [
      [0, 0],
      [10, 0],
      [10, 20],
      [0, 20],
    ];
    const h = homographyFromPoints(image, plan);
    const inv = invertHomography(h);
    image.forEach((p, i) => close(toPlan(h, p), plan[i]!));
    for (let x = 120; x <= 680; x += 40) {
      for (let y = 100; y <= 400; y += 30) {
        const back = toImage(inv, toPlan(h, [x, y])!)!;
        expect(Math.hypot(back[0] - x, back[1] - y)).toBeLessThan(1e-9);
      }
    }
    for (let u = 0; u <= 10; u += 0.5) {
      for (let v = 0; v <= 20; v += 1) {
        const back = toPlan(h, toImage(inv, [u, v])!)!;
        expect(Math.hypot(back[0] - u, back[1] - v)).toBeLessThan(1e-9);
      }
    }
  });

  it('refuses collinear, repeated and crossed points with a message saying which side', () => {
    const plan: Point[] = [
      [0, 0],
      [10, 0],
      [10, 5],
      [0, 5],
    ];
    const line: Point[] = [
      [0, 0],
      [50, 0],
      [100, 0],
      [0, 100],
    ];
    expect(() => homographyFromPoints(line, plan)).toThrow(/Три из четырёх точек на кадре лежат почти на одной прямой/);
    expect(() => homographyFromPoints(plan, line)).toThrow(/на плане/);
    // (100, −0.5) is 0.5 px off the line (0, 0)–(200, 0): 2·area / side² = 100 / 40 000 = 0.0025 < 0.01.
    const nearly: Point[] = [
      [0, 0],
      [100, -0.5],
      [200, 0],
      [100, 100],
    ];
    expect(() => homographyFromPoints(nearly, plan)).toThrow(CalibrationError);
    // 5 px off: 1000 / 40 000 = 0.025 — accepted (a flat but convex quadrilateral).
    const flat: Point[] = [
      [0, 0],
      [100, -5],
      [200, 0],
      [100, 100],
    ];
    close(toPlan(homographyFromPoints(flat, plan), [100, -5]), [10, 0]);
    // The same corners in a concave order cannot be a floor seen by a camera: refused, not folded.
    expect(() => homographyFromPoints([flat[0]!, [100, 5], flat[2]!, flat[3]!], plan)).toThrow(/в разном порядке/);
    const repeated: Point[] = [
      [0, 0],
      [0, 0],
      [100, 100],
      [0, 100],
    ];
    expect(() => homographyFromPoints(repeated, plan)).toThrow(/одной прямой/);
    // The plan corners in a crossed order (a bow tie): the mapping would fold the floor over the horizon.
    const crossed: Point[] = [
      [0, 0],
      [10, 0],
      [0, 5],
      [10, 5],
    ];
    expect(() => homographyFromPoints(SQUARE, crossed)).toThrow(/в разном порядке/);
    expect(() => homographyFromPoints(SQUARE.slice(0, 3), plan.slice(0, 3))).toThrow(/ровно четыре/);
    expect(() => homographyFromPoints([[Number.NaN, 0], ...SQUARE.slice(1)], plan)).toThrow(/числами/);
  });
});
