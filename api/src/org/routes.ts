import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom, videoOrStructureQuery } from '../auth/access';
import type { AppDeps } from '../deps';
import { badRequest } from '../http/errors';
import { createRouter, errorResponses, json } from '../http/openapi';
import { readOperations, saveOperations } from './operations.service';
import { organizationRoutes } from './organization.routes';
import {
  IdParam,
  NamedItem,
  OperationsReply,
  OperationsSave,
  StructureQuery,
  StructureSchema,
  StructureSettingsReply,
  StructureSettingsSave,
  VideoOrStructureQuery,
} from './schema';
import { listEmployees, listStructures, listWorkplaces } from './service';
import { readStructureSettings, saveStructureSettings, shiftProblem } from './settings.service';

const tags = ['Структуры'];
const conflictResponse = { 409: errorResponses[400] };

export function orgRoutes({ db }: AppDeps) {
  const app = createRouter();
  app.route('/', organizationRoutes({ db }));

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v2/get_all_structures',
      tags,
      summary: 'Все структурные единицы организации',
      middleware: [requireAccess(db, 'workspace.read')] as const,
      responses: { 200: json(z.array(StructureSchema)), 401: errorResponses[401] },
    }),
    async (c) => c.json(await listStructures(db, currentUser(c).organizationId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/employees',
      tags,
      summary: 'Сотрудники структурной единицы (по structure_id или video_id)',
      middleware: [requireAccess(db, 'workspace.read', videoOrStructureQuery)] as const,
      request: { query: VideoOrStructureQuery },
      responses: { 200: json(z.array(NamedItem)), ...errorResponses },
    }),
    async (c) => c.json(await listEmployees(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/workplaces',
      tags,
      summary: 'Рабочие места структурной единицы (по structure_id или video_id)',
      middleware: [requireAccess(db, 'workspace.read', videoOrStructureQuery)] as const,
      request: { query: VideoOrStructureQuery },
      responses: { 200: json(z.array(NamedItem)), ...errorResponses },
    }),
    async (c) => c.json(await listWorkplaces(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/structure/{id}',
      tags,
      summary: 'Параметры отчёта структурной единицы и её смены',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.param('id'))] as const,
      request: { params: IdParam },
      responses: { 200: json(StructureSettingsReply), ...errorResponses },
    }),
    async (c) => c.json(await readStructureSettings(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/structure/{id}',
      tags,
      summary: 'Сохранить параметры отчёта и смены (не переданное поле не меняется; shifts заменяет список целиком)',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.param('id'))] as const,
      request: { params: IdParam, body: { content: { 'application/json': { schema: StructureSettingsSave } }, required: true } },
      responses: { 200: json(StructureSettingsReply), ...errorResponses },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const problem = input.shifts ? shiftProblem(input.shifts) : null;
      if (problem) throw badRequest(problem);
      return c.json(await saveStructureSettings(db, c.get('structureId'), input), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/operations',
      tags,
      summary: 'Операции структурной единицы и словарь типов операций',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: StructureQuery },
      responses: { 200: json(OperationsReply), ...errorResponses },
    }),
    async (c) => c.json(await readOperations(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/operations',
      tags,
      summary: 'Сохранить редактор операций: изменённые и новые операции, удаление по id (одна транзакция; 409 — операция есть в разметке)',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.queryOrBody())] as const,
      request: { body: { content: { 'application/json': { schema: OperationsSave } }, required: true } },
      responses: { 200: json(OperationsReply), ...errorResponses, ...conflictResponse },
    }),
    async (c) => c.json(await saveOperations(db, c.get('structureId'), c.req.valid('json')), 200),
  );

  return app;
}
