import { describe, expect, it } from 'vitest';
import { roundGeometry } from './precision';

describe('coordinates handed to the drawing', () => {
  it('are rounded to 7 decimals: the demo parcel 78:31:0001001:2 built by arithmetic becomes a plain rectangle', () => {
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [30.315, 59.93],
          [30.315 + 0.01, 59.93],
          [30.315 + 0.01, 59.93 + 0.005],
          [30.315, 59.93 + 0.005],
          [30.315, 59.93],
        ],
      ],
    };
    expect(30.315 + 0.01).toBe(30.325000000000003);
    expect(roundGeometry(polygon).coordinates).toEqual([
      [
        [30.315, 59.93],
        [30.325, 59.93],
        [30.325, 59.935],
        [30.315, 59.935],
        [30.315, 59.93],
      ],
    ]);
  });

  it('drop a point that became a repeat of its neighbour, and round points and lines too', () => {
    expect(
      roundGeometry({
        type: 'LineString',
        coordinates: [
          [1, 2],
          [1.000000001, 2.000000001],
          [3, 4],
        ],
      }).coordinates,
    ).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(roundGeometry({ type: 'Point', coordinates: [30.123456789, 59.987654321] }).coordinates).toEqual([30.1234568, 59.9876543]);
  });
});
