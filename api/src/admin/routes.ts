import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom, type StructureLocator } from '../auth/access';
import type { AppDeps } from '../deps';
import { badRequest } from '../http/errors';
import { createRouter, errorResponses, json, parseId } from '../http/openapi';
import { IdParam, NamedItem, StructureQuery } from '../org/schema';
import { structureFromBody } from '../org/routes';
import {
  AdminCamera,
  AdminStructure,
  AdminUser,
  AdminUsersReply,
  CameraChange,
  CameraCreate,
  Message,
  NamedChange,
  NamedCreate,
  StructureChange,
  StructureCreate,
  UserCreate,
  UserIdParam,
  UserRoleChange,
} from './schema';
import {
  changeCamera,
  changeRole,
  changeStructure,
  createCamera,
  createNamed,
  createStructure,
  createUser,
  deleteCamera,
  deleteNamed,
  deleteStructure,
  listAdminCameras,
  listAdminStructures,
  listUsers,
  removeUser,
  renameNamed,
  structureOfCamera,
  structureOfNamed,
} from './service';

const tags = ['Администрирование'];
const withConflict = { ...errorResponses, 409: errorResponses[400] };
const body = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

function idOf(raw: string | undefined): number {
  // Decimal digits only: Number('0x10') would name id 16.
  const value = parseId(raw);
  if (value === null) throw badRequest('id: ожидается целое положительное число');
  return value;
}

/** Structure locators through an employee, a workplace or a camera in the path. */
const viaNamed =
  (table: 'employees' | 'workplaces'): StructureLocator =>
  (c, db) =>
    structureOfNamed(db, table, idOf(c.req.param('id')));
const viaCamera: StructureLocator = (c, db) => structureOfCamera(db, idOf(c.req.param('id')));

/**
 * The administration calls (admin role, `organization.admin`): users and roles, the structure
 * tree, employees, workplaces and cameras. Lists of employees and workplaces are the ordinary
 * GET /api/v1/employees and /api/v1/workplaces.
 */
