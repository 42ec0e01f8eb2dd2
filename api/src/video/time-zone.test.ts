import { describe, expect, it } from 'vitest';
import { isRecordingName, plausibleCreationTime, startFromName } from './recording-name';
import { formatLocalDateTime, isCalendarDate, localDayBounds, localToInstant, zoneOffsetMs } from './time-zone';

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

describe('recording names', () => {
  it('reads the local start from cam{N}_YYYY-MM-DD_HH-MM-SS.ext', () => {
    expect(startFromName('cam1_2026-11-16_09-00-00.mp4')).toEqual({ camera: 1, year: 2026, month: 11, day: 16, hour: 9, minute: 0, second: 0 });
    expect(startFromName('CAM12_2026-11-16_23-59-59_part2.MKV')).toMatchObject({ camera: 12, hour: 23, minute: 59, second: 59 });
    for (const bad of ['cam1_2026-11-16_25-00-00.mp4', 'cam1_2026-02-30_09-00-00.mp4', 'camera1_2026-11-16_09-00-00.mp4', 'cam1_2026-11-16.mp4', 'lecture.mp4']) {
      expect(startFromName(bad), bad).toBeNull();
    }
  });

  it('takes recordings by extension and believes only plausible creation times', () => {
    expect(['a.mp4', 'b.MOV', 'c.mkv', 'd.webm', 'e.avi'].every(isRecordingName)).toBe(true);
    expect(['notes.txt', 'x.part', 'mp4', 'state.json'].some(isRecordingName)).toBe(false);
    const now = Date.parse('2026-11-20T00:00:00Z');
    expect(plausibleCreationTime('2026-11-16T06:30:00.000000Z', now)).toBe(Date.parse('2026-11-16T06:30:00Z'));
    expect(plausibleCreationTime('1970-01-01T00:00:00.000000Z', now)).toBeNull();
    expect(plausibleCreationTime('1904-01-01T00:00:00Z', now)).toBeNull();
    expect(plausibleCreationTime('2030-01-01T00:00:00Z', now)).toBeNull();
    expect(plausibleCreationTime('not a date', now)).toBeNull();
    expect(plausibleCreationTime(null, now)).toBeNull();
  });
});
