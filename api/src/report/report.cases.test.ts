import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import type { OperationTypeCode } from '../db/schema';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertStructure } from '../../test-support/video-fixtures';
import { NOTICES } from '@norma/core-wasm/report';
import { StatementReport } from './schema';

/**
 * Hand-built structures for the cases the demo does not have: no shifts or settings, an employee
 * without markups, empty windows, a partial structure, a night shift, overlapping markups,
 * machine-paced work, the organisation's own reference table, hand-entered units, bad input.
 */
let t: TestApp;
let admin: string;
let analyst: string;
let viewer: string;
let rival: string;
let organizationId: number;
const ids = {} as Record<
  'bare' | 'shifted' | 'partial' | 'night' | 'foreign' | 'worker' | 'idleWorker' | 'foreignWorker' | 'nightWorker' | 'partialWorker' | 'bareWorker',
  number
>;

const at = (local: string) => Date.parse(`${local}+03:00`);
const iso = (local: string) => new Date(at(local)).toISOString();

async function structure(orgId: number, name: string, opts: { partial?: boolean; settings?: boolean; shift?: [string, string, number] } = {}) {
  const { db } = t.deps;
  const id = await insertStructure(db, orgId, name, opts);
  const workplace = (await db.insertInto('workplaces').values({ structure_id: id, name: 'Стол' }).returning('id').executeTakeFirstOrThrow()).id;
  const operations = {} as Record<string, number>;
  const addOperation = async (name: string, type: OperationTypeCode, machine = 0) =>
    (operations[name] = (
      await db.insertInto('operations').values({ structure_id: id, name, type, machine_paced: machine }).returning('id').executeTakeFirstOrThrow()
    ).id);
  const employee = async (name: string) => (await db.insertInto('employees').values({ structure_id: id, name }).returning('id').executeTakeFirstOrThrow()).id;
  const mark = (employeeId: number, operation: string, from: string, to: string) =>
    db
      .insertInto('markups')
      .values({
        structure_id: id,
        operation_id: operations[operation]!,
        workplace_id: workplace,
        employee_id: employeeId,
        start_time: at(from),
        end_time: at(to),
        comment: null,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
  return { id, addOperation, employee, mark };
}

/** The METHODOLOGY §7 day: shift 08:00–12:00 with 20 minutes of breaks, ten segments. */
async function workedExample(s: Awaited<ReturnType<typeof structure>>, employeeId: number, date: string) {
  const rows: [string, string, string][] = [
    ['Получение задания', '08:00', '08:10'],
    ['Сборка узла', '08:10', '09:40'],
    ['Наладка станка', '09:40', '09:50'],
    ['Отдых', '09:50', '10:00'],
    ['Ожидание материала', '10:00', '10:30'],
    ['Сборка узла', '10:30', '11:30'],
    ['Подноска деталей', '11:30', '11:35'],
    ['Переход к складу', '11:35', '11:40'],
    ['Отдых', '11:40', '11:50'],
    ['Поиск инструмента', '11:50', '11:55'],
  ];
  for (const [operation, from, to] of rows) await s.mark(employeeId, operation, `${date}T${from}:00`, `${date}T${to}:00`);
}

async function exampleOperations(s: Awaited<ReturnType<typeof structure>>) {
  await s.addOperation('Получение задания', 'pz');
  await s.addOperation('Сборка узла', 'main');
  await s.addOperation('Наладка станка', 'service');
  await s.addOperation('Отдых', 'rest');
  await s.addOperation('Ожидание материала', 'idle');
  await s.addOperation('Подноска деталей', 'aux');
  await s.addOperation('Переход к складу', 'move');
  await s.addOperation('Поиск инструмента', 'idle');
}

beforeAll(async () => {
  t = await createTestApp();
  const boss = await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'Ирина', lastName: 'Главная' });
  organizationId = boss.organizationId;
  await registerUser(t.deps, { login: 'counter', password: 'secret-pass', firstName: 'А', lastName: 'А' }, { organizationId, role: 'analyst' });
  await registerUser(t.deps, { login: 'reader', password: 'secret-pass', firstName: 'Н', lastName: 'Н' }, { organizationId, role: 'viewer' });
  const other = await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });

  const shifted = await structure(organizationId, 'Участок с примером', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
  await exampleOperations(shifted);
  await shifted.addOperation('Штамповка', 'main', 1);
  ids.shifted = shifted.id;
  ids.worker = await shifted.employee('Пример Пётр');
  ids.idleWorker = await shifted.employee('Без Разметки');
  await workedExample(shifted, ids.worker, '2026-03-02');

  const bare = await structure(organizationId, 'Участок без смен');
  await exampleOperations(bare);
  ids.bare = bare.id;
  ids.bareWorker = await bare.employee('Голый Глеб');
  await workedExample(bare, ids.bareWorker, '2026-03-02');

  const partial = await structure(organizationId, 'Неполный участок', { partial: true, settings: true, shift: ['08:00:00', '12:00:00', 20] });
  await exampleOperations(partial);
  ids.partial = partial.id;
  ids.partialWorker = await partial.employee('Частичный Пётр');
  await workedExample(partial, ids.partialWorker, '2026-03-02');

  const night = await structure(organizationId, 'Ночной участок', { settings: true, shift: ['22:00:00', '06:00:00', 40] });
  await night.addOperation('Сборка узла', 'main');
  await night.addOperation('Отдых', 'rest');
  ids.night = night.id;
  ids.nightWorker = await night.employee('Ночной Никита');
  await night.mark(ids.nightWorker, 'Сборка узла', '2026-03-02T23:00:00', '2026-03-03T01:00:00');
  await night.mark(ids.nightWorker, 'Сборка узла', '2026-03-03T01:00:00', '2026-03-03T01:30:00');
  // Overlaps the previous one: an input error, reported, not merged.
  await night.mark(ids.nightWorker, 'Отдых', '2026-03-03T01:20:00', '2026-03-03T01:40:00');

  const foreign = await structure(other.organizationId, 'Чужой участок', { settings: true });
  ids.foreign = foreign.id;
  ids.foreignWorker = await foreign.employee('Чужой');

  admin = await t.signIn('boss', 'secret-pass');
  analyst = await t.signIn('counter', 'secret-pass');
  viewer = await t.signIn('reader', 'secret-pass');
  rival = await t.signIn('rival', 'secret-pass');
});
afterAll(async () => t.cleanup());