export function adminRoutes({ db, auth }: AppDeps) {
  const app = createRouter();

  // ---------------------------------------------------------------- users
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/admin/users',
      tags,
      summary: 'Пользователи организации и их роли',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      responses: { 200: json(AdminUsersReply), ...errorResponses },
    }),
    async (c) => c.json(await listUsers(db, currentUser(c)), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/admin/users',
      tags,
      summary: 'Создать пользователя организации с ролью (409 — логин занят)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: body(UserCreate),
      responses: { 200: json(AdminUser), ...withConflict },
    }),
    async (c) => c.json(await createUser({ db, auth }, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/admin/users/{id}',
      tags,
      summary: 'Сменить роль (409 — последний администратор)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: { params: UserIdParam, ...body(UserRoleChange) },
      responses: { 200: json(AdminUser), ...withConflict },
    }),
    async (c) => c.json(await changeRole(db, currentUser(c), c.req.valid('param').id, c.req.valid('json').role), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/admin/users/{id}',
      tags,
      summary: 'Удалить пользователя из организации (409 — последний администратор)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: { params: UserIdParam },
      responses: { 200: json(Message), ...withConflict },
    }),
    async (c) => c.json(await removeUser(db, currentUser(c), c.req.valid('param').id), 200),
  );

  // ---------------------------------------------------------------- structures
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/admin/structures',
      tags,
      summary: 'Структурные единицы с числом дочерних, сотрудников, мест, камер и отрезков',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      responses: { 200: json(z.array(AdminStructure)), ...errorResponses },
    }),
    async (c) => c.json(await listAdminStructures(db, currentUser(c).organizationId), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/admin/structures',
      tags,
      summary: 'Создать структурную единицу (parent_id: null — корень)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: body(StructureCreate),
      responses: { 200: json(AdminStructure), ...errorResponses },
    }),
    async (c) => c.json(await createStructure(db, currentUser(c).organizationId, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/admin/structures/{id}',
      tags,
      summary: 'Переименовать или перенести в дереве (без циклов)',
      middleware: [requireAccess(db, 'organization.admin', structureFrom.param('id'))] as const,
      request: { params: IdParam, ...body(StructureChange) },
      responses: { 200: json(AdminStructure), ...errorResponses },
    }),
    async (c) => c.json(await changeStructure(db, currentUser(c).organizationId, c.get('structureId'), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/admin/structures/{id}',
      tags,
      summary: 'Удалить пустую структурную единицу (409 — в ней что-то есть)',
      middleware: [requireAccess(db, 'organization.admin', structureFrom.param('id'))] as const,
      request: { params: IdParam },
      responses: { 200: json(Message), ...withConflict },
    }),
    async (c) => c.json(await deleteStructure(db, currentUser(c).organizationId, c.get('structureId')), 200),
  );

  // ---------------------------------------------------------------- employees and workplaces
  for (const [table, label] of [
    ['employees', 'сотрудника'],
    ['workplaces', 'рабочее место'],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/v1/admin/${table}`,
        tags,
        summary: `Добавить ${label}`,
        middleware: [requireAccess(db, 'organization.admin', structureFromBody())] as const,
        request: body(NamedCreate),
        responses: { 200: json(NamedItem), ...errorResponses },
      }),
      async (c) => c.json(await createNamed(db, table, c.get('structureId'), c.req.valid('json').name), 200),
    );
    app.openapi(
      createRoute({
        method: 'put',
        path: `/api/v1/admin/${table}/{id}`,
        tags,
        summary: `Переименовать ${label}`,
        middleware: [requireAccess(db, 'organization.admin', viaNamed(table))] as const,
        request: { params: IdParam, ...body(NamedChange) },
        responses: { 200: json(NamedItem), ...errorResponses },
      }),
      async (c) => c.json(await renameNamed(db, table, c.req.valid('param').id, c.req.valid('json').name), 200),
    );
    app.openapi(
      createRoute({
        method: 'delete',
        path: `/api/v1/admin/${table}/{id}`,
        tags,
        summary: `Удалить ${label} (409 — есть в разметке)`,
        middleware: [requireAccess(db, 'organization.admin', viaNamed(table))] as const,
        request: { params: IdParam },
        responses: { 200: json(Message), ...withConflict },
      }),
      async (c) => c.json(await deleteNamed(db, table, c.req.valid('param').id), 200),
    );
  }

  // ---------------------------------------------------------------- cameras
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/admin/cameras',
      tags,
      summary: 'Камеры структурной единицы с папками хранилища',
      middleware: [requireAccess(db, 'organization.admin', structureFrom.query())] as const,
      request: { query: StructureQuery },
      responses: { 200: json(z.array(AdminCamera)), ...errorResponses },
    }),
    async (c) => c.json(await listAdminCameras(db, c.get('structureId')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/admin/cameras',
      tags,
      summary: 'Добавить камеру (номер 1–4, не повторяется в структурной единице; папка хранилища)',
      middleware: [requireAccess(db, 'organization.admin', structureFromBody())] as const,
      request: body(CameraCreate),
      responses: { 200: json(AdminCamera), ...withConflict },
    }),
    async (c) => c.json(await createCamera(db, { ...c.req.valid('json'), structure_id: c.get('structureId') }), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/admin/cameras/{id}',
      tags,
      summary: 'Изменить номер, название или папку камеры',
      middleware: [requireAccess(db, 'organization.admin', viaCamera)] as const,
      request: { params: IdParam, ...body(CameraChange) },
      responses: { 200: json(AdminCamera), ...withConflict },
    }),
    async (c) => c.json(await changeCamera(db, c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/admin/cameras/{id}',
      tags,
      summary: 'Удалить камеру без видео (409 — у неё есть видео)',
      middleware: [requireAccess(db, 'organization.admin', viaCamera)] as const,
      request: { params: IdParam },
      responses: { 200: json(Message), ...withConflict },
    }),
    async (c) => c.json(await deleteCamera(db, c.req.valid('param').id), 200),
  );

  return app;
}
