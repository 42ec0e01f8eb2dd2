import { describe, expect, it, vi } from 'vitest';
import { cachedDateTimeFormat, localDateTimeText, zoneOffsetMs } from '@norma/core-wasm/report/time-zone';
import { formatDateTime, formatDateTimeSeconds, formatSeconds, formatTime, fromLocal, localDate } from './time';

describe('time formatting in the organisation zone', () => {
  const instant = Date.parse('2026-11-16T21:30:05Z');
  it('shows Moscow time whatever the device zone is', () => {
    expect(formatDateTime(instant, 'Europe/Moscow')).toBe('17.11.2026 00:30');
    expect(formatTime(instant, 'Europe/Moscow')).toBe('00:30:05');
    expect(formatDateTimeSeconds(instant, 'Asia/Yekaterinburg')).toBe('17.11.2026 02:30:05');
    expect(localDate(instant, 'Europe/Moscow')).toBe('2026-11-17');
    expect(localDate(instant, 'UTC')).toBe('2026-11-16');
  });
  it('converts local input back to the UTC instant, also across daylight saving', () => {
    expect(fromLocal('2026-11-17T00:30:05', 'Europe/Moscow')).toBe(instant);
    expect(zoneOffsetMs(instant, 'Europe/Moscow') / 60000).toBe(180);
    expect(() => fromLocal('2026-11-17T00:30', 'Nowhere/Atlantis')).toThrow(RangeError);
    expect(new Date(fromLocal('2026-07-01T12:00', 'Europe/Berlin')).toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(new Date(fromLocal('2026-01-01T12:00', 'Europe/Berlin')).toISOString()).toBe('2026-01-01T11:00:00.000Z');
  });
  it('formats seconds as h:mm:ss', () => {
    expect(formatSeconds(3725.9)).toBe('1:02:05');
    expect(formatSeconds(-3)).toBe('0:00:00');
  });
});

describe('date formatters are built once per (zone, options)', () => {
  it('returns the same formatter for the same locale, zone and options, another for another zone', () => {
    const options = { timeZone: 'Asia/Yekaterinburg', hour: '2-digit', minute: '2-digit' } as const;
    const first = cachedDateTimeFormat('ru-RU', options);
    expect(cachedDateTimeFormat('ru-RU', { ...options })).toBe(first);
    expect(cachedDateTimeFormat('ru-RU', { ...options, timeZone: 'Europe/Moscow' })).not.toBe(first);
    expect(cachedDateTimeFormat('en-US', options)).not.toBe(first);
  });
  it('builds no formatter on repeated formatting, and the results are those of a fresh one', () => {
    const instant = Date.parse('2026-03-29T00:59:59Z');
    for (const zone of ['Europe/Berlin', 'Asia/Vladivostok', 'America/New_York']) {
      formatDateTime(instant, zone);
      localDateTimeText(instant, zone);
    }
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      for (const zone of ['Europe/Berlin', 'Asia/Vladivostok', 'America/New_York']) {
        for (let i = 0; i < 50; i++) {
          formatDateTime(instant + i * 60_000, zone);
          formatTime(instant + i * 60_000, zone);
          localDate(instant + i * 60_000, zone);
          localDateTimeText(instant + i * 60_000, zone);
        }
      }
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
    // Berlin switches to summer time at 01:00 UTC that night: the same readings as before the cache.
    expect(formatDateTime(instant, 'Europe/Berlin')).toBe('29.03.2026 01:59');
    expect(formatTime(instant + 1000, 'Europe/Berlin')).toBe('03:00:00');
    expect(localDateTimeText(instant, 'Asia/Vladivostok')).toBe('29.03.2026 10:59');
    expect(formatTime(instant, 'America/New_York')).toBe('20:59:59');
  });
  it('still refuses an unknown zone in the PWA and falls back to UTC in reports', () => {
    expect(() => formatTime(0, 'Nowhere/Atlantis')).toThrow(RangeError);
    expect(localDateTimeText(0, 'Nowhere/Atlantis')).toBe('01.01.1970 00:00');
  });
});
