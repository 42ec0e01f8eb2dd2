import { sql } from 'kysely';
import { memberRole, registerUser, revokeMember, setMemberRole } from '../auth/service';
import type { SessionUser } from '../http/env';
import { roleLabels } from '../auth/roles';
import type { Auth } from '../auth/auth';
import type { Db } from '../db/database';
import type { Role } from '../db/schema';
import { badRequest, conflict, notFound } from '../http/errors';
import { plural } from '@norma/core-wasm/report';
import { deleteStructureRow, insertStructure, updateStructure } from '../org/service';

/**
 * Administration of an organisation (admin role): users and roles, the structure tree,
 * employees, workplaces and cameras. Every function works inside the caller's organisation;
 * ids of another organisation are answered as "not found". Refusals change nothing.
 */

export const LAST_ADMIN_MESSAGE = 'В организации должен остаться хотя бы один администратор: сначала назначьте другого.';

// ---------------------------------------------------------------- users

export async function listUsers(db: Db, admin: SessionUser) {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('user', 'user.id', 'memberships.user_id')
    .select(['user.id', 'user.username', 'user.firstName', 'user.lastName', 'memberships.role'])
    .where('memberships.organization_id', '=', admin.organizationId)
    .orderBy('user.lastName')
    .orderBy('user.firstName')
    .execute();
  return {
    users: rows.map((r) => ({ id: r.id, login: r.username ?? '', first_name: r.firstName, last_name: r.lastName, role: r.role, is_self: r.id === admin.id })),
    roles: roleLabels as Record<string, string>,
  };
}

/** The user's role in the admin's organisation (404 when not a member there). */
async function roleOf(db: Db, admin: SessionUser, userId: string): Promise<Role> {
  const role = await memberRole(db, admin.organizationId, userId);
  if (!role) throw notFound('Пользователь не найден');
  return role;
}

async function adminCount(db: Db, organizationId: number): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select(db.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function createUser(
  deps: { db: Db; auth: Auth },
  admin: SessionUser,
  input: { login: string; first_name: string; last_name: string; password: string; role: Role },
) {
  const user = await registerUser(
    deps,
    { login: input.login, password: input.password, firstName: input.first_name, lastName: input.last_name },
    { organizationId: admin.organizationId, role: input.role },
  );
  return { id: user.id, login: user.login, first_name: user.firstName, last_name: user.lastName, role: user.role, is_self: false };
}

export async function changeRole(db: Db, admin: SessionUser, userId: string, role: Role) {
  await db.transaction().execute(async (tx) => {
    if ((await roleOf(tx, admin, userId)) === 'admin' && role !== 'admin' && (await adminCount(tx, admin.organizationId)) <= 1)
      throw conflict(LAST_ADMIN_MESSAGE);
    await setMemberRole(tx, userId, role);
  });
  const users = await listUsers(db, admin);
  return users.users.find((u) => u.id === userId)!;
}

/**
 * Removes a user from the organisation: the membership, sessions and password go, so the user
 * can no longer sign in, and the login becomes free again. The user row stays, so the names on
 * work already done (markup authors, the assessor summary) remain.
 */
export async function removeUser(db: Db, admin: SessionUser, userId: string) {
  if (userId === admin.id) throw badRequest('Нельзя удалить самого себя: попросите другого администратора');
  await db.transaction().execute(async (tx) => {
    if ((await roleOf(tx, admin, userId)) === 'admin' && (await adminCount(tx, admin.organizationId)) <= 1) throw conflict(LAST_ADMIN_MESSAGE);
    await revokeMember(tx, userId);
  });
  return { message: 'Пользователь удалён из организации' };
}

// ---------------------------------------------------------------- structures

export async function listAdminStructures(db: Db, organizationId: number) {
  const count = (table: 'employees' | 'workplaces' | 'cameras' | 'markups', alias: string) =>
    sql<number>`(SELECT count(*) FROM ${sql.table(table)} t WHERE t.structure_id = structures.id)`.as(alias);
  const rows = await db
    .selectFrom('structures')
    .select([
      'id',
      'name',
      'parent_id',
      'partial',
      'production_type',
      sql<number>`(SELECT count(*) FROM structures c WHERE c.parent_id = structures.id)`.as('children'),
      count('employees', 'employees'),
      count('workplaces', 'workplaces'),
      count('cameras', 'cameras'),
      count('markups', 'markups'),
    ])
    .where('organization_id', '=', organizationId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    ...r,
    partial: r.partial === 1,
    children: Number(r.children),
    employees: Number(r.employees),
    workplaces: Number(r.workplaces),
    cameras: Number(r.cameras),
    markups: Number(r.markups),
  }));
}

