import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess, structureFrom, videoOrStructureQuery } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { visionAccess, visionRoute } from './route-spec';
import {
  AbsoluteLocation,
  AbsoluteLocationBody,
  AbsoluteLocationsReply,
  DeletedReply,
  IdParam,
  StandLocation,
  StandLocationBody,
  StandLocationsReply,
  StandsBody,
  StandsReply,
  StructureIdQuery,
  VideoIdQuery,
  VideoOrStructureQuery,
} from './schema';
import * as vision from './service';

/** Stands and bases of the organisation, their absolute locations in a structure and their points on a camera's frame. */
export function visionStandRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();
  const { readVideo, write } = visionAccess(db);

  app.openapi(
    createRoute({
      ...visionRoute(
        'get',
        '/api/v1/all_stands',
        'Стенды и базисы организации (у базиса — точка в структуре)',
        requireAccess(db, 'workspace.read', videoOrStructureQuery),
      ),
      request: { query: VideoOrStructureQuery },
      responses: { 200: json(StandsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listStands(db, currentUser(c), c.get('structureId') ?? null), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/stands', 'Добавить, переименовать и удалить стенды и базисы', write),
      request: jsonBody(StandsBody),
      responses: { 200: json(StandsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.saveStands(db, currentUser(c), c.req.valid('json'), null), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('get', '/api/v1/absolute_locations', 'Абсолютные локации стендов структуры', requireAccess(db, 'workspace.read', structureFrom.query())),
      request: { query: StructureIdQuery },
      responses: { 200: json(AbsoluteLocationsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listAbsoluteLocations(db, c.req.valid('query').structure_id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/absolute_location', 'Добавить абсолютную локацию стенда', write),
      request: jsonBody(AbsoluteLocationBody),
      responses: { 200: json(AbsoluteLocation), ...errorResponses },
    }),
    async (c) => c.json(await vision.addAbsoluteLocation(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('delete', '/api/v1/absolute_location/remove/{id}', 'Удалить абсолютную локацию', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.removeAbsoluteLocation(db, currentUser(c), c.req.valid('param').id), 200),
  );

  // ——— stand locations on a camera ———
  app.openapi(
    createRoute({
      ...visionRoute('get', '/api/v1/stand_locations', 'Точки стендов на кадре камеры этого видео', readVideo),
      request: { query: VideoIdQuery },
      responses: { 200: json(StandLocationsReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.listStandLocations(db, currentUser(c), c.req.valid('query').video_id), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('post', '/api/v1/stand_location', 'Отметить стенд точкой на кадре камеры', write),
      request: jsonBody(StandLocationBody),
      responses: { 200: json(StandLocation), ...errorResponses },
    }),
    async (c) => c.json(await vision.addStandLocation(db, currentUser(c), c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      ...visionRoute('delete', '/api/v1/stand_location/remove/{id}', 'Удалить точку стенда', write),
      request: { params: IdParam },
      responses: { 200: json(DeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await vision.removeStandLocation(db, currentUser(c), c.req.valid('param').id), 200),
  );
  return app;
}
