import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import type { OperationTypeCode } from '../db/schema';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertStructure } from '../../test-support/video-fixtures';
import { notCalculatedText, UNSTABLE_TEXT } from './build';
import { APPROVE_CODES } from './service';

/**
 * Norm cards over the real app (SQLite, and PostgreSQL with NORMA_TEST_DATABASE=postgres): a card
 * built from three windows of hand-laid days, its figures against the statements of the same
 * windows, approval rights, immutability of approved versions, versions and differences.
 */
let t: TestApp;
let admin: string;
let analyst: string;
let viewer: string;
let rival: string;
let analystId: string;
let structureId: number;
const employees = {} as Record<'a' | 'b', number>;

const at = (local: string) => Date.parse(`${local}+03:00`);
const iso = (local: string) => new Date(at(local)).toISOString();

/** Main work of each cycle, minutes, per employee and day: all within Ку 10 / 8 = 1.25 (no cleaning). */
const MAIN: Record<string, number[]> = {
  'a 2026-03-02': [9, 8, 10, 9, 9, 9],
  'a 2026-03-03': [9, 10, 8, 9, 9, 10],
  'b 2026-03-02': [8, 9, 9, 10, 9, 8],
};
const AUX_MINUTES = 1;
const windows = Object.keys(MAIN).map((key) => {
  const [who, date] = key.split(' ') as ['a' | 'b', string];
  return { who, date, from: iso(`${date}T08:00:00`), to: iso(`${date}T12:00:00`) };
});

let layout: { structureId: number; workplace: number; ops: Record<string, number> };

