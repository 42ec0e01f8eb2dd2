import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import { readOrganization } from '../auth/organization.service';
import type { AppDeps } from '../deps';
import { createRouter, ErrorSchema, errorResponses, json, jsonBody } from '../http/openapi';
import { OrganizationSave, OrganizationSettings, TimeZonePreview, TimeZonePreviewBody } from './schema';
import { previewTimeZone, saveOrganization } from './organization.service';

const tags = ['Организация'];
const demoZone = { 409: { description: 'Часовой пояс демонстрационной организации не меняется', content: { 'application/json': { schema: ErrorSchema } } } };

/**
 * The caller's organisation: its name and time zone (admins of that organisation), and what a new
 * time zone would change before it is saved (docs/workspace.md «Организация»).
 */
export function organizationRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/organization',
      tags,
      summary: 'Название и часовой пояс своей организации (администратор)',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      responses: { 200: json(OrganizationSettings), ...errorResponses },
    }),
    async (c) => c.json(await readOrganization(db, currentUser(c).organizationId), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/organization',
      tags,
      summary: 'Переименовать организацию и/или сменить её часовой пояс (не переданное поле не меняется)',
      description:
        'Новый пояс действует на то, что читается после сохранения: время в именах новых файлов записей, границы суток отчётов, смены. ' +
        'Начала уже зарегистрированных записей не меняются. Пояс демонстрационной организации не меняется (409).',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: jsonBody(OrganizationSave),
      responses: { 200: json(OrganizationSettings), ...errorResponses, ...demoZone },
    }),
    async (c) => c.json(await saveOrganization(db, currentUser(c).organizationId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/organization/preview',
      tags,
      summary: 'Что изменит новый часовой пояс (ничего не сохраняется): время сейчас в обоих поясах, записи с временем из имени файла',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: jsonBody(TimeZonePreviewBody),
      responses: { 200: json(TimeZonePreview), ...errorResponses, ...demoZone },
    }),
    async (c) => c.json(await previewTimeZone(db, currentUser(c).organizationId, c.req.valid('json').time_zone), 200),
  );

  return app;
}
