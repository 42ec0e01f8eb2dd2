import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty } from '../seed/demo';
import { DEMO_PASSWORD } from '../seed/demo-plan';
import { createTestApp, testsOnPostgres, type TestApp } from '../../test-support/testing';

// A segment clipped to the window: SQLite's two-argument MIN/MAX are PostgreSQL's LEAST/GREATEST.
const clipEnd = (to: number) => (testsOnPostgres() ? sql`LEAST(m.end_time, ${to})` : sql`MIN(m.end_time, ${to})`);
const clipStart = (from: number) => (testsOnPostgres() ? sql`GREATEST(m.start_time, ${from})` : sql`MAX(m.start_time, ${from})`);

/**
 * The statement of a demo employee-day computed twice: by the API (engine) and here, by
 * hand-written SQL over the same tables and the METHODOLOGY formulas written out longhand.
 * Instants are spelled with the Moscow offset, not taken from the API's time-zone code.
 */
let t: TestApp;
let cookie: string;
let structureId: number;
const employees = new Map<string, number>();

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoIfEmpty(t.deps, { renderVideos: false });
  cookie = await t.signIn('analyst', DEMO_PASSWORD);
  structureId = (await t.deps.db.selectFrom('structures').select('id').where('name', '=', 'Участок сборки редукторов').executeTakeFirstOrThrow()).id;
  for (const e of await t.deps.db.selectFrom('employees').select(['id', 'name']).where('structure_id', '=', structureId).execute()) employees.set(e.name, e.id);
});
afterAll(async () => t.cleanup());

interface OperationSums {
  type: string;
  operation_id: number;
  ms: number;
  n: number;
  min_ms: number;
  max_ms: number;
}

async function handSums(employeeId: number | null, from: number, to: number) {
  const byEmployee = employeeId === null ? sql`` : sql`AND m.employee_id = ${employeeId}`;
  const { rows } = await sql<OperationSums & { employee_id: number }>`
    SELECT o.type AS type, o.id AS operation_id, m.employee_id AS employee_id,
           SUM(${clipEnd(to)} - ${clipStart(from)}) AS ms,
           COUNT(*) AS n,
           MIN(${clipEnd(to)} - ${clipStart(from)}) AS min_ms,
           MAX(${clipEnd(to)} - ${clipStart(from)}) AS max_ms
    FROM markups m JOIN operations o ON o.id = m.operation_id
    WHERE m.structure_id = ${structureId} ${byEmployee}
      AND m.start_time < ${to} AND m.end_time > ${from}
    GROUP BY o.type, o.id, m.employee_id
  `.execute(t.deps.db);
  const {
    rows: [span],
  } = await sql<{ first: number; last: number }>`
    SELECT MIN(${clipStart(from)}) AS first, MAX(${clipEnd(to)}) AS last
    FROM markups m WHERE m.structure_id = ${structureId} ${byEmployee} AND m.start_time < ${to} AND m.end_time > ${from}
  `.execute(t.deps.db);
  const {
    rows: [stamps],
  } = await sql<{ n: number }>`
    SELECT COUNT(*) AS n FROM video_stamps
    WHERE structure_id = ${structureId} ${employeeId === null ? sql`` : sql`AND employee_id = ${employeeId}`}
      AND type = 'product' AND at >= ${from} AND at < ${to}
  `.execute(t.deps.db);
  const {
    rows: [shift],
  } = await sql<{ start_time: string; end_time: string; minutes: number }>`
    SELECT start_time, end_time, regular_break_duration_min AS minutes FROM shifts WHERE structure_id = ${structureId}
  `.execute(t.deps.db);
  return { rows, span: span!, products: Number(stamps!.n), shift: shift! };
}

/** Seconds of one employee's markups inside [from, to). */
async function markedInside(employeeId: number, from: number, to: number): Promise<number> {
  const {
    rows: [row],
  } = await sql<{ ms: number | null }>`
    SELECT SUM(${clipEnd(to)} - ${clipStart(from)}) AS ms FROM markups m
    WHERE m.structure_id = ${structureId} AND m.employee_id = ${employeeId} AND m.start_time < ${to} AND m.end_time > ${from}
  `.execute(t.deps.db);
  return (row?.ms ?? 0) / 1000;
}

