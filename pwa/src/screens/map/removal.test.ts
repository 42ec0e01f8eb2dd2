import { describe, expect, it } from 'vitest';
import type { MapFeature } from '../../api/types';
import { byRemovalRule, candidateLabel, clearPaddings, cornerBox, freeCorner, objectsUnder } from './removal';

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

describe('«Удалить объект»: the panel in a corner the outlined shape leaves clear (issue 46)', () => {
  const area = { width: 1000, height: 700 };
  const panel = { width: 350, height: 150 };
  const meets = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it('keeps the top left without a shape or with one elsewhere; moves round the corners as the shape takes them', () => {
    expect(freeCorner(area, panel, null)).toBe('top-left');
    expect(freeCorner(area, panel, { x: 500, y: 400, width: 50, height: 50 })).toBe('top-left');
    // The shape where the panel used to sit.
    expect(freeCorner(area, panel, { x: 60, y: 60, width: 110, height: 80 })).toBe('top-right');
    // A band across the top: a bottom corner.
    expect(freeCorner(area, panel, { x: 20, y: 20, width: 960, height: 100 })).toBe('bottom-right');
    // Within 8 px of the panel's place is not clear: the margin keeps the outline visible.
    expect(freeCorner(area, panel, { x: 370, y: 100, width: 10, height: 10 })).toBe('top-left');
    expect(freeCorner(area, panel, { x: 364, y: 100, width: 10, height: 10 })).toBe('top-right');
  });

  it('finds no corner under a shape over most of the map; the paddings put it beside the top-left panel', () => {
    const large = { x: 40, y: 30, width: 920, height: 600 };
    expect(freeCorner(area, panel, large)).toBeNull();
    const [below, right] = clearPaddings(area, panel);
    const corner = cornerBox('top-left', area, panel);
    // The room each padding leaves for the shape does not meet the panel.
    for (const p of [below, right])
      expect(meets(corner, { x: p.left!, y: p.top!, width: area.width - p.left! - p.right!, height: area.height - p.top! - p.bottom! })).toBe(false);
    // A map too small for either: none offered.
    expect(clearPaddings({ width: 360, height: 170 }, { width: 340, height: 150 })).toEqual([]);
  });

  it('every corner box lies inside the map, 8 px from its edges', () => {
    for (const corner of ['top-left', 'top-right', 'bottom-right', 'bottom-left'] as const) {
      const box = cornerBox(corner, area, panel);
      expect(Math.min(box.x, box.y, area.width - box.x - box.width, area.height - box.y - box.height)).toBe(8);
    }
  });
});
