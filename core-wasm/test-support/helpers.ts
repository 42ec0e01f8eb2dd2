/** Helpers shared by the core-wasm tests. */
import type { Category, Segment } from '../src/types.ts';

/** 2024-03-12 00:00 UTC; worked examples count minutes from here. */
export const DAY = Date.UTC(2024, 2, 12);
export const at = (hh: number, mm: number, ss = 0) => DAY + ((hh * 60 + mm) * 60 + ss) * 1000;

let nextId = 1;
export function seg(
  from: [number, number] | number,
  to: [number, number] | number,
  category: Category,
  operationId: number,
  operationName: string,
  employeeId = 1,
): Segment {
  const start = Array.isArray(from) ? at(from[0], from[1]) : from;
  const end = Array.isArray(to) ? at(to[0], to[1]) : to;
  return { id: nextId++, start, end, category, operationId, operationName, employeeId };
}

/** Main-operation measurements back to back, durations in seconds. */
export function series(durations: number[], operationId = 1, operationName = 'Сборка узла', begin = at(8, 0)): Segment[] {
  let t = begin;
  return durations.map((d) => {
    const s = seg(t, t + d * 1000, 'main', operationId, operationName);
    t += Math.max(d, 0) * 1000;
    return s;
  });
}

/** Throws at the first NaN or ±Infinity anywhere in a result. */
export function assertFiniteDeep(value: unknown, path = '$'): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${path} is ${value}`);
  } else if (ArrayBuffer.isView(value)) {
    Array.from(value as unknown as ArrayLike<number>).forEach((v, i) => assertFiniteDeep(v, `${path}[${i}]`));
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => assertFiniteDeep(v, `${path}[${i}]`));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) assertFiniteDeep(v, `${path}.${k}`);
  }
}

const close = (a: number, b: number) => a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) || (Math.abs(a) < 1e-9 && Math.abs(b) < 1e-9);

/** Path of the first difference between two results (numbers equal within 1e-9 relative), or null. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (typeof a === 'number' && typeof b === 'number') return close(a, b) ? null : `${path}: ${a} ≠ ${b}`;
  const isList = (v: unknown) => Array.isArray(v) || ArrayBuffer.isView(v);
  if (isList(a) && isList(b)) {
    const la = Array.from(a as ArrayLike<unknown>);
    const lb = Array.from(b as ArrayLike<unknown>);
    if (la.length !== lb.length) return `${path}: length ${la.length} ≠ ${lb.length}`;
    for (let i = 0; i < la.length; i++) {
      const d = firstDifference(la[i], lb[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${path}: ${String(a)} ≠ ${String(b)}`;
}
