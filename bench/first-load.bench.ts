/**
 * First load on a phone (issue 12, «Быстрая первая загрузка»; issue 28): the real server with the demo data,
 * Debian Chromium as a 360 px phone (360×740, DPR 3, touch) on DevTools' "Fast 3G" network and a 4×
 * slower CPU, through CDP; every run in a fresh browser context (cold cache, no service worker yet).
 *   node_modules/.bin/bun bench/first-load.bench.ts   (build the PWA first: node scripts/build.mjs)
 * Measures (median of RUNS cold runs each, the variants of one run one after another):
 * - landing: first-contentful-paint of /;
 * - shared report: from navigation to the share button's link /demo/{key} until the first row of its
 *   table is on screen (the page carries the report: api/src/report/share-page.ts);
 * - beside it: the older link /#/demo/{key} on the same server (index.html's preload script sends it on
 *   to /demo/{key}, issue 47: its time includes that second page load), the bare reference (the same files and the same API answers, recorded once, from a
 *   bare static server in this process, /#/demo/{key}) and the inlined-data reference (the bare
 *   server sending the product's own /demo/{key} page, recorded once): what is left to the server;
 * - JS of the landing page and of the markup screen: bytes on the wire and uncompressed.
 * Writes bench/results/first-load.json; budgets in bench/budgets.json.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { loadavg } from 'node:os';
import { brotliCompressSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../tests/support/browser.ts';
import { chunkClosure, loadChunkGraph, screenChunk } from '../tests/support/pwa-chunks.ts';
import { apiSessionCookie, startServer } from '../tests/support/server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'pwa', 'dist');
const RUNS = 5;

/** Chrome DevTools' "Fast 3G" preset (bytes per second, ms), as Puppeteer's PredefinedNetworkConditions has it. */
const FAST_3G = { latency: 150 * 3.75, downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9, uploadThroughput: ((750 * 1000) / 8) * 0.9 };
/** Lighthouse's mobile profile: a mid-range phone runs scripts about 4× slower than a desktop. */
const CPU_SLOWDOWN = 4;
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

/** The demo's packing area on its first recorded day, 08:00–17:00 Moscow (as tests/e2e/reports.e2e.test.ts). */
const SHIFT = { from: '2026-11-16T05:00:00.000Z', to: '2026-11-16T14:00:00.000Z' };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const round = (value: number) => Math.round(value);

/** Records, from the first script the page runs, when the first shared-report row is on screen. */
const WATCH_TABLE = `(() => {
  const seen = () => {
    const row = document.querySelector('[data-testid="frv-row"]');
    if (!row || row.getBoundingClientRect().height === 0) return false;
    // The next frame: the row has been painted, not only added.
    requestAnimationFrame(() => { window.__tableVisibleAt = performance.now(); });
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true });
})();`;

async function phonePage(
  browser: Browser,
  options: { cookies?: { name: string; value: string; url: string }[] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(PHONE);
  if (options.cookies) await context.addCookies(options.cookies);
  await context.addInitScript(WATCH_TABLE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...FAST_3G });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return { context, page };
}

/** JS the page fetched: bytes on the wire (compressed when the server compressed) and uncompressed. */
async function scriptBytes(page: Page) {
  return page.evaluate(() => {
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
    return {
      files: scripts.length,
      encoded: scripts.reduce((sum, entry) => sum + entry.encodedBodySize, 0),
      decoded: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
    };
  });
}

async function landingRun(browser: Browser, url: string) {
  const { context, page } = await phonePage(browser);
  try {
    await page.goto(`${url}/`, { waitUntil: 'commit' });
    const fcp = await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime, undefined, {
      timeout: 60_000,
      polling: 100,
    });
    const firstPaint = Number(await fcp.jsonValue());
    await page.getByRole('link', { name: 'Вход', exact: true }).first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    return { first_contentful_paint_ms: firstPaint, js: await scriptBytes(page) };
  } finally {
    await context.close();
  }
}

async function reportRun(browser: Browser, address: string) {
  const { context, page } = await phonePage(browser);
  try {
    await page.goto(address, { waitUntil: 'commit' });
    const visible = await page.waitForFunction(() => (window as unknown as { __tableVisibleAt?: number }).__tableVisibleAt, undefined, {
      timeout: 90_000,
      polling: 100,
    });
    const tableVisible = Number(await visible.jsonValue());
    const rows = await page.getByTestId('frv-row').count();
    return { table_visible_ms: tableVisible, rows, js: await scriptBytes(page) };
  } finally {
    await context.close();
  }
}

/**
 * The references: a bare static server (Bun.serve in this process) with the same files of pwa/dist
 * (brotli copies where the browser takes them, index.html for any other path), the key's two API
 * answers as the real server gave them (brotli), the product's /demo/{key} page as the real server
 * gave it; any other API call goes on to the real server.
 */
