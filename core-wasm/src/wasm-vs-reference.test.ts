/**
 * Property tests: the WASM wrapper must agree with the plain TypeScript reference on random
 * inputs — empty windows, single measurements, ties, zero-length, reversed and overlapping
 * segments — with numbers equal within 1e-9 relative, and no NaN or Infinity anywhere.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as wasm from './index.ts';
import * as reference from '../test-support/reference.ts';
import type { MarkupSpan, ReportSettings, Segment } from './types.ts';
import { expectSame, MIN, segmentArbitrary, T0 } from '../test-support/arbitraries.ts';

const segmentArb = segmentArbitrary({ renamed: false });

const settingsArb = fc
  .record({
    fromMin: fc.integer({ min: -10, max: 60 }),
    lengthMin: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 180 })),
    partial: fc.boolean(),
    shifts: fc.array(
      fc.record({
        startMin: fc.integer({ min: -30, max: 100 }),
        lengthMin: fc.integer({ min: -5, max: 200 }),
        breakMinutes: fc.option(fc.integer({ min: 0, max: 90 }), { nil: undefined }),
        breaks: fc.option(fc.array(fc.tuple(fc.integer({ min: -30, max: 200 }), fc.integer({ min: 0, max: 30 })), { maxLength: 3 }), { nil: undefined }),
      }),
      { maxLength: 2 },
    ),
    restInIdle: fc.boolean(),
    threshold: fc.option(fc.double({ min: 0.5, max: 3, noNaN: true }), { nil: null }),
    fluctReduction: fc.integer({ min: -10, max: 120 }),
    unitsProduced: fc.option(fc.integer({ min: -1, max: 40 }), { nil: null }),
    productionType: fc.constantFrom('mass', 'large_series', 'series', 'small_series' as const),
    machinePaced: fc.boolean(),
    employeeSalary: fc.integer({ min: 0, max: 200_000 }),
    cleaningRule: fc.constantFrom('one_extreme', 'both_extremes' as const),
    days: fc.option(
      fc.array(fc.record({ startMin: fc.integer({ min: -20, max: 200 }), units: fc.option(fc.integer({ min: -1, max: 20 }), { nil: null }) }), {
        maxLength: 3,
      }),
      { nil: undefined },
    ),
  })
  .map((s): ReportSettings => ({
    from: T0 + s.fromMin * MIN,
    to: T0 + (s.fromMin + s.lengthMin) * MIN,
    unitsProduced: s.unitsProduced,
    days: s.days?.map((d) => ({ start: T0 + d.startMin * MIN, units: d.units })),
    structure: {
      partial: s.partial,
      shifts: s.shifts.map((sh) => ({
        start: T0 + sh.startMin * MIN,
        end: T0 + (sh.startMin + sh.lengthMin) * MIN,
        breakMinutes: sh.breakMinutes,
        breaks: sh.breaks?.map(([b, l]) => ({ start: T0 + b * MIN, end: T0 + (b + l) * MIN })),
      })),
      restInIdle: s.restInIdle,
      timeSeriesStabilityThreshold: s.threshold,
      fluctReduction: s.fluctReduction,
      productionType: s.productionType,
      machinePaced: s.machinePaced,
      employeeSalary: s.employeeSalary,
      cleaningRule: s.cleaningRule,
    },
  }));

/** Series of measurements with frequent ties and outliers, to exercise cleaning. */
const measurementSeriesArb = fc
  .array(
    fc.record({
      operationId: fc.integer({ min: 1, max: 3 }),
      seconds: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 15 }) },
        // Powers of two make "both extremes equally far from the median" ties common.
        { weight: 3, arbitrary: fc.constantFrom(1, 2, 4, 8, 16, 32) },
        { weight: 2, arbitrary: fc.integer({ min: 16, max: 200 }) },
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.double({ min: 0.001, max: 30, noNaN: true }) },
      ),
    }),
    { maxLength: 60 },
  )
  .map((items) => {
    let t = T0;
    return items.map(({ operationId, seconds }): Segment => {
      const s = { start: t, end: t + seconds * 1000, category: 'main' as const, operationId, operationName: `Операция ${operationId}`, employeeId: 1 };
      t += seconds * 1000;
      return s;
    });
  });

const RUNS = { numRuns: 2000 };

