import { describe, expect, it } from 'vitest';
import { isRecordingName, plausibleCreationTime, startFromName } from './recording-name';

describe('recording names', () => {
  it('reads the local start from cam{N}_YYYY-MM-DD_HH-MM-SS.ext', () => {
    expect(startFromName('cam1_2026-11-16_09-00-00.mp4')).toEqual({ camera: 1, year: 2026, month: 11, day: 16, hour: 9, minute: 0, second: 0 });
    expect(startFromName('CAM12_2026-11-16_23-59-59_part2.MKV')).toMatchObject({ camera: 12, hour: 23, minute: 59, second: 59 });
    for (const bad of [
      'cam1_2026-11-16_25-00-00.mp4',
      'cam1_2026-02-30_09-00-00.mp4',
      'camera1_2026-11-16_09-00-00.mp4',
      'cam1_2026-11-16.mp4',
      'lecture.mp4',
    ]) {
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