const call = async (path: string, cookie = viewer, init: RequestInit = {}) => {
  const response = await t.request(path, { ...init, cookie });
  // Replies are checked field by field by the tests.
  return { status: response.status, body: (await response.json()) as any };
};
const statement = (structureId: number, employeeId: number, from: string, to: string, cookie = viewer) =>
  call(`/api/v1/report?structure_id=${structureId}&employee_id=${employeeId}&from_time=${iso(from)}&to_time=${iso(to)}`, cookie);

describe('the METHODOLOGY §7 worked day through the API', () => {
  it('gives the hand-computed figures of docs/methodology.md', async () => {
    const { status, body } = await statement(ids.shifted, ids.worker, '2026-03-02T08:00:00', '2026-03-02T12:00:00');
    expect(status).toBe(200);
    expect(body.loading.all_time).toBeCloseTo(235, 9);
    // Observed 08:00–11:55 of the shift: balanced over that part, 20 × 235 / 240 minutes of breaks.
    expect(body.loading.shift_time).toBeCloseTo(235, 9);
    expect(body.loading.regulated_break_time).toBeCloseTo(1175 / 60, 9);
    expect(body.loading.available_time).toBeCloseTo(12_925 / 60, 9);
    expect(body.loading.work_time).toBeCloseTo(180, 9);
    expect(body.loading.percentage).toBeCloseTo(83.558994, 5);
    expect(body.loading.text).toBe('180-минутный день, недогрузка 35 минут');
    expect(body.loading.behind_machine.percent).toBeCloseTo(74.468085, 5);
    expect(body.normative.productivity_rise).toBeCloseTo(23.611111, 5);
    expect(body.losses.len).toBe(2125);
    expect(body.losses.pareto.map((p: { name: string; percent: number }) => [p.name, Math.round(p.percent * 100) / 100])).toEqual([
      ['Ожидание материала', 84.71],
      ['Поиск инструмента', 14.12],
      ['Отдых', 1.18],
    ]);
    // 11:55–12:00 was not observed: not part of his window, so no gap (METHODOLOGY §6).
    expect(body.breaks).toEqual([]);
    expect(body.notices).toContain(NOTICES.partlyObserved(['02.03.2026 08:00–12:00, наблюдение 08:00–11:55']));
    const study = body.all_measurements.rows[0];
    expect([study.t_min, study.time_2min, study.coef, study.t_reg, study.required_measurements]).toEqual([3600, 5400, 1.5, 4500, 31]);
    expect(body.rep_param.structure).toMatchObject({ shift_start_time: '08:00:00', shift_end_time: '12:00:00', partial: false });
  });
});

