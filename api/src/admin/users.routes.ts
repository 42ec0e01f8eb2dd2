import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { tags, withConflict } from './route-spec';
import { AdminUser, AdminUsersReply, Message, UserCreate, UserIdParam, UserRoleChange } from './schema';
import { changeRole, createUser, listUsers, removeUser } from './service';

/** The organisation's users and their roles: list, create, change the role, remove. */
export function adminUserRoutes({ db, auth }: Pick<AppDeps, 'db' | 'auth'>) {
  const app = createRouter();

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
      request: jsonBody(UserCreate),
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
      request: { params: UserIdParam, ...jsonBody(UserRoleChange) },
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
  return app;
}
