import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, videoOrStructureQuery } from '../auth/access';
import type { AppDeps } from '../http/env';
import { createRouter, errorResponses, json } from '../http/openapi';
import { NamedItem, StructureSchema, VideoOrStructureQuery } from './schema';
import { listEmployees, listStructures, listWorkplaces } from './service';

const tags = ['Структуры'];

export function orgRoutes({ db }: AppDeps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get', path: '/api/v2/get_all_structures', tags, summary: 'Все структурные единицы организации',
      middleware: [requireAccess(db, 'workspace.read')] as const,
      responses: { 200: json(z.array(StructureSchema)), 401: errorResponses[401] },
    }),
    async (c) => c.json(await listStructures(db, currentUser(c).organizationId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/api/v1/employees', tags, summary: 'Сотрудники структурной единицы (по structure_id или video_id)',
      middleware: [requireAccess(db, 'workspace.read', videoOrStructureQuery)] as const,
      request: { query: VideoOrStructureQuery },
      responses: { 200: json(z.array(NamedItem)), ...errorResponses },
    }),
    async (c) => c.json(await listEmployees(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/api/v1/workplaces', tags, summary: 'Рабочие места структурной единицы (по structure_id или video_id)',
      middleware: [requireAccess(db, 'workspace.read', videoOrStructureQuery)] as const,
      request: { query: VideoOrStructureQuery },
      responses: { 200: json(z.array(NamedItem)), ...errorResponses },
    }),
    async (c) => c.json(await listWorkplaces(db, c.get('structureId')), 200),
  );

  return app;
}
