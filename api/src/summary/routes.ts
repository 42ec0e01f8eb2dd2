import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { SummaryQuery, SummaryReply } from './schema';
import { assessorSummaryReport } from './service';

export function summaryRoutes({ db }: AppDeps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/summary',
      tags: ['Сводка'],
      summary: 'Сводка по разметчикам организации: размеченные часы и оплата за период (администратор, аналитик)',
      middleware: [requireAccess(db, 'workspace.write')] as const,
      request: { query: SummaryQuery },
      responses: { 200: json(SummaryReply), ...errorResponses },
    }),
    async (c) => {
      const user = currentUser(c);
      const q = c.req.valid('query');
      const reply = await assessorSummaryReport(db, {
        organizationId: user.organizationId,
        timeZone: user.timeZone,
        from: q.from_time,
        to: q.to_time,
        budget: q.budget,
        hourCost: q.hour_cost,
      });
      return c.json(reply, 200);
    },
  );
  return app;
}
