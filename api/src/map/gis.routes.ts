import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, errorResponses, json, jsonBody } from '../http/openapi';
import { featureMenu, gisMenu, importParcels, MENU_WIDTH, polygonFromCoords, polygonsFromCodes, typeList, typeStyles } from './menus';
import { CadastreImportReply, FeatureCollection, GisMenuBody, GisMenuReply, GisQuery, HtmlMenuBody, HtmlMenuReply, ZONE_MIN_RADIUS_M } from './schema';

const tags = ['Карта'];

/** GIS helpers of the editor: polygon input forms, polygons by coordinates or cadastral numbers, the cadastre import, feature property forms. */
export function mapGisRoutes({ db }: Pick<AppDeps, 'db'>) {
  const app = createRouter();
  const read = requireAccess(db, 'workspace.read');

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/v1/gis/html_menu',
      tags,
      summary: 'Форма ввода полигона по координатам или кадастровому номеру',
      middleware: [read] as const,
      request: jsonBody(GisMenuBody),
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
      request: jsonBody(z.object({ type: z.literal('FeatureCollection'), features: z.array(z.unknown()).max(100_000) })),
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
      request: jsonBody(HtmlMenuBody),
      responses: { 200: json(HtmlMenuReply), ...errorResponses },
    }),
    async (c) =>
      c.json(
        {
          html_menu: featureMenu(c.req.valid('json')),
          meta: { width: MENU_WIDTH },
          styles: typeStyles(),
          types: typeList(),
          zone_min_radius: ZONE_MIN_RADIUS_M,
        },
        200,
      ),
  );
  return app;
}
