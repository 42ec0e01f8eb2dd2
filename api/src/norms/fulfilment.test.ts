import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import type { OperationTypeCode } from '../db/schema';
import { loadStructureContext } from '../report/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertStructure } from '../../test-support/video-fixtures';
import { manualOutputOf, shiftDaysOf } from './fulfilment';

/**
 * Norm fulfilment per whole shift-day (METHODOLOGY §7, issue 42) over the real app (SQLite, and
 * PostgreSQL with NORMA_TEST_DATABASE=postgres): units entered by hand for one day count in any
 * window holding that day, a shift-day without output has no fulfilment, the window's total is
 * Σ Нвр × output / Σ (Тсм − idle) over the shift-days with output.
 */
let t: TestApp;
let analyst: string;
let admin: string;
let structureId: number;
let workplace: number;
const ops = {} as Record<string, number>;
const employees = {} as Record<'a' | 'b', number>;

const at = (local: string) => Date.parse(`${local}+03:00`);
const iso = (local: string) => new Date(at(local)).toISOString();

/** One hand-laid shift-day 08:00–12:00: prep, service, a move, six cycles with an aux step, rest, 10 min of idle at the end. */
async function layDay(employeeId: number, date: string) {
  let clock = at(`${date}T08:00:00`);
  const mark = async (operation: string, minutes: number) => {
    await t.deps.db
      .insertInto('markups')
      .values({
        structure_id: structureId,
        operation_id: ops[operation]!,
        workplace_id: workplace,
        employee_id: employeeId,
        start_time: clock,
        end_time: clock + minutes * 60_000,
        comment: null,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    clock += minutes * 60_000;
  };
  await mark('Получение задания', 10);
  await mark('Наладка', 10);
  await mark('Переход', 5);
  for (const m of [9, 8, 10, 9, 9, 9]) {
    await mark('Сборка', m);
    await mark('Подноска', 1);
  }
  await mark('Отдых', 10);
  clock = at(`${date}T11:50:00`);
  await mark('Ожидание', 10);
}

const send = async (path: string, cookie: string, method = 'GET', body?: unknown) => {
  const response = await t.request(path, { method, cookie, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: await response.json() };
};

type Row = {
  employee_id: number;
  date: string;
  units: number;
  output_source: string;
  fulfilment_percent: number | null;
  shift_minutes: number | null;
  idle_minutes: number;
};
type Total = {
  employee_id: number | null;
  units: number;
  days: number;
  days_counted: number;
  fulfilment_percent: number | null;
  norm_minutes: number;
  working_minutes: number;
};
const fulfilment = async (from: string, to: string, employeeId?: number) => {
  const r = await send(
    `/api/v1/norm_fulfilment?structure_id=${structureId}&from_time=${from}&to_time=${to}${employeeId ? `&employee_id=${employeeId}` : ''}`,
    analyst,
  );
  expect(r.status).toBe(200);
  return r.body as { rows: Row[]; totals: Total[]; total: Total };
};
const rowOf = (rows: Row[], employeeId: number, date: string) => rows.find((r) => r.employee_id === employeeId && r.date === date)!;

let normTime: number;
let shiftMinutes: number;

beforeAll(async () => {
  t = await createTestApp();
  const boss = await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'Ирина', lastName: 'Главная' });
  await registerUser(
    t.deps,
    { login: 'counter', password: 'secret-pass', firstName: 'А', lastName: 'Аналитик' },
    { organizationId: boss.organizationId, role: 'analyst' },
  );
  admin = await t.signIn('boss', 'secret-pass');
  analyst = await t.signIn('counter', 'secret-pass');
  const { db } = t.deps;
  structureId = await insertStructure(db, boss.organizationId, 'Сборка узла', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
  workplace = (await db.insertInto('workplaces').values({ structure_id: structureId, name: 'Стол' }).returning('id').executeTakeFirstOrThrow()).id;
  const kinds: [string, OperationTypeCode][] = [
    ['Получение задания', 'pz'],
    ['Наладка', 'service'],
    ['Переход', 'move'],
    ['Сборка', 'main'],
    ['Подноска', 'aux'],
    ['Отдых', 'rest'],
    ['Ожидание', 'idle'],
  ];
  for (const [name, type] of kinds)
    ops[name] = (
      await db.insertInto('operations').values({ structure_id: structureId, name, type, machine_paced: 0 }).returning('id').executeTakeFirstOrThrow()
    ).id;
  for (const [who, name] of [
    ['a', 'Иванов'],
    ['b', 'Петров'],
  ] as const)
    employees[who] = (await db.insertInto('employees').values({ structure_id: structureId, name }).returning('id').executeTakeFirstOrThrow()).id;
  // The basis: a on 16 and 17 November, b on 16 November; later days are measured against the norm.
  for (const [who, date] of [
    ['a', '2026-11-16'],
    ['a', '2026-11-17'],
    ['b', '2026-11-16'],
    ['a', '2026-11-18'],
    ['b', '2026-11-18'],
  ] as const)
    await layDay(employees[who], date);
  const windows = [
    { employee_id: employees.a, date: '2026-11-16' },
    { employee_id: employees.a, date: '2026-11-17' },
    { employee_id: employees.b, date: '2026-11-16' },
  ];
  const draft = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows });
  expect(draft.status).toBe(201);
  const approved = await send(`/api/v1/norms/${draft.body.id}/approve`, admin, 'POST', { effective_from: '2026-11-16', revision: draft.body.revision });
  expect(approved.status).toBe(200);
  const figure = (key: string) => approved.body.card.figures.find((f: { key: string }) => f.key === key).value as number;
  normTime = figure('norm_time');
  shiftMinutes = figure('shift');
  // 20 product stamps of a on 17 November; nothing for b on any day.
  await db
    .insertInto('video_stamps')
    .values(
      Array.from({ length: 20 }, (_, k) => ({
        structure_id: structureId,
        video_id: null,
        type: 'product',
        at: at('2026-11-17T09:00:00') + k * 60_000,
        employee_id: employees.a,
        author_id: null,
        created_at: 0,
      })),
    )
    .execute();
  // 160 units entered by hand for a on 18 November, over the day as the statement of that day asks it.
  const day = `structure_id=${structureId}&from_time=${iso('2026-11-18T00:00:00')}&to_time=${iso('2026-11-19T00:00:00')}`;
  expect((await send(`/api/v1/report/products?${day}&employee_id=${employees.a}`, analyst, 'PUT', { product_num: 160, products_description: '' })).status).toBe(
    200,
  );
});