function startBareStatic(real: string, recorded: { api: Map<string, string>; page: { path: string; html: string } }) {
  const brotli = (text: string) => new Uint8Array(brotliCompressSync(Buffer.from(text)));
  const api = new Map([...recorded.api].map(([path, body]) => [path, brotli(body)]));
  const page = brotli(recorded.page.html);
  const base = normalize(dist);
  const takesBrotli = (request: Request) => /\bbr\b/.test(request.headers.get('accept-encoding') ?? '');
  const compressed = (body: Uint8Array<ArrayBuffer>, type: string) =>
    new Response(body, { headers: { 'content-type': type, 'content-encoding': 'br', 'cache-control': 'no-store' } });
  const bare = Bun.serve({
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const answer = api.get(url.pathname + url.search);
      if (answer) return compressed(answer, 'application/json');
      if (url.pathname.startsWith('/api/')) return fetch(`${real}${url.pathname}${url.search}`, { headers: request.headers });
      if (url.pathname === recorded.page.path) return compressed(page, 'text/html; charset=UTF-8');
      let target = normalize(join(base, decodeURIComponent(url.pathname)));
      if (!target.startsWith(base + sep) || url.pathname === '/' || !existsSync(target) || statSync(target).isDirectory()) target = join(base, 'index.html');
      const type = Bun.file(target).type;
      if (takesBrotli(request) && existsSync(`${target}.br`)) return compressed(new Uint8Array(readFileSync(`${target}.br`)), type);
      return new Response(Bun.file(target), { headers: { 'content-type': type, 'cache-control': 'no-store' } });
    },
  });
  return { url: `http://localhost:${bare.port}`, stop: () => bare.stop(true) };
}

async function markupRun(browser: Browser, url: string, cookie: string, videoId: number) {
  const cookies = cookie.split('; ').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
  const { context, page } = await phonePage(browser, { cookies });
  try {
    const started = Date.now();
    await page.goto(`${url}/#/video/${videoId}`, { waitUntil: 'commit' });
    await page.locator('.markup-head h1').waitFor({ timeout: 120_000 });
    await page.locator('canvas').first().waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle', { timeout: 120_000 });
    return { screen_ms: Date.now() - started, js: await scriptBytes(page) };
  } finally {
    await context.close();
  }
}

/**
 * The build's own figures: gzip and brotli bytes of the JS each screen loads with it (pwa/dist/.vite/chunks.json).
 * A file too small to gain from a compressed copy has none and goes out as it is (pwa/vite.config.ts).
 */
function builtJs(files: string[]) {
  const size = (file: string) => statSync(join(dist, file)).size;
  const served = (file: string, ext: string) => (existsSync(join(dist, `${file}.${ext}`)) ? size(`${file}.${ext}`) : size(file));
  return {
    files: files.length,
    raw_bytes: files.reduce((sum, file) => sum + size(file), 0),
    gzip_bytes: files.reduce((sum, file) => sum + served(file, 'gz'), 0),
    brotli_bytes: files.reduce((sum, file) => sum + served(file, 'br'), 0),
  };
}

const graph = loadChunkGraph(dist);
// index.html's small route preloader (pwa/vite.config.ts) is loaded on every screen too.
const preloader = readdirSync(join(dist, 'assets'))
  .filter((file) => /^route-preload-.*\.js$/.test(file))
  .map((file) => `assets/${file}`);
const loadedWith = (screens: string[]) => [...preloader, ...chunkClosure(graph, [graph.entry, ...screens.map((module) => screenChunk(graph, module))]).files];
const build = {
  landing: builtJs(loadedWith([])),
  shared_report: builtJs(loadedWith(['pwa/src/screens/reports/interactive/InteractiveScreen.tsx'])),
  markup: builtJs(loadedWith(['pwa/src/screens/video-markup/VideoMarkupScreen.tsx'])),
};
console.log('build', build);

