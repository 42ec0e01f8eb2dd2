import { createRoute } from '@hono/zod-openapi';
import { currentUser } from '../auth/access';
import type { AppDeps } from '../deps';
import { createRouter, ErrorSchema, errorResponses, json } from '../http/openapi';
import { humansAt } from './humans';
import { visionAccess, visionRoute } from './route-spec';
import { HumansQuery, HumansReply } from './schema';

const unusable = { 422: { description: 'Файл модели или детектора не читается', content: { 'application/json': { schema: ErrorSchema } } } } as const;

/** People on a frame of a video (the detector chosen by the call or the configuration). */
export function visionHumanRoutes(deps: Pick<AppDeps, 'db' | 'storage' | 'config' | 'movenetThread'>) {
  // deps.movenetThread is read at each call: main.ts sets it on the shared deps.
  const { db, storage, config } = deps;
  const app = createRouter();
  const { readVideo } = visionAccess(db);

  app.openapi(
    createRoute({
      ...visionRoute(
        'get',
        '/api/v1/humans',
        'Люди на кадре: MoveNet (люди и позы), вычитание фона и пятна или ONNX-детектор из хранилища моделей (поле detector)',
        readVideo,
      ),
      request: { query: HumansQuery },
      responses: { 200: json(HumansReply), ...errorResponses, ...unusable },
    }),
    async (c) => {
      const { video_id, second, detector } = c.req.valid('query');
      return c.json(await humansAt(db, storage, currentUser(c), video_id, second, detector ?? config.humanDetector, deps.movenetThread), 200);
    },
  );
  return app;
}