/**
 * The observed part of one employee's shift inside the window (METHODOLOGY §6): from the later of
 * the shift start and his first observation to the earlier of the shift end and his last one.
 * Null when he was not observed in it.
 */
async function observedPart(employeeId: number, shiftStart: number, shiftEnd: number, from: number, to: number) {
  const lo = Math.max(shiftStart, from);
  const hi = Math.min(shiftEnd, to);
  const {
    rows: [row],
  } = await sql<{ first: number | null; last: number | null }>`
    SELECT MIN(${clipStart(lo)}) AS first, MAX(${clipEnd(hi)}) AS last FROM markups m
    WHERE m.structure_id = ${structureId} AND m.employee_id = ${employeeId} AND m.start_time < ${hi} AND m.end_time > ${lo}
  `.execute(t.deps.db);
  if (row?.first === null || row?.first === undefined || row.last === null) return null;
  return { start: Number(row.first), end: Number(row.last) };
}

const at = (local: string) => Date.parse(`${local}+03:00`);
const byType = (rows: OperationSums[], type: string) => rows.filter((r) => r.type === type).reduce((a, r) => a + r.ms, 0) / 1000;

const cases = [
  { employee: 'Алексеев Дмитрий', date: '2026-11-16', from: '2026-11-16T00:00:00', to: '2026-11-17T00:00:00' },
  { employee: 'Алексеев Дмитрий', date: '2026-11-16', from: '2026-11-16T09:30:00', to: '2026-11-16T14:15:00' },
  { employee: 'Борисова Светлана', date: '2026-11-17', from: '2026-11-17T07:00:00', to: '2026-11-17T12:00:00' },
];

