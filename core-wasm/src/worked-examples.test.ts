/**
 * Hand-computed examples (METHODOLOGY §6 and the worked day of docs/methodology.md). Every
 * expected number here was computed by hand; both the WASM wrapper and the reference must give it.
 */
import { describe, expect, it } from 'vitest';
import * as wasm from './index.ts';
import * as reference from '../test-support/reference.ts';
import type { ReportSettings, Segment } from './types.ts';
import { assertFiniteDeep, at, seg, series } from '../test-support/helpers.ts';

/** The worked day: one employee, shift 08:00–12:00 with a 20-minute regulated break. */
export function workedDay(): Segment[] {
  return [
    seg([8, 0], [8, 10], 'pz', 10, 'Получение задания'),
    seg([8, 10], [9, 40], 'main', 1, 'Сборка узла'),
    seg([9, 40], [9, 50], 'service', 20, 'Наладка станка'),
    seg([9, 50], [10, 0], 'rest', 30, 'Отдых'),
    seg([10, 0], [10, 30], 'idle', 40, 'Ожидание материала'),
    seg([10, 30], [11, 30], 'main', 1, 'Сборка узла'),
    seg([11, 30], [11, 35], 'aux', 50, 'Подноска деталей'),
    seg([11, 35], [11, 40], 'move', 60, 'Переход к складу'),
    seg([11, 40], [11, 50], 'rest', 30, 'Отдых'),
    seg([11, 50], [11, 55], 'idle', 41, 'Поиск инструмента'),
  ];
}

const dayWindow = { from: at(8, 0), to: at(12, 0) };
const shiftSettings: ReportSettings = {
  ...dayWindow,
  structure: { shifts: [{ start: at(8, 0), end: at(12, 0), breakMinutes: 20 }], productionType: 'series', employeeSalary: 52_000 },
  unitsProduced: 10,
};

const minutesOf = (b: ReturnType<typeof wasm.dayBalance>, category: string) => b.categories.find((c) => c.category === category)!;

