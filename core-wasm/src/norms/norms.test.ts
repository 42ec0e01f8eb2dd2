/** METHODOLOGY §7 «Norms»: the worked example pinned by hand, and the identities as properties. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  diffFigures,
  fulfilmentPercent,
  lineBalance,
  moveOperation,
  nominalShiftMinutes,
  normFigures,
  taktOf,
  unstableSeries,
  type LineStation,
  type NormInput,
} from './index.ts';

/**
 * The worked example of METHODOLOGY §7, every number copied from its text: t_reg 8.83 (main) + 1.50
 * (aux once per unit); a fully observed 480-minute shift with pz 14.4, service 16.8, move 4.8,
 * regulated rest 28.8, so its normative balance holds 415.2 minutes of main and aux work.
 */
const example: NormInput = {
  operations: [
    { tRegMinutes: 8.83, timesPerUnit: 1 },
    { tRegMinutes: 1.5, timesPerUnit: 1 },
  ],
  shiftMinutes: 480,
  balance: { mainMinutes: 415.2 - 1.5 * 40, auxMinutes: 1.5 * 40, pzMinutes: 14.4, serviceMinutes: 16.8, moveMinutes: 4.8, regulatedRestMinutes: 28.8 },
};

/** Every category of the observed balance scaled by k (a shift observed only in part). */
const scaled = (input: NormInput, k: number): NormInput => ({
  ...input,
  balance: Object.fromEntries(Object.entries(input.balance).map(([key, v]) => [key, v * k])) as unknown as NormInput['balance'],
});

