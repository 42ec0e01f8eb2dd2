import { describe, expect, it } from 'vitest';
import { boundaryCrossings, depthInZone, pointInZone, validateZoneShape, zoneArea, zoneBounds, type ZoneShape } from './zones';

const square: ZoneShape = {
  type: 'polygon',
  points: [
    [0, 0],
    [4, 0],
    [4, 4],
    [0, 4],
  ],
};
/** A U: the 6 × 4 rectangle less the 2 × 2 notch x ∈ (2, 4), y ∈ (2, 4]: area 24 − 4 = 20. */
const u: ZoneShape = {
  type: 'polygon',
  points: [
    [0, 0],
    [6, 0],
    [6, 4],
    [4, 4],
    [4, 2],
    [2, 2],
    [2, 4],
    [0, 4],
  ],
};
const circle: ZoneShape = { type: 'circle', center: [1, 1], radius: 2 };

describe('zones', () => {
  it('point in polygon by the even–odd rule, boundary inside', () => {
    expect(pointInZone(square, [2, 2])).toBe(true);
    expect(pointInZone(square, [4, 2])).toBe(true); // on a side
    expect(pointInZone(square, [0, 0])).toBe(true); // a corner
    expect(pointInZone(square, [5, 2])).toBe(false);
    expect(pointInZone(square, [4.001, 2])).toBe(false);
    expect(pointInZone(u, [3, 3])).toBe(false); // in the notch
    expect(pointInZone(u, [3, 1])).toBe(true);
    expect(pointInZone(u, [1, 3])).toBe(true);
    expect(pointInZone(u, [3, 2])).toBe(true); // the notch's floor is the boundary
    expect(pointInZone(u, [5, 3.5])).toBe(true);
  });

  it('point in circle, boundary inside; areas; bounds; depth', () => {
    expect(pointInZone(circle, [3, 1])).toBe(true);
    expect(pointInZone(circle, [3.01, 1])).toBe(false);
    expect(zoneArea(square)).toBe(16);
    expect(zoneArea(u)).toBe(20);
    expect(zoneArea(circle)).toBeCloseTo(4 * Math.PI, 12);
    expect(zoneBounds(circle)).toEqual([-1, -1, 3, 3]);
    expect(zoneBounds(u)).toEqual([0, 0, 6, 4]);
    // Depth = distance to the boundary, negative outside.
    expect(depthInZone(square, [2, 2])).toBe(2);
    expect(depthInZone(square, [1, 2])).toBe(1);
    expect(depthInZone(square, [5, 2])).toBe(-1);
    expect(depthInZone(circle, [1, 1])).toBe(2);
    expect(depthInZone(circle, [4, 1])).toBe(-1);
  });

  it('boundary crossings of a segment', () => {
    // (−2, 2) → (6, 2) crosses x = 0 at s = 2/8 and x = 4 at s = 6/8.
    expect(boundaryCrossings(square, [-2, 2], [6, 2])).toEqual([0.25, 0.75]);
    // Through the U at y = 3: x = 0, 2, 4, 6 over 0 → 8 from x = −1: s = 1/8, 3/8, 5/8, 7/8.
    expect(boundaryCrossings(u, [-1, 3], [7, 3])).toEqual([0.125, 0.375, 0.625, 0.875]);
    // A diameter of the unit circle from (−2, 0) to (2, 0): |−2 + 4s| = 1 at s = 1/4 and 3/4.
    expect(boundaryCrossings({ type: 'circle', center: [0, 0], radius: 1 }, [-2, 0], [2, 0])).toEqual([0.25, 0.75]);
    expect(boundaryCrossings(square, [1, 1], [3, 3])).toEqual([]);
  });

  it('validation: a Russian message for each kind of bad zone, null for a good one', () => {
    expect(validateZoneShape(square)).toBeNull();
    expect(validateZoneShape(u)).toBeNull();
    expect(validateZoneShape(circle)).toBeNull();
    expect(validateZoneShape(null)).toBe('Форма зоны не задана');
    expect(validateZoneShape({ type: 'rect' })).toBe('Зона — многоугольник или круг');
    expect(
      validateZoneShape({
        type: 'polygon',
        points: [
          [0, 0],
          [1, 0],
        ],
      }),
    ).toBe('У многоугольника от 3 до 100 точек');
    const many = Array.from({ length: 101 }, (_, i) => [Math.cos(i / 16), Math.sin(i / 16)]);
    expect(validateZoneShape({ type: 'polygon', points: many })).toBe('У многоугольника от 3 до 100 точек');
    expect(
      validateZoneShape({
        type: 'polygon',
        points: [
          [0, 0],
          [1, Number.NaN],
          [0, 1],
        ],
      }),
    ).toMatch(/два числа/);
    expect(
      validateZoneShape({
        type: 'polygon',
        points: [
          [0, 0],
          [1e5, 0],
          [0, 1],
        ],
      }),
    ).toMatch(/10000 м/);
    expect(
      validateZoneShape({
        type: 'polygon',
        points: [
          [0, 0],
          [1, 0],
          [1, 0],
          [0, 1],
        ],
      }),
    ).toBe('Две соседние точки многоугольника совпадают');
    // A bow tie: sides (0,0)–(4,4) and (4,0)–(0,4) cross at (2,2).
    expect(
      validateZoneShape({
        type: 'polygon',
        points: [
          [0, 0],
          [4, 4],
          [4, 0],
          [0, 4],
        ],
      }),
    ).toBe('Стороны многоугольника пересекаются');
    // A vertex on a non-neighbouring side: (2, 0) lies on (0, 0)–(4, 0).
    expect(
      validateZoneShape({
        type: 'polygon',
        points: [
          [0, 0],
          [4, 0],
          [4, 4],
          [2, 0],
        ],
      }),
    ).toBe('Стороны многоугольника пересекаются');
    // Three points on a line fold back on themselves.
    expect(
      validateZoneShape({
        type: 'polygon',
        points: [
          [0, 0],
          [2, 0],
          [1, 0],
        ],
      }),
    ).toBe('Стороны многоугольника пересекаются');
    expect(validateZoneShape({ type: 'circle', center: [0, 0], radius: 0 })).toBe('Радиус круга должен быть больше нуля');
    expect(validateZoneShape({ type: 'circle', center: [0, 0], radius: -1 })).toBe('Радиус круга должен быть больше нуля');
    expect(validateZoneShape({ type: 'circle', center: [0, 0], radius: 20_000 })).toMatch(/не больше 10000 м/);
    expect(validateZoneShape({ type: 'circle', center: [0], radius: 1 })).toMatch(/Центр круга/);
  });
});