describe.each([
  ['wasm', wasm],
  ['reference', reference],
] as const)('%s', (_name, engine) => {
  describe('cleaning example of METHODOLOGY §6', () => {
    const settings: ReportSettings = {
      from: at(0, 0),
      to: at(23, 59),
      structure: { timeSeriesStabilityThreshold: 1.5 },
    };
    const op = () => engine.timeStudy(series([5, 7, 9, 9, 20, 10, 8, 10]), settings).operations[0];

    it('drops 20 then 5 and keeps 7, 9, 9, 10, 8, 10', () => {
      const o = op();
      expect(o.measurements.map((m) => m.status)).toEqual(['dropped', 'accepted', 'accepted', 'accepted', 'dropped', 'accepted', 'accepted', 'accepted']);
      expect(o.measurements.filter((m) => m.status === 'accepted').map((m) => m.seconds)).toEqual([7, 9, 9, 10, 8, 10]);
      expect(o.normativeCoef).toBe(1.5);
      expect(o.normativeSource).toBe('threshold');
    });

    it('gives Ку 1.43 and t_reg 8.83', () => {
      const { accepted, all } = op();
      expect(accepted.coef).toBeCloseTo(1.43, 2); // 10 / 7
      expect(accepted.tReg).toBeCloseTo(8.83, 2); // 53 / 6
      expect(accepted.n).toBe(6);
      expect(accepted.tMin).toBe(7);
      expect(accepted.tMax).toBe(10);
      expect(accepted.time2min).toBe(8);
      // t_freq_fact = (10 − 7) / 8.8333 × 100 = 33.96 %
      expect(accepted.tFreqFact).toBeCloseTo(33.96, 2);
      // standard_len = t_reg × n of all measurements = 8.8333 × 8
      expect(accepted.standardLen).toBeCloseTo(70.67, 2);
      // The whole series before cleaning: Ку = 20 / 5 = 4, mean 78 / 8 = 9.75, second minimum 7.
      expect(all.coef).toBe(4);
      expect(all.tAverage).toBe(9.75);
      expect(all.time2min).toBe(7);
    });

    it('computes fluctuation per measurement against t_reg', () => {
      const o = op();
      // (20 − 8.8333) / 8.8333 × 100 = 126.42 % for the dropped 20; (7 − 8.8333)/8.8333 = −20.75 %.
      expect(o.measurements[4].fluctPerc).toBeCloseTo(126.42, 2);
      expect(o.accepted.fluctMin).toBeCloseTo(-20.75, 2);
      expect(o.accepted.fluctMax).toBeCloseTo(13.21, 2); // (10 − 8.8333) / 8.8333
      // |−20.75| + 1.89·2 + 13.21·2 + 9.43 = 60.38 → / 6 = 10.06
      expect(o.accepted.fluctAverage).toBeCloseTo(10.06, 2);
    });

    it('computes par2 as the sample CV and the required measurements', () => {
      const o = op();
      // Σ(x − 8.8333)² = 3.3611 + 0.0278·2 + 1.3611·2 + 0.6944 = 6.8333; s = √(6.8333/5) = 1.1690
      expect(o.accepted.par2).toBeCloseTo(13.23, 2); // 1.1690 / 8.8333 × 100
      // Series production, ε = 10 %: (1.96 · 13.23 / 10)² = 6.73 → 7 > 6 measurements.
      expect(o.requiredMeasurements).toBe(7);
      expect(o.enoughMeasurements).toBe(false);
    });

    it('checks Table 3 over all measurements, not the cleaned series', () => {
      const o = op();
      // All 8 measurements: mean 78 / 8 = 9.75; the 20 is (20 − 9.75) / 9.75 = +105.13 %.
      expect(o.measurements[4].fluctPercAll).toBeCloseTo(105.13, 2);
      expect(o.measurements[0].fluctPercAll).toBeCloseTo(-48.72, 2); // (5 − 9.75) / 9.75
      // Σ|x − 9.75| = 4.75 + 2.75 + 0.75·2 + 10.25 + 0.25·2 + 1.75 = 21.5 → 21.5 / 8 / 9.75 = 27.56 %
      expect(o.fluctAveAll).toBeCloseTo(27.56, 2);
      expect(o.fluctAveAll).toBeCloseTo(o.all.fluctAverage, 12);
      // Σ(x − 9.75)² = 139.5, s = √(139.5 / 7) = 4.4641, CV = 45.79 %; (1.96 · 45.79 / 10)² = 80.5 → 81.
      expect(o.all.par2).toBeCloseTo(45.79, 2);
      expect(o.requiredMeasurementsAll).toBe(81);
      expect(o.enoughMeasurementsAll).toBe(false);
      // The cleaned series keeps its own figures.
      expect(o.fluctAve).toBeCloseTo(10.06, 2);
      expect(o.requiredMeasurements).toBe(7);
      // Every |fluct_perc| of Table 3 stays within that row's own max and min.
      for (const m of o.measurements) {
        expect(m.fluctPercAll).toBeLessThanOrEqual(o.all.fluctMax + 1e-9);
        expect(m.fluctPercAll).toBeGreaterThanOrEqual(o.all.fluctMin - 1e-9);
      }
    });

    it('drops min and max together under the both-extremes rule, keeping at least 5', () => {
      // 4, 5, 5, 5, 5, 5, 12 with normative 1.5. One extreme: Ку = 3, median 5, 12 / 5 = 2.4 ≥ 5 / 4
      // → 12 goes; 4..5 gives Ку 1.25 and stops. Both extremes: 4 and 12 go together → Ку 1.
      const values = [4, 5, 5, 5, 5, 5, 12];
      const one = engine.timeStudy(series(values), settings);
      expect(one.operations[0].measurements.map((m) => m.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'accepted', 'accepted', 'dropped']);
      expect(one.cleaningMode).toBe('one_extreme');
      const both = engine.timeStudy(series(values), { ...settings, structure: { timeSeriesStabilityThreshold: 1.5, cleaningRule: 'both_extremes' } });
      expect(both.operations[0].measurements.map((m) => m.status)).toEqual(['dropped', 'accepted', 'accepted', 'accepted', 'accepted', 'accepted', 'dropped']);
      expect(both.operations[0].accepted.coef).toBe(1);
      expect(both.cleaningMode).toBe('both_extremes');
      expect(both.cleaningRule).toContain('одновременно минимальный и максимальный');
      // Six measurements: dropping two would leave 4 < 5, so nothing goes (one extreme drops the 8).
      const six = engine.timeStudy(series([2, 4, 4, 4, 4, 8]), {
        ...settings,
        structure: { timeSeriesStabilityThreshold: 1.5, cleaningRule: 'both_extremes' },
      });
      expect(six.operations[0].measurements.every((m) => m.status === 'accepted')).toBe(true);
    });

    it('drops the maximum when both extremes are equally far from the median', () => {
      // 2, 4, 4, 4, 4, 8: Ку = 4 > 1.5, median 4, 8 / 4 = 4 / 2 = 2 → the maximum goes; 5 remain.
      const o = engine.timeStudy(series([2, 4, 4, 4, 4, 8]), settings).operations[0];
      expect(o.measurements.map((m) => m.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'accepted', 'dropped']);
      expect(o.accepted.coef).toBe(2);
    });

    it('applies fluct_reduction to the predicted fluctuation', () => {
      const o = engine.timeStudy(series([5, 7, 9, 9, 20, 10, 8, 10]), {
        ...settings,
        structure: { timeSeriesStabilityThreshold: 1.5, fluctReduction: 25 },
      }).operations[0];
      expect(o.accepted.tFreqPred).toBeCloseTo(33.96 * 0.75, 1);
    });
  });

  describe('the worked day (docs/methodology.md)', () => {
    const b = () => engine.dayBalance(workedDay(), shiftSettings);

    it('balances the day by category', () => {
      const d = b();
      expect(d.basis).toBe('shifts');
      expect(d.observedSeconds).toBe(235 * 60);
      // Observed 08:00–11:55 of the 08:00–12:00 shift: balanced over that part (METHODOLOGY §6),
      // its 20-minute break pro rata: 20 × 235 / 240 = 19 min 35 s.
      expect(d.shiftSeconds).toBe(235 * 60);
      expect(d.regulatedBreakSeconds).toBe(1175);
      expect(d.availableSeconds).toBe(12_925); // 215 min 25 s
      expect(d.shifts).toEqual([
        {
          start: at(8, 0),
          end: at(12, 0),
          observedStart: at(8, 0),
          observedEnd: at(11, 55),
          partlyObserved: true,
          shiftSeconds: 14_100,
          regulatedBreakSeconds: 1175,
        },
      ]);
      expect(d.days[0]!.partlyObserved).toBe(true);
      expect(d.workSeconds).toBe(180 * 60);
      expect(minutesOf(d, 'main').minutes).toBe(150);
      expect(minutesOf(d, 'main').percentVideo).toBeCloseTo(63.83, 2); // 150 / 235
      expect(minutesOf(d, 'main').percentDay).toBeCloseTo(63.83, 2); // 150 / 235
      expect(minutesOf(d, 'main').percentWDay).toBeCloseTo(69.63, 2); // 9000 / 12 925
      expect(minutesOf(d, 'idle').minutes).toBe(35);
      expect(minutesOf(d, 'rest').minutes).toBe(20);
      expect(d.categories.map((c) => c.minutes)).toEqual([150, 5, 10, 10, 5, 20, 35]);
    });

    it('states the load and the underload', () => {
      const { load } = b();
      expect(load.percentage).toBeCloseTo(83.56, 2); // 10 800 / 12 925
      expect(load.overload).toBe(false);
      expect(load.underload).toBeCloseTo(2125 / 60, 9); // 35 min 25 s
      expect(load.underloadPer).toBeCloseTo(16.44, 2);
      expect(load.text).toBe('180-минутный день, недогрузка 35 минут');
    });

    it('gives useful time, the normative balance and ΔП', () => {
      const d = b();
      expect(d.usefulSeconds).toBe(175 * 60);
      expect(d.usefulPercent).toBeCloseTo(74.47, 2); // 175 / 235
      const norm = Object.fromEntries(d.normative.map((c) => [c.category, c.minutes]));
      // Rest → B_reg 19 min 35 s; main 150 + 35 idle + 25 s of rest above the break.
      expect(norm).toEqual({ main: 11_125 / 60, aux: 5, pz: 10, service: 10, move: 5, rest: 1175 / 60, idle: 0 });
      expect(d.productivityRise).toBeCloseTo(23.61, 2); // (11 125 − 9 000) / 9 000
    });

    it('lists losses with a Pareto', () => {
      const { losses } = b();
      expect(losses.seconds).toBe(2125);
      expect(losses.restSeconds).toBe(25); // rest 1200 s − B_reg 1175 s
      expect(losses.percent).toBeCloseTo(15.07, 2); // 2125 / 14 100
      expect(losses.pareto.map((r) => [r.operationName, r.seconds])).toEqual([
        ['Ожидание материала', 1800],
        ['Поиск инструмента', 300],
        ['Отдых', 25],
      ]);
      expect(losses.pareto[0].percent).toBeCloseTo(84.71, 2);
      expect(losses.pareto[1].cumulativePercent).toBeCloseTo(98.82, 2);
      expect(losses.pareto[2].cumulativePercent).toBeCloseTo(100, 9);
    });

    it('counts all rest as a loss with rest_in_idle', () => {
      const d = engine.dayBalance(workedDay(), { ...shiftSettings, structure: { ...shiftSettings.structure, restInIdle: true } });
      expect(d.losses.seconds).toBe(55 * 60);
      expect(d.losses.pareto.map((r) => [r.operationName, r.seconds / 60])).toEqual([
        ['Ожидание материала', 30],
        ['Отдых', 20],
        ['Поиск инструмента', 5],
      ]);
      expect(d.losses.pareto.map((r) => Number(r.cumulativePercent.toFixed(2)))).toEqual([54.55, 90.91, 100]);
    });

    it('computes takt, gaps and per-operation rows', () => {
      const d = b();
      expect(d.takt.actualDaySeconds).toBe(235 * 60); // 08:00–11:55
      expect(d.takt.seconds).toBe(1410); // 14 100 s / 10 units = 23.5 min
      expect(d.breaks).toEqual([{ type: 'gap', start: at(11, 55), end: at(12, 0), seconds: 300 }]);
      expect(d.coveredSeconds).toBe(235 * 60);
      const assembly = d.operations.find((o) => o.operationId === 1)!;
      expect(assembly.count).toBe(2);
      expect(assembly.averageSeconds).toBe(75 * 60);
      expect(d.inputErrors).toEqual([]);
    });

    it('studies the main operation', () => {
      const o = engine.timeStudy(workedDay(), shiftSettings).operations[0];
      expect(o.operationName).toBe('Сборка узла');
      expect(o.accepted.n).toBe(2);
      expect(o.accepted.tMin).toBe(3600);
      expect(o.accepted.time2min).toBe(5400);
      expect(o.accepted.coef).toBe(1.5);
      expect(o.accepted.tReg).toBe(4500);
      expect(o.accepted.tFreqFact).toBe(40); // 1800 / 4500
      expect(o.accepted.par2).toBeCloseTo(28.28, 2); // √(2·900²) / 4500
      expect(o.requiredMeasurements).toBe(31); // (1.96 · 28.28 / 10)² = 30.7
      // Element > 10 s, series production: normative Ку 2.0, so nothing was dropped.
      expect(o.normativeCoef).toBe(2);
    });

    it('treats a two-day window as two shift-days: no 1675-minute day, takt without the night', () => {
      const H = 3_600_000;
      const twoDays = [...workedDay(), ...workedDay().map((s) => ({ ...s, id: (s.id ?? 0) + 1000, start: s.start + 24 * H, end: s.end + 24 * H }))];
      const shift = (day: number) => ({ start: at(8, 0) + day * 24 * H, end: at(12, 0) + day * 24 * H, breakMinutes: 20 });
      const settings: ReportSettings = {
        from: at(0, 0),
        to: at(0, 0) + 48 * H,
        structure: { ...shiftSettings.structure, shifts: [shift(0), shift(1)] },
        unitsProduced: 20,
        days: [
          { start: at(0, 0), units: 12 },
          { start: at(0, 0) + 24 * H, units: 8 },
        ],
      };
      const d = engine.dayBalance(twoDays, settings);
      // Each day: W 180 min, observed 08:00–11:55 of the shift: T_см 235, B_рег 1175 s, T_дост 12 925 s.
      expect(d.days).toHaveLength(2);
      for (const day of d.days) {
        expect(day.workSeconds).toBe(180 * 60);
        expect(day.shiftSeconds).toBe(235 * 60);
        expect(day.regulatedBreakSeconds).toBe(1175);
        expect(day.availableSeconds).toBe(12_925);
        expect(day.actualDaySeconds).toBe(235 * 60);
        expect(day.text).toBe('180-минутный день, недогрузка 35 минут');
      }
      expect(d.days.map((day) => day.taktSeconds)).toEqual([(235 * 60) / 12, (235 * 60) / 8]); // 1175 s, 1762.5 s
      // The window: the sums of the days, and a sentence about two days, not one long day.
      expect(d.availableSeconds).toBe(25_850);
      expect(d.regulatedBreakSeconds).toBe(2350);
      expect(d.load.text).toBe('2 дня: 360 минут работы при нормативных 431 минуте, недогрузка 71 минута');
      // Takt = (235 + 235) min / 20 = 1410 s; without days the night would make it (24 h + 235 min) / 20 = 5025 s.
      expect(d.takt.actualDaySeconds).toBe(470 * 60);
      expect(d.takt.seconds).toBe(1410);
      const oneDay = engine.dayBalance(twoDays, { ...settings, days: undefined });
      expect(oneDay.takt.seconds).toBe(5025);
      expect(oneDay.days).toHaveLength(1);
      // Shift-days change nothing else.
      expect(oneDay.availableSeconds).toBe(d.availableSeconds);
      expect(oneDay.load.percentage).toBe(d.load.percentage);
    });

    it('gives a negative ΔП when rest falls short of the regulated breaks', () => {
      // Main 60 min, rest 5 min, no idle, 20 minutes owed: the norm gives rest 20 min and main
      // 65 − 20 = 45 min, so ΔП = (45 − 60) / 60 = −25 %.
      const d = engine.dayBalance([seg([8, 0], [9, 0], 'main', 1, 'Сборка узла'), seg([9, 0], [9, 5], 'rest', 30, 'Отдых')], {
        ...shiftSettings,
        structure: { ...shiftSettings.structure, shifts: [{ start: at(8, 0), end: at(9, 5), breakMinutes: 20 }] },
      });
      expect(d.normative.find((n) => n.category === 'rest')!.seconds).toBe(20 * 60);
      expect(d.normative.find((n) => n.category === 'main')!.seconds).toBe(45 * 60);
      expect(d.productivityRise).toBeCloseTo(-25, 9);
    });

    it('treats a partial structure as 10 minutes of break per observed hour', () => {
      const d = engine.dayBalance(workedDay(), { ...shiftSettings, structure: { ...shiftSettings.structure, partial: true } });
      expect(d.basis).toBe('observed');
      expect(d.shiftSeconds).toBe(235 * 60);
      expect(d.regulatedBreakSeconds).toBeCloseTo((235 / 6) * 60, 9); // 39 min 10 s
      expect(d.availableSeconds).toBeCloseTo((235 - 235 / 6) * 60, 9);
      expect(d.load.percentage).toBeCloseTo((180 / (235 - 235 / 6)) * 100, 9); // 91.91 %
    });

    it('treats a structure with no shifts like a partial one', () => {
      const d = engine.dayBalance(workedDay(), { ...dayWindow, structure: { shifts: [] } });
      expect(d.basis).toBe('observed');
      expect(d.shiftSeconds).toBe(235 * 60);
      expect(d.regulatedBreakSeconds).toBeCloseTo((235 / 6) * 60, 9);
    });

    it('prorates the default 70-minute break of a shift cut by the window', () => {
      const d = engine.dayBalance(workedDay(), {
        ...dayWindow,
        structure: { shifts: [{ start: at(8, 0), end: at(16, 0) }] },
      });
      // The window holds half of the 8-hour shift; he is observed 08:00–11:55 of it: 235 of 480 minutes.
      expect(d.shiftSeconds).toBe(235 * 60);
      expect(d.regulatedBreakSeconds).toBeCloseTo(70 * 60 * (235 / 480), 9); // 34 min 16 s of 70
      const full = engine.dayBalance([...workedDay(), seg([11, 55], [12, 0], 'aux', 50, 'Подноска деталей')], {
        ...dayWindow,
        structure: { shifts: [{ start: at(8, 0), end: at(16, 0) }] },
      });
      expect(full.shiftSeconds).toBe(240 * 60); // observed to the window's end: half of the shift
      expect(full.regulatedBreakSeconds).toBe(35 * 60); // half of 70 minutes
    });

    it('lists explicit regulated breaks in Table 6', () => {
      const d = engine.dayBalance(workedDay(), {
        ...dayWindow,
        structure: {
          shifts: [
            {
              start: at(8, 0),
              end: at(12, 0),
              breaks: [
                { start: at(9, 50), end: at(10, 0) },
                { start: at(11, 40), end: at(11, 50) },
              ],
            },
          ],
        },
      });
      expect(d.regulatedBreakSeconds).toBe(20 * 60);
      expect(d.breaks.map((r) => r.type)).toEqual(['regulated', 'regulated', 'gap']);
    });

    it('owes the part of the break intervals inside a window that cuts the shift, not a pro-rata share', () => {
      // Shift 08:00–16:00 with breaks 10:00–10:15, 12:00–12:40 and 14:30–14:45 (70 min). The window
      // 08:00–12:20 holds 15 + 20 = 35 min of them; pro rata it would be 70 × 260 / 480 = 37.9 min.
      // Observed to 12:20 (a segment 12:10–12:20), so the observed part is the window's.
      const d = engine.dayBalance([...workedDay(), seg([12, 10], [12, 20], 'aux', 50, 'Подноска деталей')], {
        from: at(8, 0),
        to: at(12, 20),
        structure: {
          shifts: [
            {
              start: at(8, 0),
              end: at(16, 0),
              breakMinutes: 70,
              breaks: [
                { start: at(10, 0), end: at(10, 15) },
                { start: at(12, 0), end: at(12, 40) },
                { start: at(14, 30), end: at(14, 45) },
              ],
            },
          ],
        },
      });
      expect(d.shiftSeconds).toBe(260 * 60);
      expect(d.regulatedBreakSeconds).toBe(35 * 60);
      expect(d.availableSeconds).toBe(225 * 60);
      expect(d.breaks).toEqual([
        { type: 'regulated', start: at(10, 0), end: at(10, 15), seconds: 900 },
        { type: 'gap', start: at(11, 55), end: at(12, 10), seconds: 900 },
        { type: 'regulated', start: at(12, 0), end: at(12, 20), seconds: 1200 },
      ]);
    });

    it('counts money lost over the month fund of a 40-hour week', () => {
      const staff = engine.staffLoad(workedDay(), shiftSettings);
      // 2125 s of losses = 0.5903 h × 52 000 ₽ / 173.33 h = 177.08 ₽
      expect(staff.moneyLost).toBeCloseTo(177.0833333, 6);
      expect(staff.employees).toHaveLength(1);
      expect(staff.employees[0].status).toBe('underloaded'); // 83.6 % < 85 %
      expect(staff.underloadedPercent).toBe(100);
    });

    it('builds Table 4 in time order', () => {
      const s = engine.statement([...workedDay()].reverse(), shiftSettings);
      expect(s.frv.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(s.frv[0]).toMatchObject({ name: 'Получение задания', lenInterval: 600, index: 2 });
      expect(s.frv[9]).toMatchObject({ name: 'Поиск инструмента', index: 6 });
    });
  });

  describe('edge cases', () => {
    it('has no takt without units (null, not Infinity)', () => {
      expect(engine.dayBalance(workedDay(), { ...shiftSettings, unitsProduced: null }).takt.seconds).toBeNull();
      expect(engine.dayBalance(workedDay(), { ...shiftSettings, unitsProduced: 0 }).takt.seconds).toBeNull();
      expect(engine.dayBalance(workedDay(), { ...shiftSettings, unitsProduced: undefined }).takt.seconds).toBeNull();
    });

    it('reports an empty window as zeros, a whole-window unmarked interval and no NaN', () => {
      const s = engine.statement([], shiftSettings);
      assertFiniteDeep(s);
      expect(s.balance.observedSeconds).toBe(0);
      expect(s.balance.load.percentage).toBeCloseTo(0, 12);
      // A shift without observation is not his (METHODOLOGY §6): no normative time, no underload.
      expect(s.balance.availableSeconds).toBe(0);
      expect(s.balance.load.underload).toBe(0);
      expect(s.balance.load.text).toBe('Нормативное время не определено: нет наблюдений.');
      expect(s.balance.shifts).toEqual([]);
      expect(s.balance.productivityRise).toBeNull();
      expect(s.balance.takt).toEqual({ actualDaySeconds: 0, breakSeconds: 0, units: 10, seconds: null });
      expect(s.balance.breaks).toEqual([{ type: 'gap', start: at(8, 0), end: at(12, 0), seconds: 14_400 }]);
      expect(s.study.operations).toEqual([]);
      expect(s.frv).toEqual([]);
    });

    it('handles an empty partial day (no available time)', () => {
      const d = engine.dayBalance([], { ...dayWindow, structure: { partial: true } });
      assertFiniteDeep(d);
      expect(d.availableSeconds).toBe(0);
      expect(d.load.percentage).toBe(0);
      expect(d.load.text).toMatch(/не определено/);
    });

    it('accepts one measurement as its own norm', () => {
      const o = engine.timeStudy(series([12]), dayWindow).operations[0];
      expect(o.accepted).toMatchObject({ n: 1, tMin: 12, tMax: 12, time2min: 12, coef: 1, tReg: 12, par2: 0, tFreqFact: 0 });
      expect(o.requiredMeasurements).toBe(5);
    });

    it('gives time_2min = t_min on a tie', () => {
      const o = engine.timeStudy(series([10, 10, 14]), dayWindow).operations[0];
      expect(o.accepted.time2min).toBe(10);
    });

    it('keeps zero-length segments in the sheet but not in the series', () => {
      const o = engine.timeStudy(series([6, 0, 8]), dayWindow).operations[0];
      expect(o.measurements.map((m) => m.status)).toEqual(['accepted', 'zero_length', 'accepted']);
      expect(o.accepted.n).toBe(2);
      expect(o.accepted.tReg).toBe(7);
      expect(o.measurements[1].fluctPerc).toBe(0);
    });

    it('stops cleaning when five measurements remain, even if Ку stays high', () => {
      const o = engine.timeStudy(series([1, 2, 4, 8, 16, 32, 64]), { ...dayWindow, structure: { timeSeriesStabilityThreshold: 1.1 } }).operations[0];
      expect(o.accepted.n).toBe(5);
      expect(o.measurements.filter((m) => m.status === 'dropped')).toHaveLength(2);
    });

    it('reports overlapping segments of one employee as input errors', () => {
      const segments = [
        seg([8, 0], [9, 0], 'main', 1, 'Сборка узла', 7),
        seg([8, 30], [8, 45], 'idle', 40, 'Ожидание материала', 7),
        seg([8, 30], [8, 45], 'main', 1, 'Сборка узла', 8), // another employee: no error
        seg([9, 0], [9, 10], 'aux', 50, 'Подноска деталей', 7), // touching: no error
        seg([9, 20], [9, 10], 'aux', 50, 'Подноска деталей', 7), // ends before it starts
      ];
      const errors = engine.detectOverlaps(segments);
      expect(errors.map((e) => [e.code, e.segmentIndex, e.otherSegmentIndex])).toEqual([
        ['end_before_start', 4, null],
        ['overlap', 1, 0],
      ]);
      // Overlaps are reported, not merged: observed time still counts both.
      const d = engine.dayBalance(segments.slice(0, 2), dayWindow);
      expect(d.observedSeconds).toBe(75 * 60);
      expect(d.coveredSeconds).toBe(60 * 60);
      expect(d.inputErrors).toHaveLength(1);
    });

    it('clips segments to the window', () => {
      const d = engine.dayBalance([seg([7, 30], [8, 30], 'main', 1, 'Сборка узла')], dayWindow);
      expect(d.observedSeconds).toBe(30 * 60);
      expect(d.takt.actualDaySeconds).toBe(30 * 60);
    });

    it('computes union, gaps and the assessor summary', () => {
      const spans = [
        { start: at(9, 0), end: at(10, 0), assessorId: 2, assessorName: 'Петрова', workplaceId: 1, workplaceName: 'Станок 1' },
        { start: at(9, 30), end: at(10, 30), assessorId: 2, assessorName: 'Петрова', workplaceId: 1, workplaceName: 'Станок 1' },
        { start: at(11, 0), end: at(12, 0), assessorId: 3, assessorName: 'Иванов', workplaceId: 2, workplaceName: 'Станок 2' },
      ];
      expect(engine.coveredSeconds(spans)).toBe(2.5 * 3600);
      expect(engine.findGaps(spans, at(8, 0), at(12, 0))).toEqual([
        { start: at(8, 0), end: at(9, 0) },
        { start: at(10, 30), end: at(11, 0) },
      ]);
      const byCost = engine.assessorSummary(spans, { hourCost: 400 });
      expect(byCost.assessors.map((a) => [a.assessorName, a.markupHours, a.salary])).toEqual([
        ['Петрова', 1.5, 600],
        ['Иванов', 1, 400],
      ]);
      const byBudget = engine.assessorSummary(spans, { budget: 100_000 });
      expect(byBudget.assessors.map((a) => a.salary)).toEqual([60_000, 40_000]);
      expect(byBudget.details.map((d) => [d.date, d.workplaceName, d.markupHours])).toEqual([
        ['2024-03-12', 'Станок 1', 1.5],
        ['2024-03-12', 'Станок 2', 1],
      ]);
      expect(engine.assessorSummary([], { budget: 100_000 }).assessors).toEqual([]);
    });

    it('counts marked hours per workplace: four workplaces over the same hours are four times the work', () => {
      const span = (workplaceId: number, from: number, to: number) => ({
        start: from,
        end: to,
        assessorId: 7,
        assessorName: 'Сидорова',
        workplaceId,
        workplaceName: `Станок ${workplaceId}`,
      });
      // 09:00–11:00 at four workplaces, plus 10:00–12:00 again at workplace 1 (union there 3 h).
      const spans = [
        span(1, at(9, 0), at(11, 0)),
        span(2, at(9, 0), at(11, 0)),
        span(3, at(9, 0), at(11, 0)),
        span(4, at(9, 0), at(11, 0)),
        span(1, at(10, 0), at(12, 0)),
      ];
      const summary = engine.assessorSummary(spans, { hourCost: 500 });
      expect(summary.assessors[0].markupHours).toBe(3 + 2 + 2 + 2); // 9 h, not the 3 h the clock shows
      expect(summary.assessors[0].salary).toBe(4500);
      expect(summary.details.map((d) => d.markupHours)).toEqual([3, 2, 2, 2]);
      expect(summary.details.reduce((a, d) => a + d.salary, 0)).toBe(4500);
    });

    it('cuts a span at local midnight, so the details of each day add up to the hours', () => {
      // 22:00–02:00 UTC at +03:00 is 01:00–05:00 local on the 13th; at UTC, 2 h on the 12th and 2 h on the 13th.
      const spans = [
        { start: at(22, 0), end: at(26, 0), assessorId: 1, assessorName: 'Ночная', workplaceId: 1, workplaceName: 'Станок 1' },
        { start: at(23, 0), end: at(25, 0), assessorId: 1, assessorName: 'Ночная', workplaceId: 1, workplaceName: 'Станок 1' },
      ];
      const utc = engine.assessorSummary(spans, { budget: 1000 });
      expect(utc.assessors[0].markupHours).toBe(4);
      expect(utc.details.map((d) => [d.date, d.markupHours, d.salary])).toEqual([
        ['2024-03-12', 2, 500],
        ['2024-03-13', 2, 500],
      ]);
      const moscow = engine.assessorSummary(spans, { budget: 1000, utcOffsetMinutes: 180 });
      expect(moscow.details.map((d) => [d.date, d.markupHours])).toEqual([['2024-03-13', 4]]);
    });

    it('splits staff into overloaded, balanced and underloaded', () => {
      const settings: ReportSettings = {
        ...dayWindow,
        structure: { shifts: [{ start: at(8, 0), end: at(12, 0), breakMinutes: 40 }] }, // T_avail = 200 min
      };
      // Each observed over the whole shift (idle to its end), so each is held to the full 200 minutes.
      const segments = [
        seg([8, 0], [11, 40], 'main', 1, 'Сборка узла', 1), // 220 / 200 = 110 %
        seg([8, 0], [11, 0], 'main', 1, 'Сборка узла', 2), // 180 / 200 = 90 %
        seg([8, 0], [9, 0], 'main', 1, 'Сборка узла', 3), // 60 / 200 = 30 %
        seg([8, 0], [11, 20], 'main', 1, 'Сборка узла', 4), // 200 / 200 = 100 %
        seg([11, 40], [12, 0], 'idle', 40, 'Ожидание материала', 1),
        seg([11, 0], [12, 0], 'idle', 40, 'Ожидание материала', 2),
        seg([9, 0], [12, 0], 'idle', 40, 'Ожидание материала', 3),
        seg([11, 20], [12, 0], 'idle', 40, 'Ожидание материала', 4),
      ];
      const staff = engine.staffLoad(segments, settings);
      expect(staff.employees.map((e) => e.status)).toEqual(['overloaded', 'balanced', 'underloaded', 'balanced']);
      expect([staff.overloadedPercent, staff.balancedPercent, staff.underloadedPercent]).toEqual([25, 50, 25]);
      const over = engine.dayBalance([segments[0], segments[4]], settings).load;
      expect(over).toMatchObject({ overload: true, overworking: 20, overworkingPer: 10 });
      expect(over.text).toBe('220-минутный день, переработка 20 минут');
    });
  });
});
