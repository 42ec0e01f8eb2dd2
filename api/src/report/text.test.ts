import { describe, expect, it } from 'vitest';
import { plural, formatDuration } from '@norma/core-wasm/report';

describe('report wording', () => {
  it('declines Russian nouns by number and writes durations', () => {
    expect([1, 2, 5, 11, 21, 22, 112].map((n) => plural(n, 'сотрудник', 'сотрудника', 'сотрудников'))).toEqual([
      'сотрудник',
      'сотрудника',
      'сотрудников',
      'сотрудников',
      'сотрудник',
      'сотрудника',
      'сотрудников',
    ]);
    expect(formatDuration(2652)).toBe('44 мин');
    expect(formatDuration(159_120)).toBe('44 ч 12 мин');
    expect(formatDuration(7200)).toBe('2 ч');
  });
});