const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '20' });
const browser = await launchBrowser();
try {
  const cookie = await apiSessionCookie(server.url, 'analyst');
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { cookie, origin: server.url, 'content-type': 'application/json', ...init.headers },
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const structures = await api<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  const packingId = structures.find((s) => s.name === 'Участок упаковки')!.id;
  const { hash } = await api<{ hash: string }>('/api/v1/generate_hash', {
    method: 'POST',
    body: JSON.stringify({ structure_id: packingId, from_time: SHIFT.from, to_time: SHIFT.to }),
  });
  const tasks = await api<{ elements: { video: { id: number } }[] }>(`/api/v1/get_tasks?structure_id=${packingId}&option=all&offset=0&limit=1`);
  const videoId = tasks.elements[0]!.video.id;

  // What the references serve: the key's API answers and the product's page, recorded once.
  const window = await api<{ structure_id: number; from_time: string; to_time: string }>(`/api/v1/resolve_hash/${hash}`);
  const frvPath = `/api/v2/frv?${new URLSearchParams({ structure_id: String(window.structure_id), from_time: window.from_time, to_time: window.to_time, key: hash })}`;
  const recorded = {
    api: new Map([
      [`/api/v1/resolve_hash/${hash}`, await (await fetch(`${server.url}/api/v1/resolve_hash/${hash}`)).text()],
      [frvPath, await (await fetch(`${server.url}${frvPath}`)).text()],
    ]),
    page: { path: `/demo/${hash}`, html: await (await fetch(`${server.url}/demo/${hash}`)).text() },
  };
  if (!recorded.page.html.includes('id="norma-shared-report"')) throw new Error('/demo/{key} came without its report');
  const bare = startBareStatic(server.url, recorded);
  // Two cores shared with other work: the load beside the figures (1, 5, 15 minutes).
  const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);

  const landing = [];
  const report = [];
  const older = [];
  const bareRef = [];
  const inlinedRef = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      landing.push(await landingRun(browser, server.url));
      report.push(await reportRun(browser, `${server.url}/demo/${hash}`));
      older.push(await reportRun(browser, `${server.url}/#/demo/${hash}`));
      bareRef.push(await reportRun(browser, `${bare.url}/#/demo/${hash}`));
      inlinedRef.push(await reportRun(browser, `${bare.url}/demo/${hash}`));
      console.log(
        `run ${run + 1}: landing FCP ${round(landing[run]!.first_contentful_paint_ms)} ms; report table ${round(report[run]!.table_visible_ms)} ms (${report[run]!.rows} rows shown), older link ${round(older[run]!.table_visible_ms)} ms, bare reference ${round(bareRef[run]!.table_visible_ms)} ms, inlined-data reference ${round(inlinedRef[run]!.table_visible_ms)} ms`,
      );
    }
  } finally {
    bare.stop();
  }
  const markup = await markupRun(browser, server.url, cookie, videoId);
  console.log(`markup screen: ${markup.screen_ms} ms, JS ${markup.js.encoded} B on the wire, ${markup.js.decoded} B uncompressed`);

  const result = {
    name: 'first-load',
    date: new Date().toISOString(),
    runtime: `bun ${Bun.version}, Debian Chromium ${browser.version()} (headless)`,
    profile: {
      viewport: '360x740',
      device_scale_factor: 3,
      mobile: true,
      touch: true,
      network: 'DevTools Fast 3G (CDP Network.emulateNetworkConditions)',
      latency_ms: FAST_3G.latency,
      download_bytes_per_s: FAST_3G.downloadThroughput,
      upload_bytes_per_s: FAST_3G.uploadThroughput,
      cpu_slowdown: CPU_SLOWDOWN,
      cache: 'cold (a fresh context per run)',
      runs: RUNS,
      load_average: { before: loadBefore, after: loadavg().map((x) => Math.round(x * 100) / 100) },
    },
    landing: {
      first_contentful_paint_ms: round(median(landing.map((r) => r.first_contentful_paint_ms))),
      runs_ms: landing.map((r) => round(r.first_contentful_paint_ms)),
      js_transferred_bytes: median(landing.map((r) => r.js.encoded)),
      js_uncompressed_bytes: median(landing.map((r) => r.js.decoded)),
      js_transferred_kb: Math.round(median(landing.map((r) => r.js.encoded)) / 102.4) / 10,
    },
    shared_report: {
      link: '/demo/{key}',
      table_visible_ms: round(median(report.map((r) => r.table_visible_ms))),
      runs_ms: report.map((r) => round(r.table_visible_ms)),
      rows_shown: report[0]!.rows,
      js_transferred_bytes: median(report.map((r) => r.js.encoded)),
      js_uncompressed_bytes: median(report.map((r) => r.js.decoded)),
      page_bytes: recorded.page.html.length,
      older_link: {
        link: '/#/demo/{key}',
        table_visible_ms: round(median(older.map((r) => r.table_visible_ms))),
        runs_ms: older.map((r) => round(r.table_visible_ms)),
      },
      bare_reference: {
        what: 'the same files and API answers from a bare static server, /#/demo/{key}',
        table_visible_ms: round(median(bareRef.map((r) => r.table_visible_ms))),
        runs_ms: bareRef.map((r) => round(r.table_visible_ms)),
      },
      inlined_data_reference: {
        what: "the product's /demo/{key} page (report inside) from a bare static server",
        table_visible_ms: round(median(inlinedRef.map((r) => r.table_visible_ms))),
        runs_ms: inlinedRef.map((r) => round(r.table_visible_ms)),
      },
    },
    markup: {
      js_transferred_bytes: markup.js.encoded,
      js_uncompressed_bytes: markup.js.decoded,
      js_transferred_kb: Math.round(markup.js.encoded / 102.4) / 10,
      screen_ready_ms: markup.screen_ms,
    },
    build: {
      ...build,
      landing_js_gzip_kb: Math.round(build.landing.gzip_bytes / 102.4) / 10,
      markup_js_gzip_kb: Math.round(build.markup.gzip_bytes / 102.4) / 10,
    },
  };
  const out = join(here, 'results', 'first-load.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
  console.log(`written ${out}`);
} finally {
  await browser.close();
  await server.stop();
}
