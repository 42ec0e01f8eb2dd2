/** METHODOLOGY §7 «Norms»: the worked example pinned by hand, and the identities as properties. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffFigures, fulfilmentPercent, lineBalance, moveOperation, normFigures, taktOf, type LineStation, type NormInput } from './index.ts';

const example: NormInput = {
  operations: [
    { tRegMinutes: 8.83, timesPerUnit: 1 },
    { tRegMinutes: 1.5, timesPerUnit: 1 },
  ],
  balance: { shiftMinutes: 480, pzMinutes: 14.4, serviceMinutes: 16.8, moveMinutes: 4.8, regulatedBreakMinutes: 28.8 },
};

describe('norm card figures (METHODOLOGY §7 worked example)', () => {
  const f = normFigures(example);

  it('Топ = 8.83 + 1.50 = 10.33', () => expect(f.operative).toBeCloseTo(10.33, 10));

  it('normative shift: Тобс.н = 21.6, Топ.н = 415.2', () => {
    expect(f.pz).toBeCloseTo(14.4, 10);
    expect(f.service).toBeCloseTo(21.6, 10);
    expect(f.rest).toBeCloseTo(28.8, 10);
    expect(f.operativeShift).toBeCloseTo(415.2, 10);
  });

  it('allowances 3.468 %, 5.202 %, 6.936 % of Топ.н', () => {
    expect(f.allowanceSource).toBe('actual');
    expect(f.allowances.pz).toBeCloseTo(3.468, 3);
    expect(f.allowances.service).toBeCloseTo(5.202, 3);
    expect(f.allowances.rest).toBeCloseTo(6.936, 3);
  });

  it('Тшт = 10.33 × 1.12139 = 11.5839', () => expect(f.piece).toBeCloseTo(11.5839, 4));

  it('Нвыр = 415.2 / 10.33 = 40.194, the card shows 40', () => {
    expect(f.output).toBeCloseTo(40.194, 3);
    expect(f.outputWhole).toBe(40);
  });

  it('Нвр = 11.5839 + 14.4 / 40.194 = 11.9422, and Нвр × Нвыр = 480', () => {
    expect(f.timePerUnit).toBeCloseTo(11.9422, 4);
    expect(f.normTime).toBeCloseTo(11.9422, 4);
    expect(f.timePerUnit! * f.output!).toBeCloseTo(480, 9);
    expect(f.pieceBatch).toBeNull();
  });

  it('a batch of 20 with 12 min of prep: Тшт-к = 11.5839 + 0.6 = 12.1839', () => {
    const b = normFigures({ ...example, batch: { size: 20, prepMinutes: 12 } });
    expect(b.pieceBatch).toBeCloseTo(12.1839, 4);
    expect(b.normTime).toBeCloseTo(12.1839, 4);
  });

  it('plan 4,000 units over 21 shifts: Нч = ⌈4.739⌉ = 5', () => {
    const p = normFigures({ ...example, plan: { units: 4000, shifts: 21, fulfilment: 1 } });
    expect(p.headcountExact).toBeCloseTo(4.739, 3);
    expect(p.headcount).toBe(5);
    expect(f.headcount).toBeNull();
  });

  it('normative allowances replace the actual ones and split the shift by them', () => {
    const n = normFigures({ ...example, normativeAllowances: { pz: 4, service: 5, rest: 6 } });
    expect(n.allowanceSource).toBe('normative');
    expect(n.operativeShift).toBeCloseTo(480 / 1.15, 9);
    expect(n.pz).toBeCloseTo((480 / 1.15) * 0.04, 9);
    expect(n.piece).toBeCloseTo(10.33 * 1.11, 9);
    expect(n.actualAllowances.pz).toBeCloseTo(3.468, 3);
  });

  it('without operations there is no output and no norm of time', () => {
    const e = normFigures({ ...example, operations: [] });
    expect(e.operative).toBe(0);
    expect(e.output).toBeNull();
    expect(e.normTime).toBeNull();
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
  it('Нвр × Нвыр = Тсм without a batch, for actual and normative allowances', () => {
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
          const f = normFigures({
            operations,
            balance: { shiftMinutes: shift, pzMinutes: pz, serviceMinutes: service, moveMinutes: 0, regulatedBreakMinutes: rest },
            normativeAllowances,
          });
          expect(f.timePerUnit! * f.output!).toBeCloseTo(shift, 6);
          expect(f.pz + f.service + f.rest + f.operativeShift).toBeCloseTo(shift, 6);
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

  it('line balance: station sums add up to Σt, moving an operation keeps Σt, 0 < efficiency ≤ 1', () => {
    const station = (id: number) =>
      fc
        .array(fc.record({ id: fc.integer({ min: 1, max: 1_000_000 }), category: fc.constantFrom('main', 'aux', 'loss'), minutes }), { maxLength: 6 })
        .map((ops) => ({ id, name: `Р${id}`, operations: ops.map((o, k) => ({ ...o, id: id * 100 + k, name: `оп ${o.id}` })) }) as LineStation);
    fc.assert(
      fc.property(fc.tuple(station(1), station(2), station(3)), fc.nat(), fc.integer({ min: 1, max: 3 }), (stations, pick, to) => {
        const all = stations.flatMap((s) => s.operations);
        const before = lineBalance(stations, 5);
        expect(before.totalMinutes).toBeCloseTo(
          all.reduce((a, o) => a + o.minutes, 0),
          9,
        );
        expect(before.stations.reduce((a, s) => a + s.byCategory.main + s.byCategory.aux + s.byCategory.loss, 0)).toBeCloseTo(before.totalMinutes, 9);
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
  const stations: LineStation[] = [
    {
      id: 1,
      name: 'Р1',
      operations: [
        { id: 11, name: 'a', category: 'main', minutes: 4 },
        { id: 12, name: 'b', category: 'aux', minutes: 1 },
      ],
    },
    { id: 2, name: 'Р2', operations: [{ id: 21, name: 'c', category: 'main', minutes: 3 }] },
    { id: 3, name: 'Р3', operations: [{ id: 31, name: 'd', category: 'loss', minutes: 2 }] },
  ];

  it('Σt 10, C 5, efficiency 10 / (3 · 5) = 66.7 %, delay 33.3 %, takt 480 / 96 = 5 → 2 stations', () => {
    const b = lineBalance(stations, taktOf(480, 96));
    expect(b.totalMinutes).toBe(10);
    expect(b.cycleMinutes).toBe(5);
    expect(b.efficiency).toBeCloseTo(2 / 3, 12);
    expect(b.balanceDelay).toBeCloseTo(1 / 3, 12);
    expect(b.minimumStations).toBe(2);
    expect(b.stations[0]!.byCategory).toEqual({ main: 4, aux: 1, loss: 0 });
  });

  it('moving «b» to Р3 makes the cycle 4 and efficiency 10 / 12', () => {
    const b = lineBalance(moveOperation(stations, 12, 3), null);
    expect(b.cycleMinutes).toBe(4);
    expect(b.efficiency).toBeCloseTo(10 / 12, 12);
    expect(b.minimumStations).toBeNull();
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
