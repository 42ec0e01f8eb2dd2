/** Reference data (§4) and scalar formulas, pinned by hand-computed values. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STABILITY_TABLE,
  MONTHLY_HOURS_FUND,
  accuracyFor,
  cvFromStability,
  loadStatus,
  moneyLost,
  normativeStability,
  requiredMeasurements,
  requiredMeasurementsForStability,
} from './index.ts';
import { loadText, minutesWord } from './formulas.ts';

describe('reference table (defaults)', () => {
  it('is labelled as the default edition', () => {
    expect(DEFAULT_STABILITY_TABLE.source).toBe('default');
    expect(DEFAULT_STABILITY_TABLE.edition).toBe('default');
    expect(DEFAULT_STABILITY_TABLE.rows.map((r) => r.productionType)).toEqual(['mass', 'large_series', 'series', 'small_series']);
  });

  it('gives the normative Ку by production type and element length', () => {
    expect(normativeStability('mass', 10, false)).toBe(2.0);
    expect(normativeStability('mass', 10.5, false)).toBe(1.5);
    expect(normativeStability('large_series', 5, false)).toBe(2.3);
    expect(normativeStability('large_series', 60, false)).toBe(1.7);
    expect(normativeStability('series', 3, false)).toBe(2.5);
    expect(normativeStability('series', 30, false)).toBe(2.0);
    expect(normativeStability('small_series', 3, false)).toBe(3.0);
    expect(normativeStability('small_series', 30, false)).toBe(2.5);
  });

  it('uses 1.2 / 1.1 for machine-paced work of any production type', () => {
    expect(normativeStability('small_series', 8, true)).toBe(1.2);
    expect(normativeStability('mass', 80, true)).toBe(1.1);
  });

  it('gives the accuracy by production type', () => {
    expect(['mass', 'large_series', 'series', 'small_series'].map((p) => accuracyFor(p as never))).toEqual([5, 7, 10, 15]);
  });

  it('accepts an edited table', () => {
    const edited = { ...DEFAULT_STABILITY_TABLE, edition: 'org-2024', rows: DEFAULT_STABILITY_TABLE.rows.map((r) => ({ ...r, manualLong: 1.3 })) };
    expect(normativeStability('mass', 30, false, edited)).toBe(1.3);
    expect(() => normativeStability('unknown' as never, 30, false)).toThrow(RangeError);
  });
});

describe('required measurements', () => {
  it('is ⌈(1.96·CV/ε)²⌉ and at least 5', () => {
    expect(requiredMeasurements(0, 10)).toBe(5);
    expect(requiredMeasurements(10, 5)).toBe(16); // (1.96·2)² = 15.37
    expect(requiredMeasurements(20, 10)).toBe(16);
    expect(() => requiredMeasurements(10, 0)).toThrow(RangeError);
  });

  it('uses CV = (Ку − 1) / ((Ку + 1)·√3) in the calculator', () => {
    expect(cvFromStability(1)).toBe(0);
    expect(cvFromStability(1.5)).toBeCloseTo(11.547, 3); // 0.5 / (2.5·1.7321)
    expect(cvFromStability(2)).toBeCloseTo(19.245, 3); // 1 / (3·1.7321)
    expect(requiredMeasurementsForStability(1.5, 10).requiredMeasurements).toBe(6); // 5.12
    expect(requiredMeasurementsForStability(2, 5).requiredMeasurements).toBe(57); // 56.9
    expect(() => cvFromStability(0.5)).toThrow(RangeError);
  });
});

describe('money, load bands and texts', () => {
  it('uses the monthly fund of a 40-hour week', () => {
    expect(MONTHLY_HOURS_FUND).toBeCloseTo(173.33, 2);
    expect(moneyLost(3600, 52_000)).toBeCloseTo(300, 9);
    expect(moneyLost(3600, 52_000, 160)).toBe(325);
    expect(moneyLost(0, 52_000)).toBe(0);
    expect(moneyLost(3600, 0)).toBe(0);
  });

  it('bands load at 85 and 100 percent', () => {
    expect(loadStatus(100.01)).toBe('overloaded');
    expect(loadStatus(100)).toBe('balanced');
    expect(loadStatus(85)).toBe('balanced');
    expect(loadStatus(84.99)).toBe('underloaded');
  });

  it('writes the statement sentence with Russian plurals', () => {
    expect(loadText(461 * 60, 450 * 60)).toBe('461-минутный день, переработка 11 минут');
    expect(loadText(449 * 60, 450 * 60)).toBe('449-минутный день, недогрузка 1 минута');
    expect(loadText(448 * 60, 450 * 60)).toBe('448-минутный день, недогрузка 2 минуты');
    expect(loadText(450 * 60, 450 * 60)).toBe('450-минутный день, переработки и недогрузки нет');
    expect(loadText(60, 50)).toBe('1-минутный день, переработка менее минуты');
    expect([11, 21, 22, 25, 112, 104].map(minutesWord)).toEqual(['минут', 'минута', 'минуты', 'минут', 'минут', 'минуты']);
  });
});
