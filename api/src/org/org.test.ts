import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';

let t: TestApp;
let ownStructure: number;
let foreignStructure: number;
let cookie: string;
let viewerCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await registerUser(t.deps, { login: 'boss', password: 'secret-pass', firstName: 'Б', lastName: 'Б' });
  await registerUser(
    t.deps,
    { login: 'watcher', password: 'secret-pass', firstName: 'Н', lastName: 'Н' },
    { organizationId: admin.organizationId, role: 'viewer' },
  );
  const other = await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });
  const now = Date.now();
  const insert = (organization_id: number, name: string, parent_id: number | null = null) =>
    t.deps.db
      .insertInto('structures')
      .values({ organization_id, name, parent_id, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  const rootId = await insert(admin.organizationId, 'Завод');
  ownStructure = await insert(admin.organizationId, 'Цех', rootId);
  foreignStructure = await insert(other.organizationId, 'Чужой цех');
  await t.deps.db
    .insertInto('employees')
    .values([
      { structure_id: ownStructure, name: 'Яковлев' },
      { structure_id: ownStructure, name: 'Антонов' },
    ])
    .execute();
  await t.deps.db.insertInto('employees').values({ structure_id: foreignStructure, name: 'Чужой' }).execute();
  cookie = await t.signIn('boss', 'secret-pass');
  viewerCookie = await t.signIn('watcher', 'secret-pass');
});
afterAll(async () => t.cleanup());

describe('structures', () => {
  it('lists only the organisation’s own structures with parent links', async () => {
    const response = await t.request('/api/v2/get_all_structures', { cookie });
    expect(response.status).toBe(200);
    const list = (await response.json()) as { id: number; name: string; parent_id: number | null }[];
    expect(list.map((s) => s.name).sort()).toEqual(['Завод', 'Цех']);
    expect(list.find((s) => s.name === 'Цех')!.parent_id).toBe(list.find((s) => s.name === 'Завод')!.id);
  });

  it('needs a session', async () => {
    expect((await t.request('/api/v2/get_all_structures')).status).toBe(401);
  });
});

describe('structure-scoped access', () => {
  it('lists employees of an own structure, sorted by name, for any role', async () => {
    for (const c of [cookie, viewerCookie]) {
      const response = await t.request(`/api/v1/employees?structure_id=${ownStructure}`, { cookie: c });
      expect(response.status).toBe(200);
      expect((await response.json()).map((e: { name: string }) => e.name)).toEqual(['Антонов', 'Яковлев']);
    }
  });

  it('answers 404 for another organisation’s structure and leaks nothing', async () => {
    const response = await t.request(`/api/v1/employees?structure_id=${foreignStructure}`, { cookie });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error.message).toBe('Структурная единица не найдена');
    expect(JSON.stringify(body)).not.toContain('Чужой');
  });

  it('answers 400 with a JSON message for a missing or malformed structure id', async () => {
    for (const query of ['', '?structure_id=abc', '?structure_id=-1', '?structure_id=1.5']) {
      const response = await t.request(`/api/v1/workplaces${query}`, { cookie });
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toMatch(/structure_id/);
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.request('/api/v1/no_such_call', { cookie });
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
  });
});

describe('API reference', () => {
  it('publishes an OpenAPI document naming the calls and a docs page', async () => {
    const doc = await (await t.request('/api/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/api/v1/whoami', '/api/v1/login', '/api/v2/register', '/api/v1/leave', '/api/v2/get_all_structures', '/api/v1/employees']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const page = await t.request('/api/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/api/docs/swagger-ui-bundle.js');
    const bundle = await t.request('/api/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
  });
});
