import type { Page } from 'playwright-core';
import { formatTime } from '../../pwa/src/format/time';
import { hms, wholeSecondSpan } from '../../pwa/src/screens/reports/format';
import type { StatementReport } from '../../pwa/src/screens/reports/types';

/** The cells of table 4's row `i` as the statement shows them, from the numbers of GET /api/v1/report. */
export function table4Cells(report: StatementReport, i: number): string[] {
  const row = report.frv[i]!;
  const zone = report.rep_param.time_zone;
  const span = wholeSecondSpan(row.start_datetime, row.finish_datetime);
  return [String(row.number), row.name, formatTime(span.start, zone), formatTime(span.end, zone), hms(span.seconds), String(row.index ?? '')];
}

/**
 * Counts the statement's Web Workers the page starts (named `norma-statement` by
 * pwa/src/screens/reports/statement-runner.ts and by the page's first script at a statement's
 * address, pwa/vite.config.ts): a script for `addInitScript`, so it runs before the page's own
 * scripts in every document of the page; read with `statementWorkers`. Text, not a function: the
 * test's compiled code may call helpers the page does not have.
 */
export const COUNT_STATEMENT_WORKERS = `(() => {
  window.__statementWorkers = 0;
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      if (options && options.name === 'norma-statement') window.__statementWorkers++;
    }
  };
})();`;

/** How many statement workers the page's document has started (COUNT_STATEMENT_WORKERS). */
export const statementWorkers = (page: Page) => page.evaluate(() => (window as unknown as { __statementWorkers?: number }).__statementWorkers);

/**
 * Watches how a statement's address starts (issue 47: its computation starts with the page, not
 * with its screen): a script for `addInitScript` that notes, in every document of the page, when
 * the statement's screen first shows anything (its «Загружаем ведомость…», the statement or its
 * failure; as an absolute time, performance.timeOrigin + now), counts the statements the page
 * asks its worker for (messages `compute` and `address`, pwa/src/screens/reports/statement-protocol.ts),
 * and notes when and by which script the first was asked: the address of the classic script running
 * then (the page's first script, route-preload-*.js, pwa/vite.config.ts), null from the app's modules
 * (document.currentScript is null in a module). Read with `statementStart`. Text, not a function,
 * as COUNT_STATEMENT_WORKERS.
 */
export const WATCH_STATEMENT_START = `(() => {
  window.__statementRequests = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, transfer) {
    if (message && (message.type === 'compute' || message.type === 'address')) {
      if (window.__statementRequests++ === 0) {
        window.__statementAskedAt = performance.timeOrigin + performance.now();
        window.__statementAskedBy = document.currentScript ? document.currentScript.src : null;
      }
    }
    return post.call(this, message, transfer);
  };
  const shown = () =>
    document.querySelector('[data-testid="statement"]') ||
    (document.body && /Загружаем ведомость|Не удалось загрузить ведомость/.test(document.body.textContent || ''));
  new MutationObserver((_, observer) => {
    if (!shown()) return;
    window.__statementScreenAt = performance.timeOrigin + performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

/**
 * What WATCH_STATEMENT_START saw, with the statement worker's reads of report inputs: when each was
 * sent (absolute times, from the worker's own resource timing) — so that a test can say the page's
 * first script asked for the statement before the screen showed, and that the inputs were read once.
 * (When the worker's read itself starts, before or after the screen's first paint, depends on how
 * soon the machine loads the worker's module: not something to assert.)
 */
export async function statementStart(
  page: Page,
): Promise<{ screenAt: number | null; requests: number; askedAt: number | null; askedBy: string | null; inputReadsAt: number[] }> {
  const seen = await page.evaluate(() => {
    const w = window as unknown as {
      __statementScreenAt?: number;
      __statementRequests?: number;
      __statementAskedAt?: number;
      __statementAskedBy?: string | null;
    };
    return {
      screenAt: w.__statementScreenAt ?? null,
      requests: w.__statementRequests ?? 0,
      askedAt: w.__statementAskedAt ?? null,
      askedBy: w.__statementAskedBy ?? null,
    };
  });
  const worker = page.workers().find((w) => w.url().includes('statement.worker'));
  const inputReadsAt = worker
    ? await worker.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('/api/v1/report/inputs'))
          .map((entry) => performance.timeOrigin + entry.startTime),
      )
    : [];
  return { ...seen, inputReadsAt };
}