/** One hand-laid shift-day: prep, service, a move, cycles of main work and one aux step, rest, idle. */
async function layDay(who: 'a' | 'b', date: string, main: number[], wholeShift = true, start = '08:00', place = layout, employeeId = employees[who]) {
  let clock = at(`${date}T${start}:00`);
  const mark = async (operation: string, minutes: number) => {
    await t.deps.db
      .insertInto('markups')
      .values({
        structure_id: place.structureId,
        operation_id: place.ops[operation]!,
        workplace_id: place.workplace,
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
  for (const m of main) {
    await mark('Сборка', m);
    await mark('Подноска', AUX_MINUTES);
  }
  await mark('Отдых', 10);
  // Observed over four whole hours (METHODOLOGY §6 balances only the observed part): the markup
  // ends with the wait in the last ten minutes (11:50–12:00 from 08:00); the minutes before it are
  // unmarked, a gap that no norm figure reads (idle time is the idle category only).
  if (wholeShift) clock = at(`${date}T${start}:00`) + 230 * 60_000;
  await mark('Ожидание', 10);
}

/** A structure with the operations of layDay, one workplace, and the given shift. */
async function structureWithOperations(organizationId: number, name: string, shift: [string, string, number]) {
  const { db } = t.deps;
  const id = await insertStructure(db, organizationId, name, { settings: true, shift });
  const workplace = (await db.insertInto('workplaces').values({ structure_id: id, name: 'Стол' }).returning('id').executeTakeFirstOrThrow()).id;
  const ops = {} as Record<string, number>;
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
    ops[name] = (await db.insertInto('operations').values({ structure_id: id, name, type, machine_paced: 0 }).returning('id').executeTakeFirstOrThrow()).id;
  return { structureId: id, workplace, ops };
}

async function seedStructure(organizationId: number) {
  const { db } = t.deps;
  layout = await structureWithOperations(organizationId, 'Сборка узла', ['08:00:00', '12:00:00', 20]);
  const id = layout.structureId;
  for (const who of ['a', 'b'] as const)
    employees[who] = (
      await db
        .insertInto('employees')
        .values({ structure_id: id, name: who === 'a' ? 'Иванов' : 'Петров' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  for (const w of windows) await layDay(w.who, w.date, MAIN[`${w.who} ${w.date}`]!);
  return id;
}

const send = async (path: string, cookie: string, method = 'GET', body?: unknown) => {
  const response = await t.request(path, { method, cookie, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: await response.json() };
};
const windowBody = (list = windows) => list.map((w) => ({ employee_id: employees[w.who], from_time: w.from, to_time: w.to }));
const figure = (card: { card: { figures: { key: string; value: number | null }[] } }, key: string) => card.card.figures.find((f) => f.key === key)!.value;

beforeAll(async () => {
  t = await createTestApp();
  const boss = await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'Ирина', lastName: 'Главная' });
  analystId = (
    await registerUser(
      t.deps,
      { login: 'counter', password: 'secret-pass', firstName: 'А', lastName: 'Аналитик' },
      { organizationId: boss.organizationId, role: 'analyst' },
    )
  ).id;
  await registerUser(
    t.deps,
    { login: 'reader', password: 'secret-pass', firstName: 'Н', lastName: 'Н' },
    { organizationId: boss.organizationId, role: 'viewer' },
  );
  await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });
  structureId = await seedStructure(boss.organizationId);
  admin = await t.signIn('boss', 'secret-pass');
  analyst = await t.signIn('counter', 'secret-pass');
  viewer = await t.signIn('reader', 'secret-pass');
  rival = await t.signIn('rival', 'secret-pass');
});

afterAll(async () => {
  await t?.cleanup();
});

describe('norm card from report windows', () => {
  let card: Awaited<ReturnType<typeof send>>['body'];

  beforeAll(async () => {
    const created = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody() });
    expect(created.status).toBe(201);
    card = created.body;
  });

  it('t_reg is the mean of the pooled measurements of every window; Топ = main + aux once per unit is a choice', () => {
    const all = Object.values(MAIN).flat();
    const main = card.card.operations.find((o: { name: string }) => o.name === 'Сборка');
    expect(main.t_reg_minutes).toBeCloseTo(all.reduce((a, b) => a + b, 0) / all.length, 9);
    expect(main.accepted).toBe(18);
    expect(main.coef).toBeCloseTo(10 / 8, 9);
    expect(main.enough).toBe(true);
    expect(main.times_per_unit).toBe(1);
    const aux = card.card.operations.find((o: { name: string }) => o.name === 'Подноска');
    expect(aux.category).toBe('aux');
    expect(aux.t_reg_minutes).toBeCloseTo(AUX_MINUTES, 9);
    expect(aux.times_per_unit).toBe(0);
    expect(figure(card, 'operative')).toBeCloseTo(main.t_reg_minutes, 9);
  });

  it('the observed normative balance per shift-day sums to the statements of the same windows; Тсм is the shift of the settings', async () => {
    const totals = { shift: 0, pz: 0, service: 0, move: 0, breaks: 0, operative: 0 };
    for (const w of windowBody()) {
      const r = await send(`/api/v1/report?structure_id=${structureId}&employee_id=${w.employee_id}&from_time=${w.from_time}&to_time=${w.to_time}`, viewer);
      expect(r.status).toBe(200);
      totals.shift += r.body.loading.shift_time;
      totals.pz += r.body.loading.pz_time;
      totals.service += r.body.loading.controltime;
      totals.move += r.body.loading.movetime;
      totals.breaks += r.body.loading.regulated_break_time;
      const norm = (type: string) => r.body.normative.rows.find((row: { type: string }) => row.type === type).len_norm / 60;
      totals.operative += norm('main') + norm('aux');
    }
    const b = card.card.balance;
    expect(b.days).toBe(3);
    expect(b.observed_shift_minutes * 3).toBeCloseTo(totals.shift, 9);
    expect(b.observed_operative_minutes * 3).toBeCloseTo(totals.operative, 9);
    expect(b.pz_minutes * 3).toBeCloseTo(totals.pz, 9);
    expect(b.service_minutes * 3).toBeCloseTo(totals.service, 9);
    expect(b.move_minutes * 3).toBeCloseTo(totals.move, 9);
    expect(b.regulated_break_minutes * 3).toBeCloseTo(totals.breaks, 9);
    // By hand: a 4-hour shift, 10 min of prep, 10 + 5 of service and moves, 20 min of breaks, as shares of Топ_набл.
    expect(b.shift_minutes).toBe(240);
    const base = totals.operative / 3;
    expect(figure(card, 'allowance_pz')).toBeCloseTo((10 / base) * 100, 9);
    expect(figure(card, 'allowance_service')).toBeCloseTo((15 / base) * 100, 9);
    expect(figure(card, 'allowance_rest')).toBeCloseTo((20 / base) * 100, 9);
    expect(figure(card, 'operative_shift')).toBeCloseTo(240 / (1 + 45 / base), 9);
  });

  it('Нвр × Нвыр = Тсм, and the sources and basis are stated', () => {
    expect(figure(card, 'norm_time')! * figure(card, 'output')!).toBeCloseTo(240, 6);
    expect(card.card.basis).toMatchObject({ windows: 3, employees: 2, days: 2 });
    expect(card.card.warnings).toEqual([]);
    for (const f of card.card.figures) expect(f.source.length).toBeGreaterThan(0);
    expect(card.windows.map((w: { employee_name: string }) => w.employee_name)).toEqual(['Иванов', 'Иванов', 'Петров']);
    expect(card.status).toBe('draft');
  });

  it('one window of one employee and one day is a thin basis: both warnings', async () => {
    const thin = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody(windows.slice(0, 1)) });
    expect(thin.status).toBe(201);
    expect(thin.body.card.warnings).toEqual(['Основание — один день наблюдений.', 'Основание — один сотрудник.']);
  });

  it('a segment cut by the window is not a measurement (METHODOLOGY §3)', async () => {
    // Employee a, 2 March: cycles 08:25–08:34, 08:35–08:43, 08:44–08:54, then 08:55–09:04 — cut at 09:00.
    const cut = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', {
      windows: [{ employee_id: employees.a, from_time: iso('2026-03-02T08:00:00'), to_time: iso('2026-03-02T09:00:00') }],
    });
    expect(cut.status).toBe(201);
    const main = cut.body.card.operations.find((o: { name: string }) => o.name === 'Сборка');
    expect(main.measurements).toBe(3);
    expect(main.accepted).toBe(3);
    expect(main.t_reg_minutes).toBeCloseTo((9 + 8 + 10) / 3, 9);
  });

  it('card parameters: composition with aux once per unit, batch and plan recompute the draft', async () => {
    const aux = card.card.operations.find((o: { name: string }) => o.name === 'Подноска');
    const main = card.card.operations.find((o: { name: string }) => o.name === 'Сборка');
    const params = {
      unit_operations: [
        { operation_id: main.operation_id, times_per_unit: 1 },
        { operation_id: aux.operation_id, times_per_unit: 1 },
      ],
      batch_size: 20,
      batch_prep_minutes: 12,
      plan_units: 4000,
      plan_shifts: 21,
    };
    const r = await send(`/api/v1/norms/${card.id}`, analyst, 'PUT', { params });
    expect(r.status).toBe(200);
    const top = main.t_reg_minutes + AUX_MINUTES;
    expect(figure(r.body, 'operative')).toBeCloseTo(top, 9);
    const piece = figure(r.body, 'piece')!;
    expect(figure(r.body, 'piece_batch')).toBeCloseTo(piece + 12 / 20, 9);
    expect(figure(r.body, 'headcount')).toBe(Math.ceil((4000 * (piece + 0.6)) / (21 * 240) - 1e-9));
    // With a batch its prep replaces the shift's: Нвр = Тшт-к and Нвыр = Тсм / Нвр, so Нвр × Нвыр = Тсм.
    expect(figure(r.body, 'norm_time')).toBeCloseTo(piece + 0.6, 9);
    expect(figure(r.body, 'norm_time')! * figure(r.body, 'output')!).toBeCloseTo(240, 9);
    card = r.body;
  });
});