afterAll(async () => {
  await t?.cleanup();
});

describe('norm fulfilment per shift-day (issue 42)', () => {
  it('units entered for one day give that day the same percent in the day and in a week; Тсм is the norm’s', async () => {
    expect(shiftMinutes).toBe(240);
    const expected = ((normTime * 160) / (shiftMinutes - 10)) * 100;
    const day = await fulfilment(iso('2026-11-18T00:00:00'), iso('2026-11-19T00:00:00'), employees.a);
    expect(day.rows).toHaveLength(1);
    expect(day.rows[0]).toMatchObject({ date: '2026-11-18', units: 160, output_source: 'manual', shift_minutes: 240, idle_minutes: 10 });
    expect(day.rows[0]!.fulfilment_percent).toBeCloseTo(expected, 9);
    // A window inside the shift-day (the observed hours) reads the whole shift-day.
    const part = await fulfilment(iso('2026-11-18T09:00:00'), iso('2026-11-18T11:00:00'), employees.a);
    expect(part.rows.map((r) => [r.date, r.units, r.output_source])).toEqual([['2026-11-18', 160, 'manual']]);

    const week = await fulfilment(iso('2026-11-16T00:00:00'), iso('2026-11-23T00:00:00'));
    const a18 = rowOf(week.rows, employees.a, '2026-11-18');
    expect(a18).toMatchObject({ units: 160, output_source: 'manual' });
    expect(a18.fulfilment_percent).toBeCloseTo(expected, 9);
    expect(rowOf(week.rows, employees.a, '2026-11-17')).toMatchObject({ units: 20, output_source: 'stamps' });
  });

  it('a shift-day without output has no fulfilment: null and the reason, never 0 %', async () => {
    const week = await fulfilment(iso('2026-11-16T00:00:00'), iso('2026-11-23T00:00:00'));
    for (const date of ['2026-11-16', '2026-11-18'])
      expect(rowOf(week.rows, employees.b, date)).toMatchObject({ units: 0, output_source: 'none', fulfilment_percent: null });
    expect(rowOf(week.rows, employees.a, '2026-11-16')).toMatchObject({ units: 0, output_source: 'none', fulfilment_percent: null });
    const b = week.totals.find((x) => x.employee_id === employees.b)!;
    expect(b).toMatchObject({ units: 0, days: 2, days_counted: 0, fulfilment_percent: null });
  });

  it('the window total: Σ Нвр × output / Σ (Тсм − idle) over the shift-days with output, per employee and for all', async () => {
    const week = await fulfilment(iso('2026-11-16T00:00:00'), iso('2026-11-23T00:00:00'));
    const expected = ((normTime * (160 + 20)) / (240 - 10 + (240 - 10))) * 100;
    const a = week.totals.find((x) => x.employee_id === employees.a)!;
    expect(a).toMatchObject({ units: 180, days: 3, days_counted: 2 });
    expect(a.fulfilment_percent).toBeCloseTo(expected, 9);
    expect(week.total).toMatchObject({ employee_id: null, units: 180, days: 5, days_counted: 2 });
    expect(week.total.fulfilment_percent).toBeCloseTo(expected, 9);
    // The statement's window of one employee: his rows and his total only.
    const own = await fulfilment(iso('2026-11-16T00:00:00'), iso('2026-11-23T00:00:00'), employees.a);
    expect(own.rows.every((r) => r.employee_id === employees.a)).toBe(true);
    expect(own.total.fulfilment_percent).toBeCloseTo(expected, 9);
  });

  it('a bad window is refused with a Russian message', async () => {
    const r = await send(
      `/api/v1/norm_fulfilment?structure_id=${structureId}&from_time=${iso('2026-11-18T00:00:00')}&to_time=${iso('2026-11-17T00:00:00')}`,
      analyst,
    );
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('to_time должно быть позже from_time');
  });
});

