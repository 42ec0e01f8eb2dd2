import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import type { OperationTypeCode } from '../db/schema';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertStructure } from '../../test-support/video-fixtures';

/**
 * Each bench's own Нвыр (METHODOLOGY §7 «Line balance», docs/norms.md «Баланс линии») over the real
 * app (SQLite, and PostgreSQL with NORMA_TEST_DATABASE=postgres): benches that each make the whole
 * unit at their own pace get their own Топ from the measurements done at them and Нвыр = Топ.н / Топ
 * of the bench; an operation never measured at a bench takes the card's t_norm and is named; a loss
 * is never a line operation.
 */
let t: TestApp;
let analyst: string;
let cardId: number;
const workplaces = {} as Record<'Р1' | 'Р2' | 'Р3', number>;
const ops = {} as Record<string, number>;
const employees = {} as Record<'a' | 'b', number>;

/** Minutes per cycle: a assembles and solders at Р1, quickly; b assembles at Р2, slowly, and solders at Р3. All within Ку ≤ 1.2 (no cleaning). */
const A_ASSEMBLY = [6, 7, 6, 7, 6, 7, 6, 7];
const A_SOLDERING = 3;
const B_ASSEMBLY = [9, 10, 9, 10, 9, 10, 9, 10];
const B_SOLDERING = 3.5;

