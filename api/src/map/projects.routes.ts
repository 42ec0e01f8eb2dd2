import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { MapProject, MapProjectMetaReply, MapProjectsListReply, ProjectCreateBody, ProjectDeleteBody, ProjectSetBody } from './schema';
import { createProject, deleteProject, listProjects, meta, projectText, requireCurrent, setCurrent } from './service';

const tags = ['Карта'];
/** A MapProject reply from its JSON text (service.projectText): the stored collections are not serialised again. */
export const projectReply = (c: Context<AppEnv>, text: string) => c.body(text, 200, { 'content-type': 'application/json' }) as never;

/** The organisation's map projects and the user's current one: list, summary, read, create, delete, choose. */
export function mapProjectRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();
  const read = requireAccess(db, 'workspace.read');
  const write = requireAccess(db, 'workspace.write');

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/projects/list',
      tags,
      summary: 'Проекты карты организации и текущий проект',
      middleware: [read] as const,
      responses: { 200: json(MapProjectsListReply), ...errorResponses },
    }),
    async (c) => c.json(await listProjects(db, currentUser(c)), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/projects/last/meta',
      tags,
      summary: 'Сводка текущего проекта (404, если проектов нет)',
      middleware: [read] as const,
      responses: { 200: json(MapProjectMetaReply), ...errorResponses },
    }),
    async (c) => c.json(await meta(db, currentUser(c)), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/projects/last/get',
      tags,
      summary: 'Текущий проект целиком (GeoJSON)',
      middleware: [read] as const,
      responses: { 200: json(MapProject), ...errorResponses },
    }),
    async (c) => projectReply(c, projectText(await requireCurrent(db, currentUser(c)))),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/create',
      tags,
      summary: 'Создать проект и сделать его текущим',
      middleware: [write] as const,
      request: jsonBody(ProjectCreateBody),
      responses: { 200: json(MapProject), ...errorResponses },
    }),
    async (c) => projectReply(c, await createProject(db, currentUser(c), c.req.valid('json').name)),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/delete',
      tags,
      summary: 'Удалить проект (только когда их больше одного); new_id становится текущим',
      middleware: [write] as const,
      request: jsonBody(ProjectDeleteBody),
      responses: { 200: json(MapProjectsListReply), ...errorResponses },
    }),
    async (c) => {
      const { delete_id, new_id } = c.req.valid('json');
      return c.json(await deleteProject(db, currentUser(c), delete_id, new_id), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/last/set',
      tags,
      summary: 'Сделать проект текущим',
      middleware: [read] as const,
      request: jsonBody(ProjectSetBody),
      responses: { 200: json(MapProject), ...errorResponses },
    }),
    async (c) => projectReply(c, await setCurrent(db, currentUser(c), c.req.valid('json').project_id)),
  );
  return app;
}