describe('whole shift-days of a window and the units entered for them', () => {
  it('a night shift 22:00–06:00 is one shift-day dated by its start; a window inside it reads it whole', async () => {
    const boss = await t.deps.db.selectFrom('structures').select('organization_id').where('id', '=', structureId).executeTakeFirstOrThrow();
    const night = await insertStructure(t.deps.db, boss.organization_id, 'Ночной участок', { settings: true, shift: ['22:00:00', '06:00:00', 20] });
    const context = await loadStructureContext(t.deps.db, night);
    const days = shiftDaysOf(context, at('2026-11-16T00:00:00'), at('2026-11-18T00:00:00'));
    expect(days.map((d) => [d.date, new Date(d.from).toISOString(), new Date(d.to).toISOString()])).toEqual([
      ['2026-11-16', iso('2026-11-16T06:00:00'), iso('2026-11-17T06:00:00')],
      ['2026-11-17', iso('2026-11-17T06:00:00'), iso('2026-11-18T06:00:00')],
    ]);
    expect(shiftDaysOf(context, at('2026-11-17T01:00:00'), at('2026-11-17T03:00:00')).map((d) => d.date)).toEqual(['2026-11-16']);
    // Hours across two shift-days: the one holding more of them.
    expect(shiftDaysOf(context, at('2026-11-17T03:00:00'), at('2026-11-17T12:00:00')).map((d) => d.date)).toEqual(['2026-11-17']);
    // A window in another time zone's midnights still holds the shift-days it mostly covers.
    expect(shiftDaysOf(context, Date.parse('2026-11-16T00:00:00Z'), Date.parse('2026-11-18T00:00:00Z')).map((d) => d.date)).toEqual([
      '2026-11-16',
      '2026-11-17',
    ]);
  });

  it('the entry for the whole shift-day wins; parts of a day add up; nothing entered is null', () => {
    const day = { from: 0, to: 100 };
    const entry = (from: number, to: number, units: number) => ({ employeeId: 1, from, to, units });
    expect(manualOutputOf([entry(0, 100, 50), entry(0, 40, 10)], day)).toBe(50);
    expect(manualOutputOf([entry(0, 40, 10), entry(40, 90, 12)], day)).toBe(22);
    expect(manualOutputOf([entry(0, 100, 0)], day)).toBe(0);
    expect(manualOutputOf([entry(-10, 50, 7)], day)).toBeNull();
  });
});
