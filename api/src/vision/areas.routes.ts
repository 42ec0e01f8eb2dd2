import { createRoute } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { visionAccess, visionRoute } from './route-spec';
import { DeletedReply, IdParam, VideoArea, VideoAreaBody, VideoAreasReply, VideoIdQuery } from './schema';
import * as vision from './service';

/** A camera's areas (rectangles on its frame): list, add, delete. */
export function visionAreaRoutes({ db }: Pick<AppDeps, 'db'>) {
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
      ...visionRoute('post', '/api/v1/video-area', 'Добавить область камеры (прямоугольник в пикселях кадра)', write),
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
  return app;
}
