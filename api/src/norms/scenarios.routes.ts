import { createRoute } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { body, normAccess, tags } from './route-spec';
import { LineScenarioBody, LineScenarios, NormIdParam } from './schema';
import { listScenarios, saveScenario } from './service';

/** A card's saved line-balance scenarios (the analyst's line: stations in order, operations on them): list and save. */
export function normScenarioRoutes({ db }: Pick<AppDeps, 'db'>) {
  const { readCardAccess, writeCardAccess } = normAccess(db);
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norms/{id}/line_scenarios',
      tags,
      summary: 'Сохранённые сценарии баланса линии карточки',
      middleware: [readCardAccess] as const,
      request: { params: NormIdParam },
      responses: { 200: json(LineScenarios), ...errorResponses },
    }),
    async (c) => c.json(await listScenarios(db, c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/norms/{id}/line_scenarios',
      tags,
      summary: 'Сохранить сценарий баланса линии: станции по порядку, операции на них и потребность',
      description:
        'Линия — рабочие места, через которые изделие проходит одно за другим, в порядке, заданном аналитиком. Потери (простои) станцию не занимают: ' +
        'такая операция в assignment — 400. Сценарий — не часть нормы: его можно сохранить и у утверждённой версии.',
      middleware: [writeCardAccess] as const,
      request: { params: NormIdParam, ...body(LineScenarioBody) },
      responses: { 201: json(LineScenarios), ...errorResponses },
    }),
    async (c) => c.json(await saveScenario(db, currentUser(c), c.req.valid('param').id, c.req.valid('json')), 201),
  );
  return app;
}
