import { describe, expect, it } from 'vitest';
import { formatDateTime, formatSeconds, formatTime, fromLocal, localDate, zoneOffsetMinutes } from './time';

describe('time formatting in the organisation zone', () => {
  const instant = Date.parse('2026-11-16T21:30:05Z');
  it('shows Moscow time whatever the device zone is', () => {
    expect(formatDateTime(instant, 'Europe/Moscow')).toBe('17.11.2026 00:30');
    expect(formatTime(instant, 'Europe/Moscow')).toBe('00:30:05');
    expect(localDate(instant, 'Europe/Moscow')).toBe('2026-11-17');
    expect(localDate(instant, 'UTC')).toBe('2026-11-16');
  });
  it('converts local input back to the UTC instant, also across daylight saving', () => {
    expect(fromLocal('2026-11-17T00:30:05', 'Europe/Moscow')).toBe(instant);
    expect(zoneOffsetMinutes(instant, 'Europe/Moscow')).toBe(180);
    expect(new Date(fromLocal('2026-07-01T12:00', 'Europe/Berlin')).toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(new Date(fromLocal('2026-01-01T12:00', 'Europe/Berlin')).toISOString()).toBe('2026-01-01T11:00:00.000Z');
  });
  it('formats seconds as h:mm:ss', () => {
    expect(formatSeconds(3725.9)).toBe('1:02:05');
    expect(formatSeconds(-3)).toBe('0:00:00');
  });
});
