import { createRoute } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { preparedDocument } from '../http/document-threads';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { saveOwnerMatches } from '../markup/save-owner';
import type { PreparedDrawing } from './drawing';
import { projectReply } from './projects.routes';
import { AlgoBody, CrsBody, DrawnCollection, MapAlgoReply, MapProject } from './schema';
import { clearProject, saveDrawn, saveGolden, setCrs, startAlgo } from './service';

const tags = ['Карта'];

/** What is drawn in the current project and built from it: save, clear, coordinate system, golden standard, algorithm runs. */
export function mapDrawingRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();
  const write = requireAccess(db, 'workspace.write');

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/last/save',
      tags,
      summary: 'Сохранить нарисованное (GeoJSON FeatureCollection: area, road, zone, object)',
      description:
        'Сохранение, сделанное без сети, несёт base (проект и его updated_at) и заголовок x-norma-save-owner (логин в кодировке URI): 409, если проект сменился или изменён с тех пор; 403 — другой пользователь.',
      middleware: [write, saveOwnerMatches] as const,
      request: jsonBody(DrawnCollection),
      responses: { 200: json(MapProject), ...errorResponses, 409: errorResponses[400] },
    }),
    async (c) => projectReply(c, await saveDrawn(db, currentUser(c), preparedDocument<PreparedDrawing>(c, 'drawing'))),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/last/clear',
      tags,
      summary: 'Удалить всё нарисованное и построенное',
      middleware: [write] as const,
      responses: { 200: json(MapProject), ...errorResponses },
    }),
    async (c) => projectReply(c, await clearProject(db, currentUser(c))),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/last/crs',
      tags,
      summary: 'Выбрать систему координат чертежа: местная (по умолчанию), СК-42 (зона Гаусса–Крюгера) или UTM',
      middleware: [write] as const,
      request: jsonBody(CrsBody),
      responses: { 200: json(MapProject), ...errorResponses },
    }),
    async (c) => projectReply(c, await setCrs(db, currentUser(c), c.req.valid('json').kind)),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/last/golden',
      tags,
      summary: 'Сохранить текущую сеть как эталон',
      middleware: [write] as const,
      responses: { 200: json(MapProject), ...errorResponses },
    }),
    async (c) => projectReply(c, await saveGolden(db, currentUser(c))),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/last/algo',
      tags,
      summary: 'Запустить алгоритм построения или оптимизации сети (задача; проект обрабатывается до её конца)',
      middleware: [write] as const,
      request: jsonBody(AlgoBody),
      responses: { 200: json(MapAlgoReply), ...errorResponses },
    }),
    async (c) => c.json({ job_id: await startAlgo(db, currentUser(c), c.req.valid('json').algo_tag) }, 200),
  );
  return app;
}