describe('norm card figures (METHODOLOGY §7 worked example)', () => {
  const f = normFigures(example);

  it('Топ = 8.83 + 1.50 = 10.33; Топ_набл = 415.2', () => {
    expect(f.operative).toBeCloseTo(10.33, 10);
    expect(f.observedOperative).toBeCloseTo(415.2, 10);
  });

  it('allowances 3.468 %, 5.202 %, 6.936 % of Топ_набл', () => {
    expect(f.allowanceSource).toBe('actual');
    expect(f.allowances.pz).toBeCloseTo(3.468, 3);
    expect(f.allowances.service).toBeCloseTo(5.202, 3);
    expect(f.allowances.rest).toBeCloseTo(6.936, 3);
  });

  it('Тшт = 10.33 × 1.12139 = 11.5839', () => expect(f.piece).toBeCloseTo(11.5839, 4));

  it('Топ.н = 480 / 1.15607 = 415.2, with Тпз.н 14.4, Тобс.н 21.6, Тотл.н 28.8', () => {
    expect(f.shiftMinutes).toBe(480);
    expect(f.operativeShift).toBeCloseTo(415.2, 9);
    expect(f.pz).toBeCloseTo(14.4, 9);
    expect(f.service).toBeCloseTo(21.6, 9);
    expect(f.rest).toBeCloseTo(28.8, 9);
  });

  it('Нвыр = 415.2 / 10.33 = 40.194, the card shows 40', () => {
    expect(f.output).toBeCloseTo(40.194, 3);
    expect(f.outputWhole).toBe(40);
  });

  it('Нвр = 480 / 40.194 = 11.9422 = Тшт + Тпз.н / Нвыр, and Нвр × Нвыр = 480', () => {
    expect(f.timePerUnit).toBeCloseTo(11.9422, 4);
    expect(f.normTime).toBeCloseTo(11.9422, 4);
    expect(f.normTime).toBeCloseTo(f.piece! + f.pz / f.output!, 9);
    expect(f.normTime! * f.output!).toBeCloseTo(480, 9);
    expect(f.pieceBatch).toBeNull();
  });

  it('a batch of 20 with 12 min of prep: Тшт-к = 11.5839 + 0.6 = 12.1839, Нвыр = 480 / 12.1839 = 39.396 (card 39), Нвр × Нвыр = 480', () => {
    const b = normFigures({ ...example, batch: { size: 20, prepMinutes: 12 } });
    expect(b.pieceBatch).toBeCloseTo(12.1839, 4);
    expect(b.normTime).toBeCloseTo(12.1839, 4);
    expect(b.output).toBeCloseTo(39.396, 3);
    expect(b.outputWhole).toBe(39);
    expect(b.normTime! * b.output!).toBeCloseTo(480, 9);
  });

  it('plan 4,000 units over 21 shifts: Нч = ⌈4.739⌉ = 5', () => {
    const p = normFigures({ ...example, plan: { units: 4000, shifts: 21, fulfilment: 1 } });
    expect(p.headcountExact).toBeCloseTo(4.739, 3);
    expect(p.headcount).toBe(5);
    expect(f.headcount).toBeNull();
  });

  it('the same shift observed only from 08:00 to 12:00 (every category halved): the same allowances and Нвыр 40.194', () => {
    const half = normFigures(scaled(example, 0.5));
    expect(half.allowances.pz).toBeCloseTo(3.468, 3);
    expect(half.allowances.service).toBeCloseTo(5.202, 3);
    expect(half.allowances.rest).toBeCloseTo(6.936, 3);
    expect(half.output).toBeCloseTo(40.194, 3);
    expect(half.output).toBeCloseTo(f.output!, 9);
    expect(half.shiftMinutes).toBe(480);
  });

  it('a rating of 110 %: Топ = 11.363, Нвыр = 36.540', () => {
    const r = normFigures({ ...example, operations: example.operations.map((o) => ({ ...o, ratingPercent: 110 })) });
    expect(r.operative).toBeCloseTo(11.363, 3);
    expect(r.output).toBeCloseTo(36.54, 3);
    expect(r.normTime! * r.output!).toBeCloseTo(480, 9);
  });

  it('Тсм of a 9-hour shift 08:00–17:00 with «обед, мин» 60 is 480; a night shift 22:00–06:00 is 480 too', () => {
    expect(nominalShiftMinutes('08:00:00', '17:00:00', 60)).toBe(480);
    expect(nominalShiftMinutes('22:00:00', '06:00:00', 0)).toBe(480);
    expect(nominalShiftMinutes('08:00:00', '08:00:00', 0)).toBe(1440);
  });

  it('normative allowances replace the observed ones and split the shift by them', () => {
    const n = normFigures({ ...example, normativeAllowances: { pz: 4, service: 5, rest: 6 } });
    expect(n.allowanceSource).toBe('normative');
    expect(n.operativeShift).toBeCloseTo(480 / 1.15, 9);
    expect(n.pz).toBeCloseTo((480 / 1.15) * 0.04, 9);
    expect(n.piece).toBeCloseTo(10.33 * 1.11, 9);
    expect(n.actualAllowances.pz).toBeCloseTo(3.468, 3);
  });

  it('an operation of the unit without a time: nothing is calculated, not Топ without it', () => {
    const e = normFigures({ ...example, operations: [...example.operations, { tRegMinutes: null, timesPerUnit: 1 }] });
    expect(e.operative).toBeNull();
    expect(e.piece).toBeNull();
    expect(e.output).toBeNull();
    expect(e.normTime).toBeNull();
    // An operation outside the unit (0 times) does not need a time.
    expect(normFigures({ ...example, operations: [...example.operations, { tRegMinutes: null, timesPerUnit: 0 }] }).output).toBeCloseTo(40.194, 3);
  });

  it('without operations there is no output and no norm of time', () => {
    const e = normFigures({ ...example, operations: [] });
    expect(e.operative).toBe(0);
    expect(e.output).toBeNull();
    expect(e.normTime).toBeNull();
  });
});

describe('unstable series (METHODOLOGY §7)', () => {
  it('more than 15 % dropped, or more than 2 of a series shorter than 15', () => {
    expect(unstableSeries(67, 39)).toBe(true);
    expect(unstableSeries(20, 17)).toBe(false);
    expect(unstableSeries(20, 16)).toBe(true);
    expect(unstableSeries(10, 8)).toBe(false);
    expect(unstableSeries(10, 7)).toBe(true);
    expect(unstableSeries(14, 12)).toBe(false);
  });
});

