import { createRoute } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { visionAccess, visionRoute } from './route-spec';
import { modelPictureCheck } from './picture-check';
import { DeletedReply, IdParam, PictureCheckQuery, PictureCheckReply, VideoArea, VideoAreaBody, VideoAreasReply, VideoIdQuery } from './schema';
import * as vision from './service';

/** A camera's areas (rectangles on its frame): list, add, delete; and whether a video's picture is a model's (aspect ratio, view). */
export function visionAreaRoutes({ db, storage }: Pick<AppDeps, 'db' | 'storage'>) {
  const app = createRouter();
  const { readVideo, write } = visionAccess(db);

  app.openapi(
    createRoute({
      ...visionRoute('get', '/api/v1/video-areas', 'Области камеры этого видео', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(VideoAreasReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listAreas(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/video-area', 'Добавить область камеры (прямоугольник в пикселях кадра frame_width×frame_height)', write),
      request: jsonBody(VideoAreaBody),
      responses: { 200: json(VideoArea), ...errorResponses },
    }),
    async (c) => c.json(await vision.addArea(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('delete', '/api/v1/video-area/{id}', 'Удалить область', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.deleteArea(db, currentUser(c), c.req.valid('param').id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute(
        'get',
        '/api/v1/model/{id}/picture-check',
        'Тот ли кадр у видео, что при обучении модели: соотношение сторон и вид камеры; предупреждения перед применением',
        readVideo,
      ),
      request: { params: IdParam, query: PictureCheckQuery },
      responses: { 200: json(PictureCheckReply), ...errorResponses },
    }),
    async (c) => c.json(await modelPictureCheck(db, storage, currentUser(c), c.req.valid('param').id, c.req.valid('query')), 200),
  );
  return app;
}
