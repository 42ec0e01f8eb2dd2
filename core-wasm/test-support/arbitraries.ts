/** Random inputs shared by the core's property tests (fast-check). */
import fc from 'fast-check';
import { expect } from 'vitest';
import { CATEGORIES, type Segment } from '../src/types.ts';
import { assertFiniteDeep, firstDifference } from './helpers.ts';

/** 2024-01-15 06:00 UTC: the random segments and windows count minutes from here. */
export const T0 = Date.UTC(2024, 0, 15, 6, 0);
export const MIN = 60_000;

/**
 * Segments on a coarse minute grid, so that ties and touching segments are common, with zero-length,
 * reversed and overlapping ones. `renamed`: operation 2 sometimes carries a second name.
 */
export function segmentArbitrary({ renamed }: { renamed: boolean }): fc.Arbitrary<Segment> {
  return fc
    .record({
      startMin: fc.integer({ min: -20, max: 140 }),
      length: fc.oneof(
        fc.constant(0),
        fc.integer({ min: -3, max: 30 }).map((m) => m * MIN),
        fc.double({ min: 0, max: 20 * MIN, noNaN: true }),
      ),
      category: fc.constantFrom(...CATEGORIES),
      operationId: fc.integer({ min: 1, max: 5 }),
      renamed: renamed ? fc.boolean() : fc.constant(false),
      employeeId: fc.integer({ min: 1, max: 3 }),
      id: fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: undefined }),
    })
    .map(({ startMin, length, category, operationId, renamed, employeeId, id }): Segment => ({
      start: T0 + startMin * MIN,
      end: T0 + startMin * MIN + length,
      category,
      operationId,
      operationName: renamed && operationId === 2 ? 'Операция 2 (переименована)' : `Операция ${operationId}`,
      employeeId,
      id,
    }));
}

/** Both results finite everywhere and deeply equal (numbers within the tolerance of firstDifference). */
export function expectSame(a: unknown, b: unknown): void {
  assertFiniteDeep(a);
  assertFiniteDeep(b);
  const diff = firstDifference(a, b);
  expect(diff, diff ?? '').toBeNull();
}
