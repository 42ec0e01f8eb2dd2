import { createRoute } from '@hono/zod-openapi';
import { requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../http/env';
import { createRouter, errorResponses, json } from '../http/openapi';
import { OperationMarkupList, PeriodQuery } from './schema';
import { listOperationMarkups } from './service';

const tags = ['Разметка'];

export function markupRoutes({ db }: AppDeps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get', path: '/api/v1/operation_markups', tags, summary: 'Разметка структурной единицы за период (новые сверху)',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: PeriodQuery },
      responses: { 200: json(OperationMarkupList), ...errorResponses },
    }),
    async (c) => {
      const { from_time, to_time } = c.req.valid('query');
      return c.json({ operation_markups: await listOperationMarkups(db, c.get('structureId'), from_time, to_time) }, 200);
    },
  );

  return app;
}
