import type { AppDeps } from '../deps';
import { createRouter } from '../http/openapi';
import { visionAreaRoutes } from './areas.routes';
import { visionHumanRoutes } from './humans.routes';
import { visionModelRoutes } from './models.routes';
import { visionMovableRoutes } from './movables.routes';
import { visionStandRoutes } from './stands.routes';

/**
 * Spec 02 §7 "Models, areas, locations" (docs/vision.md). Reading needs any role of the
 * organisation; training, applying and editing need workspace.write (administrator, analyst).
 * Every id is looked up inside the caller's organisation: a foreign one answers 404.
 */
export function visionRoutes(deps: AppDeps) {
  const app = createRouter();
  app.route('/', visionModelRoutes(deps));
  app.route('/', visionAreaRoutes(deps));
  app.route('/', visionStandRoutes(deps));
  app.route('/', visionMovableRoutes(deps));
  app.route('/', visionHumanRoutes(deps));
  return app;
}
