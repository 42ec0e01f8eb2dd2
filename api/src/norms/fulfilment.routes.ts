import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { normFulfilment } from './fulfilment';
import { normAccess, tags } from './route-spec';
import { Fulfilment, FulfilmentQuery } from './schema';

/** How the approved norms are met over a window: by employee and shift, and the cycles far from the norm. */
export function normFulfilmentRoutes(deps: Pick<AppDeps, 'db' | 'reportThreads'>) {
  const { db } = deps;
  const { readStructure } = normAccess(db);
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norm_fulfilment',
      tags,
      summary: 'Выполнение норм за окно: по сотрудникам и сменам, и циклы, далёкие от нормы',
      middleware: [readStructure] as const,
      request: { query: FulfilmentQuery },
      responses: { 200: json(Fulfilment), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const structureId = c.get('structureId');
      // On a report thread when the server has them (main.ts): each shift-day of the window is balanced.
      if (deps.reportThreads)
        return c.body(await deps.reportThreads.run({ task: 'normFulfilment', structureId, from: q.from_time, to: q.to_time, employeeId: q.employee_id }), 200, {
          'content-type': 'application/json',
        }) as never;
      return c.json(await normFulfilment(db, structureId, q.from_time, q.to_time, q.employee_id), 200);
    },
  );
  return app;
}
