import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';

let t: TestApp;
let f: WorkspaceFixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await workspaceFixture(t);
});
afterAll(async () => t.cleanup());

const snapshot = async (structureId: number) => ({
  settings: await t.deps.db.selectFrom('structure_settings').selectAll().where('structure_id', '=', structureId).execute(),
  shifts: await t.deps.db.selectFrom('shifts').selectAll().where('structure_id', '=', structureId).orderBy('id').execute(),
  structure: await t.deps.db.selectFrom('structures').selectAll().where('id', '=', structureId).execute(),
});
const operationsOf = (structureId: number) => t.deps.db.selectFrom('operations').selectAll().where('structure_id', '=', structureId).orderBy('id').execute();

describe('GET and PUT /api/v1/structure/{id}', () => {
  it('answers defaults for a structure that never saved settings', async () => {
    const response = await f.call('GET', `/api/v1/structure/${f.structureId}`, 'viewer');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: f.structureId,
      name: 'Цех',
      parent_id: f.rootId,
      partial: false,
      production_type: 'series',
      employee_count: null,
      employee_salary: null,
      flucts_reduction: null,
      regular_break_duration: 4200,
      time_series_stability_threshold: null,
      rest_in_idle: false,
      cleaning_rule: 'one_extreme',
      shifts: [],
    });
  });

  it('saves settings, shifts, partial and production type; reads fluct_reduction back as flucts_reduction', async () => {
    const body = {
      employee_count: 12,
      employee_salary: 60000,
      fluct_reduction: 20,
      regular_break_duration: 3600,
      time_series_stability_threshold: 1.5,
      rest_in_idle: true,
      partial: true,
      production_type: 'mass',
      shifts: [
        { name: 'Дневная', start_time: '08:00', end_time: '17:00:00', regular_break_duration_min: 60 },
        { name: 'Ночная', start_time: '20:00:00', end_time: '08:00:00', regular_break_duration_min: 0 },
      ],
    };
    const response = await f.call('PUT', `/api/v1/structure/${f.structureId}`, 'analyst', body);
    expect(response.status).toBe(200);
    const saved = await response.json();
    expect(saved).toMatchObject({
      employee_count: 12,
      employee_salary: 60000,
      flucts_reduction: 20,
      regular_break_duration: 3600,
      time_series_stability_threshold: 1.5,
      rest_in_idle: true,
      partial: true,
      production_type: 'mass',
    });
    expect(saved).not.toHaveProperty('fluct_reduction');
    expect(saved.shifts.map((s: { name: string; start_time: string; end_time: string }) => [s.name, s.start_time, s.end_time])).toEqual([
      ['Дневная', '08:00:00', '17:00:00'],
      ['Ночная', '20:00:00', '08:00:00'],
    ]);
    expect(await (await f.call('GET', `/api/v1/structure/${f.structureId}`, 'analyst')).json()).toEqual(saved);
  });

  it('keeps fields left out, clears nullable ones sent as null, replaces shifts only when sent', async () => {
    const response = await f.call('PUT', `/api/v1/structure/${f.structureId}`, 'admin', { employee_count: null, rest_in_idle: false });
    const saved = await response.json();
    expect(saved).toMatchObject({ employee_count: null, employee_salary: 60000, rest_in_idle: false, partial: true });
    expect(saved.shifts).toHaveLength(2);
    const removed = await (await f.call('PUT', `/api/v1/structure/${f.structureId}`, 'admin', { shifts: [saved.shifts[1]] })).json();
    expect(removed.shifts.map((s: { name: string }) => s.name)).toEqual(['Ночная']);
    // Ids sent back are ignored: the list is replaced, other structures' shifts are untouched.
    const foreignShift = await t.deps.db
      .insertInto('shifts')
      .values({ structure_id: f.foreignId, name: 'Чужая', start_time: '08:00:00', end_time: '09:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const reused = await f.call('PUT', `/api/v1/structure/${f.structureId}`, 'admin', { shifts: [{ ...removed.shifts[0], id: foreignShift.id }] });
    expect(reused.status).toBe(200);
    expect((await t.deps.db.selectFrom('shifts').select('name').where('id', '=', foreignShift.id).executeTakeFirstOrThrow()).name).toBe('Чужая');
    await t.deps.db.deleteFrom('shifts').where('id', '=', foreignShift.id).execute();
  });

  it('refuses bad input with 400, naming the field, and changes nothing', async () => {
    const before = await snapshot(f.structureId);
    const cases: [unknown, RegExp][] = [
      [{ employee_count: 7.5 }, /employee_count/],
      [{ employee_salary: '60000' }, /employee_salary/],
      [{ fluct_reduction: 120 }, /fluct_reduction/],
      [{ regular_break_duration: -60 }, /regular_break_duration/],
      [{ regular_break_duration: null }, /regular_break_duration/],
      [{ time_series_stability_threshold: 0.5 }, /time_series_stability_threshold/],
      [{ rest_in_idle: 'да' }, /rest_in_idle/],
      [{ production_type: 'штучное' }, /production_type/],
      [{ shifts: [{ name: '', start_time: '08:00', end_time: '17:00' }] }, /name/],
      [{ shifts: [{ name: 'Дневная', start_time: '8 утра', end_time: '17:00' }] }, /start_time/],
      [{ shifts: [{ name: 'Дневная', start_time: '08:00', end_time: '08:00' }] }, /совпадают/],
      [
        {
          shifts: [
            { name: 'Дневная', start_time: '08:00', end_time: '17:00' },
            { name: 'дневная', start_time: '18:00', end_time: '20:00' },
          ],
        },
        /одинаково/,
      ],
      [
        { employee_count: 3, shifts: [{ name: 'Смена', start_time: '08:00', end_time: '17:00', regular_break_duration_min: 'час' }] },
        /regular_break_duration_min/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await f.call('PUT', `/api/v1/structure/${f.structureId}`, 'analyst', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await snapshot(f.structureId)).toEqual(before);
  });

  it('lets every role read but only admins and analysts write; hides other organisations', async () => {
    const before = await snapshot(f.structureId);
    for (const who of ['assessor', 'viewer'] as const) {
      expect((await f.call('PUT', `/api/v1/structure/${f.structureId}`, who, { employee_count: 1 })).status).toBe(403);
    }
    expect((await f.call('PUT', `/api/v1/structure/${f.structureId}`, null, { employee_count: 1 })).status).toBe(401);
    expect((await f.call('GET', `/api/v1/structure/${f.foreignId}`, 'admin')).status).toBe(404);
    expect((await f.call('PUT', `/api/v1/structure/${f.foreignId}`, 'admin', { employee_count: 1 })).status).toBe(404);
    expect((await f.call('PUT', `/api/v1/structure/${f.structureId}`, 'rival', { employee_count: 1 })).status).toBe(404);
    expect((await f.call('GET', '/api/v1/structure/abc', 'admin')).status).toBe(400);
    expect(await snapshot(f.structureId)).toEqual(before);
    expect(await snapshot(f.foreignId)).toEqual({ settings: [], shifts: [], structure: expect.any(Array) });
  });
});

describe('GET and POST /api/v1/operations', () => {
  it('lists operations with the type code → label map', async () => {
    const response = await f.call('GET', `/api/v1/operations?structure_id=${f.structureId}`, 'viewer');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.operations).toEqual([{ id: f.operationId, name: 'Сборка', type: 'main', reference_point: '', machine_paced: false }]);
    expect(body.operation_types).toMatchObject({ main: 'Основная (оперативная) работа', idle: 'Простои (нерегламентированные перерывы)' });
    expect(Object.keys(body.operation_types)).toHaveLength(7);
  });

  it('adds, edits and deletes in one save and answers the fresh list', async () => {
    const added = await (
      await f.call('POST', '/api/v1/operations', 'analyst', {
        structure_id: f.structureId,
        changed_operations: [
          { name: 'Перекур', type: 'rest', reference_point: '' },
          { name: 'Уборка', type: 'service', reference_point: 'веник' },
        ],
        operations_to_delete: [],
      })
    ).json();
    expect(added.operations.map((o: { name: string }) => o.name)).toEqual(['Сборка', 'Перекур', 'Уборка']);
    const smoke = added.operations[1];
    const cleaning = added.operations[2];
    const response = await f.call('POST', '/api/v1/operations', 'admin', {
      structure_id: f.structureId,
      changed_operations: [{ id: cleaning.id, name: '  Уборка места ', type: 'service', reference_point: 'начало уборки' }],
      operations_to_delete: [smoke.id],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.operations.map((o: { name: string; reference_point: string }) => [o.name, o.reference_point])).toEqual([
      ['Сборка', ''],
      ['Уборка места', 'начало уборки'],
    ]);
  });

  it('refuses a nameless operation with the spec text and changes nothing', async () => {
    const before = await operationsOf(f.structureId);
    const response = await f.call('POST', '/api/v1/operations', 'analyst', {
      structure_id: f.structureId,
      changed_operations: [
        { name: 'Новая', type: 'aux' },
        { name: '   ', type: 'aux' },
      ],
      operations_to_delete: [],
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('Не хватает имени у одной из операций!');
    expect(await operationsOf(f.structureId)).toEqual(before);
  });

  it('refuses unknown types, wrong types, missing fields and ids of another structure', async () => {
    const before = await operationsOf(f.structureId);
    const foreignBefore = await operationsOf(f.foreignId);
    const cases: [unknown, number, RegExp][] = [
      [{ structure_id: f.structureId, changed_operations: [{ name: 'X', type: 'lunch' }] }, 400, /lunch/],
      [{ structure_id: f.structureId, changed_operations: [{ name: 42, type: 'main' }] }, 400, /name/],
      [{ structure_id: f.structureId, changed_operations: [{ type: 'main' }] }, 400, /name/],
      [{ structure_id: f.structureId, changed_operations: 'всё' }, 400, /changed_operations/],
      [{ changed_operations: [] }, 400, /structure_id/],
      [{ structure_id: 'цех', changed_operations: [] }, 400, /structure_id/],
      [{ structure_id: f.structureId, changed_operations: [{ id: f.foreignOperationId, name: 'Моя', type: 'main' }] }, 400, /не из этой/],
      [{ structure_id: f.structureId, operations_to_delete: [f.foreignOperationId] }, 400, /не из этой/],
      [
        { structure_id: f.structureId, changed_operations: [{ id: f.operationId, name: 'A', type: 'main' }], operations_to_delete: [f.operationId] },
        400,
        /одновременно/,
      ],
      [{ structure_id: f.foreignId, changed_operations: [{ name: 'Захват', type: 'main' }] }, 404, /не найдена/],
    ];
    for (const [body, status, message] of cases) {
      const response = await f.call('POST', '/api/v1/operations', 'analyst', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await response.json()).error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await operationsOf(f.structureId)).toEqual(before);
    expect(await operationsOf(f.foreignId)).toEqual(foreignBefore);
  });

  it('refuses (409) to delete an operation that markups use, with a clear message, and changes nothing', async () => {
    const now = Date.now();
    await t.deps.db
      .insertInto('markups')
      .values({
        structure_id: f.structureId,
        operation_id: f.operationId,
        workplace_id: f.workplaceId,
        employee_id: null,
        start_time: now - 60_000,
        end_time: now,
        comment: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const before = await operationsOf(f.structureId);
    const response = await f.call('POST', '/api/v1/operations', 'analyst', {
      structure_id: f.structureId,
      changed_operations: [{ name: 'Ещё одна', type: 'aux' }],
      operations_to_delete: [f.operationId],
    });
    expect(response.status).toBe(409);
    const { error } = await response.json();
    expect(error.message).toContain('«Сборка» (1 отрезок)');
    expect(error.message).toContain('ничего не сохранено');
    expect(await operationsOf(f.structureId)).toEqual(before);
  });

  it('checks roles and organisations', async () => {
    const before = await operationsOf(f.structureId);
    for (const who of ['assessor', 'viewer'] as const) {
      const response = await f.call('POST', '/api/v1/operations', who, { structure_id: f.structureId, changed_operations: [{ name: 'X', type: 'main' }] });
      expect(response.status).toBe(403);
    }
    expect((await f.call('GET', `/api/v1/operations?structure_id=${f.foreignId}`, 'admin')).status).toBe(404);
    expect((await f.call('GET', '/api/v1/operations', 'admin')).status).toBe(400);
    expect((await f.call('GET', `/api/v1/operations?structure_id=${f.structureId}`, null)).status).toBe(401);
    expect(await operationsOf(f.structureId)).toEqual(before);
  });
});
