import type { PieDatum } from '../../../charts/RingPie';
import { EXCLUDED_FROM_AVAILABLE_TIME } from '../constants';
import type { Slice } from '../types';

/** Colour of the unused part of the normative time and of the overrun arc. */
export const UNUSED_COLOR = '#e3e7ec';
export const OVERRUN_COLOR = '#c62828';

export interface AvailablePie {
  /** Slices whose angles are their shares of the circle; labels are percent of T_дост. */
  inner: PieDatum[];
  /** Outer arc marking the time beyond T_дост (overrun); empty without one. */
  outer: PieDatum[];
  /** Seconds left unused of T_дост (0 with an overrun). */
  unusedSeconds: number;
  /** Seconds beyond T_дост (0 without an overrun). */
  overrunSeconds: number;
}

/**
 * The right-hand pie of the statement: shares of the normative working time T_дост (rest
 * excluded). The circle is T_дост, so every label (percent_w_day) is also the slice's angle; the
 * time left unused is a slice of its own. When work and idle time exceed T_дост, the circle is
 * their sum, 100 % of T_дост ends where the outer arc starts, and that arc is the overrun.
 */
export function availableTimePie(slices: Slice[], availableSeconds: number): AvailablePie {
  const inner: PieDatum[] = slices
    .filter((s) => s.type !== EXCLUDED_FROM_AVAILABLE_TIME)
    .map((s) => ({ key: s.type, name: s.name, color: s.color, value: s.len, percent: s.percent_w_day }));
  if (!(availableSeconds > 0)) return { inner, outer: [], unusedSeconds: 0, overrunSeconds: 0 };
  const used = inner.reduce((sum, d) => sum + d.value, 0);
  const share = (seconds: number) => (seconds / availableSeconds) * 100;
  if (used <= availableSeconds) {
    const unused = availableSeconds - used;
    if (unused > 0) inner.push({ key: 'unused', name: 'Не использовано нормативного времени', color: UNUSED_COLOR, value: unused, percent: share(unused) });
    return { inner, outer: [], unusedSeconds: unused, overrunSeconds: 0 };
  }
  const overrun = used - availableSeconds;
  return {
    inner,
    outer: [
      { key: 'norm', name: 'Нормативное время', color: 'none', value: availableSeconds, percent: 100, spacer: true },
      { key: 'overrun', name: 'Сверх нормативного времени', color: OVERRUN_COLOR, value: overrun, percent: share(overrun) },
    ],
    unusedSeconds: 0,
    overrunSeconds: overrun,
  };
}
