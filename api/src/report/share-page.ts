import { join } from 'node:path';
import type { Context, Hono } from 'hono';
import { CLIENT_IP_HEADER } from '../http/client-address';
import { isWellFormedShareKey } from '../auth/share-keys';
import type { AppEnv } from '../http/env';
import { PAGE_ANSWERS_ID, SHARED_REPORT_DATA_ID } from '@norma/core-wasm/report/page-data';

/*
 * The page's JSON data blocks (ids shared with the PWA, @norma/core-wasm/report/page-data): the shared
 * report, which the PWA's shared-report screen reads (pwa/src/screens/reports/interactive/InteractiveScreen.tsx),
 * and the page's answers to the reads the app makes on every start, keyed by the URL it asks
 * (pwa/src/api/page-answers.ts): the installation (its demo badge and links) and who is signed in —
 * the visitor's own session, read with their cookie.
 */
const START_READS = ['/api/v1/instance', '/api/v1/whoami'];

/**
 * JSON for the content of a `<script type="application/json">` element: `<`, `>` and `&` escaped,
 * so that no text in the data (a name like `</script><script>…`) can end the element or open a
 * comment; U+2028/U+2029 too, for any reader that takes the text for JavaScript.
 */
function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The page of a shared report's link, `/demo/{key}` (the address the share button gives; the older
 * `/#/demo/{key}` still opens the same screen, but its key never reaches the server). It is the
 * PWA's index.html with the report inside: the key's window (GET /api/v1/resolve_hash/{key}) and the
 * report over it (GET /api/v2/frv?…&key=) as a JSON data block before `</body>` — not a script the
 * browser runs, so the Content-Security-Policy (no inline scripts) stays as it is. On a phone this
 * saves the two round trips the screen would otherwise make after the page (docs/performance.md,
 * «Данные отчёта в самой странице»).
 *
 * Both reads are made through the app itself, the same calls with the same client address as the
 * screen's own: the same rules decide (a revoked, unknown or malformed key, a guessing address over
 * its limit, a report past its time budget), and whatever they refuse puts nothing into the page —
 * the page is then plain index.html and the screen reads as it would, showing its error. Never
 * stored by any cache (`no-store`): the address is one key's, and a revoked key must stop opening
 * the report at once.
 */
export function serveSharedReportPage(app: Hono<AppEnv>, pwaDir: string) {
  app.get('/demo/:key', async (c) => {
    const page = Bun.file(join(pwaDir, 'index.html'));
    if (!(await page.exists())) return c.notFound();
    const html = await page.text();
    const key = c.req.param('key');
    const data = isWellFormedShareKey(key) ? await sharedReportData(app, c, key) : null;
    const links = data ? await screenLinks(pwaDir) : '';
    const answers = data ? await startAnswers(app, c, key) : {};
    // <html data-screen-links>: the route-preload script (pwa/vite.config.ts) then adds no second <link>
    // of its own for them — the browser loads a file once, but parses a style sheet linked twice twice.
    const body = data
      ? html
          .replace(/<html\b/, () => (links ? '<html data-screen-links' : '<html'))
          .replace('</head>', () => `${links}</head>`)
          .replace(
            '</body>',
            () =>
              `<script type="application/json" id="${SHARED_REPORT_DATA_ID}">${jsonForHtml({ key, ...data })}</script>\n` +
              `<script type="application/json" id="${PAGE_ANSWERS_ID}">${jsonForHtml(answers)}</script>\n</body>`,
          )
      : html;
    return c.html(body, 200, { 'cache-control': 'no-store' });
  });
}

/**
 * `<link>`s for the shared report screen's own chunks and style sheets, as the build lists them
 * (pwa/vite.config.ts, routePreload: dist/.vite/routes.json): in the page itself they load beside
 * the entry chunk, a round trip earlier than from index.html's route-preload script (which, told by
 * <html data-screen-links>, then adds none of its own). Nothing when the build wrote no list.
 */
async function screenLinks(pwaDir: string): Promise<string> {
  const list = Bun.file(join(pwaDir, '.vite', 'routes.json'));
  if (!(await list.exists())) return '';
  const routes = (await list.json()) as { hash: string; files: string[]; styles: string[] }[];
  const route = routes.find((r) => r.hash === '#/demo/');
  if (!route) return '';
  const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    ...route.files.map((file) => `<link rel="modulepreload" href="${attribute(file)}" crossorigin="anonymous">`),
    ...route.styles.map((file) => `<link rel="stylesheet" href="${attribute(file)}" crossorigin="anonymous">`),
  ]
    .map((line) => `    ${line}\n`)
    .join('');
}

/**
 * A GET through the app itself, with the visitor's address (and, `asVisitor`, their cookie): the
 * reply's JSON, or null when the call refused.
 */
async function readThroughApp(app: Hono<AppEnv>, c: Context<AppEnv>, path: string, { asVisitor = false } = {}): Promise<unknown> {
  const headers = new Headers();
  const address = c.req.header(CLIENT_IP_HEADER);
  if (address) headers.set(CLIENT_IP_HEADER, address);
  const cookie = c.req.header('cookie');
  if (asVisitor && cookie) headers.set('cookie', cookie);
  const response = await app.request(path, { headers }, c.env);
  return response.ok ? ((await response.json()) as unknown) : null;
}

/** The key's window and its report, read as the screen reads them; null when either read is refused. */
async function sharedReportData(app: Hono<AppEnv>, c: Context<AppEnv>, key: string): Promise<{ share: unknown; frv: unknown } | null> {
  const share = (await readThroughApp(app, c, `/api/v1/resolve_hash/${encodeURIComponent(key)}`)) as {
    structure_id: number;
    from_time: string;
    to_time: string;
  } | null;
  if (!share) return null;
  const query = new URLSearchParams({ structure_id: String(share.structure_id), from_time: share.from_time, to_time: share.to_time, key });
  const frv = await readThroughApp(app, c, `/api/v2/frv?${query}`);
  return frv ? { share, frv } : null;
}

/**
 * The replies to START_READS, and to the header's read of whether this key's report is the demo
 * organisation's (its «демо-данные» badge, pwa/src/app/Header.tsx), as the visitor's app would get
 * them now (whoami with their cookie); a read that refused is left out, and the app asks it itself.
 */
async function startAnswers(app: Hono<AppEnv>, c: Context<AppEnv>, key: string): Promise<Record<string, unknown>> {
  const reads = [...START_READS, `/api/v1/instance?${new URLSearchParams({ key })}`];
  const replies = await Promise.all(reads.map((path) => readThroughApp(app, c, path, { asVisitor: true })));
  return Object.fromEntries(reads.flatMap((path, i) => (replies[i] === null ? [] : [[path, replies[i]]])));
}
