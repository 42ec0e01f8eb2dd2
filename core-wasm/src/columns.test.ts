/**
 * Property tests of the columnar entry points (SegmentColumns): on random inputs each `…Columns`
 * function must equal the reference on the same segments, and so must the object API when the
 * input comes already in time order (the wrapper then skips its sort).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as wasm from './index.ts';
import * as reference from '../test-support/reference.ts';
import { CATEGORIES, type ReportSettings, type Segment } from './types.ts';
import { expectSame, MIN, segmentArbitrary, T0 } from '../test-support/arbitraries.ts';

const segmentArb = segmentArbitrary({ renamed: true });

const settingsArb = fc
  .record({
    fromMin: fc.integer({ min: -10, max: 60 }),
    lengthMin: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 180 })),
    partial: fc.boolean(),
    shiftStartMin: fc.integer({ min: -30, max: 100 }),
    shiftLengthMin: fc.integer({ min: -5, max: 200 }),
    restInIdle: fc.boolean(),
    threshold: fc.option(fc.double({ min: 0.5, max: 3, noNaN: true }), { nil: null }),
    unitsProduced: fc.option(fc.integer({ min: -1, max: 40 }), { nil: null }),
  })
  .map((s): ReportSettings => ({
    from: T0 + s.fromMin * MIN,
    to: T0 + (s.fromMin + s.lengthMin) * MIN,
    unitsProduced: s.unitsProduced,
    structure: {
      partial: s.partial,
      shifts: [{ start: T0 + s.shiftStartMin * MIN, end: T0 + (s.shiftStartMin + s.shiftLengthMin) * MIN }],
      restInIdle: s.restInIdle,
      timeSeriesStabilityThreshold: s.threshold,
    },
  }));

const inTimeOrder = (segments: Segment[]) => [...segments].sort((a, b) => a.start - b.start || a.end - b.end);

describe('columnar entry points equal the reference', () => {
  it('statement, day balance and time study over columns', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { maxLength: 40 }), settingsArb, (segments, settings) => {
        const columns = wasm.toSegmentColumns(segments);
        expectSame(wasm.statementColumns(columns, settings), reference.statement(segments, settings));
        expectSame(wasm.dayBalanceColumns(columns, settings), reference.dayBalance(segments, settings));
        expectSame(wasm.timeStudyColumns(columns, settings), reference.timeStudy(segments, settings));
      }),
      { numRuns: 1500 },
    );
  });

  it('input already in time order (sort skipped), object and columnar paths', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { maxLength: 60 }), settingsArb, (raw, settings) => {
        const segments = inTimeOrder(raw);
        const expected = reference.statement(segments, settings);
        expectSame(wasm.statement(segments, settings), expected);
        expectSame(wasm.statementColumns(wasm.toSegmentColumns(segments), settings), expected);
        expectSame(wasm.detectOverlaps(segments), reference.detectOverlaps(segments));
      }),
      { numRuns: 1500 },
    );
  });

  it('large days, sorted and unsorted (longer than the insertion runs)', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { minLength: 200, maxLength: 1500 }), fc.boolean(), settingsArb, (raw, sorted, settings) => {
        const segments = sorted ? inTimeOrder(raw) : raw;
        const wide = { ...settings, from: T0 - 60 * MIN, to: T0 + 300 * MIN };
        expectSame(wasm.statementColumns(wasm.toSegmentColumns(segments), wide), reference.statement(segments, wide));
      }),
      { numRuns: 50 },
    );
  });

  it('columns built by hand (Int32 employee ids, no ids column)', () => {
    const segments: Segment[] = [
      { start: T0, end: T0 + 5 * MIN, category: 'main', operationId: 7, operationName: 'Сборка', employeeId: 1 },
      { start: T0 + 4 * MIN, end: T0 + 9 * MIN, category: 'idle', operationId: 9, operationName: 'Простой', employeeId: 1 },
      { start: T0 + 9 * MIN, end: T0 + 8 * MIN, category: 'main', operationId: 7, operationName: 'Сборка', employeeId: 1 },
    ];
    const columns: wasm.SegmentColumns = {
      starts: Float64Array.from(segments, (s) => s.start),
      ends: Float64Array.from(segments, (s) => s.end),
      categories: Int32Array.from(segments, (s) => CATEGORIES.indexOf(s.category)),
      operations: Int32Array.of(0, 1, 0),
      operationTable: [
        { operationId: 7, operationName: 'Сборка' },
        { operationId: 9, operationName: 'Простой' },
      ],
      employeeIds: Int32Array.of(1, 1, 1),
    };
    const settings: ReportSettings = { from: T0, to: T0 + 60 * MIN, structure: { partial: true } };
    expectSame(wasm.statementColumns(columns, settings), reference.statement(segments, settings));
    expect(() => wasm.dayBalanceColumns({ ...columns, categories: Int32Array.of(0, 9, 0) }, settings)).toThrow(RangeError);
    expect(() => wasm.dayBalanceColumns({ ...columns, ends: new Float64Array(2) }, settings)).toThrow(RangeError);
  });
});
