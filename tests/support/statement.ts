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
 * Counts the statement's Web Workers the page starts (pwa/src/screens/reports/statement-runner.ts
 * names them `norma-statement`): a script for `addInitScript`, so it runs before the page's own
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
