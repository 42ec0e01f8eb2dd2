import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spreadDemoMarkups } from '../../bench/support/demo-window';
import { VIRTUAL_FROM } from '../../pwa/src/screens/reports/constants';
import { num } from '../../pwa/src/screens/reports/format';
import type { BlockReport, StatementReport } from '../../pwa/src/screens/reports/types';
import { signInThroughPage, watchErrors, RETRY } from '../support/browser';
import { startDemo, type Demo } from '../support/demo';
import { COUNT_STATEMENT_WORKERS, statementStart, statementWorkers, table4Cells, WATCH_STATEMENT_START } from '../support/statement';
import { scrollTable } from '../support/virtual-table';

/**
 * Issue 47, finding 1: a month's statement of one employee (the demo's two days copied over the
 * month, as the benches do) has tens of thousands of rows in table 4; the screen builds only those in
 * view, and scrolling (or the keyboard) reaches the last row with its numbers.
 */
let demo: Demo;
let assemblyId: number;
let employeeId: number;
/** 31 days (Moscow) around the demo's days. */
const month = { from: '2026-11-01T21:00:00.000Z', to: '2026-12-02T21:00:00.000Z' };

beforeAll(async () => {
  demo = await startDemo();
  assemblyId = demo.structureId('Участок сборки редукторов');
  const db = new Database(join(demo.server.dataDir, 'norma.sqlite'));
  try {
    spreadDemoMarkups(db, assemblyId);
  } finally {
    db.close();
  }
  const dates = await demo.get<{ employees: Record<string, number[]> }>(`/api/v1/report/dates?structure_id=${assemblyId}`);
  employeeId = dates.employees['2026-11-16']![0]!;
});
afterAll(async () => {
  await demo?.stop();
});

/** Elements inside the statement now: what the page has to lay out. */
const statementElements = (page: Page) => page.evaluate(() => document.querySelectorAll('[data-testid="statement"] *').length);

