import { describe, expect, it } from 'vitest';
import type { MapFeature } from '../../api/types';
import { byRemovalRule, candidateLabel, objectsUnder } from './removal';

/** A square ring of `side` degrees of longitude and latitude at St Petersburg's latitude, lower left at (lng, 59.9). */
const square = (lng: number, side: number): MapFeature['geometry'] & { type: 'Polygon' } => ({
  type: 'Polygon',
  coordinates: [
    [
      [lng, 59.9],
      [lng + side, 59.9],
      [lng + side, 59.9 + side],
      [lng, 59.9 + side],
      [lng, 59.9],
    ],
  ],
});
const types = [
  { type_id: 10, name: 'Жилая застройка', feature_type: 'area' as const },
  { type_id: 20, name: 'Школа', feature_type: 'zone' as const },
];

describe('«Удалить объект»: which shape under a tap comes first (issue 46)', () => {
  it('orders points, then lines, then areas from the smallest; equal ranks keep their order', () => {
    const territory = { id: 't', geometry: square(30.3, 0.01) };
    const block = { id: 'b', geometry: square(30.302, 0.002) };
    const road = {
      id: 'r',
      geometry: {
        type: 'LineString' as const,
        coordinates: [
          [30.3, 59.9],
          [30.31, 59.9],
        ],
      },
    };
    const object = { id: 'o', geometry: { type: 'Point' as const, coordinates: [30.301, 59.901] } };
    const twin = { id: 't2', geometry: square(30.3, 0.01) };
    const order = byRemovalRule([territory, block, twin, road, object] as Array<{ id: string; geometry: MapFeature['geometry'] }>).map((f) => f.id);
    expect(order).toEqual(['o', 'r', 'b', 't', 't2']);
  });

  it('shows an area in m², as the sphere gives it (R² · Δλ · (sin φ₂ − sin φ₁))', () => {
    const [R, rad] = [6_371_008.8, Math.PI / 180];
    const exact = R * R * 0.0003 * rad * (Math.sin((59.9 + 0.0003) * rad) - Math.sin(59.9 * rad));
    expect(Math.round(exact)).toBe(558);
    expect(candidateLabel({ type: 'area', type_id: 10 } as MapFeature['properties'], square(30.3, 0.0003), types)).toBe('Территория — Жилая застройка, 558 м²');
  });

  it('names each shape in Russian with its type, its name and its size', () => {
    const area = { type: 'area', type_id: 10 } as MapFeature['properties'];
    expect(candidateLabel(area, square(30.3, 0.01), types)).toBe('Территория — Жилая застройка, 62 га');
    const zone = { type: 'zone', type_id: 20, name: 'Школа № 1' } as MapFeature['properties'];
    expect(candidateLabel(zone, square(30.3, 0.001), types)).toBe('Зона «Школа № 1» — Школа');
    expect(candidateLabel({ type: 'area', type_id: 10 } as MapFeature['properties'], square(30.3, 0.0001), types)).toBe('Территория — Жилая застройка, 62 м²');
    expect([1, 2, 5, 11, 21, 22].map(objectsUnder)).toEqual([
      'Под точкой 1 объект',
      'Под точкой 2 объекта',
      'Под точкой 5 объектов',
      'Под точкой 11 объектов',
      'Под точкой 21 объект',
      'Под точкой 22 объекта',
    ]);
  });
});
