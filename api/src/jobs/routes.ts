import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import { notFound } from '../http/errors';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { findJob } from './queue';
import { Job, JobIdParam } from './schema';

export function jobRoutes({ db }: AppDeps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/jobs/{id}',
      tags: ['Фоновые задачи'],
      summary: 'Состояние фоновой задачи организации (обработка видео и др.): статус, прогресс 0–100, результат или ошибка',
      middleware: [requireAccess(db, 'workspace.read')] as const,
      request: { params: JobIdParam },
      responses: { 200: json(Job), ...errorResponses },
    }),
    async (c) => {
      const job = await findJob(db, c.req.valid('param').id, currentUser(c).organizationId);
      if (!job) throw notFound('Задача не найдена');
      return c.json(job, 200);
    },
  );

  return app;
}
