import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { Context } from 'hono';
import { preparedDocument } from '../http/document-threads';
import { saveOwnerMatches } from '../markup/save-owner';
import type { AppEnv } from '../http/env';
import type { AppDeps } from '../deps';
import { badRequest, notFound } from '../http/errors';
import { createRouter, errorResponses, json } from '../http/openapi';
import { basemapResponse, editorStyle } from './basemap';
import type { PreparedDrawing } from './drawing';
import { featureMenu, gisMenu, importParcels, MENU_WIDTH, polygonFromCoords, polygonsFromCodes, typeList, typeStyles } from './menus';
import {
  AlgoBody,
  CadastreImportReply,
  CrsBody,
  DwgDownloadQuery,
  DrawnCollection,
  DwgBuildBody,
  DwgBuildReply,
  DwgOutputUrlReply,
  DwgStatusReply,
  FeatureCollection,
  GisMenuBody,
  GisMenuReply,
  GisQuery,
  HtmlMenuBody,
  HtmlMenuReply,
  MapAlgoReply,
  MapProject,
  MapProjectMetaReply,
  MapProjectsListReply,
  ProjectCreateBody,
  ProjectDeleteBody,
  ProjectSetBody,
  WorkItemQuery,
} from './schema';
import {
  clearProject,
  createProject,
  deleteProject,
  exportJob,
  listProjects,
  meta,
  projectText,
  requireCurrent,
  saveDrawn,
  saveGolden,
  setCrs,
  setCurrent,
  startAlgo,
  startExport,
} from './service';
import { contentDisposition } from '../http/content-disposition';

const tags = ['Карта'];
/** A MapProject reply from its JSON text (service.projectText): the stored collections are not serialised again. */
const projectReply = (c: Context<AppEnv>, text: string) => c.body(text, 200, { 'content-type': 'application/json' }) as never;
const body = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

/**
 * Spec 02 §7 "Map projects and drawing": projects of the user's organisation, the current ("last")
 * project per user, drawing saves, algorithm runs, golden standard, CAD export, GIS helpers and
 * the offline basemap (docs/map.md). Reading needs any role; changing needs workspace.write.
 */
