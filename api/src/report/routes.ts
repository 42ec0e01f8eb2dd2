import type { AppDeps } from '../deps';
import { createRouter } from '../http/openapi';
import { reportComputedRoutes } from './computed.routes';
import { reportInputsRoutes } from './inputs.routes';
import { reportReferenceRoutes } from './reference.routes';
import { shareRoutes } from './share-routes';

/**
 * Spec 01 reports of a structure over a window (docs/api.md "Отчёты"): the computed reports, their
 * inputs and units produced, the reference of normative coefficients, and the share keys.
 */
export function reportRoutes(deps: AppDeps) {
  const app = createRouter();
  app.route('/', reportComputedRoutes(deps));
  app.route('/', reportInputsRoutes(deps));
  app.route('/', reportReferenceRoutes(deps));
  app.route('/', shareRoutes(deps));
  return app;
}
