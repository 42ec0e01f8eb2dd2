/**
 * Report edges of METHODOLOGY §6, hand-computed: both the WASM wrapper and the reference must
 * give every figure here.
 */
import { describe, expect, it } from 'vitest';
import * as wasm from './index.ts';
import * as reference from '../test-support/reference.ts';
import type { ReportSettings, Segment } from './types.ts';
import { at, seg } from '../test-support/helpers.ts';

const H = 3_600_000;
const day = (k: number) => k * 24 * H;
const shift = (k: number) => ({ start: at(8, 0) + day(k), end: at(12, 0) + day(k), breakMinutes: 20 });
const shifted = (segments: Segment[], k: number) => segments.map((s) => ({ ...s, id: (s.id ?? 0) + 1000 * k, start: s.start + day(k), end: s.end + day(k) }));

/** Two shift-days, 08:00–12:00 each with a 20-minute break. */
const twoDays = (shifts = [shift(0), shift(1)]): ReportSettings => ({
  from: at(0, 0),
  to: at(0, 0) + day(2),
  structure: { shifts },
  days: [{ start: at(0, 0) }, { start: at(0, 0) + day(1) }],
});

describe.each([
  ['wasm', wasm],
  ['reference', reference],
] as const)('%s', (_name, engine) => {
  it('gives output 0, not null, when no units are known; takt stays null', () => {
    const segments = [seg([8, 0], [12, 0], 'main', 1, 'Сборка узла')];
    for (const unitsProduced of [null, undefined, 0]) {
      const d = engine.dayBalance(segments, { from: at(8, 0), to: at(12, 0), structure: { shifts: [shift(0)] }, unitsProduced });
      expect(d.takt.units).toBe(0);
      expect(d.takt.seconds).toBeNull();
      expect(d.days[0]!.units).toBe(0);
      expect(d.days[0]!.taktSeconds).toBeNull();
    }
  });

  it('sums the rest above the breaks per shift-day, never netting a rested day against a worked one', () => {
    // Day 1: main 200 min, rest 40 min against 20 owed → 20 min lost. Day 2: main 240 min, no rest.
    // Netted over the window (rest 40 = breaks 40) the loss would wrongly be 0.
    const segments = [
      seg([8, 0], [11, 20], 'main', 1, 'Сборка узла'),
      seg([11, 20], [12, 0], 'rest', 30, 'Отдых'),
      ...shifted([seg([8, 0], [12, 0], 'main', 1, 'Сборка узла')], 1),
    ];
    const d = engine.dayBalance(segments, twoDays());
    expect(d.days.map((x) => [x.restSeconds, x.restLossSeconds])).toEqual([
      [2400, 1200],
      [0, 0],
    ]);
    expect(d.losses.restSeconds).toBe(1200);
    expect(d.losses.seconds).toBe(1200);
    expect(d.losses.pareto.map((p) => [p.operationId, p.seconds, p.percent])).toEqual([[30, 1200, 100]]);
    // With rest_in_idle every minute of rest is lost, day by day: 40 min.
    const all = engine.dayBalance(segments, { ...twoDays(), structure: { shifts: [shift(0), shift(1)], restInIdle: true } });
    expect(all.losses.restSeconds).toBe(2400);
  });

  it('splits a rest operation of several days in the Pareto by each day’s own excess', () => {
    // Rest 30 min on day 1 (10 above 20 owed), 10 min on day 2 (none above): 10 min lost, all day 1's.
    const segments = [
      seg([8, 0], [11, 30], 'main', 1, 'Сборка узла'),
      seg([11, 30], [12, 0], 'rest', 30, 'Отдых'),
      ...shifted([seg([8, 0], [11, 50], 'main', 1, 'Сборка узла'), seg([11, 50], [12, 0], 'rest', 30, 'Отдых')], 1),
    ];
    const d = engine.dayBalance(segments, twoDays());
    expect(d.losses.restSeconds).toBe(600);
    expect(d.losses.pareto).toHaveLength(1);
    expect(d.losses.pareto[0]!.seconds).toBeCloseTo(600, 9);
  });

  it('lists a day without observation as «нет наблюдений»: no normative time, no load', () => {
    // Observed on day 1 only (main 180 min of a 220-minute T_дост); day 2 has the shift but no markup.
    const segments = [seg([8, 0], [11, 0], 'main', 1, 'Сборка узла'), seg([11, 0], [12, 0], 'aux', 50, 'Подноска деталей')];
    const d = engine.dayBalance(segments, twoDays([shift(0)]));
    const [first, second] = d.days;
    expect(first!.observed).toBe(true);
    expect(first!.text).toBe('240-минутный день, переработка 20 минут');
    expect(second).toMatchObject({ observed: false, text: 'нет наблюдений', shiftSeconds: 0, availableSeconds: 0, loadPercent: 0 });
    expect(d.availableSeconds).toBe(220 * 60);
    expect(d.load.text).toBe('240-минутный день, переработка 20 минут');
  });

  it('says «нет наблюдений», not «нет смен», for an empty window', () => {
    const d = engine.dayBalance([], { from: at(8, 0), to: at(12, 0), structure: { shifts: [] } });
    expect(d.load.text).toBe('Нормативное время не определено: нет наблюдений.');
  });

  it('says «переработки и недогрузки нет» at exactly 100 %', () => {
    // W 220 min = T_дост 240 − 20.
    const d = engine.dayBalance([seg([8, 0], [11, 40], 'main', 1, 'Сборка узла'), seg([11, 40], [12, 0], 'rest', 30, 'Отдых')], {
      from: at(8, 0),
      to: at(12, 0),
      structure: { shifts: [shift(0)] },
    });
    expect(d.load.percentage).toBe(100);
    expect(d.load.text).toBe('220-минутный день, переработки и недогрузки нет');
  });

  it('lists segments cut by the window as cut, not as measurements, while the balance counts their inside part', () => {
    const t = (hh: number, mm: number, ss: number) => at(hh, mm, ss);
    const segments = [
      seg(t(7, 59, 50), t(8, 0, 10), 'main', 1, 'Сборка узла'), // cut by the start: 10 s inside
      seg(t(8, 0, 10), t(8, 0, 20), 'main', 1, 'Сборка узла'),
      seg(t(8, 0, 20), t(8, 0, 32), 'main', 1, 'Сборка узла'),
      seg(t(8, 59, 55), t(9, 0, 5), 'main', 1, 'Сборка узла'), // cut by the end: 5 s inside
    ];
    const settings = { from: at(8, 0), to: at(9, 0) };
    const o = engine.timeStudy(segments, settings).operations[0]!;
    expect(o.measurements.map((m) => [m.status, m.seconds, m.fluctPerc, m.fluctPercAll])).toEqual([
      ['cut', 10, 0, 0],
      ['accepted', 10, (-1 / 11) * 100, (-1 / 11) * 100],
      ['accepted', 12, (1 / 11) * 100, (1 / 11) * 100],
      ['cut', 5, 0, 0],
    ]);
    expect(o.accepted).toMatchObject({ n: 2, tMin: 10, tMax: 12, tReg: 11, len: 22 });
    expect(o.all).toMatchObject({ n: 2, tMin: 10, tReg: 11, standardLen: 22 });
    expect(engine.dayBalance(segments, settings).categories.find((c) => c.category === 'main')!.seconds).toBe(37);
  });

  it('balances a shift observed only in part over the observed part, its break pro rata, and says so', () => {
    // Shift 08:00–16:00 (480 min, 60 min of break); observed 10:00–12:00: main 100 min, idle 20 min.
    // T_см = 120, B_рег = 60 × 120 / 480 = 15, T_дост = 105, W = 100 → 95.24 %.
    const segments = [seg([10, 0], [11, 40], 'main', 1, 'Сборка узла'), seg([11, 40], [12, 0], 'idle', 40, 'Ожидание материала')];
    const window = { from: at(0, 0), to: at(0, 0) + day(1) };
    const d = engine.dayBalance(segments, { ...window, structure: { shifts: [{ start: at(8, 0), end: at(16, 0), breakMinutes: 60 }] } });
    expect([d.shiftSeconds, d.regulatedBreakSeconds, d.availableSeconds]).toEqual([120 * 60, 15 * 60, 105 * 60]);
    expect(d.load.percentage).toBeCloseTo((100 / 105) * 100, 9);
    expect(d.load.text).toBe('100-минутный день, недогрузка 5 минут');
    expect(d.shifts).toEqual([
      {
        start: at(8, 0),
        end: at(16, 0),
        observedStart: at(10, 0),
        observedEnd: at(12, 0),
        partlyObserved: true,
        shiftSeconds: 7200,
        regulatedBreakSeconds: 900,
      },
    ]);
    expect(d.days[0]!.partlyObserved).toBe(true);
    // Break intervals: the part of them inside the observed part (11:30–11:45), not the 13:00 one.
    const withIntervals = engine.dayBalance(segments, {
      ...window,
      structure: {
        shifts: [
          {
            start: at(8, 0),
            end: at(16, 0),
            breaks: [
              { start: at(11, 30), end: at(11, 45) },
              { start: at(13, 0), end: at(13, 45) },
            ],
          },
        ],
      },
    });
    expect(withIntervals.regulatedBreakSeconds).toBe(15 * 60);
    // Observed from its start to its end: the whole shift, not partly observed.
    const whole = engine.dayBalance([seg([8, 0], [16, 0], 'main', 1, 'Сборка узла')], {
      ...window,
      structure: { shifts: [{ start: at(8, 0), end: at(16, 0), breakMinutes: 60 }] },
    });
    expect([whole.shiftSeconds, whole.regulatedBreakSeconds, whole.shifts[0]!.partlyObserved, whole.days[0]!.partlyObserved]).toEqual([
      480 * 60,
      60 * 60,
      false,
      false,
    ]);
  });
});
