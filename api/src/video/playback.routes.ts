import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { currentUser, requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { badRequest } from '../http/errors';
import { createRouter, ErrorSchema, errorResponses, json, parseId } from '../http/openapi';
import { videoPlayAccess, videoReadAccess } from './access';
import {
  Activity,
  ActivitiesQuery,
  CommentBody,
  OtherVideo,
  OtherVideosQuery,
  SetDurationQuery,
  SetDurationReply,
  VideoIdParam,
  VideoMeta,
  VideoQuery,
} from './schema';
import { listActivities, otherVideos, setVideoComment, setVideoDuration, storedVideo, videoMeta, wholeSeconds } from './service';
import { serveStoredVideo } from './stream';

const tags = ['Видео'];

const binary = (type: string, description: string) => ({ description, content: { [type]: { schema: z.string().openapi({ format: 'binary' }) } } });

/** set_duration's video_id and duration: each from the query string, or else from a JSON body. */
async function durationInput(c: Context<AppEnv>) {
  const body = (c.req.header('content-type') ?? '').includes('application/json') ? await c.req.json().catch(() => ({})) : {};
  const source = (name: string) => c.req.query(name) ?? (body as Record<string, unknown> | null)?.[name];
  const videoId = parseId(source('video_id'));
  if (videoId === null) throw badRequest('video_id: ожидается целое положительное число десятичными цифрами');
  return { videoId, duration: wholeSeconds(source('duration'), 'duration') };
}

/** One video as the player and the markup screen use it: the file, its details and comment, its duration, the videos beside it, its activity. */
export function videoPlaybackRoutes({ db, storage }: Pick<AppDeps, 'db' | 'storage'>) {
  const app = createRouter();

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
      const { videoId, duration } = await durationInput(c);
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
  return app;
}