describe('norm fulfilment', () => {
  it('Нвр × units / (T_shift − idle) × 100', () => {
    // 11.9422 × 38 / (480 − 30) × 100 = 100.845…
    expect(fulfilmentPercent(11.9422, 38, 480, 30)).toBeCloseTo((11.9422 * 38 * 100) / 450, 9);
    expect(fulfilmentPercent(11.9422, 38, 30, 30)).toBeNull();
  });
});

const minutes = fc.double({ min: 0.01, max: 100, noNaN: true });

describe('properties', () => {
  it('Нвр × Нвыр = Тсм with and without a batch, for actual and normative allowances', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ tRegMinutes: minutes, timesPerUnit: fc.integer({ min: 1, max: 5 }) }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 240, max: 720, noNaN: true }),
        fc.tuple(fc.double({ min: 0, max: 30, noNaN: true }), fc.double({ min: 0, max: 30, noNaN: true }), fc.double({ min: 0, max: 60, noNaN: true })),
        fc.option(
          fc.record({
            pz: fc.double({ min: 0, max: 20, noNaN: true }),
            service: fc.double({ min: 0, max: 20, noNaN: true }),
            rest: fc.double({ min: 0, max: 20, noNaN: true }),
          }),
        ),
        (operations, shift, [pz, service, rest], normativeAllowances) => {
          for (const batch of [null, { size: 7, prepMinutes: 15 }]) {
            const f = normFigures({
              operations,
              shiftMinutes: shift,
              balance: { mainMinutes: 300, auxMinutes: 20, pzMinutes: pz, serviceMinutes: service, moveMinutes: 0, regulatedRestMinutes: rest },
              normativeAllowances,
              batch,
            });
            expect(f.normTime! * f.output!).toBeCloseTo(shift, 6);
            expect(f.pz + f.service + f.rest + f.operativeShift).toBeCloseTo(shift, 6);
          }
        },
      ),
    );
  });

  it('Нч covers the plan: Нч people at K_вн make at least the plan, one less do not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 31 }), minutes, (units, shifts, tReg) => {
        const f = normFigures({ ...example, operations: [{ tRegMinutes: tReg, timesPerUnit: 1 }], plan: { units, shifts, fulfilment: 1 } });
        const capacity = (people: number) => (people * shifts * 480) / f.normTime!;
        expect(capacity(f.headcount!)).toBeGreaterThanOrEqual(units * (1 - 1e-9));
        if (f.headcount! > 1) expect(capacity(f.headcount! - 1)).toBeLessThan(units);
      }),
    );
  });

  it('line balance: station sums add up to Σt of the work, losses never count, moving an operation keeps Σt, 0 < efficiency ≤ 1', () => {
    const station = (id: number) =>
      fc
        .array(fc.record({ id: fc.integer({ min: 1, max: 1_000_000 }), category: fc.constantFrom('main', 'aux', 'loss'), minutes }), { maxLength: 6 })
        .map((ops) => ({ id, name: `Р${id}`, operations: ops.map((o, k) => ({ ...o, id: id * 100 + k, name: `оп ${o.id}` })) }) as LineStation);
    fc.assert(
      fc.property(fc.tuple(station(1), station(2), station(3)), fc.nat(), fc.integer({ min: 1, max: 3 }), (stations, pick, to) => {
        const all = stations.flatMap((s) => s.operations);
        const before = lineBalance(stations, 5);
        expect(before.totalMinutes).toBeCloseTo(
          all.filter((o) => o.category !== 'loss').reduce((a, o) => a + o.minutes, 0),
          9,
        );
        expect(before.stations.reduce((a, s) => a + s.byCategory.main + s.byCategory.aux, 0)).toBeCloseTo(before.totalMinutes, 9);
        const withoutLosses = lineBalance(
          stations.map((s) => ({ ...s, operations: s.operations.filter((o) => o.category !== 'loss') })),
          5,
        );
        expect(withoutLosses).toEqual(before);
        if (before.efficiency !== null) {
          expect(before.efficiency).toBeGreaterThan(0);
          expect(before.efficiency).toBeLessThanOrEqual(1 + 1e-12);
        }
        if (all.length === 0) return;
        const moved = moveOperation(stations, all[pick % all.length]!.id, to);
        const after = lineBalance(moved, 5);
        expect(after.totalMinutes).toBeCloseTo(before.totalMinutes, 9);
        expect(moved.find((s) => s.id === to)!.operations.at(-1)!.id).toBe(all[pick % all.length]!.id);
      }),
    );
  });
});

