import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { PeriodMarkupsReply, PeriodMarkupsSave } from './period-markups.schema';
import { readPeriodMarkups, savePeriodMarkups } from './period-markups.service';
import { PeriodQuery } from './schema';

const tags = ['Разметка'];

/** GET and POST /api/v1/operation_markups. */
export function periodMarkupRoutes({ db }: AppDeps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/operation_markups',
      tags,
      summary: 'Разметка структурной единицы за период (новые сверху) и версия окна',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: PeriodQuery },
      responses: { 200: json(PeriodMarkupsReply), ...errorResponses },
    }),
    async (c) => {
      const { from_time, to_time } = c.req.valid('query');
      return c.json(await readPeriodMarkups(db, c.get('structureId'), from_time, to_time), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/operation_markups',
      tags,
      summary: 'Сохранить разметку периода (одна транзакция; 409 — разметку окна уже изменили)',
      middleware: [requireAccess(db, 'markup.write', structureFrom.query())] as const,
      request: { query: PeriodQuery, body: { content: { 'application/json': { schema: PeriodMarkupsSave } }, required: true } },
      responses: { 200: json(PeriodMarkupsReply), ...errorResponses, 409: errorResponses[400] },
    }),
    async (c) => {
      const { from_time, to_time } = c.req.valid('query');
      const window = { structureId: c.get('structureId'), from: from_time, to: to_time };
      return c.json(await savePeriodMarkups(db, currentUser(c), window, c.req.valid('json')), 200);
    },
  );

  return app;
}
