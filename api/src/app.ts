import { Hono } from 'hono';
import { adminRoutes } from './admin/routes';
import { authRoutes } from './auth/routes';
import { calculatorRoutes } from './calculator/routes';
import { eventRoutes } from './events/routes';
import { eventShareRoutes } from './events/share.routes';
import { sessionUser } from './auth/service';
import { shareKeyCreators } from './auth/share-keys';
import { requestBodyLimits } from './http/body-limit';
import { compressResponses } from './http/compress';
import { refuseCrossSiteWrites } from './http/cross-site';
import { errorBody, handleError } from './http/errors';
import { DEFAULT_FAIR_SHARE, fairShare, HEAVY_REQUESTS } from './http/fair-share';
import type { AppEnv } from './http/env';
import type { AppDeps } from './deps';
import { useDocumentReader } from './http/document-threads';
import { createRouter } from './http/openapi';
import { readDocument } from './threads/document-read';
import { securityHeaders } from './http/security-headers';
import { timeBudget } from './http/time-budget';
import { serveApiDocs, servePwa } from './http/static';
import { jobRoutes } from './jobs/routes';
import { mapRoutes } from './map/routes';
import { normRoutes } from './norms/routes';
import { markupRoutes } from './markup/routes';
import { taskRoutes } from './markup/tasks.routes';
import { orgRoutes } from './org/routes';
import { videoRoutes } from './video/routes';
import { UPLOAD_PATH } from './video/body-limit';
import { reportRoutes } from './report/routes';
import { serveSharedReportPage } from './report/share-page';
import { siteRoutes } from './site/routes';
import { summaryRoutes } from './summary/routes';
import { visionRoutes } from './vision/routes';
import { jobCancelRoutes } from './vision/cancel.routes';
import { liveRoutes } from './live/routes';
import { liveBoardRoutes } from './live/board.routes';

/** Every domain's router, in one place so the OpenAPI document lists them all. */
const domains = [
  authRoutes,
  orgRoutes,
  markupRoutes,
  reportRoutes,
  taskRoutes,
  videoRoutes,
  jobRoutes,
  jobCancelRoutes,
  summaryRoutes,
  adminRoutes,
  calculatorRoutes,
  mapRoutes,
  siteRoutes,
  visionRoutes,
  normRoutes,
  eventRoutes,
  eventShareRoutes,
  liveRoutes,
  liveBoardRoutes,
];

const API_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Norma API', version: '0.1.0', description: 'Контракт /api/vN платформы Norma. Ошибки: { "error": { "code", "message" } }.' },
};

/** The /api contract: every domain's routes on one router. */
function apiRouter(deps: AppDeps) {
  const api = createRouter();
  for (const domain of domains) api.route('/', domain(deps));
  return api;
}

/**
 * The OpenAPI document of /api/openapi.json, built without a server or a database: the routes only
 * close over `deps`, so their declarations need none of it (scripts/api-types.mjs types the PWA's client from it).
 */
export const openApiDocument = (deps: AppDeps) => apiRouter(deps).getOpenAPI31Document(API_DOCUMENT);

/** Builds the whole HTTP app: better-auth, the /api contract, API docs and the PWA. */
export function createApp(deps: AppDeps) {
  useDocumentReader(readDocument);
  const app = new Hono<AppEnv>();
  app.onError(handleError);

  // First, so that every answer — PWA files, API, docs, errors, 404s — carries the headers.
  app.use('*', securityHeaders(deps.config.baseUrl));
  app.use('*', compressResponses());
  // Before better-auth and every route: a forged cross-site write must change nothing.
  app.use('/api/*', refuseCrossSiteWrites(deps.config.baseUrl));
  // Before better-auth and every parser: each call's body limit, counted while the body is read.
  app.use('/api/*', requestBodyLimits(UPLOAD_PATH));

  app.on(['GET', 'POST'], '/api/auth/*', (c) => deps.auth.handler(c.req.raw));

  app.use('/api/*', async (c, next) => {
    c.set('user', await sessionUser(deps, c.req.raw.headers));
    await next();
  });
  // A read that runs past its budget answers 503 instead of holding the client (http/time-budget.ts).
  app.use('/api/*', timeBudget(deps.config.readTimeBudgetMs));
  // Inside the time budget, so that a slot is held until the work has really ended (http/fair-share.ts);
  // a request with a share key counts as the key's creator.
  app.use('/api/*', fairShare(DEFAULT_FAIR_SHARE, HEAVY_REQUESTS, shareKeyCreators(deps.db)));

  const api = apiRouter(deps);
  api.doc31('/api/openapi.json', API_DOCUMENT);
  app.route('/', api);
  serveApiDocs(app, '/api/openapi.json');

  app.all('/api/*', (c) => c.json(errorBody('not_found', `Нет такого вызова API: ${c.req.method} ${c.req.path}`), 404));
  if (deps.config.pwaDir) {
    // Before the PWA's files: a shared report's link is a page with its report inside (report/share-page.ts).
    serveSharedReportPage(app, deps.config.pwaDir);
    servePwa(app, deps.config.pwaDir);
  }
  return app;
}
