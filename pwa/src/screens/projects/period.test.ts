import { describe, expect, it } from 'vitest';
import { atHour, dmy, endDates, formatPicker, instantParam, parseDmy, parsePickerSeconds, periodLinks } from './period';

const moscow = 'Europe/Moscow';

describe('workspace pickers (spec 02 §9: dd-MM-yyyy HH:mm, hourly steps)', () => {
  it('formats and parses dd-MM-yyyy in the organisation’s zone', () => {
    expect(dmy('2026-11-16')).toBe('16-11-2026');
    expect(parseDmy('16-11-2026')).toBe('2026-11-16');
    expect(parseDmy('6.1.2026')).toBe('2026-01-06');
    expect(parseDmy('31-02-2026')).toBeNull();
    expect(parseDmy('2026-11-16')).toBeNull();
    const eight = atHour('2026-11-16', 8, moscow);
    expect(new Date(eight).toISOString()).toBe('2026-11-16T05:00:00.000Z');
    expect(formatPicker(eight, moscow)).toBe('16-11-2026 08:00');
    expect(parsePickerSeconds('16-11-2026 08:00:05', moscow)).toBe(eight + 5000);
    expect(parsePickerSeconds('16-11-2026 08:00', moscow)).toBe(eight);
    expect(parsePickerSeconds('16-11-2026 24:00', moscow)).toBeNull();
  });

  it('lets a window end on a report date or the day after one', () => {
    expect(endDates(['2026-11-16', '2026-11-17', '2026-11-30'])).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-30', '2026-12-01']);
  });

  it('builds the edit link and the three report links with URL-encoded ISO instants', () => {
    const from = Date.parse('2026-11-16T05:00:00Z');
    const to = Date.parse('2026-11-16T14:00:00Z');
    const links = periodLinks(7, 3, from, to);
    const f = encodeURIComponent('2026-11-16T05:00:00.000Z');
    const t = encodeURIComponent('2026-11-16T14:00:00.000Z');
    expect(links).toEqual({
      edit: `#/edit/7/${f}/${t}`,
      statement: `#/statement/7/3/${f}/${t}`,
      report: `#/report/7/${f}/${t}`,
      interactive: `#/interactive/7/${f}/${t}`,
    });
    expect(periodLinks(7, 0, from, to).statement).toBeNull();
    expect(instantParam(f)).toBe(from);
    expect(instantParam('2026-11-16T05:00:00Z')).toBe(from);
    expect(instantParam('вчера')).toBeNull();
  });
});