async function adminStructure(db: Db, organizationId: number, id: number) {
  const row = (await listAdminStructures(db, organizationId)).find((s) => s.id === id);
  if (!row) throw notFound('Структурная единица не найдена');
  return row;
}

async function requireOwnStructure(db: Db, organizationId: number, id: number, what = 'Структурная единица не найдена') {
  const row = await db
    .selectFrom('structures')
    .select(['id', 'parent_id'])
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) throw notFound(what);
  return row;
}

export async function createStructure(db: Db, organizationId: number, input: { name: string; parent_id: number | null }) {
  if (input.parent_id !== null) await requireOwnStructure(db, organizationId, input.parent_id, 'Родительская структурная единица не найдена');
  const id = await insertStructure(db, organizationId, input);
  return adminStructure(db, organizationId, id);
}

/** Renames and/or moves a structure; a move under itself or one of its descendants is refused. */
export async function changeStructure(db: Db, organizationId: number, id: number, input: { name?: string; parent_id?: number | null }) {
  await db.transaction().execute(async (tx) => {
    await requireOwnStructure(tx, organizationId, id);
    if (input.parent_id !== undefined && input.parent_id !== null) {
      if (input.parent_id === id) throw badRequest('Нельзя сделать структурную единицу родителем самой себя');
      await requireOwnStructure(tx, organizationId, input.parent_id, 'Родительская структурная единица не найдена');
      const all = await tx.selectFrom('structures').select(['id', 'parent_id']).where('organization_id', '=', organizationId).execute();
      const parentOf = new Map(all.map((s) => [s.id, s.parent_id]));
      const seen = new Set<number>();
      for (let at: number | null | undefined = input.parent_id; at != null && !seen.has(at); at = parentOf.get(at)) {
        if (at === id) throw badRequest('Нельзя перенести структурную единицу внутрь неё самой или её дочерней единицы');
        seen.add(at);
      }
    }
    const set: { name?: string; parent_id?: number | null } = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.parent_id !== undefined) set.parent_id = input.parent_id;
    await updateStructure(tx, id, set);
  });
  return adminStructure(db, organizationId, id);
}

/**
 * Deletes a structure that holds nothing: no child structures, employees, workplaces, cameras,
 * markups or stamps. Its configuration (settings, shifts, operations) goes with it.
 */
export async function deleteStructure(db: Db, organizationId: number, id: number) {
  await db.transaction().execute(async (tx) => {
    const row = await adminStructure(tx, organizationId, id);
    const stamps = Number(
      (await tx.selectFrom('video_stamps').select(tx.fn.countAll<number>().as('n')).where('structure_id', '=', id).executeTakeFirstOrThrow()).n,
    );
    const holds = [
      [row.children, 'дочерняя единица', 'дочерние единицы', 'дочерних единиц'],
      [row.employees, 'сотрудник', 'сотрудника', 'сотрудников'],
      [row.workplaces, 'рабочее место', 'рабочих места', 'рабочих мест'],
      [row.cameras, 'камера', 'камеры', 'камер'],
      [row.markups, 'отрезок разметки', 'отрезка разметки', 'отрезков разметки'],
      [stamps, 'отметка', 'отметки', 'отметок'],
    ] as const;
    const left = holds.filter(([n]) => n > 0).map(([n, one, few, many]) => `${n} ${plural(n, one, few, many)}`);
    if (left.length) throw conflict(`Удалить можно только пустую структурную единицу, а в «${row.name}» есть: ${left.join(', ')}.`);
    await deleteStructureRow(tx, id);
  });
  return { message: 'Структурная единица удалена' };
}

// ---------------------------------------------------------------- employees and workplaces

type NamedTable = 'employees' | 'workplaces';
const namedWords: Record<NamedTable, { one: string; used: string }> = {
  employees: { one: 'Сотрудник', used: 'Сотрудника нельзя удалить: он есть в разметке' },
  workplaces: { one: 'Рабочее место', used: 'Рабочее место нельзя удалить: оно есть в разметке' },
};

