import { join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom, type StructureLocator } from '../auth/access';
import { contentDisposition } from '../http/content-disposition';
import { badRequest, notFound } from '../http/errors';
import type { AppDeps } from '../deps';
import { createRouter, ErrorSchema, errorResponses, json, parseId } from '../http/openapi';
import { videoPlayAccess, videoReadAccess } from './access';
import { loaderPackageFile, loaderPackages } from './loader-packages';
import { cameraContext } from './registration';
import { deleteFailedVideo, listFailedVideos } from './failed-uploads';
import {
  Activity,
  ActivitiesQuery,
  Camera,
  CameraAt,
  CameraQuery,
  CameraVideo,
  CommentBody,
  DeletedReply,
  FailedVideo,
  LoaderPackages,
  OtherVideo,
  OtherVideosQuery,
  SetDurationQuery,
  SetDurationReply,
  StructureQuery,
  SyncQuery,
  SyncResult,
  UploadCheck,
  UploadCheckQuery,
  UploadQuery,
  UploadResult,
  VideoIdParam,
  VideoMeta,
  VideoQuery,
  VideosAtQuery,
} from './schema';
import {
  listActivities,
  listCameras,
  listCameraVideos,
  otherVideos,
  setVideoComment,
  setVideoDuration,
  storedVideo,
  videoMeta,
  videosAt,
  wholeSeconds,
} from './service';
import { serveStoredVideo } from './stream';
import { syncStructure } from './sync';
import { findByContent, receiveUpload } from './upload';

const tags = ['Видео'];

/** The exact text of spec 02 §5 for a sync without a structure. */
export const SYNC_NEEDS_STRUCTURE = 'Надо выбрать какую-нибудь структурную единицу!';

const syncStructureLocator: StructureLocator = async (c, db) => {
  if (!c.req.query('structure_id')) throw badRequest(SYNC_NEEDS_STRUCTURE);
  return structureFrom.query()(c, db);
};

const binary = (type: string, description: string) => ({ description, content: { [type]: { schema: z.string().openapi({ format: 'binary' }) } } });

