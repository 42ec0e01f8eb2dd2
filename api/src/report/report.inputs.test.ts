import { assembleBlockReport, assembleInteractiveFrv, assembleStatement, type ReportInputs } from '@norma/core-wasm/report';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty } from '../seed/demo';
import { DEMO_PASSWORD, demoInstant } from '../seed/demo-plan';
import { createTestApp, type TestApp } from '../../test-support/testing';

/**
 * GET /api/v1/report/inputs is what the PWA computes reports from (issue 12): assembled from its
 * JSON, as the browser does, every report equals the API's own answer field by field, on the demo.
 */
let t: TestApp;
let cookie: string;
let structureId: number;
let employeeIds: number[];

const day = { from: new Date(demoInstant('2026-11-16', '00:00:00')).toISOString(), to: new Date(demoInstant('2026-11-17', '00:00:00')).toISOString() };
const shift = { from: new Date(demoInstant('2026-11-16', '08:00:00')).toISOString(), to: new Date(demoInstant('2026-11-16', '17:00:00')).toISOString() };
const twoDays = { from: day.from, to: new Date(demoInstant('2026-11-18', '00:00:00')).toISOString() };

async function getJson<T>(path: string): Promise<T> {
  const response = await t.request(path, { cookie });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const windowQuery = (w: { from: string; to: string }) => `structure_id=${structureId}&from_time=${w.from}&to_time=${w.to}`;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoIfEmpty(t.deps, { renderVideos: false });
  cookie = await t.signIn('analyst', DEMO_PASSWORD);
  structureId = (await t.deps.db.selectFrom('structures').select('id').where('name', '=', 'Участок сборки редукторов').executeTakeFirstOrThrow()).id;
  employeeIds = (await t.deps.db.selectFrom('employees').select('id').where('structure_id', '=', structureId).orderBy('id').execute()).map((e) => e.id);
});
afterAll(async () => t.cleanup());

describe('reports assembled from GET /api/v1/report/inputs equal the API’s reports', () => {
  it('the block report and the interactive report of a day and of two days', async () => {
    for (const w of [day, twoDays]) {
      const inputs = await getJson<ReportInputs>(`/api/v1/report/inputs?${windowQuery(w)}`);
      expect(inputs.segments.length).toBeGreaterThan(100);
      expect(inputs.stamps.length).toBeGreaterThan(0);
      expect(assembleBlockReport(inputs)).toEqual(await getJson(`/api/v2/report?${windowQuery(w)}`));
      expect(assembleInteractiveFrv(inputs)).toEqual(await getJson(`/api/v2/frv?${windowQuery(w)}`));
    }
  });

  it('the statement of every employee, from his own inputs and from the structure’s', async () => {
    const whole = await getJson<ReportInputs>(`/api/v1/report/inputs?${windowQuery(shift)}`);
    for (const employeeId of employeeIds) {
      const api = await getJson(`/api/v1/report?${windowQuery(shift)}&employee_id=${employeeId}`);
      const own = await getJson<ReportInputs>(`/api/v1/report/inputs?${windowQuery(shift)}&employee_id=${employeeId}`);
      expect(own.segments.every((s) => s.employeeId === employeeId)).toBe(true);
      expect(assembleStatement(own, employeeId)).toEqual(api);
      expect(assembleStatement(whole, employeeId)).toEqual(api);
    }
  });

  it('a hand-entered output reaches the inputs, so the browser shows it too', async () => {
    const employeeId = employeeIds[0]!;
    const put = await t.request(`/api/v1/report/products?${windowQuery(shift)}&employee_id=${employeeId}`, {
      method: 'PUT',
      cookie,
      body: JSON.stringify({ product_num: 77, products_description: 'Редуктор' }),
    });
    expect(put.status).toBe(200);
    const inputs = await getJson<ReportInputs>(`/api/v1/report/inputs?${windowQuery(shift)}&employee_id=${employeeId}`);
    expect(inputs.manualUnits).toEqual([{ employeeId, productNum: 77, productsDescription: 'Редуктор' }]);
    const statement = assembleStatement(inputs, employeeId);
    expect(statement.rep_param.product_num).toBe(77);
    expect(statement).toEqual(await getJson(`/api/v1/report?${windowQuery(shift)}&employee_id=${employeeId}`));
  });

  it('answers 400 on a bad window, 404 on an employee of another structure, 401 without a session', async () => {
    const bad = await t.request(`/api/v1/report/inputs?structure_id=${structureId}&from_time=${day.to}&to_time=${day.from}`, { cookie });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBeTruthy();
    const other = await t.deps.db.selectFrom('employees').select('id').where('structure_id', '!=', structureId).executeTakeFirstOrThrow();
    expect((await t.request(`/api/v1/report/inputs?${windowQuery(day)}&employee_id=${other.id}`, { cookie })).status).toBe(404);
    expect((await t.request(`/api/v1/report/inputs?${windowQuery(day)}`)).status).toBe(401);
  });
});