describe('line balance data and scenarios', () => {
  it('the unit work content of the line adds up to Топ; losses never occupy a station; the only bench works at the card’s Нвыр', async () => {
    const card = (await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody() })).body;
    const line = card.card.line;
    expect(line.workplaces).toHaveLength(1);
    const work = line.operations;
    expect(work.map((o: { name: string }) => o.name)).toEqual(['Сборка']);
    expect(work.some((o: { category: string }) => o.category === 'loss')).toBe(false);
    expect(work.reduce((a: number, o: { minutes: number }) => a + o.minutes, 0)).toBeCloseTo(figure(card, 'operative')!, 9);
    expect(line.operations.every((o: { workplace_id: number }) => o.workplace_id === line.workplaces[0].id)).toBe(true);
    // One bench did every measurement: its own figures are the card's.
    expect(line.benches).toHaveLength(1);
    expect(line.benches[0]).toMatchObject({ workplace_id: line.workplaces[0].id, measured_operations: 1, borrowed_operation_ids: [] });
    expect(line.benches[0].top_minutes).toBeCloseTo(figure(card, 'operative')!, 9);
    expect(line.benches[0].output_exact).toBeCloseTo(figure(card, 'output')!, 9);
    expect(line.benches[0].output).toBe(figure(card, 'output_whole'));
    expect(line.available_minutes).toBeCloseTo(240 - figure(card, 'rest')!, 9);

    const path = `/api/v1/norms/${card.id}/line_scenarios`;
    const op = work[0].operation_id;
    expect((await send(path, viewer, 'POST', { name: 'Вариант', demand: 20, assignment: [] })).status).toBe(403);
    expect((await send(path, analyst, 'POST', { name: 'Вариант', demand: 20, assignment: [{ operation_id: op, workplace_id: 999999 }] })).status).toBe(400);
    expect((await send(path, analyst, 'POST', { name: 'Вариант', demand: 0, assignment: [] })).status).toBe(400);
    expect((await send(path, viewer)).body.scenarios).toEqual([]);
    const saved = await send(path, analyst, 'POST', { name: 'Вариант 1', demand: 20, assignment: [{ operation_id: op, workplace_id: line.workplaces[0].id }] });
    expect(saved.status).toBe(201);
    expect(saved.body.scenarios).toMatchObject([{ name: 'Вариант 1', demand: 20, assignment: [{ operation_id: op, workplace_id: line.workplaces[0].id }] }]);
  });
});

