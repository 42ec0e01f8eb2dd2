import { registerUser } from '../src/auth/service';
import type { Role } from '../src/db/schema';
import type { TestApp } from './testing';

/**
 * For API tests of the workspace calls: an organisation with one user of every role and a
 * structure holding an operation, a workplace and an employee, plus a rival organisation with a
 * structure of its own. Cookies are keyed by role; `rival` is the other organisation's admin.
 */
export async function workspaceFixture(t: TestApp) {
  const { db } = t.deps;
  const password = 'secret-pass';
  const admin = await registerUser(t.deps, { login: 'boss', password, firstName: 'Анна', lastName: 'Главная' });
  const org = admin.organizationId;
  const members: Record<Exclude<Role, 'admin'>, string> = { analyst: 'analyst', assessor: 'marker', viewer: 'watcher' };
  const names: Record<string, [string, string]> = { analyst: ['Олег', 'Аналитик'], assessor: ['Мария', 'Разметчица'], viewer: ['Вера', 'Наблюдатель'] };
  const users: Record<string, string> = { admin: admin.id };
  for (const [role, login] of Object.entries(members)) {
    const [firstName, lastName] = names[role]!;
    users[role] = (await registerUser(t.deps, { login, password, firstName, lastName }, { organizationId: org, role: role as Role })).id;
  }
  const rival = await registerUser(t.deps, { login: 'rival', password, firstName: 'Р', lastName: 'Р' });
  const now = Date.now();
  const structure = (organization_id: number, name: string, parent_id: number | null = null) =>
    db
      .insertInto('structures')
      .values({ organization_id, name, parent_id, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  const rootId = await structure(org, 'Завод');
  const structureId = await structure(org, 'Цех', rootId);
  const foreignId = await structure(rival.organizationId, 'Чужой цех');
  const operationId = (
    await db.insertInto('operations').values({ structure_id: structureId, name: 'Сборка', type: 'main' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const workplaceId = (await db.insertInto('workplaces').values({ structure_id: structureId, name: 'Стол 1' }).returning('id').executeTakeFirstOrThrow()).id;
  const employeeId = (await db.insertInto('employees').values({ structure_id: structureId, name: 'Иванов' }).returning('id').executeTakeFirstOrThrow()).id;
  const foreignOperationId = (
    await db.insertInto('operations').values({ structure_id: foreignId, name: 'Чужая', type: 'main' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const foreignWorkplaceId = (
    await db.insertInto('workplaces').values({ structure_id: foreignId, name: 'Чужой стол' }).returning('id').executeTakeFirstOrThrow()
  ).id;

  const cookies = {
    admin: await t.signIn('boss', password),
    analyst: await t.signIn('analyst', password),
    assessor: await t.signIn('marker', password),
    viewer: await t.signIn('watcher', password),
    rival: await t.signIn('rival', password),
  };
  /** A JSON request as the given user; the body is serialised. */
  const call = (method: string, path: string, who: keyof typeof cookies | null, body?: unknown) =>
    t.request(path, { method, cookie: who ? cookies[who] : undefined, body: body === undefined ? undefined : JSON.stringify(body) });
  return {
    org,
    rivalOrg: rival.organizationId,
    users,
    rootId,
    structureId,
    foreignId,
    operationId,
    workplaceId,
    employeeId,
    foreignOperationId,
    foreignWorkplaceId,
    cookies,
    call,
    now,
  };
}

export type WorkspaceFixture = Awaited<ReturnType<typeof workspaceFixture>>;
