import { describe, expect, it } from 'vitest';
import type { Slice } from '../types';
import { availableTimePie } from './pies';

const slice = (type: Slice['type'], minutes: number, availableMinutes: number): Slice => ({
  index: 0,
  type,
  name: type,
  color: '#000',
  len: minutes * 60,
  percent: 0,
  percent_w_day: (minutes / availableMinutes) * 100,
});

describe('the normative-time pie draws what its labels say', () => {
  it('adds the unused remainder, so the angles are the shares of T_дост', () => {
    // T_дост 200 min: main 120, idle 30 (rest 20 is left out) → unused 50 min = 25 %.
    const pie = availableTimePie([slice('main', 120, 200), slice('rest', 20, 200), slice('idle', 30, 200)], 200 * 60);
    expect(pie.inner.map((d) => d.key)).toEqual(['main', 'idle', 'unused']);
    expect(pie.unusedSeconds).toBe(50 * 60);
    expect(pie.inner.reduce((a, d) => a + d.percent, 0)).toBeCloseTo(100, 9);
    const total = pie.inner.reduce((a, d) => a + d.value, 0);
    for (const d of pie.inner) expect((d.value / total) * 100).toBeCloseTo(d.percent, 9);
    expect(pie.outer).toEqual([]);
  });

  it('shows an overrun as an outer arc beyond 100 %', () => {
    // T_дост 200 min, main 210 + aux 20 = 230 min: 30 min (15 %) over.
    const pie = availableTimePie([slice('main', 210, 200), slice('aux', 20, 200)], 200 * 60);
    expect(pie.overrunSeconds).toBe(30 * 60);
    expect(pie.inner.map((d) => d.key)).toEqual(['main', 'aux']);
    const [norm, over] = pie.outer;
    expect(norm!.spacer).toBe(true);
    expect(norm!.value).toBe(200 * 60);
    expect(over!.percent).toBeCloseTo(15, 9);
    // The arc starts where 100 % of T_дост ends on the inner ring.
    expect(norm!.value / (norm!.value + over!.value)).toBeCloseTo(200 / 230, 9);
  });
});