describe('statement totals: API = hand-written SQL', () => {
  it.each(cases)('$employee, $from – $to', async ({ employee, date, from: fromLocal, to: toLocal }) => {
    const employeeId = employees.get(employee)!;
    const from = at(fromLocal);
    const to = at(toLocal);
    const response = await t.request(
      `/api/v1/report?structure_id=${structureId}&employee_id=${employeeId}&from_time=${new Date(from).toISOString()}&to_time=${new Date(to).toISOString()}`,
      { cookie },
    );
    expect(response.status).toBe(200);
    const report = (await response.json()) as any;
    const hand = await handSums(employeeId, from, to);

    // Per operation: duration, count, mean (Table 1 / operations[]).
    const total = hand.rows.reduce((a, r) => a + r.ms, 0) / 1000;
    expect(report.operations).toHaveLength(hand.rows.length);
    for (const row of hand.rows) {
      const op = report.operations.find((o: { id: number }) => o.id === row.operation_id);
      expect(op.len).toBeCloseTo(row.ms / 1000, 6);
      expect(op.count).toBe(row.n);
      expect(op.ave_len).toBeCloseTo(row.ms / 1000 / row.n, 6);
      const parameter = report.parameters.find((p: { id: number }) => p.id === row.operation_id);
      expect(parameter.percent_video).toBeCloseTo((row.ms / 1000 / total) * 100, 6);
    }
    expect(report.parameters_total.len).toBeCloseTo(total, 6);
    expect(report.parameters_total.percent_video).toBeCloseTo(100, 6);

    // Day balance by operation type (minutes in loading).
    const minutes = (type: string) => byType(hand.rows, type) / 60;
    expect(report.loading.all_time).toBeCloseTo(total / 60, 6);
    expect(report.loading.main_work_time.value).toBeCloseTo(minutes('main'), 6);
    expect(report.loading.main_work_time.percent).toBeCloseTo((byType(hand.rows, 'main') / total) * 100, 6);
    expect(report.loading.add_work_time).toBeCloseTo(minutes('aux'), 6);
    expect(report.loading.pz_time).toBeCloseTo(minutes('pz'), 6);
    expect(report.loading.controltime).toBeCloseTo(minutes('service'), 6);
    expect(report.loading.movetime).toBeCloseTo(minutes('move'), 6);
    expect(report.loading.rest_time).toBeCloseTo(minutes('rest'), 6);
    expect(report.loading.idle_time).toBeCloseTo(minutes('idle'), 6);

    // Shift 08:00–17:00 Moscow, 70 minutes of breaks, counted over its observed part in the
    // window, the breaks in proportion (METHODOLOGY §6).
    const shiftStart = at(`${date}T${hand.shift.start_time}`);
    const shiftEnd = at(`${date}T${hand.shift.end_time}`);
    const part = (await observedPart(employeeId, shiftStart, shiftEnd, from, to))!;
    const inside = (part.end - part.start) / 1000;
    const breaks = hand.shift.minutes * 60 * (inside / ((shiftEnd - shiftStart) / 1000));
    const available = inside - breaks;
    const work = ['main', 'aux', 'pz', 'service', 'move'].reduce((a, type) => a + byType(hand.rows, type), 0);
    expect(report.loading.shift_time).toBeCloseTo(inside / 60, 6);
    expect(report.loading.regulated_break_time).toBeCloseTo(breaks / 60, 6);
    expect(report.loading.available_time).toBeCloseTo(available / 60, 6);
    expect(report.loading.percentage).toBeCloseTo((work / available) * 100, 6);
    expect(report.loading.overload).toBe(work > available);
    expect(report.loading.overworking).toBeCloseTo(work > available ? (work - available) / 60 : 0, 6);
    const useful = ['main', 'aux', 'pz', 'service'].reduce((a, type) => a + byType(hand.rows, type), 0);
    expect(report.loading.behind_machine.percent).toBeCloseTo((useful / total) * 100, 6);

    // Losses: idle plus rest above the regulated breaks (rest_in_idle is off in the demo).
    expect(report.losses.len).toBeCloseTo(byType(hand.rows, 'idle') + Math.max(0, byType(hand.rows, 'rest') - breaks), 6);

    // Units and takt.
    expect(report.rep_param.product_num).toBe(hand.products);
    expect(report.takt.takt).toBeCloseTo((hand.span.last - hand.span.first) / 1000 / hand.products, 6);

    // Table 4: every segment once.
    expect(report.frv).toHaveLength(hand.rows.reduce((a, r) => a + r.n, 0));
    expect(report.frv.reduce((a: number, r: { len_interval: number }) => a + r.len_interval, 0)).toBeCloseTo(total, 6);
    // Table 6: gaps are looked for inside the shift only (METHODOLOGY §2), so the hours of the
    // window before and after the shift are not counted: the shift's time in the window less the
    // marked time inside it (a demo employee's markups do not overlap).
    const gaps = report.breaks.filter((b: { type: string }) => b.type === 'gap').reduce((a: number, b: { len: number }) => a + b.len, 0);
    expect(gaps).toBeCloseTo(inside - (await markedInside(employeeId, part.start, part.end)), 6);

    // Table 3: every segment of each main operation in the window is listed; those cut by the
    // window are marked cut and are not measurements (METHODOLOGY §3).
    for (const row of hand.rows.filter((r) => r.type === 'main')) {
      const all = report.all_measurements.rows.find((r: { id: number }) => r.id === row.operation_id);
      expect(all.measurements).toHaveLength(row.n);
      // Table 3 is checked over its own series: every measurement, not the cleaned ones.
      const { rows: lens } = await sql<{ ms: number }>`
        SELECT m.end_time - m.start_time AS ms FROM markups m
        WHERE m.structure_id = ${structureId} AND m.employee_id = ${employeeId} AND m.operation_id = ${row.operation_id}
          AND m.start_time >= ${from} AND m.end_time <= ${to} AND m.end_time > m.start_time
      `.execute(t.deps.db);
      const values = lens.map((l) => Number(l.ms) / 1000);
      expect(all.measurements.filter((m: { status: string }) => m.status === 'cut').length).toBe(
        row.n - values.length - all.measurements.filter((m: { status: string }) => m.status === 'zero_length').length,
      );
      expect(all.n).toBe(values.length);
      expect(all.t_min).toBeCloseTo(Math.min(...values), 6);
      expect(all.t_max).toBeCloseTo(Math.max(...values), 6);
      expect(all.t_average).toBeCloseTo(values.reduce((a, v) => a + v, 0) / values.length, 6);
      const mean = values.reduce((a, v) => a + v, 0) / values.length;
      const fluctAve = (values.reduce((a, v) => a + Math.abs(v - mean), 0) / values.length / mean) * 100;
      expect(all.fluct_ave).toBeCloseTo(fluctAve, 6);
      expect(all.fluct_ave).toBeCloseTo(all.fluct_average, 9);
      const cv = values.length > 1 ? (Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)) / mean) * 100 : 0;
      const required = Math.max(5, Math.ceil(((1.96 * cv) / all.accuracy_percent) ** 2));
      expect(all.required_measurements).toBe(required);
      expect(all.enough_measurements).toBe(values.length >= required);
      for (const m of all.measurements.filter((x: { status: string }) => x.status !== 'cut')) {
        expect(m.fluct_perc).toBeCloseTo(((m.len - mean) / mean) * 100, 6);
        expect(m.fluct_perc).toBeLessThanOrEqual(all.fluct_max + 1e-9);
      }
    }
  });
});