const at = (local: string) => Date.parse(`${local}+03:00`);
const iso = (local: string) => new Date(at(local)).toISOString();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const send = async (path: string, cookie: string, method = 'GET', body?: unknown) => {
  const response = await t.request(path, { method, cookie, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: await response.json() };
};

interface Bench {
  workplace_id: number;
  top_minutes: number | null;
  output_exact: number | null;
  output: number | null;
  measured_operations: number;
  borrowed_operation_ids: number[];
}
interface Card {
  card: {
    figures: { key: string; value: number | null }[];
    operations: { operation_id: number; t_reg_minutes: number | null; t_norm_minutes: number | null; accepted: number; dropped: number }[];
    line: { operations: { operation_id: number; category: string; minutes: number }[]; benches: Bench[] };
  };
}
const figure = (card: Card, key: string) => card.card.figures.find((f) => f.key === key)!.value!;
const bench = (card: Card, name: keyof typeof workplaces) => card.card.line.benches.find((b) => b.workplace_id === workplaces[name])!;
const tNorm = (card: Card, name: string) => card.card.operations.find((o) => o.operation_id === ops[name])!.t_norm_minutes!;

/** One observed shift-day of each employee, 2 March, with a wait (a loss) at the end. */
async function seed(organizationId: number) {
  const { db } = t.deps;
  const structureId = await insertStructure(db, organizationId, 'Сборка на столах', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
  for (const name of ['Р1', 'Р2', 'Р3'] as const)
    workplaces[name] = (await db.insertInto('workplaces').values({ structure_id: structureId, name }).returning('id').executeTakeFirstOrThrow()).id;
  const kinds: [string, OperationTypeCode][] = [
    ['Сборка', 'main'],
    ['Пайка', 'main'],
    ['Ожидание', 'idle'],
  ];
  for (const [name, type] of kinds)
    ops[name] = (
      await db.insertInto('operations').values({ structure_id: structureId, name, type, machine_paced: 0 }).returning('id').executeTakeFirstOrThrow()
    ).id;
  for (const who of ['a', 'b'] as const)
    employees[who] = (
      await db
        .insertInto('employees')
        .values({ structure_id: structureId, name: who === 'a' ? 'Иванов' : 'Петров' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const day = (who: 'a' | 'b') => {
    let clock = at('2026-03-02T08:05:00');
    return async (operation: string, workplace: keyof typeof workplaces, minutes: number) => {
      await db
        .insertInto('markups')
        .values({
          structure_id: structureId,
          operation_id: ops[operation]!,
          workplace_id: workplaces[workplace],
          employee_id: employees[who],
          start_time: clock,
          end_time: clock + minutes * 60_000,
          comment: null,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      clock += minutes * 60_000;
    };
  };
  const a = day('a');
  for (const m of A_ASSEMBLY) {
    await a('Сборка', 'Р1', m);
    await a('Пайка', 'Р1', A_SOLDERING);
  }
  await a('Ожидание', 'Р1', 10);
  const b = day('b');
  for (const m of B_ASSEMBLY) {
    await b('Сборка', 'Р2', m);
    await b('Пайка', 'Р3', B_SOLDERING);
  }
  await b('Ожидание', 'Р2', 10);
  return structureId;
}

beforeAll(async () => {
  t = await createTestApp();
  const boss = await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'Ирина', lastName: 'Главная' });
  await registerUser(
    t.deps,
    { login: 'counter', password: 'secret-pass', firstName: 'А', lastName: 'Аналитик' },
    { organizationId: boss.organizationId, role: 'analyst' },
  );
  const structureId = await seed(boss.organizationId);
  analyst = await t.signIn('counter', 'secret-pass');
  const windows = (['a', 'b'] as const).map((who) => ({
    employee_id: employees[who],
    from_time: iso('2026-03-02T08:00:00'),
    to_time: iso('2026-03-02T12:00:00'),
  }));
  const created = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows });
  expect(created.status).toBe(201);
  cardId = created.body.id;
});

afterAll(async () => {
  await t?.cleanup();
});

describe('each bench’s own Нвыр', () => {
  it('two benches of different pace get their own Топ and Нвыр = Топ.н / Топ of the bench; an operation not measured at a bench is the card’s and named', async () => {
    const card = (await send(`/api/v1/norms/${cardId}`, analyst)).body as Card;
    // The card pools both benches: every measurement accepted, t_reg the plain mean.
    for (const o of card.card.operations) expect(o.dropped).toBe(0);
    expect(tNorm(card, 'Сборка')).toBeCloseTo(mean([...A_ASSEMBLY, ...B_ASSEMBLY]), 9);
    expect(tNorm(card, 'Пайка')).toBeCloseTo((A_SOLDERING + B_SOLDERING) / 2, 9);
    const operativeShift = figure(card, 'operative_shift');
    expect(operativeShift).toBeGreaterThan(0);

    // By hand, from the same t_regs: Р1 measured both; Р2 only the assembly, Р3 only the soldering.
    const top = {
      Р1: mean(A_ASSEMBLY) + A_SOLDERING,
      Р2: mean(B_ASSEMBLY) + tNorm(card, 'Пайка'),
      Р3: tNorm(card, 'Сборка') + B_SOLDERING,
    };
    for (const name of ['Р1', 'Р2', 'Р3'] as const) {
      const b = bench(card, name);
      expect(b.top_minutes).toBeCloseTo(top[name], 9);
      expect(b.output_exact).toBeCloseTo(operativeShift / top[name], 9);
      expect(b.output).toBe(Math.floor(b.output_exact! + 1e-9));
    }
    expect(bench(card, 'Р1')).toMatchObject({ measured_operations: 2, borrowed_operation_ids: [] });
    expect(bench(card, 'Р2')).toMatchObject({ measured_operations: 1, borrowed_operation_ids: [ops['Пайка']] });
    expect(bench(card, 'Р3')).toMatchObject({ measured_operations: 1, borrowed_operation_ids: [ops['Сборка']] });
    // Different pace, different Нвыр: the quick bench makes more than the card, the slow one less.
    const output = figure(card, 'output');
    expect(bench(card, 'Р1').output_exact!).toBeGreaterThan(output);
    expect(bench(card, 'Р2').output_exact!).toBeLessThan(output);
    expect(bench(card, 'Р1').output).not.toBe(bench(card, 'Р2').output);

    // Losses never occupy a station: the line's operations are the unit's work only, adding up to Топ.
    const line = card.card.line.operations;
    expect(line.map((o) => o.operation_id).sort((x, y) => x - y)).toEqual([ops['Сборка'], ops['Пайка']].sort((x, y) => x! - y!));
    expect(line.some((o) => o.category === 'loss' || o.operation_id === ops['Ожидание'])).toBe(false);
    expect(line.reduce((a, o) => a + o.minutes, 0)).toBeCloseTo(figure(card, 'operative'), 9);
  });

  it('a bench’s t_norm uses the card’s ratings: Иванов at 110 % makes Р1’s Топ 1.1 times its t_regs', async () => {
    const r = await send(`/api/v1/norms/${cardId}`, analyst, 'PUT', { params: { employee_ratings: [{ employee_id: employees.a, rating_percent: 110 }] } });
    expect(r.status).toBe(200);
    const card = r.body as Card;
    const p1 = bench(card, 'Р1');
    expect(p1.top_minutes).toBeCloseTo(1.1 * (mean(A_ASSEMBLY) + A_SOLDERING), 9);
    expect(p1.output_exact).toBeCloseTo(figure(card, 'operative_shift') / (1.1 * (mean(A_ASSEMBLY) + A_SOLDERING)), 9);
    // Р2's soldering is borrowed: the card's t_norm, now rated too.
    expect(bench(card, 'Р2').top_minutes).toBeCloseTo(mean(B_ASSEMBLY) + tNorm(card, 'Пайка'), 9);
    expect(tNorm(card, 'Пайка')).toBeCloseTo((1.1 * A_SOLDERING + B_SOLDERING) / 2, 9);
  });
});
