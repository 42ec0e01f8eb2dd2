import { createRoute } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { visionAccess, visionRoute } from './route-spec';
import { DeletedReply, IdParam, MovableLocation, MovableLocationBody, MovableLocationsReply, MovablesBody, MovablesReply, VideoIdQuery } from './schema';
import * as vision from './service';

/** Movable objects of the organisation and their rectangles on a camera's frame. */
export function visionMovableRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();
  const { readVideo, write } = visionAccess(db);

  app.openapi(
    createRoute({
      ...visionRoute('get', '/api/v1/movables', 'Подвижные объекты организации', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(MovablesReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listMovables(db, currentUser(c)), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/movables', 'Добавить, переименовать и удалить подвижные объекты (вызов Norma: в спецификации их некуда завести)', write),
      request: jsonBody(MovablesBody),
      responses: { 200: json(MovablesReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.saveMovables(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('get', '/api/v1/movable_locations', 'Прямоугольники подвижных объектов на кадре камеры этого видео', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(MovableLocationsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listMovableLocations(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/movable_location', 'Отметить подвижный объект прямоугольником на кадре камеры', write),
      request: jsonBody(MovableLocationBody),
      responses: { 200: json(MovableLocation), ...errorResponses },
    }),
    async (c) => c.json(await vision.addMovableLocation(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('delete', '/api/v1/movable_location/remove/{id}', 'Удалить прямоугольник подвижного объекта', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.removeMovableLocation(db, currentUser(c), c.req.valid('param').id), 200),
  );
  return app;
}
