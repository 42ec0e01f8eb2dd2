import type { AppDeps } from '../deps';
import { createRouter } from '../http/openapi';
import { adminCameraRoutes } from './cameras.routes';
import { adminNamedRoutes } from './named.routes';
import { adminStructureRoutes } from './structures.routes';
import { adminUserRoutes } from './users.routes';

/**
 * The administration calls (admin role, `organization.admin`): users and roles, the structure
 * tree, employees, workplaces and cameras. Lists of employees and workplaces are the ordinary
 * GET /api/v1/employees and /api/v1/workplaces.
 */
export function adminRoutes(deps: AppDeps) {
  const app = createRouter();
  app.route('/', adminUserRoutes(deps));
  app.route('/', adminStructureRoutes(deps));
  app.route('/', adminNamedRoutes(deps));
  app.route('/', adminCameraRoutes(deps));
  return app;
}
