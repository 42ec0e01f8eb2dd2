import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json } from '../http/openapi';
import { checkDumpRequest, dumpDisposition, workTimeRecord } from './tasks-dump.service';
import { DumpQuery, Message, TaskIdParam, TaskList, TasksQuery, TaskVideoParam } from './tasks.schema';
import { deleteVideo } from '../video/service';
import { finishTask, listTasks } from './tasks.service';

const tags = ['Задачи разметки'];

export function taskRoutes({ db, storage }: AppDeps) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/get_tasks',
      tags,
      summary: 'Список задач структуры (готовые видео, новые записи сверху): все / завершённые / незавершённые, поиск по имени файла',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: TasksQuery },
      responses: { 200: json(TaskList), ...errorResponses },
    }),
    async (c) => {
      const { option, offset, limit, filename_pattern } = c.req.valid('query');
      return c.json(await listTasks(db, c.get('structureId'), { option, offset, limit, filenamePattern: filename_pattern }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/task/{id}',
      tags,
      summary: 'Удалить задачу: видео и его файл (разметка остаётся, без ссылки на видео)',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.videoParam('id'))] as const,
      request: { params: TaskIdParam },
      responses: { 200: json(Message), ...errorResponses },
    }),
    async (c) => {
      await deleteVideo(db, storage, c.req.valid('param').id);
      return c.json({ message: 'Задача удалена' }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/task/{videoId}/finish',
      tags,
      summary: 'Отметить задачу завершённой',
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoParam())] as const,
      request: { params: TaskVideoParam },
      responses: { 200: json(Message), ...errorResponses },
    }),
    async (c) => {
      await finishTask(db, c.req.valid('param').videoId, currentUser(c).id);
      return c.json({ message: 'Задача завершена' }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/dump',
      tags,
      summary: 'Учёт рабочего времени камеры за дату (TSV): вся разметка видео этой камеры, начатая в этот день',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: DumpQuery },
      responses: {
        200: { description: 'TSV с заголовком', content: { 'text/tab-separated-values': { schema: z.string() } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const { cameraKey, date } = checkDumpRequest({ cameraKey: query.camera_key, date: query.date, format: query.format });
      const record = await workTimeRecord(db, c.get('structureId'), cameraKey, date);
      return new Response(record.text, {
        headers: {
          'content-type': 'text/tab-separated-values; charset=utf-8',
          'content-disposition': dumpDisposition(record.structureName, cameraKey, date),
          'cache-control': 'no-store',
        },
      }) as never;
    },
  );

  return app;
}
