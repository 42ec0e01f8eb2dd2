import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import type { OperationTypeCode } from '../db/schema';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertStructure } from '../../test-support/video-fixtures';

/**
 * Line-balance scenarios over the real app (SQLite, and PostgreSQL with NORMA_TEST_DATABASE=postgres):
 * the analyst's line — stations in the order he sets, operations of the unit on them — is kept as
 * saved; a loss never occupies a station; bad input is a 4xx with a Russian message and changes nothing.
 */
let t: TestApp;
let analyst: string;
let viewer: string;
let rival: string;
let cardId: number;
const workplaces = {} as Record<'Р1' | 'Р2' | 'Р3', number>;
const ops = {} as Record<string, number>;

const at = (local: string) => Date.parse(`${local}+03:00`);

const send = async (path: string, cookie: string | null, method = 'GET', body?: unknown) => {
  const response = await t.request(path, { method, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: await response.json() };
};

/** One observed shift-day on three benches: assembly on Р1, soldering on Р2, carrying on Р3, a wait on Р1. */
async function seed(organizationId: number) {
  const { db } = t.deps;
  const structureId = await insertStructure(db, organizationId, 'Линия сборки', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
  for (const name of ['Р1', 'Р2', 'Р3'] as const)
    workplaces[name] = (await db.insertInto('workplaces').values({ structure_id: structureId, name }).returning('id').executeTakeFirstOrThrow()).id;
  const kinds: [string, OperationTypeCode][] = [
    ['Сборка', 'main'],
    ['Пайка', 'main'],
    ['Подноска', 'aux'],
    ['Ожидание', 'idle'],
  ];
  for (const [name, type] of kinds)
    ops[name] = (
      await db.insertInto('operations').values({ structure_id: structureId, name, type, machine_paced: 0 }).returning('id').executeTakeFirstOrThrow()
    ).id;
  const employee = (await db.insertInto('employees').values({ structure_id: structureId, name: 'Иванов' }).returning('id').executeTakeFirstOrThrow()).id;
  let clock = at('2026-03-02T08:00:00');
  const mark = async (operation: string, workplace: keyof typeof workplaces, minutes: number) => {
    await db
      .insertInto('markups')
      .values({
        structure_id: structureId,
        operation_id: ops[operation]!,
        workplace_id: workplaces[workplace],
        employee_id: employee,
        start_time: clock,
        end_time: clock + minutes * 60_000,
        comment: null,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    clock += minutes * 60_000;
  };
  for (let k = 0; k < 8; k++) {
    await mark('Сборка', 'Р1', 5 + (k % 2));
    await mark('Пайка', 'Р2', 3);
    await mark('Подноска', 'Р3', 1);
  }
  await mark('Ожидание', 'Р1', 10);
  return { structureId, employee };
}

const path = () => `/api/v1/norms/${cardId}/line_scenarios`;
const line = (stations: number[], assignment: [number, number][], name = 'Линия 1', demand = 40) => ({
  name,
  demand,
  stations,
  assignment: assignment.map(([operation_id, workplace_id]) => ({ operation_id, workplace_id })),
});

beforeAll(async () => {
  t = await createTestApp();
  const boss = await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'Ирина', lastName: 'Главная' });
  await registerUser(
    t.deps,
    { login: 'counter', password: 'secret-pass', firstName: 'А', lastName: 'Аналитик' },
    { organizationId: boss.organizationId, role: 'analyst' },
  );
  await registerUser(
    t.deps,
    { login: 'reader', password: 'secret-pass', firstName: 'Н', lastName: 'Н' },
    { organizationId: boss.organizationId, role: 'viewer' },
  );
  await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });
  const { structureId, employee } = await seed(boss.organizationId);
  analyst = await t.signIn('counter', 'secret-pass');
  viewer = await t.signIn('reader', 'secret-pass');
  rival = await t.signIn('rival', 'secret-pass');
  const windows = [
    { employee_id: employee, from_time: new Date(at('2026-03-02T08:00:00')).toISOString(), to_time: new Date(at('2026-03-02T12:00:00')).toISOString() },
  ];
  const created = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows });
  expect(created.status).toBe(201);
  cardId = created.body.id;
  expect(created.body.card.line.workplaces.map((w: { id: number }) => w.id)).toEqual([workplaces.Р1, workplaces.Р2, workplaces.Р3]);
});

