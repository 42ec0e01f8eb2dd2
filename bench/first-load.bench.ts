/**
 * First load on a phone (issue 12, «Быстрая первая загрузка»): the real server with the demo data,
 * Debian Chromium as a 360 px phone (360×740, DPR 3, touch) on DevTools' "Fast 3G" network and a 4×
 * slower CPU, through CDP; every run in a fresh browser context (cold cache, no service worker yet).
 *   node_modules/.bin/bun bench/first-load.bench.ts   (build the PWA first: node scripts/build.mjs)
 * Measures (median of RUNS cold runs each):
 * - landing: first-contentful-paint of /;
 * - shared report: from navigation to /#/demo/{key} until the first row of its table is on screen;
 * - the same two with compression refused (Accept-Encoding: identity), for comparison;
 * - JS of the landing page and of the markup screen: bytes on the wire and uncompressed.
 * Writes bench/results/first-load.json; budgets in bench/budgets.json.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../tests/support/browser.ts';
import { chunkClosure, loadChunkGraph, screenChunk } from '../tests/support/pwa-chunks.ts';
import { apiSessionCookie, startServer } from '../tests/support/server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'pwa', 'dist');
const RUNS = 3;

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
  options: { identity?: boolean; cookies?: { name: string; value: string; url: string }[] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, ...(options.identity ? { extraHTTPHeaders: { 'accept-encoding': 'identity' } } : {}) });
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

async function landingRun(browser: Browser, url: string, identity = false) {
  const { context, page } = await phonePage(browser, { identity });
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

async function reportRun(browser: Browser, url: string, key: string, identity = false) {
  const { context, page } = await phonePage(browser, { identity });
  try {
    await page.goto(`${url}/#/demo/${key}`, { waitUntil: 'commit' });
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

/** The build's own figures: gzip and brotli bytes of the JS each screen loads with it (pwa/dist/.vite/chunks.json). */
function builtJs(files: string[]) {
  const size = (file: string) => statSync(join(dist, file)).size;
  return {
    files: files.length,
    raw_bytes: files.reduce((sum, file) => sum + size(file), 0),
    gzip_bytes: files.reduce((sum, file) => sum + size(`${file}.gz`), 0),
    brotli_bytes: files.reduce((sum, file) => sum + size(`${file}.br`), 0),
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

  const landing = [];
  const report = [];
  const landingPlain = [];
  const reportPlain = [];
  for (let run = 0; run < RUNS; run++) {
    landing.push(await landingRun(browser, server.url));
    report.push(await reportRun(browser, server.url, hash));
    landingPlain.push(await landingRun(browser, server.url, true));
    reportPlain.push(await reportRun(browser, server.url, hash, true));
    console.log(
      `run ${run + 1}: landing FCP ${round(landing[run]!.first_contentful_paint_ms)} ms (uncompressed ${round(landingPlain[run]!.first_contentful_paint_ms)}), report table ${round(report[run]!.table_visible_ms)} ms (uncompressed ${round(reportPlain[run]!.table_visible_ms)}), ${report[run]!.rows} rows shown`,
    );
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
    },
    landing: {
      first_contentful_paint_ms: round(median(landing.map((r) => r.first_contentful_paint_ms))),
      runs_ms: landing.map((r) => round(r.first_contentful_paint_ms)),
      js_transferred_bytes: median(landing.map((r) => r.js.encoded)),
      js_uncompressed_bytes: median(landing.map((r) => r.js.decoded)),
      js_transferred_kb: Math.round(median(landing.map((r) => r.js.encoded)) / 102.4) / 10,
      uncompressed_first_contentful_paint_ms: round(median(landingPlain.map((r) => r.first_contentful_paint_ms))),
    },
    shared_report: {
      table_visible_ms: round(median(report.map((r) => r.table_visible_ms))),
      runs_ms: report.map((r) => round(r.table_visible_ms)),
      rows_shown: report[0]!.rows,
      js_transferred_bytes: median(report.map((r) => r.js.encoded)),
      js_uncompressed_bytes: median(report.map((r) => r.js.decoded)),
      uncompressed_table_visible_ms: round(median(reportPlain.map((r) => r.table_visible_ms))),
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
