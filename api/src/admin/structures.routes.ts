import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { IdParam } from '../org/schema';
import { tags, withConflict } from './route-spec';
import { AdminStructure, Message, StructureChange, StructureCreate } from './schema';
import { changeStructure, createStructure, deleteStructure, listAdminStructures } from './service';

/** The structure tree: list with counts, create, rename or move, delete an empty unit. */
export function adminStructureRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

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
      request: jsonBody(StructureCreate),
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
      request: { params: IdParam, ...jsonBody(StructureChange) },
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
  return app;
}
