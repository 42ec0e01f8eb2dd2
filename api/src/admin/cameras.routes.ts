import { createRoute, z } from '@hono/zod-openapi';
import { requireAccess, structureFrom } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { IdParam, StructureQuery } from '../org/schema';
import { tags, withConflict } from './route-spec';
import { AdminCamera, CameraChange, CameraCreate, Message } from './schema';
import { changeCamera, createCamera, deleteCamera, listAdminCameras } from './service';

/** A structure's cameras with their storage folders: list, add, change, delete one without video. */
export function adminCameraRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/admin/cameras',
      tags,
      summary: 'Камеры структурной единицы с папками хранилища',
      middleware: [requireAccess(db, 'organization.admin', structureFrom.query())] as const,
      request: { query: StructureQuery },
      responses: { 200: json(z.array(AdminCamera)), ...errorResponses },
    }),
    async (c) => c.json(await listAdminCameras(db, c.get('structureId')), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/admin/cameras',
      tags,
      summary: 'Добавить камеру (номер 1–4, не повторяется в структурной единице; папка хранилища)',
      middleware: [requireAccess(db, 'organization.admin', structureFrom.queryOrBody())] as const,
      request: jsonBody(CameraCreate),
      responses: { 200: json(AdminCamera), ...withConflict },
    }),
    async (c) => c.json(await createCamera(db, { ...c.req.valid('json'), structure_id: c.get('structureId') }), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/admin/cameras/{id}',
      tags,
      summary: 'Изменить номер, название или папку камеры',
      middleware: [requireAccess(db, 'organization.admin', structureFrom.cameraParam())] as const,
      request: { params: IdParam, ...jsonBody(CameraChange) },
      responses: { 200: json(AdminCamera), ...withConflict },
    }),
    async (c) => c.json(await changeCamera(db, c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/v1/admin/cameras/{id}',
      tags,
      summary: 'Удалить камеру без видео (409 — у неё есть видео)',
      middleware: [requireAccess(db, 'organization.admin', structureFrom.cameraParam())] as const,
      request: { params: IdParam },
      responses: { 200: json(Message), ...withConflict },
    }),
    async (c) => c.json(await deleteCamera(db, c.req.valid('param').id), 200),
  );
  return app;
}