describe('approval, immutability and versions', () => {
  let draftId: number;

  beforeAll(async () => {
    draftId = (await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody(), title: 'Норма на сборку' })).body.id;
  });

  it('a viewer reads but cannot build; another organisation sees nothing', async () => {
    expect((await send(`/api/v1/norms/${draftId}`, viewer)).status).toBe(200);
    expect((await send(`/api/v1/norms?structure_id=${structureId}`, viewer, 'POST', { windows: windowBody() })).status).toBe(403);
    expect((await send(`/api/v1/norms/${draftId}`, rival)).status).toBe(404);
    expect((await send(`/api/v1/norms?structure_id=${structureId}`, rival)).status).toBe(404);
    expect((await t.request(`/api/v1/norms/${draftId}`)).status).toBe(401);
  });

  it('bad input is a 400 and changes nothing', async () => {
    const before = await send(`/api/v1/norms/${draftId}`, analyst);
    expect((await send(`/api/v1/norms/${draftId}`, analyst, 'PUT', { params: { batch_size: -1 } })).status).toBe(400);
    expect((await send(`/api/v1/norms/${draftId}`, analyst, 'PUT', { windows: [] })).status).toBe(400);
    expect(
      (await send(`/api/v1/norms/${draftId}`, analyst, 'PUT', { windows: [{ employee_id: 999999, from_time: windows[0]!.from, to_time: windows[0]!.to }] }))
        .status,
    ).toBe(400);
    expect((await send(`/api/v1/norms/${draftId}`, analyst)).body).toEqual(before.body);
  });

  it('an analyst without the right cannot approve; the admin can give it', async () => {
    const card = await send(`/api/v1/norms/${draftId}`, analyst);
    expect(card.body.can_approve).toBe(false);
    expect((await send(`/api/v1/norms/${draftId}/approve`, analyst, 'POST', { effective_from: '2026-03-10', revision: card.body.revision })).status).toBe(403);
    expect((await send(`/api/v1/norm_approvers/${analystId}`, analyst, 'PUT')).status).toBe(403);
    const granted = await send(`/api/v1/norm_approvers/${analystId}`, admin, 'PUT');
    expect(granted.status).toBe(200);
    expect(granted.body.approvers.map((a: { user_id: string }) => a.user_id)).toEqual([analystId]);
    expect((await send(`/api/v1/norms/${draftId}`, analyst)).body.can_approve).toBe(true);
  });

  it("another organisation's admin neither sees nor grants nor revokes this organisation's approvers", async () => {
    const own = await send('/api/v1/norm_approvers', rival);
    expect(own.status).toBe(200);
    expect(own.body.approvers).toEqual([]);
    expect((await send(`/api/v1/norm_approvers/${analystId}`, rival, 'PUT')).status).toBe(404);
    expect((await send(`/api/v1/norm_approvers/${analystId}`, rival, 'DELETE')).status).toBe(404);
    expect((await send('/api/v1/norm_approvers', rival)).body.approvers).toEqual([]);
    expect((await send('/api/v1/norm_approvers', admin)).body.approvers.map((a: { user_id: string }) => a.user_id)).toEqual([analystId]);
    expect((await send(`/api/v1/norms/${draftId}`, analyst)).body.can_approve).toBe(true);
  });

  it('approval records who and from when; the approved version is frozen (409)', async () => {
    const { revision } = (await send(`/api/v1/norms/${draftId}`, analyst)).body;
    expect((await send(`/api/v1/norms/${draftId}/approve`, analyst, 'POST', { effective_from: '2026-02-30', revision })).status).toBe(400);
    const approved = await send(`/api/v1/norms/${draftId}/approve`, analyst, 'POST', { effective_from: '2026-03-10', revision });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', effective_from: '2026-03-10', approved_by_name: 'Аналитик А', in_force: true, can_edit: false });
    const before = (await send(`/api/v1/norms/${draftId}`, admin)).body;
    expect((await send(`/api/v1/norms/${draftId}`, admin, 'PUT', { params: { plan_units: 10 } })).status).toBe(409);
    expect((await send(`/api/v1/norms/${draftId}`, admin, 'PUT', { title: 'Другое' })).status).toBe(409);
    const again = await send(`/api/v1/norms/${draftId}/approve`, admin, 'POST', { effective_from: '2026-04-01', revision });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Эта версия нормы уже утверждена');
    expect((await send(`/api/v1/norms/${draftId}`, admin)).body).toEqual(before);
  });

  it('a new study makes a new draft beside the approved one, with the differences figure by figure', async () => {
    const next = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody(windows.slice(0, 2)) });
    expect(next.status).toBe(201);
    const diff = await send(`/api/v1/norms/${next.body.id}/diff`, viewer);
    expect(diff.status).toBe(200);
    expect(diff.body.before.id).toBe(draftId);
    const operative = diff.body.rows.find((r: { key: string }) => r.key === 'operative');
    const approved = (await send(`/api/v1/norms/${draftId}`, viewer)).body;
    expect(operative.before).toBeCloseTo(figure(approved, 'operative')!, 9);
    expect(operative.after).toBeCloseTo(figure(next.body, 'operative')!, 9);
    expect(operative.delta).toBeCloseTo(operative.after - operative.before, 9);
    const list = await send(`/api/v1/norms?structure_id=${structureId}`, viewer);
    expect(list.body.versions[0].id).toBe(next.body.id);
    expect(list.body.versions.filter((v: { in_force: boolean }) => v.in_force).map((v: { id: number }) => v.id)).toEqual([draftId]);
    expect(list.body.can_edit).toBe(false);
  });

  it('norm fulfilment: after the norm is in force, Нвр × units / (T_shift − idle) per employee and day; far cycles marked', async () => {
    await layDay('a', '2026-03-11', [9, 9, 20, 9, 9, 9]);
    const from = iso('2026-03-11T08:00:00');
    const to = iso('2026-03-11T12:00:00');
    const window = `structure_id=${structureId}&from_time=${from}&to_time=${to}`;
    expect(
      (await send(`/api/v1/report/products?${window}&employee_id=${employees.a}`, analyst, 'PUT', { product_num: 18, products_description: '' })).status,
    ).toBe(200);
    const r = await send(`/api/v1/norm_fulfilment?${window}`, viewer);
    expect(r.status).toBe(200);
    const approved = (await send(`/api/v1/norms/${draftId}`, viewer)).body;
    const normTime = figure(approved, 'norm_time')!;
    expect(r.body.norm.id).toBe(draftId);
    expect(r.body.rows).toHaveLength(1);
    const row = r.body.rows[0];
    expect(row).toMatchObject({ employee_id: employees.a, date: '2026-03-11', norm_id: draftId, units: 18, shift_minutes: 240, idle_minutes: 10 });
    expect(row.fulfilment_percent).toBeCloseTo((normTime * 18 * 100) / (240 - 10), 9);
    expect(row.actual_minutes_per_unit).toBeCloseTo(230 / 18, 9);
    // Only the 20-minute cycle is more than 30 % from t_reg (about 9 min).
    expect(r.body.far_cycles.map((c: { seconds: number }) => c.seconds)).toEqual([1200]);
    // Before the norm's start date there is no norm to fulfil.
    const early = await send(`/api/v1/norm_fulfilment?structure_id=${structureId}&from_time=${windows[0]!.from}&to_time=${windows[0]!.to}`, viewer);
    expect(early.body.rows[0]).toMatchObject({ norm_id: null, fulfilment_percent: null });
    expect(early.body.far_cycles).toEqual([]);
    expect((await send(`/api/v1/norm_fulfilment?${window}`, rival)).status).toBe(404);
  });

  it('revoking the right takes approval away again', async () => {
    expect((await send(`/api/v1/norm_approvers/${analystId}`, admin, 'DELETE')).body.approvers).toEqual([]);
    expect((await send(`/api/v1/norms?structure_id=${structureId}`, analyst)).body.can_approve).toBe(false);
  });
});

