import { describe, expect, it } from 'vitest';
import { hms, instantParam, minutesApostrophe, num, pct } from './format';

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
});