describe('WASM wrapper equals the reference', () => {
  it('statement (day balance, time study, Table 4) on random days', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { maxLength: 40 }), settingsArb, (segments, settings) => {
        expectSame(wasm.statement(segments, settings), reference.statement(segments, settings));
      }),
      RUNS,
    );
  });

  it('shift-days add up to the window', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { maxLength: 40 }), settingsArb, (segments, settings) => {
        const d = reference.dayBalance(segments, settings);
        const sum = (f: (day: (typeof d.days)[number]) => number) => d.days.reduce((a, day) => a + f(day), 0);
        const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
        expect(
          near(
            sum((day) => day.observedSeconds),
            d.observedSeconds,
          ),
        ).toBe(true);
        expect(
          near(
            sum((day) => day.workSeconds),
            d.workSeconds,
          ),
        ).toBe(true);
        expect(
          near(
            sum((day) => day.shiftSeconds),
            d.shiftSeconds,
          ),
        ).toBe(true);
        expect(
          near(
            sum((day) => day.regulatedBreakSeconds),
            d.regulatedBreakSeconds,
          ),
        ).toBe(true);
        expect(
          near(
            sum((day) => day.actualDaySeconds),
            d.takt.actualDaySeconds,
          ),
        ).toBe(true);
        // Rest above the breaks is the sum of the days' excesses (METHODOLOGY §6).
        expect(
          near(
            sum((day) => day.restLossSeconds),
            d.losses.restSeconds,
          ),
        ).toBe(true);
        // Each observed part lies in its shift; on a shift basis they make T_см.
        for (const x of d.shifts) expect(x.start <= x.observedStart && x.observedStart < x.observedEnd && x.observedEnd <= x.end).toBe(true);
        if (d.basis === 'shifts')
          expect(
            near(
              d.shifts.reduce((a, x) => a + x.shiftSeconds, 0),
              d.shiftSeconds,
            ),
          ).toBe(true);
        // Days partition the window, in time order.
        expect(d.days[0]!.start).toBe(Math.min(settings.from, Math.max(settings.from, settings.to)));
        for (let k = 1; k < d.days.length; k++) expect(d.days[k]!.start).toBe(d.days[k - 1]!.end);
      }),
      { numRuns: 1000 },
    );
  });

  it('time study with cleaning on long series with ties', () => {
    fc.assert(
      fc.property(
        measurementSeriesArb,
        fc.option(fc.constantFrom(1.1, 1.3, 1.5, 2, 3), { nil: null }),
        fc.constantFrom('mass', 'series', 'small_series' as const),
        fc.constantFrom('one_extreme', 'both_extremes' as const),
        (segments, threshold, productionType, cleaningRule) => {
          const settings: ReportSettings = {
            from: T0,
            to: T0 + 24 * 60 * MIN,
            structure: { timeSeriesStabilityThreshold: threshold, productionType, fluctReduction: 30, cleaningRule },
          };
          expectSame(wasm.timeStudy(segments, settings), reference.timeStudy(segments, settings));
        },
      ),
      RUNS,
    );
  });

  it('union, gaps and overlaps', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { maxLength: 50 }), settingsArb, (segments, { from, to }) => {
        expectSame(wasm.coveredSeconds(segments), reference.coveredSeconds(segments));
        expectSame(wasm.findGaps(segments, from, to), reference.findGaps(segments, from, to));
        expectSame(wasm.detectOverlaps(segments), reference.detectOverlaps(segments));
      }),
      RUNS,
    );
  });

  it('assessor summary and staff load', () => {
    const spanArb = fc.tuple(segmentArb, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 })).map(([s, assessorId, workplaceId]): MarkupSpan => ({
      start: s.start + assessorId * 13 * 3_600_000,
      end: s.end + assessorId * 13 * 3_600_000,
      assessorId,
      assessorName: `Разметчик ${assessorId}`,
      workplaceId,
      workplaceName: `Место ${workplaceId}`,
    }));
    fc.assert(
      fc.property(
        fc.array(spanArb, { maxLength: 40 }),
        fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
        fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
        fc.array(segmentArb, { maxLength: 30 }),
        settingsArb,
        (spans, budget, hourCost, segments, settings) => {
          expectSame(wasm.assessorSummary(spans, { budget, hourCost }), reference.assessorSummary(spans, { budget, hourCost }));
          expectSame(wasm.staffLoad(segments, settings), reference.staffLoad(segments, settings));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('agrees on a large day (sorts longer than the insertion runs)', () => {
    fc.assert(
      fc.property(fc.array(segmentArb, { minLength: 200, maxLength: 1500 }), settingsArb, (segments, settings) => {
        const wide = { ...settings, from: T0 - 60 * MIN, to: T0 + 300 * MIN };
        expectSame(wasm.statement(segments, wide), reference.statement(segments, wide));
      }),
      { numRuns: 50 },
    );
  });
});
