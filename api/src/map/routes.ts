import type { AppDeps } from '../deps';
import { createRouter } from '../http/openapi';
import { mapBasemapRoutes } from './basemap.routes';
import { mapDrawingRoutes } from './drawing.routes';
import { mapExportRoutes } from './export.routes';
import { mapGisRoutes } from './gis.routes';
import { mapProjectRoutes } from './projects.routes';

/**
 * Spec 02 §7 "Map projects and drawing": projects of the user's organisation, the current ("last")
 * project per user, drawing saves, algorithm runs, golden standard, CAD export, GIS helpers and
 * the offline basemap (docs/map.md). Reading needs any role; changing needs workspace.write.
 */
export function mapRoutes(deps: AppDeps) {
  const app = createRouter();
  app.route('/', mapProjectRoutes(deps));
  app.route('/', mapDrawingRoutes(deps));
  app.route('/', mapExportRoutes(deps));
  app.route('/', mapGisRoutes(deps));
  app.route('/', mapBasemapRoutes(deps));
  return app;
}
