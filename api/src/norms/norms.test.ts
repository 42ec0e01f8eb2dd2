import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import type { OperationTypeCode } from '../db/schema';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertStructure } from '../../test-support/video-fixtures';
import { PARTLY_OBSERVED_WARNING } from './build';

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
async function layDay(who: 'a' | 'b', date: string, main: number[], wholeShift = true) {
  let clock = at(`${date}T08:00:00`);
  const mark = async (operation: string, minutes: number) => {
    await t.deps.db
      .insertInto('markups')
      .values({
        structure_id: layout.structureId,
        operation_id: layout.ops[operation]!,
        workplace_id: layout.workplace,
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
  await mark('Получение задания', 10);
  await mark('Наладка', 10);
  await mark('Переход', 5);
  for (const m of main) {
    await mark('Сборка', m);
    await mark('Подноска', AUX_MINUTES);
  }
  await mark('Отдых', 10);
  // Observed over the whole shift (METHODOLOGY §6 balances only the observed part): the day's
  // markup ends with the wait at 11:50–12:00; the minutes before it are unmarked, a gap that no
  // norm figure reads (idle time is the idle category only).
  if (wholeShift) clock = at(`${date}T11:50:00`);
  await mark('Ожидание', 10);
}

async function seedStructure(organizationId: number) {
  const { db } = t.deps;
  const id = await insertStructure(db, organizationId, 'Сборка узла', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
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
  for (const who of ['a', 'b'] as const)
    employees[who] = (
      await db
        .insertInto('employees')
        .values({ structure_id: id, name: who === 'a' ? 'Иванов' : 'Петров' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  layout = { structureId: id, workplace, ops };
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

  it('the shift balance per shift-day sums to the statements of the same windows', async () => {
    const totals = { shift: 0, pz: 0, service: 0, move: 0, breaks: 0 };
    for (const w of windowBody()) {
      const r = await send(`/api/v1/report?structure_id=${structureId}&employee_id=${w.employee_id}&from_time=${w.from_time}&to_time=${w.to_time}`, viewer);
      expect(r.status).toBe(200);
      totals.shift += r.body.loading.shift_time;
      totals.pz += r.body.loading.pz_time;
      totals.service += r.body.loading.controltime;
      totals.move += r.body.loading.movetime;
      totals.breaks += r.body.loading.regulated_break_time;
    }
    const b = card.card.balance;
    expect(b.days).toBe(3);
    expect(b.shift_minutes * 3).toBeCloseTo(totals.shift, 9);
    expect(b.pz_minutes * 3).toBeCloseTo(totals.pz, 9);
    expect(b.service_minutes * 3).toBeCloseTo(totals.service, 9);
    expect(b.move_minutes * 3).toBeCloseTo(totals.move, 9);
    expect(b.regulated_break_minutes * 3).toBeCloseTo(totals.breaks, 9);
    // By hand: a 4-hour shift, 10 min of prep, 10 + 5 of service and moves, 20 min of breaks.
    expect(b.shift_minutes).toBeCloseTo(240, 9);
    expect(figure(card, 'operative_shift')).toBeCloseTo(240 - 10 - 15 - 20, 9);
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

  it('a shift observed only in part: Тсм is its observed part (METHODOLOGY §6), and the card says so', async () => {
    // Observed 08:00 to the end of the wait: 10 + 10 + 5 + 54 + 6 × 1 + 10 + 10 = 105 minutes of the 240.
    await layDay('b', '2026-03-05', [9, 9, 9, 9, 9, 9], false);
    const partWindow = [{ employee_id: employees.b, from_time: iso('2026-03-05T08:00:00'), to_time: iso('2026-03-05T12:00:00') }];
    const part = await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: partWindow });
    expect(part.status).toBe(201);
    expect(part.body.card.balance.shift_minutes).toBeCloseTo(105, 9);
    expect(part.body.card.balance.regulated_break_minutes).toBeCloseTo((20 * 105) / 240, 9);
    expect(part.body.card.warnings).toContain(PARTLY_OBSERVED_WARNING);
    expect(card.card.warnings).not.toContain(PARTLY_OBSERVED_WARNING);
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
    card = r.body;
  });
});

describe('line balance data and scenarios', () => {
  it('the unit work content of the line adds up to Топ; losses are the idle minutes per shift spread over Нвыр', async () => {
    const card = (await send(`/api/v1/norms?structure_id=${structureId}`, analyst, 'POST', { windows: windowBody() })).body;
    const line = card.card.line;
    expect(line.workplaces).toHaveLength(1);
    const work = line.operations.filter((o: { category: string }) => o.category !== 'loss');
    expect(work.reduce((a: number, o: { minutes: number }) => a + o.minutes, 0)).toBeCloseTo(figure(card, 'operative')!, 9);
    const idle = line.operations.find((o: { category: string }) => o.category === 'loss');
    expect(idle.name).toBe('Ожидание');
    expect(idle.minutes).toBeCloseTo(10 / figure(card, 'output')!, 9);
    expect(line.operations.every((o: { workplace_id: number }) => o.workplace_id === line.workplaces[0].id)).toBe(true);
    expect(line.available_minutes).toBeCloseTo(240 - 20, 9);

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