describe('clear empty reports, never a 500', () => {
  it('an employee with no markups: zeros, empty lists and a notice', async () => {
    const { status, body } = await statement(ids.shifted, ids.idleWorker, '2026-03-02T08:00:00', '2026-03-02T12:00:00');
    expect(status).toBe(200);
    expect(StatementReport.safeParse(body).success).toBe(true);
    expect(body.operations).toEqual([]);
    expect(body.parameters).toEqual([]);
    expect(body.frv).toEqual([]);
    expect(body.measurements).toEqual({ max_operation_count: 0, rows: [] });
    expect(body.loading.percentage).toBe(0);
    expect(body.loading.overload).toBe(false);
    expect(body.rep_param.product_num).toBe(0);
    expect(body.takt.product_num).toBe(0);
    expect(body.takt.takt).toBeNull();
    expect(body.notices).toContain(NOTICES.noMarkups);
    // METHODOLOGY §6: a shift without any observation of him is not his window — no gap, «нет наблюдений».
    expect(body.breaks).toEqual([]);
    expect(body.loading.text).toBe('Нормативное время не определено: нет наблюдений.');
    expect(JSON.stringify(body)).not.toMatch(/NaN|Infinity/);
  });

  it('a window with no data at all, statement and blocks', async () => {
    const s = await statement(ids.shifted, ids.worker, '2025-01-01T00:00:00', '2025-01-02T00:00:00');
    expect(s.status).toBe(200);
    expect(s.body.notice).toContain(NOTICES.noMarkups);
    const b = await call(`/api/v2/report?structure_id=${ids.shifted}&from_time=${iso('2025-01-01T00:00:00')}&to_time=${iso('2025-01-02T00:00:00')}`);
    expect(b.status).toBe(200);
    const types = b.body.blocks.map((x: { type: string }) => x.type);
    expect(types).toContain('black_diagram');
    expect(b.body.blocks.find((x: { type: string; tone?: string }) => x.type === 'paragraph' && x.tone === 'notice').text).toContain(NOTICES.noMarkups);
    expect(b.body.blocks.find((x: { type: string }) => x.type === 'human_proportion').total).toBe(0);
    expect(JSON.stringify(b.body)).not.toMatch(/NaN|Infinity/);
    const f = await call(`/api/v2/frv?structure_id=${ids.shifted}&from_time=${iso('2025-01-01T00:00:00')}&to_time=${iso('2025-01-02T00:00:00')}`);
    expect(f.status).toBe(200);
    expect(f.body.items).toEqual([]);
  });

  it('a structure without shifts or settings: observed-time basis, defaults, and says so', async () => {
    const { status, body } = await statement(ids.bare, ids.bareWorker, '2026-03-02T00:00:00', '2026-03-03T00:00:00');
    expect(status).toBe(200);
    expect(body.loading.basis).toBe('observed');
    expect(body.loading.shift_time).toBeCloseTo(235, 9);
    expect(body.loading.regulated_break_time).toBeCloseTo(235 / 6, 9);
    expect(body.rep_param.structure.shift_start_time).toBeNull();
    expect(body.notices).toEqual([NOTICES.noShifts, NOTICES.noSettings]);
    const blocks = await call(`/api/v2/report?structure_id=${ids.bare}&from_time=${iso('2026-03-02T00:00:00')}&to_time=${iso('2026-03-03T00:00:00')}`);
    expect(blocks.status).toBe(200);
  });

  it('a partial structure hides the normative diagrams', async () => {
    const { body } = await statement(ids.partial, ids.partialWorker, '2026-03-02T08:00:00', '2026-03-02T12:00:00');
    expect(body.normative.hidden).toBe(true);
    expect(body.rep_param.structure.partial).toBe(true);
    expect(body.loading.percentage).toBeCloseTo(91.914893, 5);
    expect(body.notices).toContain(NOTICES.partial);
  });
});

describe('shifts and input errors', () => {
  it('a night shift 22:00–06:00 counts across midnight', async () => {
    const { body } = await statement(ids.night, ids.nightWorker, '2026-03-02T20:00:00', '2026-03-03T08:00:00');
    expect(body.loading.basis).toBe('shifts');
    // Observed 23:00–01:40 of the 480-minute shift: 160 minutes, 40 × 160 / 480 minutes of breaks.
    expect(body.loading.shift_time).toBe(160);
    expect(body.loading.regulated_break_time).toBeCloseTo(40 / 3, 9);
    expect(body.notices).toContain(NOTICES.partlyObserved(['02.03.2026 22:00–06:00, наблюдение 23:00–01:40']));
    expect(body.rep_param.structure).toMatchObject({ shift_start_time: '22:00:00', shift_end_time: '06:00:00' });
  });

  it('reports overlapping markups of one employee as input errors, counted as they are', async () => {
    const { body } = await statement(ids.night, ids.nightWorker, '2026-03-02T20:00:00', '2026-03-03T08:00:00');
    expect(body.input_errors).toHaveLength(1);
    expect(body.input_errors[0]).toMatchObject({ code: 'overlap' });
    expect(body.input_errors[0].message).toContain('пересекается');
    expect(body.loading.all_time).toBe(170);
    expect(body.notices.some((n: string) => n.startsWith('В разметке 1 ошибка ввода'))).toBe(true);
  });
});

