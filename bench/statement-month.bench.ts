/**
 * Issue 47, finding 1: opening a month's statement of one employee in Chromium, on a desktop CPU and
 * on one 4× slower (CDP Emulation.setCPUThrottlingRate, as Lighthouse's mobile profile). The real
 * server with the demo data, its two days of markups copied over the month (bench/support/demo-window.ts),
 * the built PWA (pwa/dist); every run in a fresh browser context, signed in before the clock starts.
 *   node_modules/.bin/bun bench/statement-month.bench.ts      (npm run bench -- statement-month)
 * Measures, from navigation to the statement's route until table 4's first row is painted and the
 * page is quiet: that time (and on the way: when the statement's screen first shows, i.e. the app
 * has started, and when the statement's worker answers), the longest task (PerformanceObserver
 * «longtask»), the total blocking time (the sum of each long task's part over 50 ms), the rows of
 * table 4 in the page against the
 * report's rows, and the elements of the statement. Then the statement is computed once more with the
 * page's own function (window.normaReports.computeStatement: the inputs read and the report assembled
 * in the page's one statement worker, warm by then, its pieces parsed in the page): its time and the
 * longest task it leaves in the page.
 * Writes bench/results/statement-month.json; bench/budgets.json holds the 4× case to the issue's goal.
 * NORMA_BENCH_RUNS and NORMA_BENCH_RATES (e.g. «4») shorten a look at one change; NORMA_BENCH_TRACE=1
 * traces the first run of each case (Chromium's trace) and writes what its tasks over 100 ms were
 * made of to bench/results/statement-month-trace.tmp (not kept in git; bench/support/trace-tasks.ts).
 */
import { Database } from 'bun:sqlite';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser, signInThroughPage } from '../tests/support/browser.ts';
import { apiSessionCookie, startServer } from '../tests/support/server.ts';
import { spreadDemoMarkups } from './support/demo-window.ts';
import { longTasksOf, requestsOf, TRACE_CATEGORIES, type LongTask } from './support/trace-tasks.ts';

/** Runs per case and the CPU slowdowns measured; fewer for a quick look (NORMA_BENCH_RUNS=1 NORMA_BENCH_RATES=4). */
const RUNS = Number(process.env.NORMA_BENCH_RUNS ?? 3);
const RATES = (process.env.NORMA_BENCH_RATES ?? '1,4').split(',').map(Number);
/** 31 days (Moscow) around the demo's days, as tests/e2e/statement-month.e2e.test.ts. */
const MONTH = { from: '2026-11-01T21:00:00.000Z', to: '2026-12-02T21:00:00.000Z' };

const TRACE = process.env.NORMA_BENCH_TRACE === '1';
const traced: { case: string; tasks: LongTask[]; requests: ReturnType<typeof requestsOf> }[] = [];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (x: number) => Math.round(x);

/**
 * From the page's first script: its long tasks; when the statement's screen first shows (its
 * «Загружаем ведомость…»: the app has started), when its worker (named norma-statement) answers, and
 * when table 4's first row is painted.
 */
const WATCH = `(() => {
  window.__longTasks = [];
  window.__phases = {};
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      if (options && options.name === 'norma-statement') this.addEventListener('message', () => { window.__phases.reply ??= performance.now(); });
    }
  };
  const seen = () => {
    if (window.__phases.screen === undefined && document.body && document.body.textContent.includes('Загружаем ведомость')) window.__phases.screen = performance.now();
    if (!document.querySelector('[data-testid="t4-row"]')) return false;
    requestAnimationFrame(() => setTimeout(() => { window.__tableAt = performance.now(); }, 0));
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); }).observe(document, { childList: true, subtree: true });
})();`;

type Run = {
  /** The statement's screen first shown (the app started); its worker's answer; table 4 painted. */
  screen_ms: number;
  reply_ms: number;
  table_ms: number;
  longest_task_ms: number;
  /** The longest task from the statement's screen on: the statement's own work, not the app's start. */
  longest_task_from_screen_ms: number;
  total_blocking_ms: number;
  long_tasks: number;
  rows_in_page: number;
  statement_elements: number;
  compute_again_ms: number;
  compute_again_longest_task_ms: number;
};
type Target = { structureId: number; employeeId: number; from: string; to: string };

