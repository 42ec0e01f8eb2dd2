/** Douglas–Peucker simplification of a timed polyline (iterative: long tracks do not deepen the stack). */
import { distanceToSegment } from './geometry';

export interface TimedPoint {
  t: number;
  x: number;
  y: number;
}

/** Keeps the first and last point and every point farther than tolerance from the simplified line. */
export function simplifyPath<T extends TimedPoint>(points: readonly T[], tolerance: number): T[] {
  if (points.length <= 2) return [...points];
  const keep = new Array<boolean>(points.length).fill(false);
  keep[0] = true;
  keep[points.length - 1] = true;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    const a = points[i]!;
    const b = points[j]!;
    let worst = -1;
    let far = tolerance;
    for (let k = i + 1; k < j; k++) {
      const p = points[k]!;
      const d = distanceToSegment([p.x, p.y], [a.x, a.y], [b.x, b.y]);
      if (d > far) {
        far = d;
        worst = k;
      }
    }
    if (worst < 0) continue;
    keep[worst] = true;
    stack.push([i, worst], [worst, j]);
  }
  return points.filter((_, k) => keep[k]);
}
