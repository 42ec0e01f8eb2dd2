import { describe, expect, it } from 'vitest';
import { pieLabels, type PieDatum, type RingSpec } from './RingPie';

const percent = (p: number) => `${p.toFixed(2).replace('.', ',')} %`;
const datum = (name: string, value: number, total: number): PieDatum => ({ name, color: '#888', value, percent: (value / total) * 100 });

/** Operations around their types: one large slice and eight tiny ones (under 1 % each) side by side. */
function rings(): RingSpec[] {
  const values = [900, 40, 4, 5, 6, 7, 8, 9, 6, 5, 10];
  const total = values.reduce((a, b) => a + b, 0);
  const outer = values.map((v, i) => datum(`Операция ${i}`, v, total));
  const inner = [datum('Основная', 940, total), datum('Простои', total - 940, total)];
  return [
    { data: inner, cx: 200, cy: 200, r0: 30, r1: 110, minPercent: 4, outside: false },
    { data: outer, cx: 200, cy: 200, r0: 112, r1: 160, minPercent: 0.01, outside: true },
  ];
}

describe('pie labels', () => {
  it('never lays one label on another: tiny slices side by side lose theirs, the large keep them', () => {
    const labels = pieLabels(rings(), percent).flat();
    const shown = labels.filter((l) => l !== null);
    for (const [i, a] of shown.entries())
      for (const b of shown.slice(i + 1)) {
        const apart = a.box.x1 <= b.box.x0 || b.box.x1 <= a.box.x0 || a.box.y1 <= b.box.y0 || b.box.y1 <= a.box.y0;
        expect(apart, `${a.text} и ${b.text}`).toBe(true);
      }
    // The largest operation and both types are labelled; not all eleven operations fit.
    const outer = pieLabels(rings(), percent)[1]!;
    expect(outer[0]).not.toBeNull();
    expect(pieLabels(rings(), percent)[0]!.every((l) => l !== null)).toBe(true);
    expect(outer.filter((l) => l !== null).length).toBeLessThan(11);
    expect(outer.filter((l) => l !== null).length).toBeGreaterThan(1);
  });

  it('labels every slice above the threshold when there is room', () => {
    const data = [datum('А', 50, 100), datum('Б', 30, 100), datum('В', 20, 100)];
    const labels = pieLabels([{ data, cx: 200, cy: 200, r0: 0, r1: 150, minPercent: 4, outside: false }], percent)[0]!;
    expect(labels.map((l) => l?.text)).toEqual(['50,00 %', '30,00 %', '20,00 %']);
    // Below the threshold: no label at all.
    const small = pieLabels(
      [{ data: [datum('А', 97, 100), datum('Б', 3, 100)], cx: 200, cy: 200, r0: 0, r1: 150, minPercent: 4, outside: false }],
      percent,
    )[0]!;
    expect(small[1]).toBeNull();
  });
});
