import { featureCollection, intersect, polygon as turfPolygon } from '@turf/turf';
import proj4 from 'proj4';

/** A point in projected metres (x east, y north). */
export type XY = [number, number];
/** A polygon in projected metres: rings, the first the outline, each closed. */
export type Poly = XY[][];

export interface Projection {
  forward(lonLat: number[]): XY;
  inverse(xy: XY): [number, number];
  /** The proj4 definition (the export writes it into the DXF's NORMA_CRS record and the job result). */
  definition: string;
}

/**
 * A local transverse Mercator centred on the drawing: metres with a scale error under 0.01 % within
 * ±60 km of the centre — the district sizes the editor deals with (docs/map.md «Координаты»).
 */
export function localProjection(lon: number, lat: number): Projection {
  const definition = `+proj=tmerc +lat_0=${lat.toFixed(6)} +lon_0=${lon.toFixed(6)} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`;
  const converter = proj4('EPSG:4326', definition);
  return {
    definition,
    forward: (p) => converter.forward([p[0], p[1]]) as XY,
    inverse: (xy) => converter.inverse(xy) as [number, number],
  };
}

/** The centre of the bounding box of the positions given (null: none). */
export function centreOf(positions: Iterable<number[]>): [number, number] | null {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of positions) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  return Number.isFinite(minX) ? [(minX + maxX) / 2, (minY + maxY) / 2] : null;
}

/** The projection centred on the middle of the bounding box of all positions given. */
export function projectionFor(positions: Iterable<number[]>): Projection {
  const centre = centreOf(positions);
  return centre ? localProjection(centre[0], centre[1]) : localProjection(30.3141, 59.9386);
}

export const dist = (a: XY, b: XY) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Signed shoelace area of a ring, m² (positive counter-clockwise). */
export function ringArea(ring: XY[]): number {
  if (ring.length === 0) return 0;
  // From the first vertex, as centroid(): no cancellation at national-grid coordinates.
  const [ox, oy] = ring[0];
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) sum += (ring[i][0] - ox) * (ring[i + 1][1] - oy) - (ring[i + 1][0] - ox) * (ring[i][1] - oy);
  return sum / 2;
}

export const polyArea = (poly: Poly) => Math.abs(ringArea(poly[0])) - poly.slice(1).reduce((s, r) => s + Math.abs(ringArea(r)), 0);

/**
 * Area-weighted centroid of the outline, computed from the ring's first vertex: the shoelace terms
 * of coordinates in the millions of metres (СК-42, UTM) cancel to a few square metres, and taken
 * from the grid's origin they lost up to metres of the centre (issue 46).
 */
export function centroid(poly: Poly): XY {
  const ring = poly[0];
  const [ox, oy] = ring[0];
  let [cx, cy, a] = [0, 0, 0];
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x0, y0, x1, y1] = [ring[i][0] - ox, ring[i][1] - oy, ring[i + 1][0] - ox, ring[i + 1][1] - oy];
    const f = x0 * y1 - x1 * y0;
    cx += (x0 + x1) * f;
    cy += (y0 + y1) * f;
    a += f;
  }
  if (Math.abs(a) < 1e-9) return [ox + ring.reduce((s, p) => s + p[0] - ox, 0) / ring.length, oy + ring.reduce((s, p) => s + p[1] - oy, 0) / ring.length];
  return [ox + cx / (3 * a), oy + cy / (3 * a)];
}

export function bbox(poly: Poly): [number, number, number, number] {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of poly[0]) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  return [minX, minY, maxX, maxY];
}

const closeRing = (ring: XY[]): XY[] => {
  const [a, b] = [ring[0], ring[ring.length - 1]];
  return a[0] === b[0] && a[1] === b[1] ? ring : [...ring, a];
};

/** The intersection of two polygons (turf, planar in metres): zero or more polygons. */
export function clip(subject: Poly, mask: Poly): Poly[] {
  const result = intersect(featureCollection([turfPolygon(subject.map(closeRing)), turfPolygon(mask.map(closeRing))]));
  if (!result) return [];
  const g = result.geometry;
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  return polys.map((p) => p.map((r) => r.map((q) => [q[0], q[1]] as XY))).filter((p) => polyArea(p) > 1);
}

export const rect = (minX: number, minY: number, maxX: number, maxY: number): Poly => [
  [
    [minX, minY],
    [maxX, minY],
    [maxX, maxY],
    [minX, maxY],
    [minX, minY],
  ],
];

export const rotate = (p: XY, angle: number, about: XY = [0, 0]): XY => {
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const [x, y] = [p[0] - about[0], p[1] - about[1]];
  return [about[0] + x * c - y * s, about[1] + x * s + y * c];
};
export const rotatePoly = (poly: Poly, angle: number, about: XY): Poly => poly.map((r) => r.map((p) => rotate(p, angle, about)));

/** Direction of the longest outline edge, radians: grids and splits align with the area. */
export function mainAngle(poly: Poly): number {
  const ring = poly[0];
  let [best, angle] = [0, 0];
  for (let i = 0; i + 1 < ring.length; i++) {
    const length = dist(ring[i], ring[i + 1]);
    if (length > best + 1e-9) [best, angle] = [length, Math.atan2(ring[i + 1][1] - ring[i][1], ring[i + 1][0] - ring[i][0])];
  }
  return angle;
}

/** Point in polygon (even-odd over all rings); points on the boundary within `tolerance` m count as inside. */
export function inside(p: XY, poly: Poly, tolerance = 0.5): boolean {
  let isIn = false;
  for (const ring of poly)
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [a, b] = [ring[i], ring[j]];
      if (segmentDistance(p, a, b) <= tolerance) return true;
      if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) isIn = !isIn;
    }
  return isIn;
}

export function segmentDistance(p: XY, a: XY, b: XY): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}
