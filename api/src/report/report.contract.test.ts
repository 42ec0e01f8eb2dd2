import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty } from '../seed/demo';
import { DEMO_PASSWORD, demoInstant } from '../seed/demo-plan';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { BlockReport, InteractiveFrv, ReportBlock, ReportDates, StatementReport } from './schema';
import { BLOCK_TYPES, INTERACTIVE_FRV, STATEMENT_REPORT, shapeProblems } from './spec-entities';

let t: TestApp;
let cookie: string;
let assembly: number;
let packing: number;
let employee: number;
const day = (date: string) =>
  `from_time=${new Date(demoInstant(date, '00:00:00')).toISOString()}&to_time=${new Date(demoInstant(date, '00:00:00') + 86_400_000).toISOString()}`;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoIfEmpty(t.deps, { renderVideos: false });
  cookie = await t.signIn('viewer', DEMO_PASSWORD);
  const structures = await t.deps.db.selectFrom('structures').select(['id', 'name']).execute();
  assembly = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
  packing = structures.find((s) => s.name === 'Участок упаковки')!.id;
  employee = (await t.deps.db.selectFrom('employees').select('id').where('structure_id', '=', assembly).orderBy('name').executeTakeFirstOrThrow()).id;
});
afterAll(async () => t.cleanup());

const get = async (path: string) => {
  const response = await t.request(path, { cookie });
  // Replies are checked field by field by the tests.
  return { status: response.status, body: (await response.json()) as any };
};

describe('GET /api/v1/report (statement)', () => {
  it('has every field of spec 01 §3 "Statement report", "Report parameter row", "Measurement" and "Break" with its type', async () => {
    const { status, body } = await get(`/api/v1/report?structure_id=${assembly}&employee_id=${employee}&${day('2026-11-16')}`);
    expect(status).toBe(200);
    expect(shapeProblems(body, STATEMENT_REPORT)).toEqual([]);
    // The document the OpenAPI reference is built from describes the reply as it is.
    expect(StatementReport.safeParse(body).error?.issues ?? []).toEqual([]);
    // Non-empty where the demo day has data, so the shape checks above saw real rows. (Table 6,
    // `breaks`, may be empty: the demo day is marked without holes inside its observed part, and
    // the unobserved ends of a shift are no gaps — METHODOLOGY §6; its rows are checked in report.cases.)
    for (const list of [body.operations, body.parameters, body.frv, body.measurements.rows, body.all_measurements.rows, body.slices]) {
      expect(list.length).toBeGreaterThan(0);
    }
    expect(body.measurements.rows.every((r: { operation_type: string }) => r.operation_type === 'op')).toBe(true);
    expect(body.rep_param).toMatchObject({
      worker_name: 'Алексеев Дмитрий',
      date: '2026-11-16',
      products_description: '',
      structure: { name: 'Участок сборки редукторов', shift_start_time: '08:00:00', shift_end_time: '17:00:00', partial: false },
    });
    expect(body.rep_param.product_num).toBeGreaterThan(0);
    // The demo day is marked within the shift but not from its very start to its very end: the
    // statement says it was balanced over the observed part (METHODOLOGY §6), and nothing else.
    expect(body.notices).toEqual([expect.stringMatching(/^Смена наблюдалась не целиком: 16\.11\.2026 08:00–17:00, наблюдение \d\d:\d\d–\d\d:\d\d\./)]);
    expect(body.notice).toBe(body.notices[0]);
  });

  it('keeps Table 2 (cleaned series) and Table 3 (all measurements) consistent', async () => {
    const { body } = await get(`/api/v1/report?structure_id=${assembly}&employee_id=${employee}&${day('2026-11-16')}`);
    for (const row of body.all_measurements.rows) {
      const accepted = body.measurements.rows.find((r: { id: number }) => r.id === row.id);
      expect(accepted.measurements.length).toBeLessThanOrEqual(row.measurements.length);
      expect(accepted.measurements.every((m: { status: string }) => m.status === 'accepted')).toBe(true);
      expect(row.measurements.map((m: { index: number }) => m.index)).toEqual(row.measurements.map((_: unknown, i: number) => i + 1));
      expect(accepted.t_min).toBeGreaterThanOrEqual(row.t_min);
      expect(accepted.coef).toBeLessThanOrEqual(row.coef);
    }
    expect(body.all_measurements.max_operation_count).toBe(
      Math.max(...body.all_measurements.rows.map((r: { measurements: unknown[] }) => r.measurements.length)),
    );
    // The slow repetitions of the demo are dropped by the cleaning somewhere in the day.
    expect(body.all_measurements.rows.some((r: { measurements: { status: string }[] }) => r.measurements.some((m) => m.status === 'dropped'))).toBe(true);
  });
});

