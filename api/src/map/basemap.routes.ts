import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses } from '../http/openapi';
import { basemapResponse, editorStyle } from './basemap';

const tags = ['Карта'];

/** The offline basemap (PMTiles archive, HTTP Range) and its maplibre style (docs/map.md). */
export function mapBasemapRoutes({ config }: Pick<AppDeps, 'config'>) {
  const app = createRouter();

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
