/**
 * A camera's floor mapped to the hall's plan: four points on the frame (pixels) ↔ the same four
 * points on the plan (metres) give a homography, a 3×3 matrix H with [u·w, v·w, w] = H·[x, y, 1].
 */
import { cross, distance, type Point } from './geometry';

/** Row-major 3×3, scaled to unit Frobenius norm, signed so that w > 0 at the four calibration points. */
export type Homography = readonly [number, number, number, number, number, number, number, number, number];

/**
 * A third point closer to the line through two others than this share of their distance counts as
 * on that line: the four points must span a real quadrilateral on both sides, or the mapping is
 * unstable (a pixel of error moves the plan point by metres).
 */
export const COLLINEAR_SHARE = 0.01;

export class CalibrationError extends Error {}

const ORDER = 'Точки на кадре и на плане идут в разном порядке: обойдите углы в одну сторону на обоих';

/** DLT on exactly four correspondences, with both sides normalised (Hartley) for a well-conditioned 8×8 system. */
export function homographyFromPoints(image: readonly Point[], plan: readonly Point[]): Homography {
  if (image.length !== 4 || plan.length !== 4) throw new CalibrationError('Нужно ровно четыре точки на кадре и четыре на плане');
  for (const p of [...image, ...plan]) {
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) throw new CalibrationError('Координаты точек должны быть числами');
  }
  refuseCollinear(image, 'на кадре');
  refuseCollinear(plan, 'на плане');
  const ti = normaliser(image);
  const tp = normaliser(plan);
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = apply3(ti, image[i]!);
    const [u, v] = apply3(tp, plan[i]!);
    a.push([x, y, 1, 0, 0, 0, -x * u, -y * u]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -x * v, -y * v]);
    b.push(v);
  }
  const h = solve(a, b);
  // With no three points on a line a homography exists; the system is singular only when the centroid of
  // the frame points maps to infinity (h₂₂ = 0), i.e. the horizon crosses the quadrilateral: a fold.
  if (!h) throw new CalibrationError(ORDER);
  const hn = [...h, 1];
  const full = mul(mul(inverse3(tp), hn), ti);
  return orient(full, image);
}

/** Refuses a side where three of the four points lie (nearly) on one line, or two coincide. */
function refuseCollinear(points: readonly Point[], side: string): void {
  for (let i = 0; i < 4; i++) {
    const [a, b, c] = [0, 1, 2, 3].filter((k) => k !== i).map((k) => points[k]!) as [Point, Point, Point];
    const longest = Math.max(distance(a, b), distance(b, c), distance(a, c));
    // Distance of the third point to the line through the farthest two ≈ 2·area / longest side.
    if (longest === 0 || Math.abs(cross(a, b, c)) / (longest * longest) < COLLINEAR_SHARE) {
      throw new CalibrationError(`Три из четырёх точек ${side} лежат почти на одной прямой: возьмите четыре угла четырёхугольника на полу`);
    }
  }
}

/** Scales to unit norm and flips the sign so that the calibration points are in front (w > 0); refuses a fold. */
function orient(h: number[], image: readonly Point[]): Homography {
  const norm = Math.hypot(...h);
  const ws = image.map((p) => h[6]! * p[0] + h[7]! * p[1] + h[8]!);
  const sign = Math.sign(ws[0]!);
  if (!Number.isFinite(norm) || norm === 0 || sign === 0 || ws.some((w) => Math.sign(w) !== sign)) {
    throw new CalibrationError(ORDER);
  }
  const out = h.map((v) => (v * sign) / norm);
  if (Math.abs(det3(out)) < 1e-12) throw new CalibrationError('Точки не задают отображение пола на план: проверьте их порядок');
  return out as unknown as Homography;
}

/** The plan point of a frame point, or null when it lies on or behind the horizon (w ≤ 0). */
export function toPlan(h: Homography, p: Point): Point | null {
  return project(h, p);
}

/** The frame point of a plan point, given invertHomography(h); null behind the camera. */
export function toImage(inverse: Homography, p: Point): Point | null {
  return project(inverse, p);
}

/** The inverse mapping (plan → frame), keeping w > 0 on the floor side. */
export function invertHomography(h: Homography): Homography {
  const inv = inverse3([...h]);
  const norm = Math.hypot(...inv);
  // inverse3 is exactly H⁻¹, so H⁻¹·(H·p / w) = p / w has w' = 1/w > 0 for floor points; a positive scale keeps that.
  return inv.map((v) => v / norm) as unknown as Homography;
}

function project(h: Homography, p: Point): Point | null {
  const w = h[6] * p[0] + h[7] * p[1] + h[8];
  if (!(w > 0)) return null;
  const x = (h[0] * p[0] + h[1] * p[1] + h[2]) / w;
  const y = (h[3] * p[0] + h[4] * p[1] + h[5]) / w;
  return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : null;
}

/** Similarity moving the centroid to 0 with mean distance √2 (Hartley & Zisserman, 4.4.4). */
function normaliser(points: readonly Point[]): number[] {
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  const mean = points.reduce((s, p) => s + Math.hypot(p[0] - cx, p[1] - cy), 0) / points.length;
  const k = Math.SQRT2 / mean;
  return [k, 0, -k * cx, 0, k, -k * cy, 0, 0, 1];
}

function apply3(m: number[], p: Point): Point {
  const w = m[6]! * p[0] + m[7]! * p[1] + m[8]!;
  return [(m[0]! * p[0] + m[1]! * p[1] + m[2]!) / w, (m[3]! * p[0] + m[4]! * p[1] + m[5]!) / w];
}

function mul(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out.push(a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!);
  }
  return out;
}

function det3(m: number[]): number {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
}

function inverse3(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const det = det3(m);
  const adj = [e * i - f * h, c * h - b * i, b * f - c * e, f * g - d * i, a * i - c * g, c * d - a * f, d * h - e * g, b * g - a * h, a * e - b * d];
  return adj.map((v) => v / det);
}

/** Gaussian elimination with partial pivoting; null when the system is singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const row = m[col]!;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const k = m[r]![col]! / row[col]!;
      if (k !== 0) for (let c = col; c <= n; c++) m[r]![c]! -= k * row[c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}
