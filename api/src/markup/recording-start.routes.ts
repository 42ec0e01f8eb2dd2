import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import { roleAllows } from '../auth/roles';
import type { AppDeps } from '../deps';
import { createRouter, ErrorSchema, errorResponses, json, jsonBody } from '../http/openapi';
import { recordingsWithoutStart } from '../video/recording-start.service';
import { RecordingStart, RecordingStartBody, RecordingWithoutStart, StructureQuery, VideoIdParam } from '../video/schema';
import { moveRecordingStart } from './recording-start.service';

/** A recording's start confirmed or moved with its markups, and the recordings still without one (docs/video-storage.md «Начало записи»). */
export function recordingStartRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/recordings_without_start',
      tags: ['Видео'],
      summary: 'Записи структуры, начало которых не известно (в имени и метаданных нет даты): их начало указывают, тогда они появятся в задачах и отчётах',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: StructureQuery },
      responses: { 200: json(z.array(RecordingWithoutStart)), ...errorResponses },
    }),
    async (c) => c.json(await recordingsWithoutStart(db, c.get('structureId')), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/videos/{videoId}/start',
      tags: ['Видео'],
      summary:
        'Подтвердить или изменить начало записи: разметка, отметки и слой модели видео сдвигаются на ту же разницу. Разметчик подтверждает только неподтверждённое начало неразмеченной записи (при загрузке); менять — аналитик или администратор',
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoParam())] as const,
      request: { params: VideoIdParam, ...jsonBody(RecordingStartBody) },
      responses: {
        200: json(RecordingStart),
        ...errorResponses,
        409: { description: 'Запись с таким началом пересекается с другой записью этой камеры', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      const user = currentUser(c);
      const moved = await moveRecordingStart(db, {
        videoId: c.req.valid('param').videoId,
        organizationId: user.organizationId,
        startTime: c.req.valid('json').start_time,
        authorId: user.id,
        mayMoveMarked: roleAllows(user.role, 'workspace.write'),
      });
      return c.json(moved, 200);
    },
  );
  return app;
}
