import { createRoute } from '@hono/zod-openapi';
import { requireAccess, structureFrom, currentUser, type StructureLocator } from '../auth/access';
import type { Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import { createRouter, errorResponses, json, jsonBody, parseId } from '../http/openapi';
import {
  CalibrationBody,
  CalibrationReply,
  EventCameraQuery,
  EventIdParam,
  EventStructureQuery,
  Zone,
  ZoneBody,
  ZoneDeletedReply,
  ZonesReply,
  ZoneUpdateBody,
} from './schema';
import * as events from './service';

const tags = ['Аналитика мероприятий'];

/** The structure of the zone in the path (PUT/DELETE /api/v1/event/zone/{id}): the access check's 404 for a foreign or missing zone. */
const zoneFromPath: StructureLocator = async (c, db) => {
  const id = parseId(c.req.param('id'));
  if (id === null) throw badRequest('id: ожидается целое положительное число десятичными цифрами');
  const where = await events.zoneStructure(db, id);
  if (!where) throw notFound(events.EVENT_MESSAGES.zoneMissing);
  return where;
};

/**
 * A camera's floor calibration and a hall's zones (docs/api.md «Аналитика мероприятий»): reading —
 * every role of the organisation; writing — administrators and analysts (workspace.write), as with stands.
 */
export function eventPlaceRoutes(db: Db) {
  const app = createRouter();
  // ——— calibration ———
  const cameraRead = requireAccess(db, 'workspace.read', structureFrom.cameraQuery());
  const cameraWrite = requireAccess(db, 'workspace.write', structureFrom.cameraQuery());
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/calibration',
      tags,
      summary: 'Калибровка пола камеры: четыре точки на кадре и те же четыре на плане зала в метрах (null — не задана)',
      middleware: [cameraRead] as const,
      request: { query: EventCameraQuery },
      responses: { 200: json(CalibrationReply), ...errorResponses },
    }),
    async (c) => c.json(await events.calibrationOf(db, c.req.valid('query').camera_id), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/event/calibration',
      tags,
      summary: 'Задать калибровку пола камеры: четыре разные точки, никакие три не на одной прямой',
      middleware: [cameraWrite] as const,
      request: { query: EventCameraQuery, ...jsonBody(CalibrationBody) },
      responses: { 200: json(CalibrationReply), ...errorResponses },
    }),
    async (c) => c.json(await events.saveCalibration(db, c.req.valid('query').camera_id, c.req.valid('json')), 200),
  );

  // ——— zones ———
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/event/zones',
      tags,
      summary: 'Зоны зала (структуры) на плане в метрах: зоны, зоны стендов, безопасные зоны',
      middleware: [requireAccess(db, 'workspace.read', structureFrom.query())] as const,
      request: { query: EventStructureQuery },
      responses: { 200: json(ZonesReply), ...errorResponses },
    }),
    async (c) => c.json(await events.listZones(db, c.req.valid('query').structure_id), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/event/zone',
      tags,
      summary: 'Добавить зону зала: многоугольник (3–100 точек) или круг (радиус до 1000 м); зона стенда без формы — круг 1,5 м вокруг его локации',
      middleware: [requireAccess(db, 'workspace.write', structureFrom.body())] as const,
      request: jsonBody(ZoneBody),
      responses: { 200: json(Zone), ...errorResponses },
    }),
    async (c) => {
      const { structure_id, ...zone } = c.req.valid('json');
      return c.json(await events.createZone(db, currentUser(c), structure_id, zone), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/event/zone/{id}',
      tags,
      summary: 'Изменить зону зала (название, роль, стенд, форму)',
      middleware: [requireAccess(db, 'workspace.write', zoneFromPath)] as const,
      request: { params: EventIdParam, ...jsonBody(ZoneUpdateBody) },
      responses: { 200: json(Zone), ...errorResponses },
    }),
    async (c) => c.json(await events.updateZone(db, currentUser(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/event/zone/{id}',
      tags,
      summary: 'Удалить зону зала',
      middleware: [requireAccess(db, 'workspace.write', zoneFromPath)] as const,
      request: { params: EventIdParam },
      responses: { 200: json(ZoneDeletedReply), ...errorResponses },
    }),
    async (c) => c.json(await events.deleteZone(db, c.req.valid('param').id), 200),
  );
  return app;
}
