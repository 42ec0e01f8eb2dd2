/** Zones of a hall on its plan, in metres: polygons (even–odd rule, boundary inside) and circles. */
import { cross, crossingParameter, distance, distanceToSegment, segmentsTouch, type Point } from './geometry';

export type ZoneShape = { type: 'polygon'; points: [number, number][] } | { type: 'circle'; center: [number, number]; radius: number };

export const ZONE_LIMITS = {
  minPoints: 3,
  maxPoints: 100,
  /** Plan coordinates and radii stay within ±10 km: a hall, not a map. */
  maxCoordinate: 10_000,
} as const;

/** Distance within which a point counts as on a polygon's boundary (a micrometre on a plan in metres). */
const ON_EDGE = 1e-6;

/** Whether p is inside the zone or on its boundary. */
export function pointInZone(shape: ZoneShape, p: Point): boolean {
  if (shape.type === 'circle') return distance(shape.center, p) <= shape.radius;
  const pts = shape.points;
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i]!;
    const b = pts[j]!;
    if (distanceToSegment(p, a, b) <= ON_EDGE) return true;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < a[0] + ((p[1] - a[1]) * (b[0] - a[0])) / (b[1] - a[1])) inside = !inside;
  }
  return inside;
}

/** How far p lies inside the zone (0 on the boundary, negative outside): distance to the boundary. */
export function depthInZone(shape: ZoneShape, p: Point): number {
  if (shape.type === 'circle') return shape.radius - distance(shape.center, p);
  const pts = shape.points;
  let d = Infinity;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) d = Math.min(d, distanceToSegment(p, pts[i]!, pts[j]!));
  return pointInZone(shape, p) ? d : -d;
}

/** Area in square metres. */
export function zoneArea(shape: ZoneShape): number {
  if (shape.type === 'circle') return Math.PI * shape.radius * shape.radius;
  const pts = shape.points;
  let s = 0;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) s += pts[j]![0] * pts[i]![1] - pts[i]![0] * pts[j]![1];
  return Math.abs(s) / 2;
}

/** The zone's bounding box [minX, minY, maxX, maxY]. */
export function zoneBounds(shape: ZoneShape): [number, number, number, number] {
  if (shape.type === 'circle') {
    const [x, y] = shape.center;
    const r = shape.radius;
    return [x - r, y - r, x + r, y + r];
  }
  const xs = shape.points.map((p) => p[0]);
  const ys = shape.points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/**
 * Parameters s in (0, 1), ascending, where the segment p → q crosses the zone's boundary: between two
 * consecutive ones the segment is wholly inside or wholly outside.
 */
export function boundaryCrossings(shape: ZoneShape, p: Point, q: Point): number[] {
  const out: number[] = [];
  if (shape.type === 'circle') {
    const dx = q[0] - p[0];
    const dy = q[1] - p[1];
    const fx = p[0] - shape.center[0];
    const fy = p[1] - shape.center[1];
    const a = dx * dx + dy * dy;
    const b = 2 * (fx * dx + fy * dy);
    const c = fx * fx + fy * fy - shape.radius * shape.radius;
    const disc = b * b - 4 * a * c;
    if (a > 0 && disc > 0) {
      const root = Math.sqrt(disc);
      for (const s of [(-b - root) / (2 * a), (-b + root) / (2 * a)]) if (s > 0 && s < 1) out.push(s);
    }
  } else {
    const pts = shape.points;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const s = crossingParameter(p, q, pts[j]!, pts[i]!);
      if (s !== null) out.push(s);
    }
  }
  return [...new Set(out)].sort((x, y) => x - y);
}

/**
 * Checks a zone shape from outside (the API's input): null when valid, otherwise a Russian message
 * saying what is wrong. Polygons have 3–100 points with finite coordinates, no repeated neighbours,
 * no self-intersection and a positive area; circles a finite centre and a positive radius.
 */
export function validateZoneShape(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return 'Форма зоны не задана';
  const shape = input as { type?: unknown; points?: unknown; center?: unknown; radius?: unknown };
  if (shape.type === 'circle') {
    if (!isPoint(shape.center)) return `Центр круга — два числа не больше ${ZONE_LIMITS.maxCoordinate} м по модулю`;
    const r = shape.radius;
    if (typeof r !== 'number' || !Number.isFinite(r) || r <= 0) return 'Радиус круга должен быть больше нуля';
    if (r > ZONE_LIMITS.maxCoordinate) return `Радиус круга не больше ${ZONE_LIMITS.maxCoordinate} м`;
    return null;
  }
  if (shape.type !== 'polygon') return 'Зона — многоугольник или круг';
  const pts = shape.points;
  if (!Array.isArray(pts) || pts.length < ZONE_LIMITS.minPoints || pts.length > ZONE_LIMITS.maxPoints) {
    return `У многоугольника от ${ZONE_LIMITS.minPoints} до ${ZONE_LIMITS.maxPoints} точек`;
  }
  if (!pts.every(isPoint)) return `Точка многоугольника — два числа не больше ${ZONE_LIMITS.maxCoordinate} м по модулю`;
  return polygonProblem(pts as Point[]);
}

function isPoint(p: unknown): p is Point {
  return Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= ZONE_LIMITS.maxCoordinate);
}

function polygonProblem(pts: Point[]): string | null {
  const n = pts.length;
  for (let i = 0; i < n; i++) {
    if (distance(pts[i]!, pts[(i + 1) % n]!) === 0) return 'Две соседние точки многоугольника совпадают';
  }
  for (let i = 0; i < n; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      const c = pts[j]!;
      const d = pts[(j + 1) % n]!;
      const adjacent = j === i + 1 || (i === 0 && j === n - 1);
      if (adjacent ? foldsBack(a, b, c, d) : segmentsTouch(a, b, c, d)) return 'Стороны многоугольника пересекаются';
    }
  }
  if (zoneArea({ type: 'polygon', points: pts as [number, number][] }) === 0) return 'Площадь многоугольника нулевая';
  return null;
}

/** Neighbouring sides a–b and c–d (sharing one end) that lie on one line and overlap. */
function foldsBack(a: Point, b: Point, c: Point, d: Point): boolean {
  // The shared vertex and the two far ends.
  const [shared, u, v] = b[0] === c[0] && b[1] === c[1] ? [b, a, d] : [a, b, c];
  if (cross(shared, u, v) !== 0) return false;
  return (u[0] - shared[0]) * (v[0] - shared[0]) + (u[1] - shared[1]) * (v[1] - shared[1]) > 0;
}