async function open(browser: Browser, url: string, target: Target, rate: number, trace: boolean): Promise<Run> {
  const route = `/statement/${target.structureId}/${target.employeeId}/${target.from}/${target.to}`;
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    const page = await context.newPage();
    await signInThroughPage(page, url, 'analyst');
    await context.addInitScript(WATCH);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto('about:blank');
    if (trace) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.goto(`${url}/#${route}`, { waitUntil: 'commit' });
    const at = await page
      .waitForFunction(() => (window as unknown as { __tableAt?: number }).__tableAt, undefined, { timeout: 300_000, polling: 200 })
      .catch(async (error: unknown) => {
        // What the page shows instead (a failure in place, «Загружаем ведомость…»), for whoever reads the log.
        console.error('table 4 did not show; the page says:', await page.evaluate(() => document.body.innerText.slice(0, 600)).catch(String));
        throw error;
      });
    const tableMs = Number(await at.jsonValue());
    // Quiet: the norm fulfilment block has answered, every part of the statement is in and two frames have passed.
    await page.waitForLoadState('networkidle', { timeout: 300_000 });
    await page.locator('[data-testid="statement"]:not([aria-busy="true"])').waitFor({ timeout: 300_000 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    if (trace) {
      const text = (await browser.stopTracing()).toString('utf8');
      if (process.env.NORMA_BENCH_TRACE_FILE) writeFileSync(process.env.NORMA_BENCH_TRACE_FILE, text);
      const events = JSON.parse(text);
      traced.push({ case: `cpu_${rate}x`, tasks: longTasksOf(events, 100), requests: requestsOf(events) });
    }
    const shown = await page.evaluate(() => ({
      phases: (window as unknown as { __phases: { screen?: number; reply?: number } }).__phases,
      tasks: (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks,
      rows: document.querySelectorAll('[data-testid="t4-row"]').length,
      elements: document.querySelectorAll('[data-testid="statement"] *').length,
    }));
    // The same statement computed once more in the page, with nothing drawn: the long tasks of the computation alone.
    const compute = await page.evaluate(async (w) => {
      const tasks = (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks;
      const before = tasks.length;
      const start = performance.now();
      type Reports = { normaReports: { computeStatement(window: { structureId: number; from: string; to: string }, employeeId: number): Promise<unknown> } };
      await (window as unknown as Reports).normaReports.computeStatement({ structureId: w.structureId, from: w.from, to: w.to }, w.employeeId);
      const ms = performance.now() - start;
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return { ms, longest: Math.max(0, ...tasks.slice(before).map((t) => t.duration)) };
    }, target);
    const durations = shown.tasks.map((t) => t.duration);
    return {
      screen_ms: round(shown.phases.screen ?? NaN),
      reply_ms: round(shown.phases.reply ?? NaN),
      table_ms: round(tableMs),
      longest_task_ms: round(Math.max(0, ...durations)),
      longest_task_from_screen_ms: round(Math.max(0, ...shown.tasks.filter((t) => t.start >= (shown.phases.screen ?? 0)).map((t) => t.duration))),
      total_blocking_ms: round(durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
      long_tasks: durations.length,
      rows_in_page: shown.rows,
      statement_elements: shown.elements,
      compute_again_ms: round(compute.ms),
      compute_again_longest_task_ms: round(compute.longest),
    };
  } finally {
    await context.close();
  }
}

const loadAtStart = loadavg()[0]!;
const server = await startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' });
const browser = await launchBrowser();
try {
  const cookie = await apiSessionCookie(server.url, 'analyst');
  const get = async <T>(path: string) => (await (await fetch(`${server.url}${path}`, { headers: { cookie } })).json()) as T;
  const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  const leaf = structures.find((s) => s.name === 'Участок сборки редукторов')!;
  const db = new Database(join(server.dataDir, 'norma.sqlite'));
  spreadDemoMarkups(db, leaf.id);
  db.close();
  const dates = await get<{ employees: Record<string, number[]> }>(`/api/v1/report/dates?structure_id=${leaf.id}`);
  const employee = dates.employees['2026-11-16']![0]!;
  const report = await get<{ frv: unknown[] }>(`/api/v1/report?structure_id=${leaf.id}&employee_id=${employee}&from_time=${MONTH.from}&to_time=${MONTH.to}`);
  const cases = [];
  for (const rate of RATES) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await open(browser, server.url, { structureId: leaf.id, employeeId: employee, ...MONTH }, rate, TRACE && i === 0));
    const summary = {
      case: `cpu_${rate}x`,
      cpu_slowdown: rate,
      screen_ms_median: median(runs.map((r) => r.screen_ms)),
      reply_ms_median: median(runs.map((r) => r.reply_ms)),
      table_ms_median: median(runs.map((r) => r.table_ms)),
      table_ms_max: Math.max(...runs.map((r) => r.table_ms)),
      longest_task_ms_median: median(runs.map((r) => r.longest_task_ms)),
      longest_task_ms_max: Math.max(...runs.map((r) => r.longest_task_ms)),
      longest_task_from_screen_ms_max: Math.max(...runs.map((r) => r.longest_task_from_screen_ms)),
      total_blocking_ms_median: median(runs.map((r) => r.total_blocking_ms)),
      compute_again_ms_median: median(runs.map((r) => r.compute_again_ms)),
      compute_again_longest_task_ms_median: median(runs.map((r) => r.compute_again_longest_task_ms)),
      report_rows: report.frv.length,
      runs,
    };
    console.log(JSON.stringify(summary));
    cases.push(summary);
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'statement-month.json');
  mkdirSync(dirname(out), { recursive: true });
  if (TRACE) writeFileSync(out.replace(/\.json$/, '-trace.tmp'), `${JSON.stringify(traced, null, 1)}\n`);
  writeFileSync(out, `${JSON.stringify({ when: new Date().toISOString(), load_at_start: loadAtStart, load_at_end: loadavg()[0], cases }, null, 2)}\n`);
} finally {
  await browser.close();
  await server.stop();
}
