import type { AppDeps } from '../deps';
import { createRouter } from '../http/openapi';
import { normApproverRoutes } from './approvers.routes';
import { normCardRoutes } from './cards.routes';
import { normFulfilmentRoutes } from './fulfilment.routes';
import { normScenarioRoutes } from './scenarios.routes';

/**
 * Norm cards (issue 29, docs/norms.md): read by everyone who reads reports; drafts are built and
 * changed by admins and analysts (workspace.write); approval needs the right to approve norms.
 */
export function normRoutes(deps: AppDeps) {
  const app = createRouter();
  app.route('/', normCardRoutes(deps));
  app.route('/', normScenarioRoutes(deps));
  app.route('/', normFulfilmentRoutes(deps));
  app.route('/', normApproverRoutes(deps));
  return app;
}
