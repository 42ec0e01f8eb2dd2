import { describe, expect, it } from 'vitest';
import { breakIntervalsText, parseBreakIntervalsText } from './useStructureSettings';

describe('break intervals typed in the settings card', () => {
  it('reads "10:00–10:15, 12:00-12:40" and writes it back', () => {
    const parsed = parseBreakIntervalsText('10:00–10:15, 9:00-9:10');
    expect(parsed).toEqual([
      { start_time: '10:00', end_time: '10:15' },
      { start_time: '09:00', end_time: '09:10' },
    ]);
    expect(breakIntervalsText([{ start_time: '10:00:00', end_time: '10:15:00' }])).toBe('10:00–10:15');
    expect(parseBreakIntervalsText('')).toEqual([]);
    expect(parseBreakIntervalsText('в обед')).toBeNull();
  });
});