export function mapRoutes({ db, storage, config }: AppDeps) {
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
      request: body(ProjectCreateBody),
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
      request: body(ProjectDeleteBody),
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
      request: body(ProjectSetBody),
      responses: { 200: json(MapProject), ...errorResponses },
    }),
    async (c) => projectReply(c, await setCurrent(db, currentUser(c), c.req.valid('json').project_id)),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/projects/last/save',
      tags,
      summary: 'Сохранить нарисованное (GeoJSON FeatureCollection: area, road, zone, object)',
      description:
        'Сохранение, сделанное без сети, несёт base (проект и его updated_at) и заголовок x-norma-save-owner (логин в кодировке URI): 409, если проект сменился или изменён с тех пор; 403 — другой пользователь.',
      middleware: [write, saveOwnerMatches] as const,
      request: body(DrawnCollection),
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
      request: body(CrsBody),
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
      request: body(AlgoBody),
      responses: { 200: json(MapAlgoReply), ...errorResponses },
    }),
    async (c) => c.json({ job_id: await startAlgo(db, currentUser(c), c.req.valid('json').algo_tag) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/dwg/build',
      tags,
      summary: 'Подготовить чертёж текущего проекта (DXF по умолчанию; format=dwg — DWG AutoCAD 2000)',
      // Starts a job: never for a viewer (issue 24).
      middleware: [write] as const,
      request: { body: { content: { 'application/json': { schema: DwgBuildBody } }, required: false } },
      responses: { 200: json(DwgBuildReply), ...errorResponses },
    }),
    async (c) => {
      const raw = (c.req.header('content-type') ?? '').includes('application/json') ? c.req.valid('json') : {};
      return c.json({ work_item_id: await startExport(db, currentUser(c), raw?.format ?? 'dxf') }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/dwg/status',
      tags,
      summary: 'Состояние подготовки чертежа',
      middleware: [read] as const,
      request: { query: WorkItemQuery },
      responses: { 200: json(DwgStatusReply), ...errorResponses },
    }),
    async (c) => {
      const job = await exportJob(db, currentUser(c), c.req.valid('query').work_item_id);
      return c.json({ status: job.status, progress: job.progress, ...(job.error ? { error: job.error } : {}) }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/dwg/output_url',
      tags,
      summary: 'Ссылка на готовый чертёж',
      middleware: [read] as const,
      request: { query: WorkItemQuery },
      responses: { 200: json(DwgOutputUrlReply), ...errorResponses },
    }),
    async (c) => {
      const id = c.req.valid('query').work_item_id;
      const job = await exportJob(db, currentUser(c), id);
      if (job.status !== 'success' || !job.result) throw badRequest('Чертёж ещё не готов');
      const { filename, prj_key } = JSON.parse(job.result) as { filename: string; prj_key?: string };
      const prj = prj_key ? { prj_url: `/api/v1/dwg/download?work_item_id=${id}&file=prj`, prj_filename: 'output.prj' } : {};
      return c.json({ url: `/api/v1/dwg/download?work_item_id=${id}`, filename, ...prj }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/dwg/download',
      tags,
      summary: 'Скачать готовый чертёж (file=prj — его файл .prj с системой координат)',
      middleware: [read] as const,
      request: { query: DwgDownloadQuery },
      responses: {
        200: { description: 'Файл чертежа', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
        ...errorResponses,
      },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const job = await exportJob(db, currentUser(c), query.work_item_id);
      if (job.status !== 'success' || !job.result) throw badRequest('Чертёж ещё не готов');
      const result = JSON.parse(job.result) as { key: string; filename: string; prj_key?: string };
      if (query.file === 'prj' && !result.prj_key) throw notFound('У этого чертежа нет файла .prj');
      const [key, filename] = query.file === 'prj' ? [result.prj_key!, 'output.prj'] : [result.key, result.filename];
      if (!(await storage.exists(key))) throw notFound('Файл чертежа не найден в хранилище');
      // A bucket's file is no Response body in Bun; its stream is (as in video/stream.ts).
      const file = storage.file(key);
      return new Response(storage.isLocal ? file : file.stream(), {
        headers: {
          'content-type': filename.endsWith('.dwg') ? 'application/acad' : filename.endsWith('.prj') ? 'text/plain; charset=utf-8' : 'application/dxf',
          'content-disposition': contentDisposition(filename),
        },
      }) as never;
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/gis/html_menu',
      tags,
      summary: 'Форма ввода полигона по координатам или кадастровому номеру',
      middleware: [read] as const,
      request: body(GisMenuBody),
      responses: { 200: json(GisMenuReply), ...errorResponses },
    }),
    async (c) => c.json({ html_menu: gisMenu(c.req.valid('json').type), meta: { width: MENU_WIDTH } }, 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/gis/coords',
      tags,
      summary: 'Полигон по точкам «долгота<TAB>широта», по одной в строке',
      middleware: [read] as const,
      request: { query: GisQuery },
      responses: { 200: json(FeatureCollection), ...errorResponses },
    }),
    async (c) => c.json(polygonFromCoords(c.req.valid('query').params), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/gis/code',
      tags,
      summary: 'Полигоны участков по кадастровым номерам (по одному в строке) из кадастрового реестра',
      middleware: [read] as const,
      request: { query: GisQuery },
      responses: { 200: json(FeatureCollection), ...errorResponses },
    }),
    async (c) => c.json(await polygonsFromCodes(db, currentUser(c).organizationId, c.req.valid('query').params), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/gis/cadastre/import',
      tags,
      summary: 'Загрузить участки в кадастровый реестр своей организации из GeoJSON (номер в свойстве cadastral_number или number); администратор',
      middleware: [requireAccess(db, 'organization.admin')] as const,
      request: body(z.object({ type: z.literal('FeatureCollection'), features: z.array(z.unknown()).max(100_000) })),
      responses: { 200: json(CadastreImportReply), ...errorResponses },
    }),
    async (c) => c.json({ imported: await importParcels(db, currentUser(c).organizationId, c.req.valid('json')) }, 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/html_menu',
      tags,
      summary: 'Форма свойств объекта карты, типы и стили по type_id',
      middleware: [read] as const,
      request: body(HtmlMenuBody),
      responses: { 200: json(HtmlMenuReply), ...errorResponses },
    }),
    async (c) => c.json({ html_menu: featureMenu(c.req.valid('json')), meta: { width: MENU_WIDTH }, styles: typeStyles(), types: typeList() }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/map/basemap.pmtiles',
      tags,
      summary: 'Подложка карты — архив PMTiles v3 (HTTP Range)',
      responses: { 200: { description: 'Архив целиком' }, 206: { description: 'Диапазон байтов' }, ...errorResponses },
    }),
    async (c) => (await basemapResponse(config, c.req.raw)) as never,
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/map/style.json',
      tags,
      summary: 'Стиль maplibre для подложки (без шрифтов и спрайтов из интернета)',
      responses: { 200: { description: 'Стиль maplibre' } },
    }),
    async (c) => c.json(editorStyle(config, new URL(c.req.url).origin) as Record<string, unknown>, 200),
  );
  return app;
}
