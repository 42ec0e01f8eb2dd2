import { join, normalize, sep } from 'node:path';
import type { Hono } from 'hono';

/**
 * Serves a built single-page app: files as they are, every other non-API path gets index.html
 * (routes are hash routes, so this only matters for deep links and the service worker).
 */
export function servePwa(app: Hono<any>, root: string) {
  const base = normalize(root);
  app.get('*', async (c, next) => {
    const path = c.req.path;
    if (path.startsWith('/api/')) return next();
    const target = normalize(join(base, decodeURIComponent(path)));
    if (!target.startsWith(base + sep) && target !== base) return next();
    let file = Bun.file(target);
    const isFile = path !== '/' && (await file.exists());
    if (!isFile) file = Bun.file(join(base, 'index.html'));
    if (!(await file.exists())) return next();
    const headers: Record<string, string> = { 'content-type': file.type };
    if (isFile && path.startsWith('/assets/')) headers['cache-control'] = 'public, max-age=31536000, immutable';
    else headers['cache-control'] = 'no-cache';
    return new Response(file, { headers });
  });
}

/** Swagger UI from the swagger-ui-dist package (never a CDN), pointed at our OpenAPI document. */
export function serveApiDocs(app: Hono<any>, openApiPath: string) {
  const dist = normalize(join(new URL(import.meta.resolve('swagger-ui-dist/package.json')).pathname, '..'));
  const page = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Norma API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '${openApiPath}', dom_id: '#ui' });</script></body></html>`;
  app.get('/api/docs', (c) => c.html(page));
  app.get('/api/docs/:file{.+\\.(css|js|png|map)}', async (c) => {
    const file = Bun.file(join(dist, c.req.param('file').replace(/[/\\]/g, '')));
    if (!(await file.exists())) return c.notFound();
    return new Response(file, { headers: { 'content-type': file.type, 'cache-control': 'public, max-age=86400' } });
  });
}
