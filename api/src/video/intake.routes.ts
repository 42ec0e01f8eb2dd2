import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom, type StructureLocator } from '../auth/access';
import type { AppDeps } from '../deps';
import { badRequest } from '../http/errors';
import { createRouter, ErrorSchema, errorResponses, json } from '../http/openapi';
import { deleteFailedVideo, listFailedVideos, retryFailedVideo } from './failed-uploads';
import {
  DeletedReply,
  FailedVideo,
  RetryReply,
  StructureQuery,
  SyncQuery,
  SyncResult,
  UploadCheck,
  UploadCheckQuery,
  UploadQuery,
  UploadResult,
  VideoIdParam,
} from './schema';
import { syncStructure } from './sync';
import { receiveUpload, uploadCheck } from './upload';

const tags = ['Видео'];

/** The exact text of spec 02 §5 for a sync without a structure. */
export const SYNC_NEEDS_STRUCTURE = 'Надо выбрать какую-нибудь структурную единицу!';

const syncStructureLocator: StructureLocator = async (c, db) => {
  if (!c.req.query('structure_id')) throw badRequest(SYNC_NEEDS_STRUCTURE);
  return structureFrom.query()(c, db);
};

/** How recordings come in: the cameras' folders synced, files uploaded (and asked about first), the failed ones listed, retried and deleted. */
export function videoIntakeRoutes({ db, storage, config }: Pick<AppDeps, 'db' | 'storage' | 'config'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/sync_videos',
      tags,
      summary: 'Найти новые записи в папках камер структуры, зарегистрировать их и поставить в очередь обработки',
      middleware: [requireAccess(db, 'markup.write', syncStructureLocator)] as const,
      request: { query: SyncQuery },
      responses: { 200: json(SyncResult), ...errorResponses },
    }),
    async (c) => c.json(await syncStructure(db, storage, c.get('structureId'), { authorId: currentUser(c).id }), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/upload',
      tags,
      summary:
        'Загрузить запись камеры или телефона (тело запроса — сам файл: MP4, MOV, AVI, MKV, WebM, MPEG-TS); ответ — id видео и задачи обработки, найденное начало записи и откуда оно',
      middleware: [requireAccess(db, 'markup.write', structureFrom.cameraQuery())] as const,
      // The body is the file as it is (its type does not matter: the container is read from the bytes).
      request: {
        query: UploadQuery,
        body: {
          content: {
            'video/mp4': { schema: z.string().openapi({ format: 'binary' }) },
            'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) },
          },
        },
      },
      responses: {
        200: json(UploadResult),
        ...errorResponses,
        409: {
          description: 'Эта запись уже загружена для камеры (готова или в обработке; запись, которую не удалось обработать, загружается заново)',
          content: { 'application/json': { schema: ErrorSchema } },
        },
        413: { description: 'Файл больше допустимого размера', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      const { camera_id, filename, file_time } = c.req.valid('query');
      const length = c.req.header('content-length');
      const result = await receiveUpload(db, storage, {
        cameraId: camera_id,
        filename,
        body: c.req.raw.body,
        declaredBytes: length ? Number(length) : null,
        maxBytes: config.uploadMaxBytes,
        authorId: currentUser(c).id,
        clientFileTime: file_time ?? null,
      });
      return c.json(result, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/failed_videos',
      tags,
      summary: 'Записи структуры, которые не удалось обработать (не видео, повреждены), с причиной; новые сверху',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: StructureQuery },
      responses: { 200: json(z.array(FailedVideo)), ...errorResponses },
    }),
    async (c) => c.json(await listFailedVideos(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/failed_videos/{videoId}',
      tags,
      summary: 'Удалить запись, которую не удалось обработать (строку и оставшийся файл); другие видео — 409',
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoParam())] as const,
      request: { params: VideoIdParam },
      responses: {
        200: json(DeletedReply),
        ...errorResponses,
        409: { description: 'Видео обработано или ещё в обработке', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      await deleteFailedVideo(db, storage, c.req.valid('param').videoId);
      return c.json({ message: 'Запись удалена' }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/failed_videos/{videoId}/retry',
      tags,
      summary: 'Обработать запись, которую не удалось обработать, ещё раз (новая задача обработки); другие видео и запись без файла — 409',
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoParam())] as const,
      request: { params: VideoIdParam },
      responses: {
        200: json(RetryReply),
        ...errorResponses,
        409: { description: 'Видео обработано или в обработке, или файла записи больше нет', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => c.json(await retryFailedVideo(db, storage, c.req.valid('param').videoId, currentUser(c).id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/upload_check',
      tags,
      summary: 'Есть ли у камеры запись с таким содержимым (SHA-256): загрузчик спрашивает до отправки файла; неудавшаяся запись не считается (exists: false)',
      middleware: [requireAccess(db, 'markup.write', structureFrom.cameraQuery())] as const,
      request: { query: UploadCheckQuery },
      responses: { 200: json(UploadCheck), ...errorResponses },
    }),
    async (c) => {
      const { camera_id, content_hash } = c.req.valid('query');
      return c.json(await uploadCheck(db, camera_id, content_hash), 200);
    },
  );
  return app;
}
