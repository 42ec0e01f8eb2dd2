import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { Job, JobIdParam } from '../jobs/schema';
import { cancelJob } from './cancel';

/**
 * POST /api/v1/jobs/{id}/cancel. Only the vision jobs can be cancelled, so the call lives with
 * them: the queue (api/src/jobs) knows no job kind.
 */
export function jobCancelRoutes({ db, storage }: AppDeps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/jobs/{id}/cancel',
      tags: ['Фоновые задачи'],
      summary: 'Отменить обучение или применение модели, пока оно в очереди или идёт: задача сразу cancelled, обработка останавливается',
      description:
        '404 — нет такой задачи в организации; 409 — задача уже завершена или её вид отменить нельзя (обработка видео, задачи карты). Права — как у запуска обучения (администратор, аналитик).',
      middleware: [requireAccess(db, 'workspace.write')] as const,
      request: { params: JobIdParam },
      responses: {
        200: json(Job),
        ...errorResponses,
        409: { description: 'Задача уже завершена или её нельзя отменить', content: errorResponses[400].content },
      },
    }),
    async (c) => c.json(await cancelJob(db, storage, currentUser(c).organizationId, c.req.valid('param').id), 200),
  );

  return app;
}