describe('approval names the draft revision its approver read (issue 39)', () => {
  const approve = (id: number, cookie: string, body: object) => send(`/api/v1/norms/${id}/approve`, cookie, 'POST', body);
  /** The stored row as it is: nothing approved is nothing written, not just a status in a reply. */
  const stored = (id: number) =>
    t.deps.db.selectFrom('norm_cards').select(['approved_at', 'approved_by', 'effective_from', 'revision']).where('id', '=', id).executeTakeFirstOrThrow();
  let draftId: number;

  beforeAll(async () => {
    const created = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody(), title: 'Норма под правкой' });
    expect(created.status).toBe(201);
    draftId = created.body.id;
  });

  it('a draft changed after the read is not approved: 409 with the new content; approving the new revision puts exactly it into force', async () => {
    const read = (await send(`/api/v1/norms/${draftId}`, admin)).body;
    expect(read).toMatchObject({ status: 'draft', revision: 1 });
    const readTime = figure(read, 'norm_time')!;
    // Another user changes the draft between the approver's read and his approval: a batch adds Тпз / n to Нвр.
    const edited = await send(`/api/v1/norms/${draftId}`, analyst, 'PUT', { params: { batch_size: 2, batch_prep_minutes: 30 } });
    expect(edited.status).toBe(200);
    expect(edited.body.revision).toBe(2);
    const newTime = figure(edited.body, 'norm_time')!;
    expect(figure(edited.body, 'piece_batch')).toBeCloseTo(figure(edited.body, 'piece')! + 30 / 2, 9);
    expect(newTime).toBeGreaterThan(readTime + 10);

    const refused = await approve(draftId, admin, { effective_from: '2026-04-01', revision: read.revision });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/^Черновик нормы изменили после того, как вы его открыли: ничего не утверждено/);
    expect(refused.body.error.code).toBe(APPROVE_CODES.draftChanged);
    // The reply carries the draft as it is now, so the approver can read what changed.
    const current = (await send(`/api/v1/norms/${draftId}`, admin)).body;
    expect(refused.body.error.details.card).toEqual(current);
    expect(figure(refused.body.error.details.card, 'norm_time')).toBeCloseTo(newTime, 9);
    expect(current).toMatchObject({ status: 'draft', approved_at: null, effective_from: null, in_force: false, revision: 2 });
    expect(await stored(draftId)).toEqual({ approved_at: null, approved_by: null, effective_from: null, revision: 2 });

    // The revision is required; one that never was is refused like a stale one.
    const missing = await approve(draftId, admin, { effective_from: '2026-04-01' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('revision: укажите ревизию черновика');
    expect((await approve(draftId, admin, { effective_from: '2026-04-01', revision: 3 })).status).toBe(409);
    expect(await stored(draftId)).toMatchObject({ approved_at: null, revision: 2 });

    const approved = await approve(draftId, admin, { effective_from: '2026-04-01', revision: refused.body.error.details.card.revision });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', effective_from: '2026-04-01', revision: 2 });
    expect(figure(approved.body, 'norm_time')).toBeCloseTo(newTime, 9);
    // Frozen: the edit now is refused and the revision stays.
    expect((await send(`/api/v1/norms/${draftId}`, analyst, 'PUT', { title: 'Поздно' })).status).toBe(409);
    expect((await stored(draftId)).revision).toBe(2);
  });

  it('effective_from before 2000-01-01 or more than five years ahead is refused with a Russian message; nothing written', async () => {
    const draft = (await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody() })).body;
    const before = await stored(draft.id);
    const today = new Date();
    const tooLate = new Date(Date.UTC(today.getUTCFullYear() + 5, today.getUTCMonth(), today.getUTCDate() + 2)).toISOString().slice(0, 10);
    for (const date of ['0000-01-01', '9999-12-31', '1999-12-31', tooLate]) {
      const r = await approve(draft.id, admin, { effective_from: date, revision: draft.revision });
      expect(r.status, date).toBe(400);
      expect(r.body.error.message).toContain('effective_from: дата не раньше 01.01.2000 и не позже чем через 5 лет от сегодняшнего дня');
    }
    expect(await stored(draft.id)).toEqual(before);
    expect((await send(`/api/v1/norms/${draft.id}`, admin)).body).toMatchObject({ status: 'draft', approved_at: null, effective_from: null });
  });
});

