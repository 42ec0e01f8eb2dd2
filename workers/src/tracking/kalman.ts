/**
 * The constant-velocity Kalman filter of the ByteTrack family (as in SORT, DeepSORT and ByteTrack):
 * the state is the box centre (cx, cy), its aspect a = w / h, its height h and their velocities, one
 * step per tracker update. The noise grows with the box height, so near (big) and far (small)
 * people are treated alike; the weights are ByteTrack's (1/20 of the height for position, 1/160
 * for velocity). Plain arrays: the matrices are 8×8 and 4×4.
 */
export type Vector = number[];
export type Matrix = number[][];

/** A box as centre, aspect (w / h) and height: what the filter measures. */
export type Measurement = [cx: number, cy: number, a: number, h: number];

export interface KalmanState {
  mean: Vector;
  covariance: Matrix;
}

const POSITION_WEIGHT = 1 / 20;
const VELOCITY_WEIGHT = 1 / 160;

const zeros = (rows: number, cols: number): Matrix => Array.from({ length: rows }, () => new Array<number>(cols).fill(0));

function multiply(a: Matrix, b: Matrix): Matrix {
  const out = zeros(a.length, b[0]!.length);
  for (let i = 0; i < a.length; i++)
    for (let k = 0; k < b.length; k++) {
      const aik = a[i]![k]!;
      if (aik === 0) continue;
      for (let j = 0; j < b[0]!.length; j++) out[i]![j]! += aik * b[k]![j]!;
    }
  return out;
}

const transpose = (a: Matrix): Matrix => a[0]!.map((_, j) => a.map((row) => row[j]!));
const diagonal = (values: number[]): Matrix => values.map((v, i) => values.map((_, j) => (i === j ? v : 0)));
const add = (a: Matrix, b: Matrix): Matrix => a.map((row, i) => row.map((v, j) => v + b[i]![j]!));

/** The inverse of a small symmetric positive-definite matrix (Gauss–Jordan with partial pivoting). */
export function invert(m: Matrix): Matrix {
  const n = m.length;
  const a = m.map((row, i) => [...row, ...diagonal(new Array<number>(n).fill(1))[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-12) throw new Error('Калман: вырожденная матрица');
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    for (let j = 0; j < 2 * n; j++) a[col]![j]! /= p;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]!;
      if (f !== 0) for (let j = 0; j < 2 * n; j++) a[r]![j]! -= f * a[col]![j]!;
    }
  }
  return a.map((row) => row.slice(n));
}

/** x' = x + v for each of the four measured quantities. */
const MOTION: Matrix = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => (i === j || j === i + 4 ? 1 : 0)));
const MOTION_T = transpose(MOTION);
/** The filter measures the first four state entries. */
const OBSERVE: Matrix = Array.from({ length: 4 }, (_, i) => Array.from({ length: 8 }, (_, j) => (i === j ? 1 : 0)));
const OBSERVE_T = transpose(OBSERVE);

/** A new track's state: at the measurement, standing still, uncertain in velocity. */
export function initiate(z: Measurement): KalmanState {
  const h = z[3];
  const p = POSITION_WEIGHT * h;
  const v = VELOCITY_WEIGHT * h;
  const std = [2 * p, 2 * p, 1e-2, 2 * p, 10 * v, 10 * v, 1e-5, 10 * v];
  return { mean: [...z, 0, 0, 0, 0], covariance: diagonal(std.map((s) => s * s)) };
}

/** One step ahead. */
export function predict(state: KalmanState): KalmanState {
  const h = state.mean[3]!;
  const p = POSITION_WEIGHT * h;
  const v = VELOCITY_WEIGHT * h;
  const noise = diagonal([p, p, 1e-2, p, v, v, 1e-5, v].map((s) => s * s));
  const mean = MOTION.map((row) => row.reduce((s, f, j) => s + f * state.mean[j]!, 0));
  return { mean, covariance: add(multiply(multiply(MOTION, state.covariance), MOTION_T), noise) };
}

/** The state corrected by a measurement of the same track. */
export function update(state: KalmanState, z: Measurement): KalmanState {
  const h = state.mean[3]!;
  const p = POSITION_WEIGHT * h;
  const innovationCov = add(multiply(multiply(OBSERVE, state.covariance), OBSERVE_T), diagonal([p, p, 1e-1, p].map((s) => s * s)));
  const gain = multiply(multiply(state.covariance, OBSERVE_T), invert(innovationCov));
  const innovation = z.map((v, i) => v - state.mean[i]!);
  const mean = state.mean.map((m, i) => m + gain[i]!.reduce((s, g, j) => s + g * innovation[j]!, 0));
  const correction = multiply(multiply(gain, innovationCov), transpose(gain));
  return { mean, covariance: state.covariance.map((row, i) => row.map((c, j) => c - correction[i]![j]!)) };
}

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export function measurementOf(box: Box): Measurement {
  const h = box.y2 - box.y1;
  return [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2, (box.x2 - box.x1) / h, h];
}

export function boxOf(mean: Vector): Box {
  const [cx, cy, a, h] = mean as [number, number, number, number];
  const w = a * h;
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
}