describe('regulated breaks as intervals', () => {
  it('stores break intervals of a shift and owes the part inside a window that cuts it', async () => {
    const s = await structure(organizationId, 'Участок с перерывами', { settings: true });
    await exampleOperations(s);
    const worker = await s.employee('Интервалов Иван');
    await workedExample(s, worker, '2026-03-02');
    // Observed on to the shift's end, so the windows below cut an observed shift.
    await s.mark(worker, 'Сборка узла', '2026-03-02T12:10:00', '2026-03-02T16:00:00');
    const put = (shifts: unknown) => call(`/api/v1/structure/${s.id}`, admin, { method: 'PUT', body: JSON.stringify({ shifts }) });
    const shift = (breaks: unknown, minutes = 0) => [{ name: 'Первая', start_time: '08:00', end_time: '16:00', regular_break_duration_min: minutes, breaks }];
    const good = [
      { start_time: '10:00', end_time: '10:15' },
      { start_time: '12:00', end_time: '12:40' },
      { start_time: '14:30', end_time: '14:45' },
    ];

    // Bad intervals: outside the shift, overlapping, or not adding up to the minutes entered.
    const outside = await put(shift([{ start_time: '07:00', end_time: '07:30' }]));
    expect(outside.status).toBe(400);
    expect(outside.body.error.message).toContain('внутри смены');
    expect(
      (
        await put(
          shift([
            { start_time: '10:00', end_time: '10:30' },
            { start_time: '10:15', end_time: '10:45' },
          ]),
        )
      ).body.error.message,
    ).toContain('пересекаются');
    expect((await put(shift(good, 60))).body.error.message).toContain('70 мин');

    const saved = await put(shift(good));
    expect(saved.status).toBe(200);
    expect(saved.body.shifts[0]).toMatchObject({
      regular_break_duration_min: 70,
      breaks: good.map((b) => ({ start_time: `${b.start_time}:00`, end_time: `${b.end_time}:00` })),
    });

    // Window 08:00–12:20: 15 + 20 = 35 minutes of breaks (pro rata it would be 37.9).
    const { body } = await statement(s.id, worker, '2026-03-02T08:00:00', '2026-03-02T12:20:00');
    expect(body.loading.shift_time).toBe(260);
    expect(body.loading.regulated_break_time).toBe(35);
    expect(body.breaks.filter((b: { type: string }) => b.type === 'regulated')).toEqual([
      { type: 'regulated', start_datetime: iso('2026-03-02T10:00:00'), end_datetime: iso('2026-03-02T10:15:00'), len: 900 },
      { type: 'regulated', start_datetime: iso('2026-03-02T12:00:00'), end_datetime: iso('2026-03-02T12:20:00'), len: 1200 },
    ]);
    // The whole shift: all 70 minutes.
    expect((await statement(s.id, worker, '2026-03-02T00:00:00', '2026-03-03T00:00:00')).body.loading.regulated_break_time).toBe(70);
  });

  it('places the breaks of a night shift after midnight', async () => {
    const s = await structure(organizationId, 'Ночные перерывы', { settings: true });
    await s.addOperation('Сборка узла', 'main');
    const worker = await s.employee('Ночной Олег');
    await s.mark(worker, 'Сборка узла', '2026-03-02T23:00:00', '2026-03-03T03:00:00');
    const saved = await call(`/api/v1/structure/${s.id}`, admin, {
      method: 'PUT',
      body: JSON.stringify({
        shifts: [
          {
            name: 'Ночь',
            start_time: '22:00',
            end_time: '06:00',
            breaks: [
              { start_time: '23:50', end_time: '00:20' },
              { start_time: '02:00', end_time: '02:30' },
            ],
          },
        ],
      }),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.shifts[0].regular_break_duration_min).toBe(60);
    const { body } = await statement(s.id, worker, '2026-03-02T22:00:00', '2026-03-03T06:00:00');
    expect(body.loading.regulated_break_time).toBe(60);
    expect(body.breaks.filter((b: { type: string }) => b.type === 'regulated').map((b: { start_datetime: string }) => b.start_datetime)).toEqual([
      iso('2026-03-02T23:50:00'),
      iso('2026-03-03T02:00:00'),
    ]);
  });
});

describe('the statement states its time-study rule', () => {
  it('names the cleaning rule chosen for the structure, the normative Ку, its source, ε and the counts', async () => {
    const put = (body: unknown) => call(`/api/v1/structure/${ids.shifted}`, admin, { method: 'PUT', body: JSON.stringify(body) });
    const read = () => statement(ids.shifted, ids.worker, '2026-03-02T08:00:00', '2026-03-02T12:00:00');
    const before = (await read()).body;
    expect(before.cleaning_mode).toBe('one_extreme');
    const row = before.measurements.rows.find((r: { operation: { name: string } }) => r.operation.name === 'Сборка узла');
    // Two measurements of 90 and 60 min, mean 4500 s > 10 s: series production, manual work → Ку 2.0, ε 10 %.
    expect(row).toMatchObject({ normative_coef: 2, normative_source: 'reference', accuracy_percent: 10, work_kind: 'manual', n: 2, dropped: 0 });
    // CV = √((900² + 900²) / 1) / 4500 = 28.28 %; (1.96 · 28.28 / 10)² = 30.7 → 31 > 2.
    expect(row.required_measurements).toBe(31);
    expect(row.enough_measurements).toBe(false);

    const bad = await put({ cleaning_rule: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('cleaning_rule');
    expect((await read()).body.cleaning_mode).toBe('one_extreme');

    const saved = await put({ cleaning_rule: 'both_extremes' });
    expect(saved.status).toBe(200);
    expect(saved.body.cleaning_rule).toBe('both_extremes');
    const after = (await read()).body;
    expect(after.cleaning_mode).toBe('both_extremes');
    expect(after.cleaning_rule).toContain('одновременно минимальный и максимальный');
    expect((await put({ cleaning_rule: 'one_extreme' })).body.cleaning_rule).toBe('one_extreme');
  });
});

describe('a window longer than a day: Table 6 looks for gaps inside the shifts only', () => {
  it('lists no night between shift-days, nor the hours before and after the shift', async () => {
    // Shift 08:00–12:00, the §7 day marked on 2 and 3 March: 08:00–11:55 covered each day.
    const s = await structure(organizationId, 'Участок двух дней', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
    await exampleOperations(s);
    const worker = await s.employee('Два Дня');
    await workedExample(s, worker, '2026-03-02');
    await workedExample(s, worker, '2026-03-03');
    // Observed to the shift's end each day (11:58–12:00 marked), so 11:55–11:58 is a gap inside the observed part.
    for (const date of ['2026-03-02', '2026-03-03']) await s.mark(worker, 'Переход к складу', `${date}T11:58:00`, `${date}T12:00:00`);
    const gap = (date: string) => ({ type: 'gap', start_datetime: iso(`${date}T11:55:00`), end_datetime: iso(`${date}T11:58:00`), len: 180 });

    // Two days: 3 unmarked minutes near the end of each shift; the 20 hours from 12:00 to 08:00 are not a gap.
    const two = (await statement(s.id, worker, '2026-03-02T00:00:00', '2026-03-04T00:00:00')).body;
    expect(two.days).toHaveLength(2);
    expect(two.breaks).toEqual([gap('2026-03-02'), gap('2026-03-03')]);
    // One day from midnight to midnight: the shift's gap only, as in a window of the shift itself.
    const one = (await statement(s.id, worker, '2026-03-02T00:00:00', '2026-03-03T00:00:00')).body;
    expect(one.breaks).toEqual([gap('2026-03-02')]);
    // A window that cuts the shift at 11:59: the gap is inside it (the observed part runs to 11:59).
    const cut = (await statement(s.id, worker, '2026-03-02T07:00:00', '2026-03-02T11:59:00')).body;
    expect(cut.breaks).toEqual([gap('2026-03-02')]);
    // A window ending at 11:57: observed to 11:55 only, so the unobserved end is no gap.
    expect((await statement(s.id, worker, '2026-03-02T07:00:00', '2026-03-02T11:57:00')).body.breaks).toEqual([]);
  });

  it('without shifts, looks from the first segment to the last of each day', async () => {
    // No shifts: each day's range is 08:00–11:55, fully covered, so no gaps at all (before: the nights and the ends of the window).
    const s = await structure(organizationId, 'Участок двух дней без смен');
    await exampleOperations(s);
    const worker = await s.employee('Без Смен');
    await workedExample(s, worker, '2026-03-02');
    await s.mark(worker, 'Сборка узла', '2026-03-03T09:00:00', '2026-03-03T09:30:00');
    await s.mark(worker, 'Сборка узла', '2026-03-03T10:00:00', '2026-03-03T10:20:00');
    const { body } = await statement(s.id, worker, '2026-03-02T00:00:00', '2026-03-04T00:00:00');
    expect(body.loading.basis).toBe('observed');
    // Day 2: 09:30–10:00 between its two segments is the only gap.
    expect(body.breaks).toEqual([{ type: 'gap', start_datetime: iso('2026-03-03T09:30:00'), end_datetime: iso('2026-03-03T10:00:00'), len: 1800 }]);
  });
});

describe('report edges (METHODOLOGY §6)', () => {
  it('a shift-day without observation reads «нет наблюдений» and has no gaps; output is 0, not null', async () => {
    const s = await structure(organizationId, 'Участок с пропущенным днём', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
    await exampleOperations(s);
    const worker = await s.employee('Один День');
    await s.mark(worker, 'Сборка узла', '2026-03-02T08:00:00', '2026-03-02T11:00:00');
    await s.mark(worker, 'Подноска деталей', '2026-03-02T11:00:00', '2026-03-02T12:00:00');
    const { status, body } = await statement(s.id, worker, '2026-03-02T00:00:00', '2026-03-04T00:00:00');
    expect(status).toBe(200);
    expect(body.days.map((d: { text: string; available_time: number }) => [d.text, d.available_time])).toEqual([
      ['240-минутный день, переработка 20 минут', 220 * 60],
      ['нет наблюдений', 0],
    ]);
    // The shift of 3 March, not observed, is no gap; the window is one day of his.
    expect(body.breaks).toEqual([]);
    expect(body.loading.text).toBe('240-минутный день, переработка 20 минут');
    expect(body.rep_param.product_num).toBe(0);
    expect(body.takt).toMatchObject({ product_num: 0, takt: null });
    expect(body.days.map((d: { product_num: number | null }) => d.product_num)).toEqual([0, 0]);
  });

  it('places each employee’s own rest above his breaks in the hours of his rest (losses by hour)', async () => {
    // Shift 08:00–12:00, 20 minutes owed each. A rests 09:00–09:40 (20 min above), B 10:00–10:10 (none above).
    // Spread over the structure (20 of 50 rest minutes) it would have been 16 min at 09 and 4 min at 10.
    const s = await structure(organizationId, 'Участок с отдыхом', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
    await exampleOperations(s);
    const a = await s.employee('Анна Отдых');
    const b = await s.employee('Борис Работа');
    await s.mark(a, 'Сборка узла', '2026-03-02T08:00:00', '2026-03-02T09:00:00');
    await s.mark(a, 'Отдых', '2026-03-02T09:00:00', '2026-03-02T09:40:00');
    await s.mark(a, 'Сборка узла', '2026-03-02T09:40:00', '2026-03-02T12:00:00');
    await s.mark(b, 'Сборка узла', '2026-03-02T08:00:00', '2026-03-02T10:00:00');
    await s.mark(b, 'Отдых', '2026-03-02T10:00:00', '2026-03-02T10:10:00');
    await s.mark(b, 'Сборка узла', '2026-03-02T10:10:00', '2026-03-02T12:00:00');
    const { status, body } = await call(`/api/v2/report?structure_id=${s.id}&from_time=${iso('2026-03-02T00:00:00')}&to_time=${iso('2026-03-03T00:00:00')}`);
    expect(status).toBe(200);
    const rose = body.blocks.find((x: { type: string }) => x.type === 'black_diagram');
    const hour = (h: number) => rose.sectors.find((x: { hour: number }) => x.hour === h);
    expect(hour(9)).toMatchObject({ value: 20, rest: 20, idle: 0 });
    expect(hour(10)).toMatchObject({ value: 0, rest: 0 });
    expect(rose.total).toBe(20);
  });
});

describe('the block report names its time-study rule', () => {
  it('states the cleaning rule and gives the source of each operation’s normative Ку', async () => {
    const s = await structure(organizationId, 'Участок с правилом', { settings: true, shift: ['08:00:00', '12:00:00', 20] });
    await exampleOperations(s);
    await s.addOperation('Штамповка', 'main', 1);
    const worker = await s.employee('Правило Павел');
    await workedExample(s, worker, '2026-03-02');
    await s.mark(worker, 'Штамповка', '2026-03-02T12:00:00', '2026-03-02T12:01:00');
    const read = async () =>
      (await call(`/api/v2/report?structure_id=${s.id}&from_time=${iso('2026-03-02T00:00:00')}&to_time=${iso('2026-03-03T00:00:00')}`)).body.blocks;
    const rule = (blocks: any[]) => blocks.find((b) => b.type === 'paragraph' && b.title === 'Правило хронометража');
    const table = (blocks: any[]) => blocks.find((b) => b.type === 'table' && b.title === 'Хронометраж основных операций');

    const before = await read();
    expect(rule(before).text).toMatch(/^Очистка хроноряда — по одному крайнему замеру \(выбрано в настройках структуры\)\. Пока коэффициент/);
    // The rule stands right before the table it explains.
    expect(before.indexOf(table(before))).toBe(before.indexOf(rule(before)) + 1);
    expect(table(before).columns.map((c: { key: string }) => c.key)).toContain('normative_source');
    const sources = Object.fromEntries(table(before).rows.map((r: { name: string; normative_source: string }) => [r.name, r.normative_source]));
    // Series production by default; «Штамповка» is machine-paced, so the machine rows apply.
    const reference = 'справочник (Значения по умолчанию Norma, базовая редакция): серийное производство';
    expect(sources).toEqual({ 'Сборка узла': `${reference}, ручная работа`, Штамповка: `${reference}, машинная работа` });

    const put = await call(`/api/v1/structure/${s.id}`, admin, {
      method: 'PUT',
      body: JSON.stringify({ cleaning_rule: 'both_extremes', time_series_stability_threshold: 1.5 }),
    });
    expect(put.status).toBe(200);
    const after = await read();
    expect(rule(after).text).toContain('Очистка хроноряда — минимальный и максимальный замеры вместе');
    expect(rule(after).text).toContain('одновременно минимальный и максимальный');
    const row = table(after).rows.find((r: { name: string }) => r.name === 'Сборка узла');
    expect(row).toMatchObject({ normative_coef: 1.5, normative_source: 'порог устойчивости структуры' });
  });
});

describe('units produced: product stamps or a hand-entered value per window', () => {
  const window = () => `structure_id=${ids.shifted}&employee_id=${ids.worker}&from_time=${iso('2026-03-02T08:00:00')}&to_time=${iso('2026-03-02T12:00:00')}`;

  it('counts product stamps of the employee in the window', async () => {
    await t.deps.db
      .insertInto('video_stamps')
      .values([
        { structure_id: ids.shifted, video_id: null, type: 'product', at: at('2026-03-02T09:00:00'), employee_id: ids.worker, author_id: null, created_at: 0 },
        { structure_id: ids.shifted, video_id: null, type: 'product', at: at('2026-03-02T11:00:00'), employee_id: ids.worker, author_id: null, created_at: 0 },
        { structure_id: ids.shifted, video_id: null, type: 'note', at: at('2026-03-02T11:00:00'), employee_id: ids.worker, author_id: null, created_at: 0 },
        { structure_id: ids.shifted, video_id: null, type: 'product', at: at('2026-03-02T12:00:00'), employee_id: ids.worker, author_id: null, created_at: 0 },
      ])
      .execute();
    const { body } = await call(`/api/v1/report/products?${window()}`);
    expect(body).toEqual({ product_num: 2, products_description: '', source: 'stamps', stamp_count: 2 });
  });

  it('stores a hand-entered value for exactly that window (workspace.write), and the statement uses it', async () => {
    const put = (cookie: string, body: unknown) => call(`/api/v1/report/products?${window()}`, cookie, { method: 'PUT', body: JSON.stringify(body) });
    expect((await put(viewer, { product_num: 10, products_description: 'Корпуса' })).status).toBe(403);
    expect((await put(analyst, { product_num: -1 })).status).toBe(400);
    expect((await put(analyst, { product_num: 1.5 })).body.error.message).toContain('product_num');
    const saved = await put(analyst, { product_num: 10, products_description: '  Корпуса редукторов  ' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ product_num: 10, products_description: 'Корпуса редукторов', source: 'manual', stamp_count: 2 });
    const { body } = await statement(ids.shifted, ids.worker, '2026-03-02T08:00:00', '2026-03-02T12:00:00');
    expect(body.rep_param).toMatchObject({ product_num: 10, products_description: 'Корпуса редукторов', products_source: 'manual' });
    expect(body.takt.takt).toBe(14100 / 10);
    // Another window of the same day still counts stamps.
    const other = await statement(ids.shifted, ids.worker, '2026-03-02T08:00:00', '2026-03-02T11:30:00');
    expect(other.body.rep_param.product_num).toBe(2);
    const cleared = await put(analyst, { product_num: null });
    expect(cleared.body.source).toBe('stamps');
  });

  it('shows a value entered in the statement in the block report of the same window too', async () => {
    const put = (query: string, body: unknown) => call(`/api/v1/report/products?${query}`, analyst, { method: 'PUT', body: JSON.stringify(body) });
    const blocks = async () => {
      const { body } = await call(`/api/v2/report?structure_id=${ids.shifted}&from_time=${iso('2026-03-02T08:00:00')}&to_time=${iso('2026-03-02T12:00:00')}`);
      const staff = body.blocks.find((b: { type: string; title: string }) => b.type === 'table' && b.title === 'Загрузка сотрудников');
      const summary = body.blocks.find((b: { type: string; title: string }) => b.type === 'paragraph' && b.title === 'Итоги');
      return { row: staff.rows.find((r: { employee_id: number }) => r.employee_id === ids.worker), total: staff.total.units, summary: summary.text as string };
    };
    // Two product stamps of the worker in this window (the test above).
    expect((await blocks()).row.units).toBe(2);
    expect((await put(window(), { product_num: 10, products_description: '' })).status).toBe(200);
    const statementUnits = (await statement(ids.shifted, ids.worker, '2026-03-02T08:00:00', '2026-03-02T12:00:00')).body.rep_param.product_num;
    const withManual = await blocks();
    expect(statementUnits).toBe(10);
    expect(withManual.row.units).toBe(10);
    expect(withManual.total).toBe(10); // the worker's 2 stamps replaced by his 10
    expect(withManual.summary).toContain('Выпуск — 10 шт.');
    // A value entered for the whole structure is the structure's total.
    const whole = `structure_id=${ids.shifted}&from_time=${iso('2026-03-02T08:00:00')}&to_time=${iso('2026-03-02T12:00:00')}`;
    expect((await put(whole, { product_num: 25, products_description: '' })).status).toBe(200);
    expect((await blocks()).total).toBe(25);
    expect((await blocks()).row.units).toBe(10);
    await put(whole, { product_num: null });
    await put(window(), { product_num: null });
    expect((await blocks()).row.units).toBe(2);
  });

  it('refuses an employee of another structure', async () => {
    const { status } = await call(
      `/api/v1/report/products?structure_id=${ids.shifted}&employee_id=${ids.bareWorker}&from_time=${iso('2026-03-02T08:00:00')}&to_time=${iso('2026-03-02T12:00:00')}`,
    );
    expect(status).toBe(404);
  });
});

describe('reference data (organisation’s own edition)', () => {
  const defaults = async () => (await call('/api/v1/reference/stability', admin)).body;
  const edition = (coef: number) => ({
    source: 'Методика предприятия, приказ № 12',
    edition: '2026',
    rows: (['mass', 'large_series', 'series', 'small_series'] as const).flatMap((production_type) => [
      { production_type, work_kind: 'manual', coef_short: coef, coef_long: coef, accuracy_percent: 8 },
      { production_type, work_kind: 'machine', coef_short: 1.3, coef_long: 1.15, accuracy_percent: 8 },
    ]),
  });
  const put = (cookie: string, body: unknown) => call('/api/v1/reference/stability', cookie, { method: 'PUT', body: JSON.stringify(body) });

  it('starts from the defaults of METHODOLOGY §4, labelled as such', async () => {
    const table = await defaults();
    expect(table.is_default).toBe(true);
    // Named in words, not by the seed's developer note (issue 28).
    expect(table).toMatchObject({ source: 'Значения по умолчанию Norma', edition: 'базовая редакция' });
    expect(table.rows).toHaveLength(8);
    expect(table.rows.find((r: { production_type: string; work_kind: string }) => r.production_type === 'series' && r.work_kind === 'manual')).toMatchObject({
      coef_short: 2.5,
      coef_long: 2,
      accuracy_percent: 10,
      production_type_label: 'серийное',
    });
  });

  it('is edited by admins only, validated, and nothing changes on a refusal', async () => {
    expect((await put(analyst, edition(1.8))).status).toBe(403);
    expect((await call('/api/v1/reference/stability', '')).status).toBe(401);
    const seven = edition(1.8);
    seven.rows.pop();
    const refused = await put(admin, seven);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('rows');
    expect((await put(admin, edition(0.5))).body.error.message).toContain('coef_short');
    const duplicate = edition(1.8);
    duplicate.rows[1] = { ...duplicate.rows[0]! };
    expect((await put(admin, duplicate)).status).toBe(400);
    expect((await put(admin, { ...edition(1.8), source: ' ' })).body.error.message).toContain('source');
    expect((await defaults()).is_default).toBe(true);
  });

  it('an admin’s edition records source and edition and drives the organisation’s reports only', async () => {
    const saved = await put(admin, edition(1.8));
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ is_default: false, source: 'Методика предприятия, приказ № 12', edition: '2026', updated_by: 'Главная Ирина' });
    expect(saved.body.updated_at).toMatch(/^\d{4}-/);
    const { body } = await statement(ids.shifted, ids.worker, '2026-03-02T08:00:00', '2026-03-02T12:00:00');
    expect(body.all_measurements.rows[0]).toMatchObject({ normative_coef: 1.8, accuracy_percent: 8 });
    expect(body.reference).toEqual({ source: 'Методика предприятия, приказ № 12', edition: '2026', is_default: false });
    expect((await call('/api/v1/reference/stability', rival)).body.is_default).toBe(true);
    const reset = await call('/api/v1/reference/stability', admin, { method: 'DELETE' });
    expect(reset.body.is_default).toBe(true);
  });

  it('machine-paced operations use the machine rows', async () => {
    const ops = await t.deps.db.selectFrom('operations').select(['id', 'name']).where('structure_id', '=', ids.shifted).execute();
    const press = ops.find((o) => o.name === 'Штамповка')!.id;
    const workplace = (await t.deps.db.selectFrom('workplaces').select('id').where('structure_id', '=', ids.shifted).executeTakeFirstOrThrow()).id;
    const rows = [0, 1, 2, 3, 4, 5, 6].map((i) => ({
      structure_id: ids.shifted,
      operation_id: press,
      workplace_id: workplace,
      employee_id: ids.worker,
      start_time: at('2026-03-03T08:00:00') + i * 60_000,
      end_time: at('2026-03-03T08:00:00') + i * 60_000 + (i === 6 ? 50_000 : 30_000),
      comment: null,
      created_at: 0,
      updated_at: 0,
    }));
    await t.deps.db.insertInto('markups').values(rows).execute();
    const { body } = await statement(ids.shifted, ids.worker, '2026-03-03T08:00:00', '2026-03-03T12:00:00');
    const study = body.all_measurements.rows.find((r: { id: number }) => r.id === press);
    // Default machine Ку for elements over 10 s is 1.1: the 50-second outlier is dropped.
    expect(study.normative_coef).toBe(1.1);
    expect(study.measurements.map((m: { status: string }) => m.status)).toEqual([
      'accepted',
      'accepted',
      'accepted',
      'accepted',
      'accepted',
      'accepted',
      'dropped',
    ]);
  });
});

describe('bad input and access', () => {
  const good = () => ({
    structure_id: String(ids.shifted),
    employee_id: String(ids.worker),
    from_time: iso('2026-03-02T08:00:00'),
    to_time: iso('2026-03-02T12:00:00'),
  });
  const query = (over: Record<string, string | undefined>) =>
    new URLSearchParams(Object.entries({ ...good(), ...over }).filter(([, v]) => v !== undefined) as [string, string][]).toString();

  it('answers 400 naming the field, for every report call', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ structure_id: undefined }, 'structure_id'],
      [{ structure_id: 'abc' }, 'structure_id'],
      [{ employee_id: undefined }, 'employee_id'],
      [{ employee_id: '0' }, 'employee_id'],
      [{ from_time: 'вчера' }, 'from_time'],
      [{ from_time: '2026-03-02T08:00:00' }, 'from_time'],
      [{ to_time: undefined }, 'to_time'],
      [{ from_time: iso('2026-03-02T12:00:00'), to_time: iso('2026-03-02T08:00:00') }, 'to_time'],
      [{ from_time: iso('2026-01-01T00:00:00'), to_time: iso('2026-03-05T00:00:00') }, 'to_time'],
    ];
    for (const [over, field] of cases) {
      const r = await call(`/api/v1/report?${query(over)}`);
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.error.message, JSON.stringify(over)).toContain(field);
    }
    for (const path of ['/api/v2/report', '/api/v3/compute-report', '/api/v2/frv']) {
      const r = await call(`${path}?${query({ employee_id: undefined, to_time: iso('2026-03-02T07:00:00') })}`);
      expect(r.status, path).toBe(400);
      expect(r.body.error.message).toContain('to_time');
    }
    expect((await call('/api/v1/report/dates')).status).toBe(400);
  });

  it('answers 404 for another organisation’s structure or an employee of another structure, 401 without a session', async () => {
    const foreign = await call(`/api/v1/report?${query({ structure_id: String(ids.foreign), employee_id: String(ids.foreignWorker) })}`);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('Чужой');
    for (const path of ['/api/v2/report', '/api/v3/compute-report', '/api/v2/frv']) {
      expect((await call(`${path}?${query({ structure_id: String(ids.foreign), employee_id: undefined })}`)).status).toBe(404);
    }
    expect((await call(`/api/v1/report/dates?structure_id=${ids.foreign}`)).status).toBe(404);
    const stranger = await call(`/api/v1/report?${query({ employee_id: String(ids.bareWorker) })}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.message).toBe('Сотрудник не найден в этой структурной единице');
    expect((await call(`/api/v1/report?${query({})}`, '')).status).toBe(401);
  });
});
