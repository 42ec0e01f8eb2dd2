import type { AppDeps } from '../deps';
import { createRouter } from '../http/openapi';
import { videoCameraRoutes } from './cameras.routes';
import { videoIntakeRoutes } from './intake.routes';
import { videoLoaderRoutes } from './loader.routes';
import { videoPlaybackRoutes } from './playback.routes';

/** Recordings: how they come in, one video in the player, a structure's cameras and their videos, the loader's installers. */
export function videoRoutes(deps: AppDeps) {
  const app = createRouter();
  app.route('/', videoIntakeRoutes(deps));
  app.route('/', videoPlaybackRoutes(deps));
  app.route('/', videoCameraRoutes(deps));
  app.route('/', videoLoaderRoutes(deps));
  return app;
}