describe('line balance by hand', () => {
  // A line of three stations in the analyst's order (Р3 first); Р1 also holds 2 min of idle, which is
  // a loss: not work content, so it neither adds to Σt nor makes Р1 the slowest station.
  const stations: LineStation[] = [
    { id: 3, name: 'Р3', operations: [{ id: 31, name: 'a', category: 'main', minutes: 4 }] },
    {
      id: 1,
      name: 'Р1',
      operations: [
        { id: 11, name: 'b', category: 'aux', minutes: 1 },
        { id: 12, name: 'c', category: 'main', minutes: 3 },
        { id: 13, name: 'простой', category: 'loss', minutes: 2 },
      ],
    },
    { id: 2, name: 'Р2', operations: [{ id: 21, name: 'd', category: 'main', minutes: 2.5 }] },
  ];

  it('Σt 4 + 4 + 2,5 = 10,5, C 4, efficiency 10,5 / (3 · 4) = 87,5 %, delay 12,5 %, takt 420 / 100 = 4,2 → ⌈2,5⌉ = 3 stations', () => {
    const b = lineBalance(stations, taktOf(420, 100));
    expect(b.stations.map((s) => [s.name, s.minutes])).toEqual([
      ['Р3', 4],
      ['Р1', 4],
      ['Р2', 2.5],
    ]);
    expect(b.stations[1]!.byCategory).toEqual({ main: 3, aux: 1 });
    expect(b.totalMinutes).toBe(10.5);
    expect(b.cycleMinutes).toBe(4);
    expect(b.taktMinutes).toBeCloseTo(4.2, 12);
    expect(b.efficiency).toBeCloseTo(0.875, 12);
    expect(b.balanceDelay).toBeCloseTo(0.125, 12);
    expect(b.minimumStations).toBe(3);
  });

  it('idle alone does not occupy a station: a station holding only a loss has Σt 0', () => {
    const b = lineBalance([{ id: 9, name: 'Р9', operations: [{ id: 91, name: 'простой', category: 'loss', minutes: 5 }] }], 1);
    expect(b.totalMinutes).toBe(0);
    expect(b.cycleMinutes).toBe(0);
    expect(b.efficiency).toBeNull();
    expect(b.minimumStations).toBe(0);
  });

  it('moving «b» from Р1 to Р2 makes the stations 4, 3, 3,5: C stays 4, efficiency unchanged', () => {
    const b = lineBalance(moveOperation(stations, 11, 2), null);
    expect(b.stations.map((s) => s.minutes)).toEqual([4, 3, 3.5]);
    expect(b.cycleMinutes).toBe(4);
    expect(b.efficiency).toBeCloseTo(10.5 / 12, 12);
    expect(b.minimumStations).toBeNull();
  });

  it('moving «c» from Р1 to Р2 makes Р2 the slowest (5,5): efficiency 10,5 / 16,5', () => {
    const b = lineBalance(moveOperation(stations, 12, 2), taktOf(420, 100));
    expect(b.cycleMinutes).toBe(5.5);
    expect(b.efficiency).toBeCloseTo(10.5 / 16.5, 12);
    expect(b.balanceDelay).toBeCloseTo(6 / 16.5, 12);
  });
});

describe('version differences', () => {
  it('lists every figure with before, after and the change', () => {
    const d = diffFigures({ operative: 10, output: 40, gone: 1 }, { operative: 12, output: null, added: 3 });
    expect(d).toEqual([
      { key: 'operative', before: 10, after: 12, delta: 2, deltaPercent: 20 },
      { key: 'output', before: 40, after: null, delta: null, deltaPercent: null },
      { key: 'added', before: null, after: 3, delta: null, deltaPercent: null },
      { key: 'gone', before: 1, after: null, delta: null, deltaPercent: null },
    ]);
  });
});
