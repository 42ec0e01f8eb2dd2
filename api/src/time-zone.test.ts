import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatLocalDateTime,
  isCalendarDate,
  localDate,
  localDateTimeText,
  localDayBounds,
  localHour,
  localToInstant,
  zonedInstant,
  zoneOffsetMs,
} from './time-zone';

describe('organisation time zone', () => {
  it('turns local wall-clock time into UTC instants and back (Moscow, fixed +3)', () => {
    expect(new Date(zonedInstant('2026-11-16', '08:00:00', 'Europe/Moscow')).toISOString()).toBe('2026-11-16T05:00:00.000Z');
    expect(localDate(Date.parse('2026-11-16T21:30:00Z'), 'Europe/Moscow')).toBe('2026-11-17');
    expect(localHour(Date.parse('2026-11-16T21:30:00Z'), 'Europe/Moscow')).toBe(0);
    expect(localDateTimeText(Date.parse('2026-11-16T05:00:00Z'), 'Europe/Moscow')).toBe('16.11.2026 08:00');
    expect(zoneOffsetMs(Date.parse('2026-11-16T05:00:00Z'), 'Europe/Moscow')).toBe(3 * 3_600_000);
  });

  it('follows daylight saving time where the zone has it', () => {
    // Berlin: +1 in winter, +2 from 29 March 2026.
    expect(new Date(zonedInstant('2026-03-28', '08:00', 'Europe/Berlin')).toISOString()).toBe('2026-03-28T07:00:00.000Z');
    expect(new Date(zonedInstant('2026-03-30', '08:00', 'Europe/Berlin')).toISOString()).toBe('2026-03-30T06:00:00.000Z');
  });

  it('falls back to UTC for an unknown zone name instead of failing the report', () => {
    expect(localDate(Date.parse('2026-11-16T23:30:00Z'), 'Nowhere/Unknown')).toBe('2026-11-16');
  });

  it('steps calendar dates across months', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('time zones', () => {
  it('converts local wall time to instants and back', () => {
    const local = { year: 2026, month: 11, day: 16, hour: 9, minute: 0, second: 0 };
    expect(new Date(localToInstant(local, 'Europe/Moscow')).toISOString()).toBe('2026-11-16T06:00:00.000Z');
    expect(new Date(localToInstant(local, 'Asia/Yekaterinburg')).toISOString()).toBe('2026-11-16T04:00:00.000Z');
    expect(new Date(localToInstant(local, 'UTC')).toISOString()).toBe('2026-11-16T09:00:00.000Z');
    expect(formatLocalDateTime(Date.parse('2026-11-16T20:59:59.900Z'), 'Europe/Moscow')).toBe('2026-11-16 23:59:59');
    expect(zoneOffsetMs(Date.parse('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toBe(2 * 3600_000);
  });

  it('handles daylight saving days: a 23-hour local day and a wall time in the gap', () => {
    const [start, end] = localDayBounds('2026-03-29', 'Europe/Berlin');
    expect(new Date(start).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect((end - start) / 3600_000).toBe(23);
    const gap = localToInstant({ year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 0 }, 'Europe/Berlin');
    expect(formatLocalDateTime(gap, 'Europe/Berlin')).toMatch(/^2026-03-29 0[13]:30:00$/);
    const [moscowStart, moscowEnd] = localDayBounds('2026-11-16', 'Europe/Moscow');
    expect([new Date(moscowStart).toISOString(), new Date(moscowEnd).toISOString()]).toEqual(['2026-11-15T21:00:00.000Z', '2026-11-16T21:00:00.000Z']);
  });

  it('accepts only real calendar dates', () => {
    expect(isCalendarDate('2026-11-16')).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '16.11.2026', '2026-1-5', '']) expect(isCalendarDate(bad), bad).toBe(false);
  });
});