afterAll(async () => {
  await t?.cleanup();
});

describe('line-balance scenarios', () => {
  it('keeps the stations in the analyst’s order and the operations on them', async () => {
    const body = line(
      [workplaces.Р3, workplaces.Р1],
      [
        [ops['Сборка']!, workplaces.Р3],
        [ops['Пайка']!, workplaces.Р1],
      ],
    );
    const saved = await send(path(), analyst, 'POST', body);
    expect(saved.status).toBe(201);
    const read = await send(path(), viewer);
    expect(read.status).toBe(200);
    expect(read.body.scenarios).toHaveLength(1);
    expect(read.body.scenarios[0]).toMatchObject({ name: 'Линия 1', demand: 40, stations: [workplaces.Р3, workplaces.Р1], assignment: body.assignment });
  });

  it('bad input is a 4xx with a Russian message and saves nothing', async () => {
    const before = (await send(path(), analyst)).body;
    const a = ops['Сборка']!;
    const cases: [unknown, number, RegExp][] = [
      [line([workplaces.Р1, workplaces.Р1], [[a, workplaces.Р1]]), 400, /дважды/],
      [line([999_999], []), 400, /рабочего места 999999 нет/],
      [line([workplaces.Р1], [[ops['Ожидание']!, workplaces.Р1]]), 400, /нет среди операций единицы/],
      [line([workplaces.Р1], [[a, workplaces.Р2]]), 400, /нет среди станций линии/],
      [
        line(
          [workplaces.Р1, workplaces.Р2],
          [
            [a, workplaces.Р1],
            [a, workplaces.Р2],
          ],
        ),
        400,
        /назначена дважды/,
      ],
      [line([workplaces.Р1], [[ops['Подноска']!, workplaces.Р1]]), 400, /нет среди операций единицы/],
      [line([], []), 400, /./],
      [
        line(
          Array.from({ length: 201 }, (_, k) => k + 1),
          [],
        ),
        400,
        /./,
      ],
      [line([workplaces.Р1], [], 'x'.repeat(201)), 400, /./],
      [line([workplaces.Р1], [], 'Линия', 0), 400, /./],
      [{ ...line([workplaces.Р1], []), extra: 1 }, 400, /./],
      [{ ...line([workplaces.Р1], []), assignment: [{ operation_id: a, workplace_id: workplaces.Р1, minutes: 1 }] }, 400, /./],
    ];
    for (const [body, status, message] of cases) {
      const reply = await send(path(), analyst, 'POST', body);
      expect(reply.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(reply.body.error.message).toMatch(message);
      expect(reply.body.error.message).toMatch(/[а-яё]/i);
    }
    expect((await send(path(), viewer, 'POST', line([workplaces.Р1], []))).status).toBe(403);
    expect((await send(path(), rival, 'POST', line([workplaces.Р1], []))).status).toBe(404);
    expect((await send(path(), null, 'POST', line([workplaces.Р1], []))).status).toBe(401);
    expect((await send(path(), rival)).status).toBe(404);
    expect((await send(path(), analyst)).body).toEqual(before);
  });

  it('a scenario saved before stations were kept reads with its workplaces in the card’s order', async () => {
    await t.deps.db
      .insertInto('norm_line_scenarios')
      .values({
        card_id: cardId,
        name: 'Прежний',
        demand: 10,
        assignment: JSON.stringify([
          { operation_id: ops['Пайка']!, workplace_id: workplaces.Р2 },
          { operation_id: ops['Сборка']!, workplace_id: workplaces.Р1 },
        ]),
        created_at: Date.now(),
        created_by: null,
      })
      .execute();
    const read = await send(path(), analyst);
    expect(read.body.scenarios.at(-1)).toMatchObject({ name: 'Прежний', stations: [workplaces.Р1, workplaces.Р2] });
  });
});