/** The structure of an employee or workplace, for the access check (404 when there is none). */
export async function structureOfNamed(db: Db, table: NamedTable, id: number): Promise<number> {
  const row = await db.selectFrom(table).select('structure_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`${namedWords[table].one} не найден${table === 'workplaces' ? 'о' : ''}`);
  return row.structure_id;
}

export async function createNamed(db: Db, table: NamedTable, structureId: number, name: string) {
  return db.insertInto(table).values({ structure_id: structureId, name }).returning(['id', 'name']).executeTakeFirstOrThrow();
}

export async function renameNamed(db: Db, table: NamedTable, id: number, name: string) {
  return db.updateTable(table).set({ name }).where('id', '=', id).returning(['id', 'name']).executeTakeFirstOrThrow();
}

/** Deletes an employee or workplace that no markup names (409 otherwise: reports would lose it). */
export async function deleteNamed(db: Db, table: NamedTable, id: number) {
  await db.transaction().execute(async (tx) => {
    const column = table === 'employees' ? 'employee_id' : 'workplace_id';
    const used = Number((await tx.selectFrom('markups').select(tx.fn.countAll<number>().as('n')).where(column, '=', id).executeTakeFirstOrThrow()).n);
    if (used > 0) throw conflict(`${namedWords[table].used} (${used} ${plural(used, 'отрезок', 'отрезка', 'отрезков')}). Переименуйте вместо удаления.`);
    await tx.deleteFrom(table).where('id', '=', id).execute();
  });
  return { message: table === 'employees' ? 'Сотрудник удалён' : 'Рабочее место удалено' };
}

// ---------------------------------------------------------------- cameras

export async function listAdminCameras(db: Db, structureId: number) {
  const rows = await db
    .selectFrom('cameras')
    .select([
      'id',
      'structure_id',
      'camera_key',
      'name',
      'storage_folder',
      sql<number>`(SELECT count(*) FROM videos v WHERE v.camera_id = cameras.id)`.as('videos'),
    ])
    .where('structure_id', '=', structureId)
    .orderBy('camera_key')
    .execute();
  return rows.map((r) => ({ ...r, videos: Number(r.videos) }));
}

/**
 * Recordings are found by folder (sync lists it recursively), so a folder belongs to one camera
 * of the whole installation and may not lie inside another camera's folder — otherwise one camera
 * (or organisation) would pick up another's recordings.
 */
async function assertFolderFree(db: Db, folder: string, exceptCameraId?: number) {
  const others = await db.selectFrom('cameras').select(['id', 'storage_folder']).execute();
  const norm = (f: string) => f.replace(/^\/+|\/+$/g, '');
  const clash = others.some((c) => {
    if (c.id === exceptCameraId) return false;
    const other = norm(c.storage_folder);
    return other === folder || other.startsWith(`${folder}/`) || folder.startsWith(`${other}/`);
  });
  if (clash) throw conflict('Эта папка хранилища уже используется другой камерой (или вложена в её папку): укажите другую.');
}

async function assertKeyFree(db: Db, structureId: number, key: number, exceptCameraId?: number) {
  const taken = await db.selectFrom('cameras').select('id').where('structure_id', '=', structureId).where('camera_key', '=', key).executeTakeFirst();
  if (taken && taken.id !== exceptCameraId) throw conflict(`Камера № ${key} в этой структурной единице уже есть: номер камеры (1–4) не должен повторяться.`);
}

export async function createCamera(db: Db, input: { structure_id: number; camera_key: number; name: string; storage_folder: string }) {
  const id = await db.transaction().execute(async (tx) => {
    await assertKeyFree(tx, input.structure_id, input.camera_key);
    await assertFolderFree(tx, input.storage_folder);
    const row = await tx.insertInto('cameras').values(input).returning('id').executeTakeFirstOrThrow();
    return row.id;
  });
  return (await listAdminCameras(db, input.structure_id)).find((c) => c.id === id)!;
}

export async function changeCamera(db: Db, id: number, input: { camera_key?: number; name?: string; storage_folder?: string }) {
  const structureId = await db.transaction().execute(async (tx) => {
    const camera = await tx.selectFrom('cameras').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    if (input.camera_key !== undefined) await assertKeyFree(tx, camera.structure_id, input.camera_key, id);
    if (input.storage_folder !== undefined) await assertFolderFree(tx, input.storage_folder, id);
    const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length) await tx.updateTable('cameras').set(set).where('id', '=', id).execute();
    return camera.structure_id;
  });
  return (await listAdminCameras(db, structureId)).find((c) => c.id === id)!;
}

/** Deletes a camera without videos (its videos, and their markup links, would go with it). */
export async function deleteCamera(db: Db, id: number) {
  await db.transaction().execute(async (tx) => {
    const videos = Number((await tx.selectFrom('videos').select(tx.fn.countAll<number>().as('n')).where('camera_id', '=', id).executeTakeFirstOrThrow()).n);
    if (videos > 0)
      throw conflict(`Камеру нельзя удалить: у неё ${videos} ${plural(videos, 'видео', 'видео', 'видео')}. Удалите видео в списке задач или оставьте камеру.`);
    await tx.deleteFrom('cameras').where('id', '=', id).execute();
  });
  return { message: 'Камера удалена' };
}