describe('a two-day statement: each shift-day separately, then the sums', () => {
  it.each(['Алексеев Дмитрий', 'Борисова Светлана'])('%s, 16–18 November', async (employee) => {
    const employeeId = employees.get(employee)!;
    const from = at('2026-11-16T00:00:00');
    const to = at('2026-11-18T00:00:00');
    const response = await t.request(
      `/api/v1/report?structure_id=${structureId}&employee_id=${employeeId}&from_time=${new Date(from).toISOString()}&to_time=${new Date(to).toISOString()}`,
      { cookie },
    );
    const report = (await response.json()) as any;
    const perDay = [];
    for (const [dayFrom, dayTo] of [
      [from, at('2026-11-17T00:00:00')],
      [at('2026-11-17T00:00:00'), to],
    ] as const) {
      const hand = await handSums(employeeId, dayFrom, dayTo);
      const work = ['main', 'aux', 'pz', 'service', 'move'].reduce((a, type) => a + byType(hand.rows, type), 0);
      perDay.push({ hand, work, length: hand.rows.length > 0 ? (hand.span.last - hand.span.first) / 1000 : 0 });
    }
    const whole = await handSums(employeeId, from, to);
    expect(report.days).toHaveLength(2);
    perDay.forEach((day, k) => {
      expect(report.days[k].work_time).toBeCloseTo(day.work, 6);
      expect(report.days[k].actual_day_len).toBeCloseTo(day.length, 6);
      expect(report.days[k].product_num).toBe(day.hand.products);
    });
    // Takt over the working days only: the night between them is not working time.
    const length = perDay.reduce((a, d) => a + d.length, 0);
    expect(report.takt.actual_day_len).toBeCloseTo(length, 6);
    if (whole.products > 0) expect(report.takt.takt).toBeCloseTo(length / whole.products, 6);
    const active = perDay.filter((d) => d.hand.rows.length > 0).length;
    if (active > 1) expect(report.loading.text).toMatch(/^2 дня: \d+ минут/);
    else expect(report.loading.text).toMatch(/-минутный день/);
    // The window's figures are the sums of the days.
    expect(report.days.reduce((a: number, d: { available_time: number }) => a + d.available_time, 0)).toBeCloseTo(report.balance.available_time, 6);
    expect(report.days.reduce((a: number, d: { regulated_break_time: number }) => a + d.regulated_break_time, 0)).toBeCloseTo(
      report.balance.regulated_break_time,
      6,
    );
    // Table 6 looks for gaps inside each day's shift (08:00–17:00) only: the night between the
    // days is not working time, so it is never a gap, and the gaps are each shift less its markups.
    let unmarked = 0;
    for (const date of ['2026-11-16', '2026-11-17']) {
      const part = await observedPart(employeeId, at(`${date}T${whole.shift.start_time}`), at(`${date}T${whole.shift.end_time}`), from, to);
      if (part) unmarked += (part.end - part.start) / 1000 - (await markedInside(employeeId, part.start, part.end));
    }
    const gaps = report.breaks.filter((b: { type: string }) => b.type === 'gap');
    expect(gaps.reduce((a: number, b: { len: number }) => a + b.len, 0)).toBeCloseTo(unmarked, 6);
    const nightStart = at(`2026-11-16T${whole.shift.end_time}`);
    const nightEnd = at(`2026-11-17T${whole.shift.start_time}`);
    for (const b of gaps) expect(Date.parse(b.end_datetime) <= nightStart || Date.parse(b.start_datetime) >= nightEnd).toBe(true);
  });
});