export function videoRoutes({ db, storage, config }: AppDeps) {
  const app = createRouter();
  const loaderFolders = [join(config.dataDir, 'loader'), config.loaderDir];

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
      summary: 'Загрузить запись камеры (тело запроса — сам файл MP4); ответ — id видео и задачи обработки',
      middleware: [requireAccess(db, 'markup.write', structureFrom.cameraQuery())] as const,
      request: { query: UploadQuery, body: { content: { 'video/mp4': { schema: z.string().openapi({ format: 'binary' }) } } } },
      responses: {
        200: json(UploadResult),
        ...errorResponses,
        409: { description: 'Эта запись уже загружена для камеры', content: { 'application/json': { schema: ErrorSchema } } },
        413: { description: 'Файл больше допустимого размера', content: { 'application/json': { schema: ErrorSchema } } },
      },
    }),
    async (c) => {
      const { camera_id, filename } = c.req.valid('query');
      const camera = await cameraContext(db).where('cameras.id', '=', camera_id).executeTakeFirstOrThrow();
      const length = c.req.header('content-length');
      const result = await receiveUpload(db, storage, {
        camera,
        filename,
        body: c.req.raw.body,
        declaredBytes: length ? Number(length) : null,
        maxBytes: config.uploadMaxBytes,
        authorId: currentUser(c).id,
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
      method: 'get',
      path: '/api/v1/upload_check',
      tags,
      summary: 'Есть ли у камеры запись с таким содержимым (SHA-256): загрузчик спрашивает до отправки файла',
      middleware: [requireAccess(db, 'markup.write', structureFrom.cameraQuery())] as const,
      request: { query: UploadCheckQuery },
      responses: { 200: json(UploadCheck), ...errorResponses },
    }),
    async (c) => {
      const { camera_id, content_hash } = c.req.valid('query');
      const found = await findByContent(db, camera_id, content_hash.toLowerCase());
      return c.json({ exists: Boolean(found), video_id: found?.id ?? null, status: found?.status ?? null }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/video',
      tags,
      summary: 'Файл видео (MP4) с поддержкой HTTP Range: 206 для диапазона, 200 целиком, 416 для диапазона вне файла',
      middleware: [videoPlayAccess(db)] as const,
      request: { query: VideoQuery },
      responses: {
        200: binary('video/mp4', 'Файл целиком'),
        206: binary('video/mp4', 'Запрошенный диапазон байтов'),
        304: { description: 'Не изменился (If-None-Match)' },
        416: { description: 'Диапазон вне файла', content: { 'application/json': { schema: ErrorSchema } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const { video_id } = c.req.valid('query');
      // A signed-in user's access check read the file already; a share key's did not.
      const checked = c.get('storedVideo');
      const video = checked?.id === video_id ? checked : await storedVideo(db, video_id);
      return (await serveStoredVideo(storage, video.storage_key, c.req.raw, video.filename)) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/video_meta/{videoId}',
      tags,
      summary: 'Сведения о видео',
      middleware: [videoReadAccess(db, structureFrom.videoParam())] as const,
      request: { params: VideoIdParam },
      responses: { 200: json(VideoMeta), ...errorResponses },
    }),
    async (c) => c.json(await videoMeta(db, c.req.valid('param').videoId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/video_meta/{videoId}',
      tags,
      summary: 'Изменить комментарий к видео',
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoParam())] as const,
      request: { params: VideoIdParam, body: { content: { 'application/json': { schema: CommentBody } }, required: true } },
      responses: { 200: json(VideoMeta), ...errorResponses },
    }),
    async (c) => c.json(await setVideoComment(db, c.req.valid('param').videoId, c.req.valid('json').comment, currentUser(c).id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/set_duration',
      tags,
      summary:
        'Длительность видео в целых секундах, прочитанная браузером (video_id и duration — в теле JSON или в строке запроса; не больше суток и не больше длительности файла)',
      // A write: the duration bounds every later save and gap filling, so only those who mark up may set it.
      middleware: [requireAccess(db, 'markup.write', structureFrom.videoQueryOrBody())] as const,
      request: { query: SetDurationQuery },
      responses: { 200: json(SetDurationReply), ...errorResponses },
    }),
    async (c) => {
      const body = (c.req.header('content-type') ?? '').includes('application/json') ? await c.req.json().catch(() => ({})) : {};
      const source = (name: string) => c.req.query(name) ?? (body as Record<string, unknown> | null)?.[name];
      const videoId = parseId(source('video_id'));
      if (videoId === null) throw badRequest('video_id: ожидается целое положительное число десятичными цифрами');
      const duration = wholeSeconds(source('duration'), 'duration');
      return c.json(await setVideoDuration(db, videoId, duration), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/other_videos',
      tags,
      summary: 'Видео других камер той же структуры, идущие в тот же момент, и секунда этого момента в каждом',
      middleware: [videoReadAccess(db)] as const,
      request: { query: OtherVideosQuery },
      responses: { 200: json(z.array(OtherVideo)), ...errorResponses },
    }),
    async (c) => {
      const { video_id, current_second } = c.req.valid('query');
      return c.json(await otherVideos(db, video_id, current_second), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/activities',
      tags,
      summary: 'Последние действия с видео (новые сверху)',
      middleware: [videoReadAccess(db)] as const,
      request: { query: ActivitiesQuery },
      responses: { 200: json(z.array(Activity)), ...errorResponses },
    }),
    async (c) => {
      const { video_id, offset, limit } = c.req.valid('query');
      return c.json(await listActivities(db, video_id, offset, limit), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/videos',
      tags,
      summary: 'Видео камеры (по времени начала)',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.cameraQuery())] as const,
      request: { query: CameraQuery },
      responses: { 200: json(z.array(CameraVideo)), ...errorResponses },
    }),
    async (c) => c.json(await listCameraVideos(db, c.req.valid('query').camera_id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/cameras',
      tags,
      summary: 'Камеры структурной единицы',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: StructureQuery },
      responses: { 200: json(z.array(Camera)), ...errorResponses },
    }),
    async (c) => c.json(await listCameras(db, c.get('structureId')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/videos_at',
      tags,
      summary: 'Для синхронного плеера: по каждой камере структуры — видео, идущее в момент at, и секунда в нём',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: VideosAtQuery },
      responses: { 200: json(z.array(CameraAt)), ...errorResponses },
    }),
    async (c) => c.json(await videosAt(db, c.get('structureId'), c.req.valid('query').at), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/loader',
      tags: ['Загрузчик'],
      summary: 'Установщики загрузчика записей: какие есть на сервере',
      middleware: [requireAccess(db, 'workspace.read')] as const,
      responses: { 200: json(LoaderPackages), 401: errorResponses[401] },
    }),
    async (c) => c.json(await loaderPackages(loaderFolders), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/loader/{file}',
      tags: ['Загрузчик'],
      summary: 'Скачать установщик загрузчика',
      middleware: [requireAccess(db, 'workspace.read')] as const,
      request: { params: z.object({ file: z.string().max(255) }) },
      responses: { 200: binary('application/octet-stream', 'Файл установщика'), 401: errorResponses[401], 404: errorResponses[404] },
    }),
    async (c) => {
      const found = await loaderPackageFile(loaderFolders, c.req.valid('param').file);
      if (!found) throw notFound('Такого установщика на сервере нет: соберите его командой npm run build:loader');
      return new Response(Bun.file(found.path), {
        headers: {
          'content-type': found.contentType,
          'content-length': String(found.size),
          'content-disposition': contentDisposition(found.file),
        },
      }) as never;
    },
  );

  return app;
}
