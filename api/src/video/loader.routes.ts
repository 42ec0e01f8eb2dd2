import { join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { contentDisposition } from '../http/content-disposition';
import { notFound } from '../http/errors';
import { createRouter, errorResponses, json } from '../http/openapi';
import { loaderPackageFile, loaderPackages } from './loader-packages';
import { LoaderPackages } from './schema';

const binary = (type: string, description: string) => ({ description, content: { [type]: { schema: z.string().openapi({ format: 'binary' }) } } });

/** The recording loader's installers kept on the server: which there are, and each one's download. */
export function videoLoaderRoutes({ db, config }: Pick<AppDeps, 'db' | 'config'>) {
  const app = createRouter();
  const loaderFolders = [join(config.dataDir, 'loader'), config.loaderDir];

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/loader',
      tags: ['Загрузчик'],
      summary: 'Установщики загрузчика записей: какие есть на сервере',
      middleware: [requireAccess(db, 'workspace.read')] as const,
      responses: { 200: json(LoaderPackages), 401: errorResponses[401] },
    }),
    async (c) => c.json(await loaderPackages(loaderFolders), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/v1/loader/{file}',
      tags: ['Загрузчик'],
      summary: 'Скачать установщик загрузчика',
      middleware: [requireAccess(db, 'workspace.read')] as const,
      request: { params: z.object({ file: z.string().max(255) }) },
      responses: { 200: binary('application/octet-stream', 'Файл установщика'), 401: errorResponses[401], 404: errorResponses[404] },
    }),
    async (c) => {
      const found = await loaderPackageFile(loaderFolders, c.req.valid('param').file);
      if (!found) throw notFound('Такого установщика на сервере нет: соберите его командой npm run build:loader');
      return new Response(Bun.file(found.path), {
        headers: {
          'content-type': found.contentType,
          'content-length': String(found.size),
          'content-disposition': contentDisposition(found.file),
        },
      }) as never;
    },
  );
  return app;
}