describe('METHODOLOGY §7: Тсм from the shift settings, whole shift-days', () => {
  let organizationId: number;
  let day: Awaited<ReturnType<typeof structureWithOperations>>;
  let worker: number;

  beforeAll(async () => {
    organizationId = (await t.deps.db.selectFrom('structures').select('organization_id').where('id', '=', structureId).executeTakeFirstOrThrow())
      .organization_id;
    day = await structureWithOperations(organizationId, 'Сборка в две половины', ['08:00:00', '16:00:00', 40]);
    worker = (await t.deps.db.insertInto('employees').values({ structure_id: day.structureId, name: 'Сидоров' }).returning('id').executeTakeFirstOrThrow()).id;
    // 16 March observed whole (two halves of the same work), 17 March only from 08:00 to 12:00.
    await layDay('a', '2026-03-16', [9, 8, 10, 9, 9, 9], true, '08:00', day, worker);
    await layDay('a', '2026-03-16', [9, 8, 10, 9, 9, 9], true, '12:00', day, worker);
    await layDay('a', '2026-03-17', [9, 8, 10, 9, 9, 9], true, '08:00', day, worker);
  });

  it('a partly observed and a fully observed shift give the same Тсм, allowances and Нвыр', async () => {
    const card = async (date: string) => {
      const r = await send(`/api/v1/norms?structure_id=${day.structureId}`, analyst, 'POST', { windows: [{ employee_id: worker, date }] });
      expect(r.status).toBe(201);
      return r.body;
    };
    const full = await card('2026-03-16');
    const half = await card('2026-03-17');
    expect(full.card.balance.observed_shift_minutes).toBeCloseTo(480, 9);
    expect(half.card.balance.observed_shift_minutes).toBeCloseTo(240, 9);
    for (const c of [full, half]) {
      expect(c.card.balance.shift_minutes).toBe(480);
      expect(c.card.balance.shift_name).toBe('Смена');
      expect(figure(c, 'norm_time')! * figure(c, 'output')!).toBeCloseTo(480, 9);
    }
    for (const key of ['allowance_pz', 'allowance_service', 'allowance_rest', 'operative', 'output', 'norm_time'])
      expect(figure(half, key), key).toBeCloseTo(figure(full, key)!, 9);
    expect(half.windows[0]).toMatchObject({ date: '2026-03-17', from_time: iso('2026-03-17T00:00:00'), to_time: iso('2026-03-18T00:00:00') });
  });

  it('a night shift 22:00–06:00 is one shift-day dated by its start', async () => {
    const night = await structureWithOperations(organizationId, 'Ночная сборка', ['22:00:00', '06:00:00', 40]);
    const nightWorker = (
      await t.deps.db.insertInto('employees').values({ structure_id: night.structureId, name: 'Ночной' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    await layDay('a', '2026-03-18', [9, 8, 10, 9, 9, 9], true, '22:00', night, nightWorker);
    await layDay('a', '2026-03-19', [9, 8, 10, 9, 9, 9], true, '02:00', night, nightWorker);
    const r = await send(`/api/v1/norms?structure_id=${night.structureId}`, analyst, 'POST', { windows: [{ employee_id: nightWorker, date: '2026-03-18' }] });
    expect(r.status).toBe(201);
    expect(r.body.windows[0]).toMatchObject({ date: '2026-03-18', from_time: iso('2026-03-18T06:00:00'), to_time: iso('2026-03-19T06:00:00') });
    expect(r.body.card.balance).toMatchObject({ days: 1, shift_minutes: 480 });
    expect(r.body.card.balance.observed_shift_minutes).toBeCloseTo(480, 9);
    const main = r.body.card.operations.find((o: { name: string }) => o.name === 'Сборка');
    expect(main.accepted).toBe(12);
    // A window must be a shift-day or an interval, not both.
    const both = await send(`/api/v1/norms?structure_id=${night.structureId}`, analyst, 'POST', {
      windows: [{ employee_id: nightWorker, date: '2026-03-18', from_time: iso('2026-03-18T06:00:00'), to_time: iso('2026-03-19T06:00:00') }],
    });
    expect(both.status).toBe(400);
    expect(
      (await send(`/api/v1/norms?structure_id=${night.structureId}`, analyst, 'POST', { windows: [{ employee_id: nightWorker, date: '2026-02-30' }] })).status,
    ).toBe(400);
  });

  it('the shift setting «обед, мин» makes a 9-hour shift 08:00–17:00 a Тсм of 480; bad values are refused in Russian', async () => {
    const path = `/api/v1/structure/${day.structureId}`;
    const shift = { name: 'Смена', start_time: '08:00', end_time: '17:00', regular_break_duration_min: 40 };
    const tooLong = await send(path, admin, 'PUT', { shifts: [{ ...shift, meal_break_min: 721 }] });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toContain('meal_break_min: не больше 720');
    const wholeShift = await send(path, admin, 'PUT', { shifts: [{ ...shift, meal_break_min: 540 }] });
    expect(wholeShift.status).toBe(400);
    expect(wholeShift.body.error.message).toContain('обед (540 мин) должен быть короче смены');
    expect((await send(path, admin)).body.shifts[0]).toMatchObject({ end_time: '16:00:00', meal_break_min: 0 });
    const saved = await send(path, admin, 'PUT', { shifts: [{ ...shift, meal_break_min: 60 }] });
    expect(saved.status).toBe(200);
    expect(saved.body.shifts[0]).toMatchObject({ end_time: '17:00:00', meal_break_min: 60 });
    const r = await send(`/api/v1/norms?structure_id=${day.structureId}`, analyst, 'POST', { windows: [{ employee_id: worker, date: '2026-03-16' }] });
    expect(r.status).toBe(201);
    expect(r.body.card.balance).toMatchObject({ shift_minutes: 480, meal_break_minutes: 60 });
    expect(r.body.card.figures.find((f: { key: string }) => f.key === 'shift').source).toContain('обед 60 мин');
    expect(figure(r.body, 'norm_time')! * figure(r.body, 'output')!).toBeCloseTo(480, 9);
  });
});

describe('METHODOLOGY §7: every operation of the unit, rating, unstable series', () => {
  let packing: number;
  const mainOf = (card: { card: { operations: { name: string; operation_id: number; t_reg_minutes: number }[] } }) =>
    card.card.operations.find((o) => o.name === 'Сборка')!;

  beforeAll(async () => {
    packing = (
      await t.deps.db
        .insertInto('operations')
        .values({ structure_id: structureId, name: 'Упаковка', type: 'main', machine_paced: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  it('an operation of the unit without measurements: «не рассчитано», no approval (409); a time entered by hand with its source calculates it', async () => {
    const first = (await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody() })).body;
    const main = mainOf(first);
    const unit = [
      { operation_id: main.operation_id, times_per_unit: 1 },
      { operation_id: packing, times_per_unit: 1 },
    ];
    const missing = await send(`/api/v1/norms/${first.id}`, analyst, 'PUT', { params: { unit_operations: unit } });
    expect(missing.status).toBe(200);
    expect(missing.body.card.not_calculated).toBe(notCalculatedText(['Упаковка']));
    expect(missing.body.card.not_calculated).toBe('не рассчитано: нет замеров «Упаковка»');
    expect(missing.body.card.operations.find((o: { name: string }) => o.name === 'Упаковка')).toMatchObject({
      time_source: 'none',
      t_reg_minutes: null,
      times_per_unit: 1,
    });
    expect(figure(missing.body, 'output')).toBeNull();
    expect(figure(missing.body, 'operative')).toBeNull();
    const refused = await send(`/api/v1/norms/${first.id}/approve`, admin, 'POST', { effective_from: '2026-05-01', revision: missing.body.revision });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('не рассчитано: нет замеров «Упаковка»');
    // Its own code, without a card to read again: the client tells it from a draft changed meanwhile.
    expect(refused.body.error).toMatchObject({ code: APPROVE_CODES.notCalculated });
    expect(refused.body.error.details).toBeUndefined();
    expect((await send(`/api/v1/norms/${first.id}`, admin)).body).toMatchObject({ status: 'draft', approved_at: null });

    for (const bad of [
      { operation_id: packing, minutes: 2, source: 'guess' },
      { operation_id: 999999, minutes: 2, source: 'mtm' },
      { operation_id: packing, minutes: 0, source: 'mtm' },
      { operation_id: packing, minutes: 2, source: 'other', note: 'x'.repeat(501) },
    ])
      expect((await send(`/api/v1/norms/${first.id}`, analyst, 'PUT', { params: { unit_operations: unit, manual_times: [bad] } })).status).toBe(400);
    const entered = await send(`/api/v1/norms/${first.id}`, analyst, 'PUT', {
      params: { unit_operations: unit, manual_times: [{ operation_id: packing, minutes: 2, source: 'mtm', note: 'карта МТМ-1' }] },
    });
    expect(entered.status).toBe(200);
    expect(entered.body.card.not_calculated).toBeNull();
    expect(entered.body.card.operations.find((o: { name: string }) => o.name === 'Упаковка')).toMatchObject({
      time_source: 'manual',
      t_reg_minutes: 2,
      t_norm_minutes: 2,
      manual: { minutes: 2, source: 'mtm', source_label: 'МТМ', note: 'карта МТМ-1' },
    });
    expect(figure(entered.body, 'operative')).toBeCloseTo(main.t_reg_minutes + 2, 9);
    expect(entered.body.card.warnings).toContain('«Упаковка»: время введено вручную (МТМ: карта МТМ-1).');
  });

  it('rating (темп) for the whole basis and per employee: t_norm = t_reg × rating / 100, shown on the card', async () => {
    const draft = (await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody() })).body;
    const tReg = mainOf(draft).t_reg_minutes;
    expect(figure(draft, 'rating')).toBe(100);
    const faster = await send(`/api/v1/norms/${draft.id}`, analyst, 'PUT', { params: { rating_percent: 110 } });
    expect(faster.status).toBe(200);
    expect(figure(faster.body, 'operative')).toBeCloseTo(tReg * 1.1, 9);
    expect(figure(faster.body, 'rating')).toBe(110);
    expect(faster.body.card.rating).toMatchObject({ percent: 110, text: 'общая 110 %' });
    expect(figure(faster.body, 'norm_time')! * figure(faster.body, 'output')!).toBeCloseTo(240, 9);
    // Иванов's 12 cycles (54 + 55 min) at 120 %, Петров's 6 (53 min) at 100 %: t_norm = Σ t_i × r_i / 100 / n.
    const own = await send(`/api/v1/norms/${draft.id}`, analyst, 'PUT', { params: { employee_ratings: [{ employee_id: employees.a, rating_percent: 120 }] } });
    expect(own.status).toBe(200);
    expect(figure(own.body, 'operative')).toBeCloseTo((109 * 1.2 + 53) / 18, 9);
    expect(own.body.card.rating.employees).toEqual([{ employee_id: employees.a, name: 'Иванов', percent: 120 }]);
    const tooHigh = await send(`/api/v1/norms/${draft.id}`, analyst, 'PUT', { params: { rating_percent: 300 } });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.error.message).toContain('оценка темпа не больше 200 %');
    const stranger = await send(`/api/v1/norms/${draft.id}`, analyst, 'PUT', { params: { employee_ratings: [{ employee_id: 999999, rating_percent: 90 }] } });
    expect(stranger.status).toBe(400);
    expect((await send(`/api/v1/norms/${draft.id}`, analyst)).body.revision).toBe(3);
  });

  it('an unstable series is named and approved only with an explicit override and a comment, stored with the approval', async () => {
    // Cleaning drops 2, 30 and 25: 3 of 10 measurements (more than 2 of a series shorter than 15).
    await layDay('b', '2026-03-06', [9, 9, 9, 9, 9, 9, 9, 30, 2, 25]);
    const draft = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', {
      windows: [{ employee_id: employees.b, from_time: iso('2026-03-06T08:00:00'), to_time: iso('2026-03-06T12:00:00') }],
    });
    expect(draft.status).toBe(201);
    expect(draft.body.card.unstable).toEqual(['Сборка']);
    expect(draft.body.card.operations.find((o: { name: string }) => o.name === 'Сборка')).toMatchObject({
      measurements: 10,
      accepted: 7,
      dropped: 3,
      unstable: true,
    });
    expect(draft.body.card.warnings).toContain(`«Сборка»: ${UNSTABLE_TEXT} (очистка отбросила 3 из 10).`);
    const body = { effective_from: '2026-05-01', revision: draft.body.revision };
    const refused = await send(`/api/v1/norms/${draft.body.id}/approve`, admin, 'POST', body);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`«Сборка»: ${UNSTABLE_TEXT}`);
    expect(refused.body.error.code).toBe(APPROVE_CODES.unstable);
    expect((await send(`/api/v1/norms/${draft.body.id}/approve`, admin, 'POST', { ...body, override_comment: '   ' })).status).toBe(400);
    expect((await send(`/api/v1/norms/${draft.body.id}/approve`, admin, 'POST', { ...body, override_comment: 'x'.repeat(1001) })).status).toBe(400);
    expect((await send(`/api/v1/norms/${draft.body.id}`, admin)).body).toMatchObject({ status: 'draft', approval_comment: null });
    const approved = await send(`/api/v1/norms/${draft.body.id}/approve`, admin, 'POST', {
      ...body,
      override_comment: 'Выбросы — смена оснастки, повторим в мае',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', approval_comment: 'Выбросы — смена оснастки, повторим в мае' });
  });
});
