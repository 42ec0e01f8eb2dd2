import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertStructure } from '../../test-support/video-fixtures';

let t: TestApp;
let cookie: string;
let structureId: number;
let foreignId: number;
const at = (time: string) => Date.parse(`2026-11-16T${time}Z`);

beforeAll(async () => {
  t = await createTestApp();
  const admin = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Л', lastName: 'Л' });
  const rival = await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });
  const { db } = t.deps;
  const now = Date.now();
  structureId = await insertStructure(db, admin.organizationId, 'Цех', { now });
  foreignId = await insertStructure(db, rival.organizationId, 'Чужой', { now });
  const operation = (
    await db.insertInto('operations').values({ structure_id: structureId, name: 'Сборка', type: 'main' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const workplace = (await db.insertInto('workplaces').values({ structure_id: structureId, name: 'Стол' }).returning('id').executeTakeFirstOrThrow()).id;
  const row = (start: string, end: string, comment: string | null = null) => ({
    structure_id: structureId,
    operation_id: operation,
    workplace_id: workplace,
    employee_id: null,
    start_time: at(start),
    end_time: at(end),
    comment,
    created_at: now,
    updated_at: now,
  });
  await db
    .insertInto('markups')
    .values([
      row('07:50:00', '08:05:00', 'через начало окна'),
      row('08:10:00', '08:20:00'),
      row('08:55:00', '09:10:00', 'через конец окна'),
      row('09:00:00', '09:30:00', 'после окна'),
      row('07:00:00', '08:00:00', 'до окна'),
    ])
    .execute();
  cookie = await t.signIn('lead', 'secret-pass');
});
afterAll(async () => t.cleanup());

const list = (query: string, c = cookie) => t.request(`/api/v1/operation_markups?${query}`, { cookie: c });

describe('GET /api/v1/operation_markups', () => {
  it('returns the markups overlapping the window, newest first, with ISO instants', async () => {
    const response = await list(`structure_id=${structureId}&from_time=2026-11-16T08:00:00Z&to_time=2026-11-16T09:00:00Z`);
    expect(response.status).toBe(200);
    const { operation_markups: rows } = await response.json();
    expect(rows.map((r: { start_time: string }) => r.start_time)).toEqual(['2026-11-16T08:55:00.000Z', '2026-11-16T08:10:00.000Z', '2026-11-16T07:50:00.000Z']);
    expect(rows[0]).toMatchObject({ end_time: '2026-11-16T09:10:00.000Z', comment: 'через конец окна', employee_id: null });
  });

  it('accepts instants with an offset', async () => {
    const response = await list(`structure_id=${structureId}&from_time=2026-11-16T11:00:00%2B03:00&to_time=2026-11-16T12:00:00%2B03:00`);
    expect((await response.json()).operation_markups).toHaveLength(3);
  });

  it('refuses bad windows with 400 and a message naming the field', async () => {
    const cases = [
      [`structure_id=${structureId}&from_time=вчера&to_time=2026-11-16T09:00:00Z`, 'from_time'],
      [`structure_id=${structureId}&from_time=2026-11-16T09:00:00Z&to_time=2026-11-16T08:00:00Z`, 'to_time'],
      [`structure_id=${structureId}&from_time=2026-11-16T08:00:00&to_time=2026-11-16T09:00:00Z`, 'from_time'],
      [`from_time=2026-11-16T08:00:00Z&to_time=2026-11-16T09:00:00Z`, 'structure_id'],
    ] as const;
    for (const [query, field] of cases) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error.message, query).toContain(field);
    }
  });

  it('does not read another organisation’s structure', async () => {
    const response = await list(`structure_id=${foreignId}&from_time=2026-11-16T08:00:00Z&to_time=2026-11-16T09:00:00Z`);
    expect(response.status).toBe(404);
  });
});
