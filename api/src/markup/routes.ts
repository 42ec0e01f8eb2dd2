import { createRoute } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom, videoOrStructureQuery } from '../auth/access';
import { contentDisposition } from '../http/content-disposition';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, idParam, json } from '../http/openapi';
import { VideoOrStructureQuery } from '../org/schema';
import { periodMarkupRoutes } from './period-markups.routes';
import { recordingStartRoutes } from './recording-start.routes';
import { saveOwnerMatches } from './save-owner';
import { AvailableOperations, SaveReplyQuery, VideoMarkupsChanges, VideoMarkupsReply, VideoMarkupsSave } from './schema';
import { availableOperations, readVideoMarkups, saveVideoMarkups, videoMarkupsTsv } from './video-markups.service';

const VideoParam = z.object({ videoId: idParam.openapi({ param: { name: 'videoId', in: 'path' } }) });
const saveBody = { body: { content: { 'application/json': { schema: VideoMarkupsSave } }, required: true } };
/** The whole markup (spec 02), or with ?reply=changes only what the save changed. */
const SaveReply = z.union([VideoMarkupsReply, VideoMarkupsChanges]);

const tags = ['Разметка'];

export function markupRoutes(deps: AppDeps) {
  const { db } = deps;
  const app = createRouter();

  // GET and POST /api/v1/operation_markups: the period editor (period-markups.routes.ts).
  app.route('/', periodMarkupRoutes(deps));
  app.route('/', recordingStartRoutes(deps));

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/available_operations',
      tags,
      summary: 'Операции и типы отметок (по video_id или structure_id)',
      middleware: [requireAccess(db, 'workspace.read', videoOrStructureQuery)] as const,
      request: { query: VideoOrStructureQuery },
      responses: { 200: json(AvailableOperations), ...errorResponses },
    }),
    async (c) => c.json(await availableOperations(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/video_markups/{videoId}',
      tags,
      summary: 'Разметка и отметки видео (секунды от начала); format=tsv — файл',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.videoParam())] as const,
      request: { params: VideoParam, query: z.object({ format: z.enum(['json', 'tsv']).optional() }) },
      responses: { 200: json(VideoMarkupsReply), ...errorResponses },
    }),
    async (c) => {
      const { videoId } = c.req.valid('param');
      if (c.req.valid('query').format === 'tsv') {
        const file = await videoMarkupsTsv(db, videoId, currentUser(c).timeZone);
        return c.body(file.body, 200, {
          'content-type': 'text/tab-separated-values; charset=utf-8',
          'content-disposition': contentDisposition(file.filename),
        }) as never;
      }
      return c.json(await readVideoMarkups(db, videoId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/video_markups/{videoId}',
      tags,
      summary: 'Сохранить изменённые строки разметки видео (одна транзакция; 409 при устаревшей версии); ?reply=changes — ответ только с изменениями',
      description: 'Заголовок x-norma-save-owner (логин в кодировке URI) — чьё это отложенное сохранение; другой пользователь получает 403.',
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoParam()), saveOwnerMatches] as const,
      request: { params: VideoParam, query: SaveReplyQuery, ...saveBody },
      responses: { 200: json(SaveReply), ...errorResponses, 409: errorResponses[400] },
    }),
    async (c) =>
      c.json(await saveVideoMarkups(db, currentUser(c), c.req.valid('param').videoId, c.req.valid('json'), { reply: c.req.valid('query').reply }), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/video_markups/{videoId}',
      tags,
      summary: 'Сохранить и заполнить пропуски видео операцией простоя',
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoParam())] as const,
      request: { params: VideoParam, query: SaveReplyQuery, ...saveBody },
      responses: { 200: json(SaveReply), ...errorResponses, 409: errorResponses[400] },
    }),
    async (c) =>
      c.json(
        await saveVideoMarkups(db, currentUser(c), c.req.valid('param').videoId, c.req.valid('json'), { fillGaps: true, reply: c.req.valid('query').reply }),
        200,
      ),
  );

  return app;
}
