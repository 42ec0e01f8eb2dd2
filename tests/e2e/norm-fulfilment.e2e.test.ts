import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormFulfilment } from '../../api/src/contract';
import { pct } from '../../pwa/src/screens/reports/format';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * Norm fulfilment per shift-day in Chromium on the demo (issue 42): units entered by hand for one
 * day keep that day's percent in a week's statement, block report, their PDFs and the XLSX; a
 * shift-day without output reads «нет выпуска», never «0 %»; the window's totals follow the API.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
let assemblyId: number;
let withUnits: number;
let withoutOutput: number;
const work = mkdtempSync(join(tmpdir(), 'norma-fulfilment-'));

// Moscow days of the demo (UTC+3), as the PWA picks them.
const week = { from: '2026-11-15T21:00:00.000Z', to: '2026-11-22T21:00:00.000Z' };
const day16 = { from: '2026-11-15T21:00:00.000Z', to: '2026-11-16T21:00:00.000Z' };
const day17 = { from: '2026-11-16T21:00:00.000Z', to: '2026-11-17T21:00:00.000Z' };

const call = async <T>(path: string, method = 'GET', body?: unknown): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};
const fulfilment = (w: { from: string; to: string }, employeeId?: number) =>
  call<NormFulfilment>(
    `/api/v1/norm_fulfilment?structure_id=${assemblyId}&from_time=${w.from}&to_time=${w.to}${employeeId ? `&employee_id=${employeeId}` : ''}`,
  );

/** What the block shows for a row or a total: the percent, else why there is none. */
const shown = (r: { fulfilment_percent: number | null; units: number }) =>
  r.fulfilment_percent !== null ? pct(r.fulfilment_percent, 1) : r.units > 0 ? '—' : 'нет выпуска';

async function signedInPage(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signInThroughPage(page, server.url, 'analyst');
  return { page, errors };
}

/** Opens a /pdf route and returns the text of the PDF it downloads (pdftotext). */
async function pdfTextOf(page: Page, route: string, name: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.goto(`${server.url}/#${route}`);
  const file = join(work, name);
  await (await download).saveAs(file);
  const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  expect(text.status, text.stderr).toBe(0);
  return text.stdout.replace(/\u00a0/g, ' ');
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'analyst');
  const structures = await call<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  assemblyId = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
  const dates = await call<{ dates: string[]; employees: Record<string, number[]> }>(`/api/v1/report/dates?structure_id=${assemblyId}`);
  withUnits = dates.employees['2026-11-16']![0]!;
  withoutOutput = dates.employees['2026-11-17']!.find((e) => e !== withUnits) ?? dates.employees['2026-11-17']![0]!;
  // As the statement of one day asks them: 160 units for 16 November, and none for 17 November.
  const products = (w: { from: string; to: string }, employeeId: number) =>
    `/api/v1/report/products?structure_id=${assemblyId}&from_time=${w.from}&to_time=${w.to}&employee_id=${employeeId}`;
  await call(products(day16, withUnits), 'PUT', { product_num: 160, products_description: '' });
  await call(products(day17, withoutOutput), 'PUT', { product_num: 0, products_description: '' });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('norm fulfilment over a week (issue 42)', () => {
  it('the API keeps the day’s hand-entered units and percent in the week; a day without output has none', async () => {
    const day = await fulfilment(day16, withUnits);
    expect(day.rows).toHaveLength(1);
    expect(day.rows[0]).toMatchObject({ date: '2026-11-16', units: 160, output_source: 'manual' });
    expect(day.rows[0]!.fulfilment_percent).toBeGreaterThan(0);
    const all = await fulfilment(week);
    const row = all.rows.find((r) => r.employee_id === withUnits && r.date === '2026-11-16')!;
    expect(row).toMatchObject({ units: 160, output_source: 'manual' });
    expect(row.fulfilment_percent).toBeCloseTo(day.rows[0]!.fulfilment_percent!, 9);
    expect(all.rows.find((r) => r.employee_id === withoutOutput && r.date === '2026-11-17')).toMatchObject({ units: 0, fulfilment_percent: null });
    expect(all.total.units).toBe(all.rows.reduce((a, r) => a + r.units, 0));
  });

  it('the statement and the block report show the same rows and totals, «нет выпуска» for no output, and so do their PDFs and the XLSX', async () => {
    const own = await fulfilment(week, withUnits);
    const all = await fulfilment(week);
    const { page, errors } = await signedInPage();

    await page.goto(`${server.url}/#/statement/${assemblyId}/${withUnits}/${week.from}/${week.to}`);
    await expect.poll(() => page.getByTestId('fulfilment-percent').allTextContents(), RETRY).toEqual(own.rows.map(shown));
    expect(await page.getByTestId('fulfilment-units').allTextContents()).toEqual(own.rows.map((r) => String(r.units)));
    expect(await page.getByTestId('fulfilment-total-percent').allTextContents()).toEqual([shown(own.totals[0]!)]);

    await page.goto(`${server.url}/#/report/${assemblyId}/${week.from}/${week.to}`);
    await expect.poll(() => page.getByTestId('fulfilment-percent').allTextContents(), RETRY).toEqual(all.rows.map(shown));
    const texts = await page.getByTestId('fulfilment-percent').allTextContents();
    expect(texts).toContain('нет выпуска');
    expect(texts.some((t) => /^0([,.]0)?\s%$/.test(t.replace(/\u00a0/g, ' ')))).toBe(false);
    expect(await page.getByTestId('fulfilment-total-percent').allTextContents()).toEqual([...all.totals.map(shown), shown(all.total)]);

    const download = page.waitForEvent('download');
    await page.getByTestId('norm-fulfilment').getByRole('button', { name: 'XLSX' }).click();
    const xlsx = join(work, 'fulfilment.xlsx');
    await (await download).saveAs(xlsx);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx);
    const sheet: unknown[][] = [];
    book.worksheets[0]!.eachRow((r) => sheet.push((r.values as unknown[]).slice(1)));
    expect(sheet[0]!.at(-1)).toBe('Выполнение нормы, %');
    const body = sheet.slice(1, 1 + all.rows.length);
    expect(body.map((r) => r[4])).toEqual(all.rows.map((r) => r.units));
    for (const [k, r] of all.rows.entries())
      if (r.fulfilment_percent === null) expect(body[k]!.at(-1)).toBe('нет выпуска');
      else expect(body[k]!.at(-1) as number).toBeCloseTo(r.fulfilment_percent, 9);

    const statementPdf = await pdfTextOf(page, `/statement/${assemblyId}/${withUnits}/${week.from}/${week.to}/pdf`, 'statement.pdf');
    expect(statementPdf).toContain('Выполнение норм');
    expect(statementPdf).toContain(shown(own.rows.find((r) => r.date === '2026-11-16')!).replace(/\u00a0/g, ' '));
    expect(statementPdf).toContain('итого');
    const blockPdf = await pdfTextOf(page, `/pdf/report/${assemblyId}/${week.from}/${week.to}`, 'blocks.pdf');
    expect(blockPdf).toContain('Выполнение норм');
    expect(blockPdf).toContain('нет выпуска');
    expect(blockPdf).toContain('Все сотрудники: итого');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
