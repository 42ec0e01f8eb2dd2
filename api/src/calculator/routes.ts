import type { AppDeps } from '../deps';
import { createRouter } from '../http/openapi';
import { calculatorOwnerRoutes } from './owner.routes';
import { calculatorPublicRoutes } from './public.routes';

/**
 * Spec 02 §7 "Calculator". Public: required measurements, public output, days, measurement graph.
 * Members of the owner organisation: private output, gear table, settings. Its admins: updates.
 */
export function calculatorRoutes(deps: AppDeps) {
  const app = createRouter();
  app.route('/', calculatorPublicRoutes(deps));
  app.route('/', calculatorOwnerRoutes(deps));
  return app;
}
