import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import { notFound } from '../http/errors';
import type { AppDeps } from '../http/env';
import { createRouter, errorResponses, json } from '../http/openapi';
import { cancelJob } from './cancel';
import { findJob } from './queue';
import { Job, JobIdParam } from './schema';

export function jobRoutes({ db, storage }: AppDeps) {
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
