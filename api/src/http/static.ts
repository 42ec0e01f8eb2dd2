import { join, normalize, sep } from 'node:path';
import type { Hono } from 'hono';
import { chooseEncoding, varyOnEncoding, type ContentCoding } from './compress';
import type { AppEnv } from './env';

/** Hashed file names (Vite's /assets/*): their content never changes under the same name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves a built single-page app: files as they are, every other non-API path gets index.html
 * (routes are hash routes, so this only matters for deep links and the service worker).
 * A file with a precompressed copy beside it (`x.js.br`, `x.js.gz`, written by the build:
 * pwa/vite.config.ts) goes out as that copy when the client accepts the encoding, with
 * `Vary: Accept-Encoding`. Source maps, the copies themselves and dot folders (the build's
 * .vite/chunks.json) are not served. index.html and sw.js carry an ETag and answer 304 when
 * unchanged. docs/performance.md, «Быстрая первая загрузка».
 */
export function servePwa(app: Hono<AppEnv>, root: string) {
  const base = normalize(root);
  app.get('*', async (c, next) => {
    const path = c.req.path;
    if (path.startsWith('/api/')) return next();
    if (/\.(map|br|gz)$/i.test(path) || /\/\./.test(path)) return c.notFound();
    const target = normalize(join(base, decodeURIComponent(path)));
    if (!target.startsWith(base + sep) && target !== base) return next();
    let file = Bun.file(target);
    const isFile = path !== '/' && (await file.exists());
    if (!isFile) file = Bun.file(join(base, 'index.html'));
    if (!(await file.exists())) return next();
    const headers = new Headers({ 'content-type': file.type });
    // The service worker (sw.js), index.html and the manifest keep their names between builds: always revalidated.
    const immutable = isFile && path.startsWith('/assets/');
    headers.set('cache-control', immutable ? IMMUTABLE : 'no-cache');
    const copies = await precompressedCopies(file.name!);
    if (copies.length > 0) varyOnEncoding(headers);
    const coding = chooseEncoding(c.req.header('accept-encoding'), copies);
    const body = coding ? Bun.file(`${file.name}.${coding === 'br' ? 'br' : 'gz'}`) : file;
    if (coding) headers.set('content-encoding', coding);
    if (!immutable) {
      // Revalidation costs a 304 instead of the file: one tag per build of the file and per encoding.
      const etag = `W/"${file.size.toString(36)}-${Math.trunc(file.lastModified).toString(36)}${coding ? `-${coding}` : ''}"`;
      headers.set('etag', etag);
      if (
        c.req
          .header('if-none-match')
          ?.split(',')
          .some((tag) => tag.trim() === etag)
      )
        return new Response(null, { status: 304, headers });
    }
    headers.set('content-length', String(body.size));
    return new Response(body, { headers });
  });
}

/** Which precompressed copies the build wrote beside a file, best first. */
async function precompressedCopies(path: string): Promise<ContentCoding[]> {
  const [br, gzip] = await Promise.all([Bun.file(`${path}.br`).exists(), Bun.file(`${path}.gz`).exists()]);
  return [...(br ? (['br'] as const) : []), ...(gzip ? (['gzip'] as const) : [])];
}

/** Swagger UI from the swagger-ui-dist package (never a CDN), pointed at our OpenAPI document. */
export function serveApiDocs(app: Hono<AppEnv>, openApiPath: string) {
  const dist = normalize(join(new URL(import.meta.resolve('swagger-ui-dist/package.json')).pathname, '..'));
  // The start-up code is a file of its own: the Content-Security-Policy allows no inline scripts.
  const page = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Norma API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(openApiPath)}, dom_id: '#ui' });\n`;
  app.get('/api/docs', (c) => c.html(page));
  app.get('/api/docs/init.js', (c) => c.body(init, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }));
  app.get('/api/docs/:file{.+\\.(css|js|png)}', async (c) => {
    const file = Bun.file(join(dist, c.req.param('file').replace(/[/\\]/g, '')));
    if (!(await file.exists())) return c.notFound();
    return new Response(file, { headers: { 'content-type': file.type, 'cache-control': 'public, max-age=86400' } });
  });
}