describe('block report totals: API = hand-written SQL', () => {
  it('sums observed time, losses and units of the whole structure for a day', async () => {
    const from = at('2026-11-16T00:00:00');
    const to = at('2026-11-17T00:00:00');
    const response = await t.request(
      `/api/v2/report?structure_id=${structureId}&from_time=${new Date(from).toISOString()}&to_time=${new Date(to).toISOString()}`,
      { cookie },
    );
    const { blocks } = (await response.json()) as any;
    const hand = await handSums(null, from, to);
    const staff = blocks.find((b: { type: string; title: string }) => b.type === 'table' && b.title === 'Загрузка сотрудников');
    expect(staff.total.observed).toBeCloseTo(hand.rows.reduce((a, r) => a + r.ms, 0) / 60_000, 1);
    expect(staff.total.units).toBe(hand.products);
    const ids = [...new Set(hand.rows.map((r) => (r as OperationSums & { employee_id: number }).employee_id))];
    expect(staff.rows.map((r: { employee_id: number }) => r.employee_id).sort()).toEqual(ids.sort());
    // Losses of each employee: idle + rest above his breaks, 70 minutes pro rata of the observed part of his shift.
    let losses = 0;
    const shiftStart = at(`2026-11-16T${hand.shift.start_time}`);
    const shiftEnd = at(`2026-11-16T${hand.shift.end_time}`);
    for (const id of ids) {
      const own = hand.rows.filter((r) => (r as OperationSums & { employee_id: number }).employee_id === id);
      const part = await observedPart(id, shiftStart, shiftEnd, from, to);
      const owed = part ? hand.shift.minutes * 60 * ((part.end - part.start) / (shiftEnd - shiftStart)) : 0;
      losses += byType(own, 'idle') + Math.max(0, byType(own, 'rest') - owed);
    }
    expect(blocks.find((b: { type: string }) => b.type === 'pareto').total).toBeCloseTo(losses / 60, 1);
    const rose = blocks.find((b: { type: string }) => b.type === 'black_diagram');
    expect(rose.sectors.reduce((a: number, s: { value: number }) => a + s.value, 0)).toBeCloseTo(losses / 60, 0);
    // One day: no table by shift-days.
    expect(blocks.some((b: { title: string }) => b.title === 'Загрузка по сменам-дням')).toBe(false);
  });

  it('splits a two-day window into shift-days that add up to the staff totals', async () => {
    const from = at('2026-11-16T00:00:00');
    const to = at('2026-11-18T00:00:00');
    const response = await t.request(
      `/api/v2/report?structure_id=${structureId}&from_time=${new Date(from).toISOString()}&to_time=${new Date(to).toISOString()}`,
      { cookie },
    );
    const { blocks } = (await response.json()) as any;
    const days = blocks.find((b: { title: string }) => b.title === 'Загрузка по сменам-дням');
    const staff = blocks.find((b: { type: string; title: string }) => b.type === 'table' && b.title === 'Загрузка сотрудников');
    expect(days.rows.map((r: { date: string }) => r.date)).toEqual(['2026-11-16', '2026-11-17']);
    const work = [from, at('2026-11-17T00:00:00'), to];
    for (let k = 0; k < 2; k++) {
      const hand = await handSums(null, work[k]!, work[k + 1]!);
      const w = ['main', 'aux', 'pz', 'service', 'move'].reduce((a, type) => a + byType(hand.rows, type), 0);
      expect(days.rows[k].work).toBeCloseTo(w / 60, 1);
      expect(days.rows[k].units).toBe(hand.products);
    }
    expect(days.total.work).toBeCloseTo(staff.total.work, 1);
    expect(days.total.available).toBeCloseTo(staff.total.available, 1);
    expect(days.total.load).toBe(staff.total.load);
    const summary = blocks.find((b: { type: string; title: string }) => b.type === 'paragraph' && b.title === 'Итоги');
    expect(summary.text).toContain('2 дня');
  });
});
