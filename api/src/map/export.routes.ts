import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { contentDisposition } from '../http/content-disposition';
import { createRouter, errorResponses, json } from '../http/openapi';
import { DwgBuildBody, DwgBuildReply, DwgDownloadQuery, DwgOutputUrlReply, DwgStatusReply, WorkItemQuery } from './schema';
import { exportFile, exportLinks, exportStatus, startExport } from './service';

const tags = ['Карта'];

/** CAD export of the current project (docs/map.md «Выгрузка в CAD»): start the job, follow it, download the drawing. */
export function mapExportRoutes({ db, storage }: Pick<AppDeps, 'db' | 'storage'>) {
  const app = createRouter();
  const read = requireAccess(db, 'workspace.read');
  const write = requireAccess(db, 'workspace.write');

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/dwg/build',
      tags,
      summary: 'Подготовить чертёж текущего проекта (DXF по умолчанию; format=dwg — DWG AutoCAD 2000, text_encoding — кодировка его текста)',
      // Starts a job: never for a viewer (issue 24).
      middleware: [write] as const,
      request: { body: { content: { 'application/json': { schema: DwgBuildBody } }, required: false } },
      responses: { 200: json(DwgBuildReply), ...errorResponses },
    }),
    async (c) => {
      const raw = (c.req.header('content-type') ?? '').includes('application/json') ? c.req.valid('json') : {};
      return c.json({ work_item_id: await startExport(db, currentUser(c), raw?.format ?? 'dxf', raw?.text_encoding) }, 200);
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
    async (c) => c.json(await exportStatus(db, currentUser(c), c.req.valid('query').work_item_id), 200),
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
    async (c) => c.json(await exportLinks(db, currentUser(c), c.req.valid('query').work_item_id), 200),
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
      const { key, filename, contentType } = await exportFile(db, storage, currentUser(c), query.work_item_id, query.file);
      // A bucket's file is no Response body in Bun; its stream is (as in video/stream.ts).
      const file = storage.file(key);
      return new Response(storage.isLocal ? file : file.stream(), {
        headers: { 'content-type': contentType, 'content-disposition': contentDisposition(filename) },
      }) as never;
    },
  );
  return app;
}