describe('GET /api/v2/report and /api/v3/compute-report (blocks)', () => {
  it('answers the same blocks on both paths, each of a spec type and documented shape', async () => {
    const query = `structure_id=${assembly}&from_time=${new Date(demoInstant('2026-11-16', '00:00:00')).toISOString()}&to_time=${new Date(demoInstant('2026-11-18', '00:00:00')).toISOString()}`;
    const v2 = await get(`/api/v2/report?${query}`);
    const v3 = await get(`/api/v3/compute-report?${query}`);
    expect(v2.status).toBe(200);
    expect(v3.status).toBe(200);
    expect(v3.body).toEqual(v2.body);
    expect(BlockReport.safeParse(v2.body).error?.issues ?? []).toEqual([]);
    const types = v2.body.blocks.map((b: { type: string }) => b.type);
    for (const type of types) expect(BLOCK_TYPES).toContain(type);
    // The issue's full analysis: every kind of block is there.
    expect(new Set(types)).toEqual(new Set(BLOCK_TYPES));
    for (const block of v2.body.blocks) expect(ReportBlock.safeParse(block).success, block.type).toBe(true);
  });

  it('holds the analysis the issue lists: three employees, losses by hour, the operation timing table', async () => {
    const { body } = await get(`/api/v2/report?structure_id=${assembly}&${day('2026-11-16')}`);
    const byType = (type: string) => body.blocks.filter((b: { type: string }) => b.type === type);
    expect(byType('header')[0].structure.name).toBe('Участок сборки редукторов');
    expect(byType('paragraph')[0].text).toContain('Размечено 3 сотрудника');
    const [staff, timing] = byType('table');
    expect(staff.rows).toHaveLength(3);
    expect(timing.rows.map((r: { name: string }) => r.name).sort()).toEqual(['Затяжка крепежа', 'Сборка редуктора', 'Установка подшипника']);
    expect(byType('grouped_bar')[0].categories).toHaveLength(3);
    expect(byType('grouped_bar')[0].series).toHaveLength(7);
    const rose = byType('black_diagram')[0];
    expect(rose.sectors).toHaveLength(24);
    // The shift is 08:00–17:00 Moscow time: no loss outside it.
    expect(rose.sectors.filter((s: { hour: number; value: number }) => (s.hour < 8 || s.hour >= 17) && s.value > 0)).toEqual([]);
    expect(byType('human_proportion')[0].total).toBe(3);
    const pie = byType('diagram')[0];
    expect(pie.inner.reduce((a: number, s: { percent: number }) => a + s.percent, 0)).toBeCloseTo(100, 0);
  });
});

describe('GET /api/v2/frv (interactive frv)', () => {
  it('has every field of spec 01 §3 "Interactive frv"', async () => {
    const from = new Date(demoInstant('2026-11-16', '10:30:00')).toISOString();
    const to = new Date(demoInstant('2026-11-16', '11:30:00')).toISOString();
    const { status, body } = await get(`/api/v2/frv?structure_id=${assembly}&from_time=${from}&to_time=${to}`);
    expect(status).toBe(200);
    expect(shapeProblems(body, INTERACTIVE_FRV)).toEqual([]);
    expect(InteractiveFrv.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body.structure.name).toBe('Участок сборки редукторов');
    expect(body.requested_slot).toEqual({ fromm: from, to });
    expect(body.items.length).toBeGreaterThan(50);
    for (const item of body.items) {
      expect(item.time_slot.fromm >= body.requested_slot.fromm && item.time_slot.to <= body.requested_slot.to).toBe(true);
      expect(item.duration).toBeCloseTo((Date.parse(item.time_slot.to) - Date.parse(item.time_slot.fromm)) / 1000, 6);
    }
  });
});

describe('GET /api/v1/report/dates', () => {
  it('lists the local dates that have markups, with the employees marked on each', async () => {
    const a = await get(`/api/v1/report/dates?structure_id=${assembly}`);
    expect(a.status).toBe(200);
    expect(ReportDates.safeParse(a.body).success).toBe(true);
    expect(a.body.dates).toEqual(['2026-11-16', '2026-11-17']);
    expect(a.body.employees['2026-11-16']).toHaveLength(3);
    expect(a.body.employees['2026-11-17']).toHaveLength(2);
    // The second day of packing is not marked up yet.
    expect((await get(`/api/v1/report/dates?structure_id=${packing}`)).body.dates).toEqual(['2026-11-16']);
    const empty = await t.deps.db.selectFrom('structures').select('id').where('name', '=', 'Цех окраски').executeTakeFirstOrThrow();
    expect((await get(`/api/v1/report/dates?structure_id=${empty.id}`)).body).toEqual({ dates: [], employees: {}, time_zone: 'Europe/Moscow' });
  });
});

describe('OpenAPI', () => {
  it('documents every report call', async () => {
    const doc = (await get('/api/openapi.json')).body;
    for (const path of [
      '/api/v1/report',
      '/api/v2/report',
      '/api/v3/compute-report',
      '/api/v2/frv',
      '/api/v1/report/dates',
      '/api/v1/report/products',
      '/api/v1/reference/stability',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['StatementReport', 'BlockReport', 'ReportBlock', 'InteractiveFrv', 'HeaderBlock', 'BlackDiagramBlock']),
    );
  });
});

describe('GET /api/v1/report?details=1', () => {
  it('adds the engine’s whole result only when asked', async () => {
    const base = `/api/v1/report?structure_id=${assembly}&employee_id=${employee}&${day('2026-11-16')}`;
    expect((await get(base)).body.details).toBeUndefined();
    const { body } = await get(`${base}&details=1`);
    expect(Object.keys(body.details).sort()).toEqual(['balance', 'frv', 'study']);
    expect(body.details.balance.observedSeconds).toBeCloseTo(body.loading.all_time * 60, 6);
  });
});
