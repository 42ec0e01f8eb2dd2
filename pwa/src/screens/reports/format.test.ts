import { describe, expect, it } from 'vitest';
import { hms, instantParam, minutesApostrophe, num, pct, productivityRiseText, wholeSecondSpan } from './format';

describe('report formats (spec 01 §9)', () => {
  it('writes durations as hh:mm:ss', () => {
    expect(hms(0)).toBe('00:00:00');
    expect(hms(767.629)).toBe('00:12:48');
    expect(hms(32094.206)).toBe('08:54:54');
    expect(hms(400000)).toBe('111:06:40');
  });
  it('writes the minutes column with an apostrophe and 2/3/4-digit minutes', () => {
    expect(minutesApostrophe(5)).toBe("00'05");
    expect(minutesApostrophe(425)).toBe("07'05");
    expect(minutesApostrophe(99 * 60 + 59)).toBe("99'59");
    expect(minutesApostrophe(100 * 60 + 9)).toBe("100'09");
    expect(minutesApostrophe(1234 * 60)).toBe("1234'00");
  });
  it('writes numbers and percents the Russian way', () => {
    expect(num(94.31498)).toBe('94,3');
    expect(num(1132.85, 2)).toBe('1\u00a0132,85');
    expect(num(null)).toBe('—');
    expect(pct(70.8128)).toBe('70,8\u00a0%');
  });
  it('accepts raw and URL-encoded instants in routes', () => {
    expect(instantParam('2026-11-16T05:00:00.000Z')).toBe('2026-11-16T05:00:00.000Z');
    expect(instantParam('2026-11-16T05%3A00%3A00.000Z')).toBe('2026-11-16T05:00:00.000Z');
    expect(instantParam('2026-11-16T08%3A00%3A00%2B03%3A00')).toBe('2026-11-16T05:00:00.000Z');
    expect(instantParam('завтра')).toBeNull();
    expect(instantParam(undefined)).toBeNull();
  });
  it('rounds Table 4 start, end and duration the same way', () => {
    // 09:00:00.600 → 09:00:01, 09:00:10.400 → 09:00:10: the duration shown is 9 s, not round(9.8) = 10 s.
    const span = wholeSecondSpan('2026-11-16T06:00:00.600Z', '2026-11-16T06:00:10.400Z');
    expect(span.start).toBe(Date.parse('2026-11-16T06:00:01.000Z'));
    expect(span.end).toBe(Date.parse('2026-11-16T06:00:10.000Z'));
    expect(span.seconds).toBe(9);
    expect(wholeSecondSpan('2026-11-16T06:00:00.400Z', '2026-11-16T06:00:10.600Z').seconds).toBe(11);
  });
  it('explains a negative ΔП as main work giving time to owed breaks', () => {
    expect(productivityRiseText(12.5)).toContain('Возможный рост производительности ΔП = 12,5');
    const negative = productivityRiseText(-4.25);
    expect(negative).toContain('ΔП = -4,3');
    expect(negative).toContain('недостающий отдых берётся из основной работы');
    expect(negative).not.toContain('освобождённое время');
    expect(productivityRiseText(0)).toContain('резерва роста нет');
    expect(productivityRiseText(null)).toContain('не считается');
  });
});