describe('a month-long statement', () => {
  it('builds only the rows in view of table 4, and scrolling or End reaches the last row with its numbers', async () => {
    const api = await demo.get<StatementReport>(
      `/api/v1/report?structure_id=${assemblyId}&employee_id=${employeeId}&from_time=${month.from}&to_time=${month.to}`,
    );
    const rows = api.frv.length;
    expect(rows).toBeGreaterThan(10_000);
    const context = await demo.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, demo.server.url, 'analyst');
    // Opened as a link is: a new document at the statement's address (not a hash change in the signed-in one).
    await page.addInitScript(WATCH_STATEMENT_START);
    await page.goto('about:blank');
    await page.goto(`${demo.server.url}/#/statement/${assemblyId}/${employeeId}/${month.from}/${month.to}`);
    await page.getByTestId('t4-row').first().waitFor({ timeout: RETRY.timeout });

    // The page's first script asked for the statement before the screen showed anything, and the inputs were read once.
    const started = await statementStart(page);
    expect(started.requests).toBe(1);
    expect(started.askedBy).toMatch(/\/assets\/route-preload-[^/]+\.js$/);
    expect(started.inputReadsAt).toHaveLength(1);
    expect(started.screenAt).not.toBeNull();
    expect(started.askedAt!).toBeLessThan(started.screenAt!);

    // The first screen: far fewer rows built than the table has, each with the API's numbers.
    const first = await scrollTable(page, 'table-4', rows, 0);
    expect(first.rows.length).toBeGreaterThan(5);
    expect(first.rows.length).toBeLessThan(VIRTUAL_FROM);
    expect(await page.getByTestId('t4-row').count()).toBe(first.rows.length);
    expect(first.rows.map((r) => r.index)).toEqual(first.rows.map((_, k) => k));
    for (const row of first.rows) expect(row.cells, `строка ${row.index + 1}`).toEqual(table4Cells(api, row.index));
    // The whole statement is a few thousand elements, not one per cell of the month.
    expect(await statementElements(page)).toBeLessThan(rows);

    // The middle of the table: the rows there, in order, with their numbers.
    const middle = await scrollTable(page, 'table-4', rows, (await page.getByTestId('table-4-scroll').evaluate((el) => el.scrollHeight)) / 2);
    const indices = middle.rows.map((r) => r.index);
    expect(indices[0]!).toBeGreaterThan(rows / 4);
    expect(indices).toEqual(indices.map((_, k) => indices[0]! + k));
    for (const row of middle.rows) expect(row.cells, `строка ${row.index + 1}`).toEqual(table4Cells(api, row.index));

    // The end, by scrolling: the last row with its numbers.
    const end = await scrollTable(page, 'table-4', rows, Infinity);
    expect(end.rows.at(-1)!.index).toBe(rows - 1);
    expect(end.rows.at(-1)!.cells).toEqual(table4Cells(api, rows - 1));
    expect(end.rows.length).toBeLessThan(VIRTUAL_FROM);

    // The keyboard: the box takes the focus, Home goes to the first row and End to the last.
    await scrollTable(page, 'table-4', rows, 0);
    const box = page.getByTestId('table-4-scroll');
    await box.focus();
    expect(await box.evaluate((el) => document.activeElement === el)).toBe(true);
    await expect.poll(() => box.getAttribute('aria-label')).toBe('Таблица 4. Фотография рабочего дня');
    const lastShown = async () => {
      await page.keyboard.press('End');
      return page.evaluate(() => {
        const scroller = document.querySelector<HTMLElement>('[data-testid="table-4-scroll"]')!;
        const bottom = scroller.getBoundingClientRect().top + scroller.clientTop + scroller.clientHeight;
        const last = [...scroller.querySelectorAll<HTMLTableRowElement>('tbody tr[data-index]')].at(-1);
        const rect = last?.getBoundingClientRect();
        return rect && rect.bottom <= bottom + 1 && rect.bottom > bottom - rect.height - 2 ? Number(last!.dataset.index) : null;
      });
    };
    await expect.poll(lastShown, RETRY).toBe(rows - 1);

    // Table 6 grows with the window too: past a screenful it is built as table 4 is.
    if (api.breaks.length > VIRTUAL_FROM) expect(await page.getByTestId('t6-row').count()).toBeLessThan(api.breaks.length);
    else expect(await page.getByTestId('t6-row').count()).toBe(api.breaks.length);
    // Every part in, nothing computed a second time.
    await expect.poll(() => page.getByTestId('statement').getAttribute('aria-busy'), RETRY).toBe(null);
    expect(await statementStart(page)).toMatchObject({ requests: 1, inputReadsAt: started.inputReadsAt });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says in place and in a message when the statement cannot be read, and every later statement of the page reuses the one worker', async () => {
    // An employee of no structure: the inputs call is refused with the API's own message.
    const query = `structure_id=${assemblyId}&employee_id=999999&from_time=${month.from}&to_time=${month.to}`;
    const refused = await fetch(`${demo.server.url}/api/v1/report/inputs?${query}`, { headers: { cookie: demo.cookie } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const message = ((await refused.json()) as { error: { message: string } }).error.message;
    expect(message).toMatch(/[А-Яа-я]/);
    const context = await demo.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.addInitScript(COUNT_STATEMENT_WORKERS);
    await page.addInitScript(WATCH_STATEMENT_START);
    await signInThroughPage(page, demo.server.url, 'analyst');
    // Opened as a link: the read starts with the page (its first script), and its failure is still said in place and in a message.
    // The statements below then open in the same document (hash routes).
    await page.goto('about:blank');
    await page.goto(`${demo.server.url}/#/statement/${assemblyId}/999999/${month.from}/${month.to}`);
    await page.getByText(`Не удалось загрузить ведомость: ${message}`).waitFor({ timeout: RETRY.timeout });
    await page.locator('.toast-error', { hasText: message }).waitFor({ timeout: RETRY.timeout });
    expect(await page.getByTestId('statement').count()).toBe(0);
    expect(await statementWorkers(page)).toBe(1);
    const started = await statementStart(page);
    expect(started.requests).toBe(1);
    expect(started.askedBy).toMatch(/\/assets\/route-preload-[^/]+\.js$/);
    expect(started.inputReadsAt).toHaveLength(1);
    expect(started.askedAt!).toBeLessThan(started.screenAt!);

    // Two statements more in the same page (two days of the employee): each is computed, by the same worker.
    const days = [
      { from: '2026-11-15T21:00:00.000Z', to: '2026-11-16T21:00:00.000Z' },
      { from: '2026-11-16T21:00:00.000Z', to: '2026-11-17T21:00:00.000Z' },
    ];
    for (const day of days) {
      const api = await demo.get<StatementReport>(
        `/api/v1/report?structure_id=${assemblyId}&employee_id=${employeeId}&from_time=${day.from}&to_time=${day.to}`,
      );
      expect(api.frv.length).toBeGreaterThan(0);
      await page.evaluate((hash) => (location.hash = hash), `#/statement/${assemblyId}/${employeeId}/${day.from}/${day.to}`);
      await expect.poll(() => page.getByTestId('t4-row').first().locator('td').allTextContents(), RETRY).toEqual(table4Cells(api, 0));
      // Every part of the statement follows table 4 into the page.
      await expect.poll(() => page.getByTestId('statement').getAttribute('aria-busy'), RETRY).toBe(null);
      expect(await page.getByTestId('table-6').count()).toBe(1);
    }
    expect(await statementWorkers(page)).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a block report over the longest window', () => {
  /** 62 days (Moscow), the longest window a report takes: the shift-days table has a row a day. */
  const window = { from: '2026-10-16T21:00:00.000Z', to: '2026-12-17T21:00:00.000Z' };

  it('builds only the shift-days in view, and scrolling reaches the last day with the numbers of GET /api/v2/report', async () => {
    const api = await demo.get<BlockReport>(`/api/v2/report?structure_id=${assemblyId}&from_time=${window.from}&to_time=${window.to}`);
    const index = api.blocks.findIndex((b) => b.type === 'table' && b.title === 'Загрузка по сменам-дням');
    const block = api.blocks[index]!;
    if (block.type !== 'table') throw new Error('нет таблицы «Загрузка по сменам-дням»');
    const rows = block.rows.length;
    expect(rows).toBeGreaterThan(VIRTUAL_FROM);
    // The cells as the screen writes them: a number with two decimals, a text as it is, «—» for none.
    const cells = (r: number) =>
      block.columns.map((c) => {
        const value = block.rows[r]![c.key] ?? null;
        return value === null ? '—' : typeof value === 'number' ? num(value, 2) : String(value);
      });
    const context = await demo.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, demo.server.url, 'analyst');
    await page.goto(`${demo.server.url}/#/report/${assemblyId}/${window.from}/${window.to}`);
    const element = page.getByTestId(`block-${index}-table`);
    await element.waitFor({ timeout: RETRY.timeout });
    if (block.collapsed) await element.getByRole('button', { name: 'Развернуть' }).click();
    const testId = `block-${index}-table`;
    const first = await scrollTable(page, testId, rows, 0);
    expect(first.rows.map((r) => r.index)).toEqual(first.rows.map((_, k) => k));
    expect(first.rows.length).toBeLessThan(rows / 2 + 1);
    expect(await element.getByTestId('block-table-row').count()).toBe(first.rows.length);
    for (const row of first.rows) expect(row.cells, `день ${row.index + 1}`).toEqual(cells(row.index));
    const end = await scrollTable(page, testId, rows, Infinity);
    expect(end.rows.at(-1)!.index).toBe(rows - 1);
    for (const row of end.rows) expect(row.cells, `день ${row.index + 1}`).toEqual(cells(row.index));
    expect(end.rows.length).toBeLessThan(rows / 2 + 1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
