import { describe, expect, it } from 'vitest';
import { addDays, localDate, localDateTimeText, localHour, utcOffsetMs, zonedInstant } from './time-zone';
import { plural, formatDuration } from './text';

describe('organisation time zone', () => {
  it('turns local wall-clock time into UTC instants and back (Moscow, fixed +3)', () => {
    expect(new Date(zonedInstant('2026-11-16', '08:00:00', 'Europe/Moscow')).toISOString()).toBe('2026-11-16T05:00:00.000Z');
    expect(localDate(Date.parse('2026-11-16T21:30:00Z'), 'Europe/Moscow')).toBe('2026-11-17');
    expect(localHour(Date.parse('2026-11-16T21:30:00Z'), 'Europe/Moscow')).toBe(0);
    expect(localDateTimeText(Date.parse('2026-11-16T05:00:00Z'), 'Europe/Moscow')).toBe('16.11.2026 08:00');
    expect(utcOffsetMs(Date.parse('2026-11-16T05:00:00Z'), 'Europe/Moscow')).toBe(3 * 3_600_000);
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

describe('report wording', () => {
  it('declines Russian nouns by number and writes durations', () => {
    expect([1, 2, 5, 11, 21, 22, 112].map((n) => plural(n, 'сотрудник', 'сотрудника', 'сотрудников')))
      .toEqual(['сотрудник', 'сотрудника', 'сотрудников', 'сотрудников', 'сотрудник', 'сотрудника', 'сотрудников']);
    expect(formatDuration(2652)).toBe('44 мин');
    expect(formatDuration(159_120)).toBe('44 ч 12 мин');
    expect(formatDuration(7200)).toBe('2 ч');
  });
});
