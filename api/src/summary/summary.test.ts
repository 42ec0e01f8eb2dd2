import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { roundToTotal } from './service';

let t: TestApp;
let f: WorkspaceFixture;
const at = (day: number, time: string) => Date.parse(`2026-11-${day}T${time}Z`);
const query = (from: string, to: string, extra = '') => `/api/v1/summary?from_time=${from}&to_time=${to}${extra}`;
const day16 = query('2026-11-16T00:00:00Z', '2026-11-18T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  f = await workspaceFixture(t);
  const { db } = t.deps;
  const secondWorkplace = (await db.insertInto('workplaces').values({ structure_id: f.structureId, name: 'Стол 2' }).returning('id').executeTakeFirstOrThrow())
    .id;
  const row = (author: string, start: number, end: number, workplace = f.workplaceId, source: 'manual' | 'fill_gaps' | 'model' = 'manual') => ({
    structure_id: f.structureId,
    operation_id: f.operationId,
    workplace_id: workplace,
    employee_id: null,
    start_time: start,
    end_time: end,
    comment: null,
    author_id: author,
    source,
    created_at: f.now,
    updated_at: f.now,
  });
  await db
    .insertInto('markups')
    .values([
      // Мария (assessor): 09:00–10:00 and 09:30–10:30 overlap → 1.5 h on Стол 1 on the 16th…
      row(f.users.assessor!, at(16, '09:00:00'), at(16, '10:00:00')),
      row(f.users.assessor!, at(16, '09:30:00'), at(16, '10:30:00')),
      // …and 0.5 h on Стол 2 on the 17th (Moscow time: 12:00–12:30).
      row(f.users.assessor!, at(17, '09:00:00'), at(17, '09:30:00'), secondWorkplace),
      // Олег (analyst): 1 h by "fill gaps".
      row(f.users.analyst!, at(16, '11:00:00'), at(16, '12:00:00'), f.workplaceId, 'fill_gaps'),
      // A model's segments are nobody's paid work.
      row(f.users.analyst!, at(16, '13:00:00'), at(16, '17:00:00'), f.workplaceId, 'model'),
    ])
    .execute();
  // Another organisation's markups never show.
  await db
    .insertInto('markups')
    .values({
      structure_id: f.foreignId,
      operation_id: f.foreignOperationId,
      workplace_id: f.foreignWorkplaceId,
      employee_id: null,
      start_time: at(16, '09:00:00'),
      end_time: at(16, '18:00:00'),
      comment: null,
      author_id: null,
      created_at: f.now,
      updated_at: f.now,
    })
    .execute();
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

  it('rounds salaries to add up to the budget and details to add up to each salary', async () => {
    // Hours 2 (Мария: 1.5 + 0.5) and 1 (Олег): a budget of 100 000 gives 66 666.67 and 33 333.33,
    // Мария's details 50 000 and 16 666.67 — each rounded on its own, they would not add up.
    const body = await (await f.call('GET', `${day16}&budget=100000`, 'admin')).json();
    const salaries = body.assessors.map((a: { salary: number }) => a.salary);
    expect(salaries).toEqual([66666.67, 33333.33]);
    expect(Math.round(salaries.reduce((a: number, b: number) => a + b, 0) * 100)).toBe(10_000_000);
    for (const a of body.assessors) {
      const own = body.details.filter((d: { assessor_name: string }) => d.assessor_name === a.assessor_name);
      expect(Math.round(own.reduce((sum: number, d: { cost: number }) => sum + d.cost, 0) * 100)).toBe(Math.round(a.salary * 100));
      expect(Math.round(own.reduce((sum: number, d: { markup_hours: number }) => sum + d.markup_hours, 0) * 1000)).toBe(Math.round(a.markup_hours * 1000));
    }
  });

  it('rounds parts by the largest remainder so they add up to their whole', () => {
    // Each third of 100 000 rounds to 33 333.33 on its own: 99 999.99 in all.
    expect(roundToTotal([100000 / 3, 100000 / 3, 100000 / 3], 100000, 2)).toEqual([33333.34, 33333.33, 33333.33]);
    // 0.6667 + 0.6667 + 0.6667 h shown as 2 h: the largest remainders get the extra thousandths.
    expect(roundToTotal([2 / 3, 2 / 3, 2 / 3], 2, 3)).toEqual([0.667, 0.667, 0.666]);
    expect(roundToTotal([1.5, 0.5], 2, 3)).toEqual([1.5, 0.5]);
    expect(roundToTotal([], 0, 2)).toEqual([]);
  });

  it('pays an assessor for each workplace he codes, even over the same hours', async () => {
    const { db } = t.deps;
    const third = (await db.insertInto('workplaces').values({ structure_id: f.structureId, name: 'Стол 3' }).returning('id').executeTakeFirstOrThrow()).id;
    const fourth = (await db.insertInto('workplaces').values({ structure_id: f.structureId, name: 'Стол 4' }).returning('id').executeTakeFirstOrThrow()).id;
    const row = (workplace: number) => ({
      structure_id: f.structureId,
      operation_id: f.operationId,
      workplace_id: workplace,
      employee_id: null,
      start_time: at(20, '09:00:00'),
      end_time: at(20, '10:00:00'),
      comment: null,
      author_id: f.users.assessor!,
      source: 'manual' as const,
      created_at: f.now,
      updated_at: f.now,
    });
    await db
      .insertInto('markups')
      .values([row(f.workplaceId), row(third), row(fourth)])
      .execute();
    const body = await (await f.call('GET', `${query('2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z')}&hour_cost=300`, 'admin')).json();
    // The same hour at three workplaces: 3 h of work, 900 ₽.
    expect(body.assessors).toEqual([{ assessor_name: 'Мария Разметчица', markup_hours: 3, salary: 900 }]);
    expect(body.details.map((d: { markup_hours: number; cost: number }) => [d.markup_hours, d.cost])).toEqual([
      [1, 300],
      [1, 300],
      [1, 300],
    ]);
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
