import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { referenceTable, resetReferenceTable, saveReferenceTable } from './reference';
import { ReferenceStability, ReferenceStabilityBody } from './schema';

const tags = ['Отчёты'];

/** The organisation's reference of normative coefficients and accuracy: read, save its own edition, reset to the defaults. */
export function reportReferenceRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/reference/stability',
      tags,
      summary: 'Справочник нормативных Ку и точности, который используют отчёты организации',
      middleware: [requireAccess(db, 'reports.read')] as const,
      responses: { 200: json(ReferenceStability), 401: errorResponses[401], 403: errorResponses[403] },
    }),
    async (c) => c.json(await referenceTable(db, currentUser(c).organizationId), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/reference/stability',
      tags,
      summary: 'Сохранить свою редакцию справочника (только администратор)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: jsonBody(ReferenceStabilityBody),
      responses: { 200: json(ReferenceStability), ...errorResponses },
    }),
    async (c) => {
      const user = currentUser(c);
      await saveReferenceTable(db, user.organizationId, user.id, c.req.valid('json'));
      return c.json(await referenceTable(db, user.organizationId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/reference/stability',
      tags,
      summary: 'Вернуть значения справочника по умолчанию (только администратор)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      responses: { 200: json(ReferenceStability), 401: errorResponses[401], 403: errorResponses[403] },
    }),
    async (c) => {
      const user = currentUser(c);
      await resetReferenceTable(db, user.organizationId);
      return c.json(await referenceTable(db, user.organizationId), 200);
    },
  );
  return app;
}
