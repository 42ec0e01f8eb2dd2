import { createRoute } from '@hono/zod-openapi';
import { requireAccess, structureFrom, type StructureLocator } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { IdParam, NamedItem } from '../org/schema';
import { idOf, tags, withConflict } from './route-spec';
import { Message, NamedChange, NamedCreate } from './schema';
import { createNamed, deleteNamed, renameNamed, structureOfNamed } from './service';

/** The structure of the employee or workplace in the path. */
const viaNamed =
  (table: 'employees' | 'workplaces'): StructureLocator =>
  (c, db) =>
    structureOfNamed(db, table, idOf(c.req.param('id')));

/** Employees and workplaces of a structure (the same three calls for each): add, rename, delete. */
export function adminNamedRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

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
        middleware: [requireAccess(db, 'organization.admin', structureFrom.queryOrBody())] as const,
        request: jsonBody(NamedCreate),
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
        request: { params: IdParam, ...jsonBody(NamedChange) },
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
  return app;
}
