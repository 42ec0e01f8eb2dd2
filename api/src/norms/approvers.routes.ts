import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { tags } from './route-spec';
import { ApproverParam, NormApprovers } from './schema';
import { grantApprover, listApprovers, revokeApprover } from './service';

/** The analysts an admin lets approve norms: list, grant, revoke. */
export function normApproverRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

  const adminOnly = requireAccess(db, 'organization.admin');
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/norm_approvers',
      tags,
      summary: 'Аналитики с правом утверждать нормы (администратор)',
      middleware: [adminOnly] as const,
      responses: { 200: json(NormApprovers), ...errorResponses },
    }),
    async (c) => c.json(await listApprovers(db, currentUser(c).organizationId), 200),
  );
  for (const method of ['put', 'delete'] as const) {
    app.openapi(
      createRoute({
        method,
        path: '/api/v1/norm_approvers/{userId}',
        tags,
        summary: method === 'put' ? 'Дать аналитику право утверждать нормы' : 'Забрать право утверждать нормы',
        middleware: [adminOnly] as const,
        request: { params: ApproverParam },
        responses: { 200: json(NormApprovers), ...errorResponses },
      }),
      async (c) => {
        const user = currentUser(c);
        const { userId } = c.req.valid('param');
        return c.json(method === 'put' ? await grantApprover(db, user, userId) : await revokeApprover(db, user, userId), 200);
      },
    );
  }

  return app;
}
