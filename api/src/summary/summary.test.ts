import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../org/workspace-fixture';
import { createTestApp, type TestApp } from '../testing';

let t: TestApp;
let f: WorkspaceFixture;
const at = (day: number, time: string) => Date.parse(`2026-11-${day}T${time}Z`);
const query = (from: string, to: string, extra = '') => `/api/v1/summary?from_time=${from}&to_time=${to}${extra}`;
const day16 = query('2026-11-16T00:00:00Z', '2026-11-18T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  f = await workspaceFixture(t);
  const { db } = t.deps;
  const secondWorkplace = (await db.insertInto('workplaces').values({ structure_id: f.structureId, name: 'Стол 2' }).returning('id').executeTakeFirstOrThrow()).id;
  const row = (author: string, start: number, end: number, workplace = f.workplaceId, source: 'manual' | 'fill_gaps' | 'model' = 'manual') => ({
    structure_id: f.structureId, operation_id: f.operationId, workplace_id: workplace, employee_id: null,
    start_time: start, end_time: end, comment: null, author_id: author, source, created_at: f.now, updated_at: f.now,
  });
  await db.insertInto('markups').values([
    // Мария (assessor): 09:00–10:00 and 09:30–10:30 overlap → 1.5 h on Стол 1 on the 16th…
    row(f.users.assessor!, at(16, '09:00:00'), at(16, '10:00:00')),
    row(f.users.assessor!, at(16, '09:30:00'), at(16, '10:30:00')),
    // …and 0.5 h on Стол 2 on the 17th (Moscow time: 12:00–12:30).
    row(f.users.assessor!, at(17, '09:00:00'), at(17, '09:30:00'), secondWorkplace),
    // Олег (analyst): 1 h by "fill gaps".
    row(f.users.analyst!, at(16, '11:00:00'), at(16, '12:00:00'), f.workplaceId, 'fill_gaps'),
    // A model's segments are nobody's paid work.
    row(f.users.analyst!, at(16, '13:00:00'), at(16, '17:00:00'), f.workplaceId, 'model'),
  ]).execute();
  // Another organisation's markups never show.
  await db.insertInto('markups').values({
    structure_id: f.foreignId, operation_id: f.foreignOperationId, workplace_id: f.foreignWorkplaceId, employee_id: null,
    start_time: at(16, '09:00:00'), end_time: at(16, '18:00:00'), comment: null, author_id: null, created_at: f.now, updated_at: f.now,
  }).execute();
});
afterAll(async () => t.cleanup());

describe('GET /api/v1/summary', () => {
  it('answers marked hours (union) and salary = hours × hour cost, with exactly the spec fields', async () => {
    const response = await f.call('GET', `${day16}&hour_cost=400`, 'analyst');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      assessors: [
        { assessor_name: 'Мария Разметчица', markup_hours: 2, salary: 800 },
        { assessor_name: 'Олег Аналитик', markup_hours: 1, salary: 400 },
      ],
      details: [
        { assessor_name: 'Мария Разметчица', date: '2026-11-16', workplace_name: 'Стол 1 (Цех)', markup_hours: 1.5, cost: 600 },
        { assessor_name: 'Олег Аналитик', date: '2026-11-16', workplace_name: 'Стол 1 (Цех)', markup_hours: 1, cost: 400 },
        { assessor_name: 'Мария Разметчица', date: '2026-11-17', workplace_name: 'Стол 2 (Цех)', markup_hours: 0.5, cost: 200 },
      ],
      budget: null,
      hour_cost: 400,
    });
  });

  it('splits the budget by share of hours when no hour cost is given', async () => {
    const body = await (await f.call('GET', `${day16}&budget=90000`, 'admin')).json();
    expect(body.assessors.map((a: { salary: number }) => a.salary)).toEqual([60000, 30000]);
    expect(body.details.map((d: { cost: number }) => d.cost)).toEqual([45000, 30000, 15000]);
    expect(body).toMatchObject({ budget: 90000, hour_cost: null });
    // Hour cost wins when both are given; empty values count as not given.
    const both = await (await f.call('GET', `${day16}&budget=90000&hour_cost=100`, 'admin')).json();
    expect(both.assessors.map((a: { salary: number }) => a.salary)).toEqual([200, 100]);
    const none = await (await f.call('GET', `${day16}&budget=&hour_cost=`, 'admin')).json();
    expect(none).toMatchObject({ budget: null, hour_cost: null });
    expect(none.assessors.map((a: { salary: number }) => a.salary)).toEqual([0, 0]);
  });

  it('clips segments to the window', async () => {
    const body = await (await f.call('GET', query('2026-11-16T09:45:00Z', '2026-11-16T11:30:00Z', '&hour_cost=100'), 'admin')).json();
    expect(body.assessors).toEqual([
      { assessor_name: 'Мария Разметчица', markup_hours: 0.75, salary: 75 },
      { assessor_name: 'Олег Аналитик', markup_hours: 0.5, salary: 50 },
    ]);
  });

  it('answers an empty window with empty tables', async () => {
    const body = await (await f.call('GET', query('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z', '&budget=100000'), 'admin')).json();
    expect(body).toEqual({ assessors: [], details: [], budget: 100000, hour_cost: null });
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [string, RegExp][] = [
      [query('вчера', '2026-11-18T00:00:00Z'), /from_time/],
      [query('2026-11-18T00:00:00Z', '2026-11-16T00:00:00Z'), /to_time/],
      [query('2026-11-16T00:00:00', '2026-11-18T00:00:00Z'), /from_time/],
      ['/api/v1/summary?to_time=2026-11-18T00:00:00Z', /from_time/],
      [query('2025-01-01T00:00:00Z', '2026-11-18T00:00:00Z'), /не больше года/],
      [`${day16}&budget=-5`, /budget/],
      [`${day16}&budget=100.5`, /budget/],
      [`${day16}&hour_cost=много`, /hour_cost/],
    ];
    for (const [path, message] of cases) {
      const response = await f.call('GET', path, 'admin');
      expect(response.status, path).toBe(400);
      expect((await response.json()).error.message, path).toMatch(message);
    }
  });

  it('is for admins and analysts of the organisation only', async () => {
    for (const who of ['assessor', 'viewer'] as const) expect((await f.call('GET', day16, who)).status).toBe(403);
    expect((await f.call('GET', day16, null)).status).toBe(401);
    const rival = await (await f.call('GET', `${day16}&hour_cost=1`, 'rival')).json();
    expect(rival.assessors).toEqual([]);
  });
});
