/** Plane geometry shared by the calibration, zones and figures: points are [x, y]. */

export type Point = readonly [number, number];

/** Twice the signed area of the triangle a, b, c: positive when a → b → c turns left. */
export function cross(a: Point, b: Point, c: Point): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/** Distance from p to the segment a–b. */
export function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return distance(p, a);
  const s = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - (a[0] + s * dx), p[1] - (a[1] + s * dy));
}

/** Whether the closed segments a–b and c–d share at least one point (touching counts). */
export function segmentsTouch(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = Math.sign(cross(c, d, a));
  const d2 = Math.sign(cross(c, d, b));
  const d3 = Math.sign(cross(a, b, c));
  const d4 = Math.sign(cross(a, b, d));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 === 0 && onBox(a, c, d)) || (d2 === 0 && onBox(b, c, d)) || (d3 === 0 && onBox(c, a, b)) || (d4 === 0 && onBox(d, a, b));
}

/** For p collinear with a–b: whether p lies within the segment's bounding box, i.e. on the segment. */
function onBox(p: Point, a: Point, b: Point): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

/**
 * Parameters s in (0, 1) where the segment p → q crosses the segment a–b (p + s·(q − p)), none when
 * they are parallel.
 */
export function crossingParameter(p: Point, q: Point, a: Point, b: Point): number | null {
  const rx = q[0] - p[0];
  const ry = q[1] - p[1];
  const sx = b[0] - a[0];
  const sy = b[1] - a[1];
  const den = rx * sy - ry * sx;
  if (den === 0) return null;
  const s = ((a[0] - p[0]) * sy - (a[1] - p[1]) * sx) / den;
  const u = ((a[0] - p[0]) * ry - (a[1] - p[1]) * rx) / den;
  return s > 0 && s < 1 && u >= 0 && u <= 1 ? s : null;
}
