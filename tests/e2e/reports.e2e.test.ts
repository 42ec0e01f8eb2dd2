import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hms, minutesApostrophe, num, wholeSecondSpan } from '../../pwa/src/screens/reports/format';
import type { BlockReport, InteractiveFrv, StatementReport } from '../../pwa/src/screens/reports/types';
import { signInThroughPage, watchErrors, RETRY } from '../support/browser';
import type { RunningServer } from '../support/server';
import { startDemo, type Demo } from '../support/demo';
import { table4Cells } from '../support/statement';
import { everyRow } from '../support/virtual-table';
import { VIRTUAL_FROM } from '../../pwa/src/screens/reports/constants';

let demo: Demo;
let server: RunningServer;
let browser: Browser;
let assemblyId: number;
let packingId: number;
let employeeId: number;
const work = mkdtempSync(join(tmpdir(), 'norma-reports-'));

/** The demo's first day (Moscow): the shift 08:00–17:00, the whole day, and the recorded minutes from 09:00. */
const shift = { from: '2026-11-16T05:00:00.000Z', to: '2026-11-16T14:00:00.000Z' };
const day = { from: '2026-11-15T21:00:00.000Z', to: '2026-11-16T21:00:00.000Z' };
const recorded = { from: '2026-11-16T05:59:00.000Z', to: '2026-11-16T06:02:00.000Z' };
const enc = encodeURIComponent;

const get = <T>(path: string) => demo.get<T>(path);

async function signedIn(viewport = { width: 1400, height: 1000 }, options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, acceptDownloads: true, ...options });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  await signInThroughPage(page, server.url, 'analyst');
  await page.close();
  return context;
}

const texts = (page: Page, testId: string) => page.getByTestId(testId).allTextContents();

/** Not blank: the share of pixels darker than near-white, measured in the browser's canvas. */
async function inkShare(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(
    async (dataUrl) => {
      const image = new Image();
      image.src = dataUrl;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 600) ink++;
      return ink / (data.length / 4);
    },
    `data:image/png;base64,${png.toString('base64')}`,
  );
}

/** Opens a /pdf route, takes the file it downloads, and checks pages, fonts and the first page. */
async function checkPdf(context: BrowserContext, route: string, name: string, minPages: number) {
  if (spawnSync('pdftoppm', ['-v']).error)
    throw new Error('Для проверки PDF нужен poppler-utils из Debian (apt-get install poppler-utils); .ci/run ставит его сам');
  const page = await context.newPage();
  const errors = watchErrors(page);
  const download = page.waitForEvent('download');
  await page.goto(`${server.url}/#${route}`);
  const file = join(work, `${name}.pdf`);
  await (await download).saveAs(file);
  const status = page.getByTestId('pdf-status');
  await status.getByText('PDF готов').waitFor();
  const shownPages = Number(await status.getAttribute('data-pages'));
  const info = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
  expect(info.status, info.stderr).toBe(0);
  const pages = Number(/Pages:\s+(\d+)/.exec(info.stdout)?.[1]);
  expect(pages).toBe(shownPages);
  expect(pages).toBeGreaterThanOrEqual(minPages);
  const fonts = spawnSync('pdffonts', [file], { encoding: 'utf8' }).stdout;
  expect(fonts).toMatch(/Montserrat/);
  for (const line of fonts.split('\n').filter((l) => l.includes('Montserrat'))) expect(line).toMatch(/\byes\b/);
  const render = spawnSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '40', '-png', '-singlefile', file, join(work, `${name}-page1`)], { encoding: 'utf8' });
  expect(render.status, render.stderr).toBe(0);
  const share = await inkShare(page, readFileSync(join(work, `${name}-page1.png`)));
  expect(share).toBeGreaterThan(0.01);
  expect(errors).toEqual([]);
  await page.close();
  return pages;
}

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser } = demo);
  assemblyId = demo.structureId('Участок сборки редукторов');
  packingId = demo.structureId('Участок упаковки');
  const dates = await get<{ dates: string[]; employees: Record<string, number[]> }>(`/api/v1/report/dates?structure_id=${assemblyId}`);
  expect(dates.dates).toContain('2026-11-16');
  employeeId = dates.employees['2026-11-16']![0]!;
});
afterAll(async () => {
  await demo?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('statement report', () => {
  it('shows every section in order with the numbers of GET /api/v1/report', async () => {
    const api = await get<StatementReport>(`/api/v1/report?structure_id=${assemblyId}&employee_id=${employeeId}&from_time=${shift.from}&to_time=${shift.to}`);
    const context = await signedIn();
    const page = await context.newPage();
    const errors = watchErrors(page);
    // Encoded instants, as the projects page may build them.
    await page.goto(`${server.url}/#/statement/${assemblyId}/${employeeId}/${enc(shift.from)}/${enc(shift.to)}`);
    await page.getByTestId('statement').waitFor();

    await expect.poll(() => page.getByTestId('statement-worker').textContent(), RETRY).toBe(api.rep_param.worker_name);
    await expect.poll(() => page.getByTestId('statement-place').textContent(), RETRY).toBe(api.rep_param.structure.name);
    await expect.poll(() => texts(page, 't1-percent'), RETRY).toEqual(api.parameters.map((p) => num(p.percent_video, 1)));
    await expect.poll(() => texts(page, 't1-len'), RETRY).toEqual(api.parameters.map((p) => minutesApostrophe(p.len)));
    await expect.poll(() => page.getByTestId('t1-total-len').textContent(), RETRY).toBe(minutesApostrophe(api.parameters_total.len));
    await expect.poll(() => page.getByTestId('t1-total-percent').textContent(), RETRY).toBe(num(api.parameters_total.percent_video, 1));
    await expect.poll(() => page.getByTestId('load-text').textContent(), RETRY).toBe(api.loading.text);

    // Observation sheets: first 10 measurements, then the ellipsis; the header spans at most 11 columns.
    const sheet = page.getByTestId('table-2');
    await expect.poll(() => sheet.getByTestId('sheet-row').count(), RETRY).toBe(api.measurements.rows.length);
    const span = Number(await sheet.getByTestId('measurements-header').getAttribute('colspan'));
    expect(span).toBe(Math.min(api.measurements.max_operation_count, 10) + (api.measurements.max_operation_count > 10 ? 1 : 0));
    expect(span).toBeLessThanOrEqual(11);
    await expect.poll(() => sheet.getByTestId('sheet-treg').allTextContents(), RETRY).toEqual(api.measurements.rows.map((r) => num(r.t_reg, 2)));
    await expect
      .poll(() => page.getByTestId('table-2-continuation').getByTestId('cont-par2').allTextContents(), RETRY)
      .toEqual(api.measurements.rows.map((r) => num(r.par2, 1)));
    await expect
      .poll(() => page.getByTestId('table-3').getByTestId('sheet-treg').allTextContents(), RETRY)
      .toEqual(api.all_measurements.rows.map((r) => num(r.t_reg, 2)));
    await expect.poll(() => page.getByTestId('fluctuation-chart').getByTestId('reference-line').count(), RETRY).toBe(1);

    await expect.poll(() => page.getByTestId('units-produced').textContent(), RETRY).toBe(String(api.rep_param.product_num));
    expect(api.normative.hidden).toBe(false);
    await page.getByTestId('diagram-2-1').waitFor();
    await page.getByTestId('diagram-2-2').waitFor();
    // Table 4 builds only the rows in view (issue 47): its first screen at once, far fewer rows than the day has.
    await page.getByTestId('t4-row').first().waitFor();
    expect(api.frv.length).toBeGreaterThan(VIRTUAL_FROM);
    expect(await page.getByTestId('t4-row').count()).toBeLessThan(api.frv.length / 4);
    // The product's own words: no developer notes, numbers with a decimal comma (issue 28).
    const shown = await page.getByTestId('statement').innerText();
    expect(shown).not.toMatch(/METHODOLOGY|docs\/|§/);
    expect(shown).not.toMatch(/(?<![\d.])\d+\.\d+(?![\d.])/);
    const firstRow = await page.getByTestId('t4-row').first().locator('td').allTextContents();
    expect(firstRow[1]).toBe(api.frv[0]!.name);
    // Start, end and duration on one whole-second grid (the duration is end − start as shown).
    expect(firstRow[4]).toBe(hms(wholeSecondSpan(api.frv[0]!.start_datetime, api.frv[0]!.finish_datetime).seconds));
    // Read screen by screen to its end, table 4 holds every row of the API, in order, with its numbers.
    const t4 = await everyRow(page, 'table-4', api.frv.length);
    expect([...t4.keys()].sort((a, b) => a - b)).toEqual(api.frv.map((_, i) => i));
    for (const [i, cells] of t4) expect(cells, `строка ${i + 1}`).toEqual(table4Cells(api, i));
    // Printing the screen (the browser's `beforeprint`) lays out every row; after it the box builds only those in view again.
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await expect.poll(() => page.getByTestId('t4-row').count(), RETRY).toBe(api.frv.length);
    expect(
      await page
        .getByTestId('t4-row')
        .nth(api.frv.length - 1)
        .locator('td')
        .allTextContents(),
    ).toEqual(table4Cells(api, api.frv.length - 1));
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect.poll(() => page.getByTestId('t4-row').count(), RETRY).toBeLessThan(api.frv.length / 4);
    expect(await page.getByTestId('t4-row').count()).toBeGreaterThan(5);
    await page.getByTestId('pie-observed').waitFor();
    // 'Rest and personal needs' is not part of the available-time chart.
    const available = (await page.getByTestId('pie-available').textContent()) ?? '';
    expect(available).not.toContain('Отдых и личные надобности');
    await page.getByTestId('pareto-chart').waitFor();
    await expect.poll(() => page.getByTestId('takt-value').textContent(), RETRY).toContain(num(api.takt.takt, 1));
    await expect.poll(() => page.getByTestId('t5-row').count(), RETRY).toBe(api.operations.length);
    await expect.poll(() => page.getByTestId('t6-row').count(), RETRY).toBe(api.breaks.length);

    // The sections come in the spec's order.
    const order = await page.evaluate(() =>
      ['table-1', 'load-section', 'table-2', 'table-3', 'units-section', 'balanced-work', 'table-4', 'time-use', 'pareto', 'takt', 'table-5', 'table-6'].map(
        (id) => document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect().top + window.scrollY,
      ),
    );
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(errors).toEqual([]);

    // Every table downloads as XLSX and CSV (UTF-8 with a BOM).
    const csv = page.waitForEvent('download');
    await page.getByTestId('table-1').getByRole('button', { name: 'CSV' }).click();
    const csvFile = join(work, 't1.csv');
    await (await csv).saveAs(csvFile);
    const csvText = readFileSync(csvFile, 'utf8');
    expect(csvText.charCodeAt(0)).toBe(0xfeff);
    expect(csvText).toContain(api.parameters[0]!.name);
    const xlsx = page.waitForEvent('download');
    await page.getByTestId('table-4').getByRole('button', { name: 'XLSX' }).click();
    const xlsxFile = join(work, 't4.xlsx');
    const xlsxDownload = await xlsx;
    expect(xlsxDownload.suggestedFilename()).toMatch(/\.xlsx$/);
    await xlsxDownload.saveAs(xlsxFile);
    expect(readFileSync(xlsxFile).subarray(0, 2).toString()).toBe('PK');
    await context.close();
  });

  it('gives a real PDF of the print layout: pages, embedded Montserrat, a first page with content', async () => {
    const api = await get<StatementReport>(`/api/v1/report?structure_id=${assemblyId}&employee_id=${employeeId}&from_time=${shift.from}&to_time=${shift.to}`);
    const context = await signedIn();
    // Table 4 alone fills a page per 60 rows at most.
    await checkPdf(context, `/statement/${assemblyId}/${employeeId}/${shift.from}/${shift.to}/pdf`, 'statement', Math.ceil(api.frv.length / 60) + 1);
    await context.close();
  });
});

/** The text of a PDF (pdftotext), its whitespace made single spaces, as the layout's `data-pdf` texts are. */
function pdfText(file: string): string {
  const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  expect(text.status, text.stderr).toBe(0);
  return flat(text.stdout);
}
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('statement report caveats', () => {
  it('puts every caveat of the statement screen into its PDF, «Смена наблюдалась не целиком» too', async () => {
    // A shift-day of the demo observed only in part: the statement says so on the screen.
    const dates = await get<{ dates: string[]; employees: Record<string, number[]> }>(`/api/v1/report/dates?structure_id=${assemblyId}`);
    let found: { employee: number; from: string; to: string; report: StatementReport } | undefined;
    for (const date of dates.dates) {
      for (const employee of dates.employees[date] ?? []) {
        if (found) break;
        const from = `${date}T05:00:00.000Z`;
        const to = `${date}T14:00:00.000Z`;
        const report = await get<StatementReport>(`/api/v1/report?structure_id=${assemblyId}&employee_id=${employee}&from_time=${from}&to_time=${to}`);
        if (report.notices.some((n) => n.includes('не целиком'))) found = { employee, from, to, report };
      }
    }
    expect(found, 'в демо-данных нет смены, наблюдавшейся не целиком').toBeDefined();
    const { employee, from, to, report } = found!;
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${server.url}/#/statement/${assemblyId}/${employee}/${from}/${to}`);
    await expect.poll(() => page.getByTestId('statement-notices').textContent(), RETRY).toBe(report.notices.join(' '));
    await checkPdf(context, `/statement/${assemblyId}/${employee}/${from}/${to}/pdf`, 'statement-caveats', 1);
    const text = pdfText(join(work, 'statement-caveats.pdf'));
    expect(text).toContain('Смена наблюдалась не целиком');
    for (const notice of report.notices) expect(text).toContain(flat(notice));
    await context.close();
  });
});

describe('block report', () => {
  it('renders every block with the numbers of GET /api/v2/report, 800 px charts and the filling figure', async () => {
    const api = await get<BlockReport>(`/api/v2/report?structure_id=${assemblyId}&from_time=${day.from}&to_time=${day.to}`);
    const context = await signedIn();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/report/${assemblyId}/${day.from}/${enc(day.to)}`);
    await page.getByTestId('block-report').waitFor();
    for (const [i, block] of api.blocks.entries()) {
      const element = page.getByTestId(`block-${i}-${block.type}`);
      await element.waitFor();
      if (block.type === 'table') {
        if (block.collapsed) {
          await expect.poll(() => element.getByTestId('block-table-row').count(), RETRY).toBe(0);
          await element.getByRole('button', { name: 'Развернуть' }).click();
        }
        await expect.poll(() => element.getByTestId('block-table-row').count(), RETRY).toBe(block.rows.length);
        const first = await element.getByTestId('block-table-row').first().locator('td').allTextContents();
        expect(first[0]).toBe(String(block.rows[0]![block.columns[0]!.key]));
      }
      if (block.type === 'paragraph') await expect.poll(() => element.locator('p').textContent(), RETRY).toBe(block.text);
      if (block.type === 'header') await expect.poll(() => element.locator('h1').textContent(), RETRY).toBe(block.title);
      if (['diagram', 'pareto', 'grouped_bar', 'black_diagram'].includes(block.type)) {
        await expect.poll(() => element.locator('svg.chart').first().getAttribute('height'), RETRY).toBe('800');
      }
      if (block.type === 'human') {
        await expect.poll(() => page.getByTestId('human-total-percent').textContent(), RETRY).toBe(num(block.total.percent, 2));
        // 1 % per 50 ms up to the useful-time percent.
        const started = Date.now();
        await page.waitForFunction(
          (target) => Number(document.querySelector('[data-testid="human-figure"]')?.getAttribute('data-fill')) === target,
          Math.round(block.percent),
        );
        expect(Date.now() - started).toBeGreaterThan(1000);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a failed load', async () => {
    // The report is computed in the browser from GET /api/v1/report/inputs (docs/reports.md); an
    // unknown block type can no longer come from outside: BlockReportScreen.test.tsx checks it.
    // page.route cannot see requests the service worker makes for the page: without it, the page's own fetch is what gets answered.
    const context = await signedIn(undefined, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.route('**/api/v1/report/inputs?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Сервер недоступен' } }) }),
    );
    await page.goto(`${server.url}/#/report/${assemblyId}/${day.from}/2026-11-16T22:00:00.000Z`);
    await page.getByText('Не удалось загрузить отчёт: Сервер недоступен').waitFor();
    await page.locator('.toast-error', { hasText: 'Сервер недоступен' }).waitFor();
    await context.close();
  });

  it('gives a real PDF from /pdf/report, every paragraph of the screen in it (notices included)', async () => {
    const api = await get<BlockReport>(`/api/v2/report?structure_id=${assemblyId}&from_time=${day.from}&to_time=${day.to}`);
    const context = await signedIn();
    await checkPdf(context, `/pdf/report/${assemblyId}/${day.from}/${day.to}`, 'blocks', 3);
    const text = pdfText(join(work, 'blocks.pdf'));
    const paragraphs = api.blocks.filter((b) => b.type === 'paragraph') as { text: string }[];
    expect(paragraphs.length).toBeGreaterThan(0);
    for (const block of paragraphs) expect(text).toContain(flat(block.text));
    await context.close();
  });
});

describe('interactive report and sharing', () => {
  // The packing area's first recorded minutes: one marking segment starts in camera 1's third file.
  const route = () => `/interactive/${packingId}/${recorded.from}/${recorded.to}`;

  async function openInteractive(context: BrowserContext, path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${server.url}/#${path}`);
    await page.getByTestId('interactive-report').waitFor();
    await page.getByTestId('interactive-video').waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="interactive-video"]') as HTMLVideoElement).readyState >= 1);
    return page;
  }

  /** Clicks the operation button of a frv item and waits until the player shows `videoId` at `second` (±1 s). */
  async function jump(page: Page, itemId: number, videoId: number, second: number) {
    const scroller = page.getByTestId('frv-scroll');
    const row = page.locator(`[data-item-id="${itemId}"]`);
    for (let i = 0; i < 40 && (await row.count()) === 0; i++) await scroller.evaluate((el) => el.scrollBy(0, 300));
    await row.locator('.op-jump').click();
    await page.waitForFunction(
      ([id, at]) => {
        const video = document.querySelector('[data-testid="interactive-video"]') as HTMLVideoElement;
        return video.dataset.videoId === String(id) && video.readyState >= 1 && Math.abs(video.currentTime - at) <= 1;
      },
      [videoId, second] as const,
    );
  }

  it('jumps the video to each segment’s start, also in another file, beside a table video height + 76 px tall', async () => {
    const api = await get<InteractiveFrv>(`/api/v2/frv?structure_id=${packingId}&from_time=${recorded.from}&to_time=${recorded.to}`);
    const context = await signedIn();
    const page = await openInteractive(context, route());
    const errors = watchErrors(page);
    await expect.poll(() => page.getByTestId('frv-row').count(), RETRY).toBeGreaterThan(0);
    const initial = Number(await page.getByTestId('interactive-video').getAttribute('data-video-id'));
    const onCamera1 = api.items.filter((i) => i.video_segments.some((s) => s.camera_key === 1));
    const cam1 = (item: (typeof api.items)[number]) => item.video_segments.find((s) => s.camera_key === 1)!;
    const sameFile = onCamera1.find((i) => cam1(i).video_id === initial && cam1(i).video_segment.start > 2)!;
    const otherFile = onCamera1.find((i) => cam1(i).video_id !== initial)!;
    expect(sameFile).toBeTruthy();
    expect(otherFile).toBeTruthy();
    await jump(page, otherFile.id, cam1(otherFile).video_id, cam1(otherFile).video_segment.start);
    await jump(page, sameFile.id, cam1(sameFile).video_id, cam1(sameFile).video_segment.start);
    // Another camera: the same segment in camera 3's file.
    await page.getByRole('button', { name: 'Камера 3' }).click();
    const cam3 = sameFile.video_segments.find((s) => s.camera_key === 3)!;
    await jump(page, sameFile.id, cam3.video_id, cam3.video_segment.start);

    const [tableHeight, videoHeight] = await page.evaluate(() => [
      document.querySelector('[data-testid="frv-scroll"]')!.getBoundingClientRect().height,
      document.querySelector('.interactive-video-box')!.getBoundingClientRect().height,
    ]);
    expect(Math.abs(tableHeight - (videoHeight + 76))).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shares the window: copies the link, shows a QR code; the link opens the report without login and nothing else', async () => {
    const context = await signedIn({ width: 1440, height: 900 });
    const page = await openInteractive(context, route());
    // At 1440 px every column of the table is inside its box, and the share result opens over the
    // page: the player does not move down.
    const columnsInside = () =>
      page.evaluate(() => {
        const box = document.querySelector('[data-testid="frv-scroll"]')!.getBoundingClientRect();
        return [...document.querySelectorAll('[data-testid="frv-table"] thead th')].every((th) => th.getBoundingClientRect().right <= box.right + 1);
      });
    expect(await columnsInside()).toBe(true);
    const playerTop = () => page.evaluate(() => document.querySelector('.interactive-player')!.getBoundingClientRect().top);
    const before = await playerTop();
    await page.getByTestId('share-button').click();
    await page.getByText('Ссылка скопирована!').waitFor();
    await page.getByTestId('share-result').waitFor();
    expect(await playerTop()).toBe(before);
    const link = await page.getByTestId('share-link').inputValue();
    // A path the server sees: the page comes with the report inside (api/src/report/share-page.ts).
    expect(link).toMatch(new RegExp(`^${server.url}/demo/[A-Za-z0-9_-]{22,}$`));
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), RETRY).toBe(link);
    await page.getByTestId('share-qr').locator('svg').waitFor();
    const key = link.split('/').pop()!;

    const visitor = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const shared = await visitor.newPage();
    const errors = watchErrors(shared);
    const reads: string[] = [];
    const watchReads = (watched: typeof shared) =>
      watched.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith('/api/v1/resolve_hash/') || ['/api/v2/frv', '/api/v1/instance', '/api/v1/whoami'].includes(path))
          reads.push(path.split('/').slice(0, 4).join('/'));
      });
    watchReads(shared);
    // Every placeholder the app puts up before the report («Загрузка…» while the screen's code
    // comes, «Открываем отчёт по ссылке…» while its data does), as the page's own script sees them.
    await shared.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { placeholdersSeen: string[] }).placeholdersSeen = seen;
      new MutationObserver(() => {
        for (const busy of document.querySelectorAll('#root [aria-busy="true"], #root [role="status"]'))
          if (!seen.includes(busy.textContent ?? '')) seen.push(busy.textContent ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
    const sharedPage = await shared.goto(link);
    // The page's own response carries the key's window and report.
    expect(await sharedPage!.text()).toContain('<script type="application/json" id="norma-shared-report">');
    await shared.getByTestId('interactive-report').waitFor();
    // The page names the screen's chunks and style sheets itself; nothing links them a second time
    // (a style sheet linked twice is parsed twice).
    const linkedTwice = await shared.evaluate(() => {
      const hrefs = [...document.querySelectorAll('link[rel="stylesheet"], link[rel="modulepreload"]')].map((l) => l.getAttribute('href'));
      return hrefs.filter((href, i) => hrefs.indexOf(href) !== i);
    });
    expect(linkedTwice).toEqual([]);
    // The app's address is the hash route the older links have.
    expect(await shared.evaluate(() => location.pathname + location.hash)).toBe(`/#/demo/${key}`);
    await expect.poll(() => shared.getByTestId('share-button').count(), RETRY).toBe(0);
    await shared.getByText('Просмотр по ссылке: только чтение').waitFor();
    const api = await get<InteractiveFrv>(`/api/v2/frv?structure_id=${packingId}&from_time=${recorded.from}&to_time=${recorded.to}`);
    // It opens at the first row with footage, the same item the API gives.
    const opening = api.items.find((i) => i.video_segments.length > 0)!;
    await expect.poll(() => shared.locator(`[data-item-id="${opening.id}"] td`).first().textContent(), RETRY).toBe(String(opening.number));
    // The screen took the report from the page, and the app the answers to its start reads (the
    // installation, who is signed in): no request for any of them. The report is the first thing
    // the app draws (its code is linked by the page and waited for, its data is there).
    expect(reads).toEqual([]);
    expect(await shared.evaluate(() => (window as unknown as { placeholdersSeen: string[] }).placeholdersSeen)).toEqual([]);
    // A guest's player asks for its file only once someone is at the page (a phone that only reads
    // the table downloads no video): nothing yet, then the mouse moves and the file's first frame comes.
    const videoReads = () => shared.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/video?')).length);
    expect(await shared.getByTestId('interactive-video').getAttribute('preload')).toBe('none');
    expect(await videoReads()).toBe(0);
    await shared.mouse.move(200, 200);
    await shared.waitForFunction(() => (document.querySelector('[data-testid="interactive-video"]') as HTMLVideoElement)?.readyState >= 1);
    expect(await shared.getByTestId('interactive-video').getAttribute('preload')).toBe('metadata');
    expect(await videoReads()).toBeGreaterThan(0);
    const withVideo = api.items.find((i) => i.video_segments.some((s) => s.camera_key === 1 && s.video_segment.start > 2))!;
    const segment = withVideo.video_segments.find((s) => s.camera_key === 1)!;
    await jump(shared, withVideo.id, segment.video_id, segment.video_segment.start);
    expect(errors).toEqual([]);

    // The same key reads nothing else: another structure's report, other calls.
    const statuses = await shared.evaluate(
      async ([k, other, from, to, own]) => {
        const status = async (path: string) => (await fetch(path)).status;
        return [
          await status(`/api/v2/frv?structure_id=${other}&from_time=${from}&to_time=${to}&key=${k}`),
          await status(`/api/v1/report/dates?structure_id=${own}&key=${k}`),
          await status(`/api/v2/report?structure_id=${own}&from_time=${from}&to_time=${to}&key=${k}`),
          await status(`/api/v2/get_all_structures?key=${k}`),
        ];
      },
      [key, assemblyId, recorded.from, recorded.to, packingId] as const,
    );
    expect(statuses[0]).toBe(403);
    for (const s of statuses.slice(1)) expect([401, 403]).toContain(s);
    // A guest gets no offline copy of the app: no service worker, no caches (issue 28). The worker
    // would have been registered when the page was loaded and first idle; that idle time has come.
    await shared.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const offlineCopy = await shared.evaluate(async () => ({
      workers: (await navigator.serviceWorker.getRegistrations()).length,
      caches: await caches.keys(),
    }));
    expect(offlineCopy).toEqual({ workers: 0, caches: [] });

    // An older link, /#/demo/{key} (issue 47): its key never reaches the server, so index.html's
    // preload script goes to the served form, /demo/{key}, whose page carries the report — and the
    // app comes back to the hash route with no API read of its own.
    const older = await visitor.newPage();
    reads.length = 0;
    watchReads(older);
    const documents: string[] = [];
    older.on('request', (request) => void (request.resourceType() === 'document' && documents.push(new URL(request.url()).pathname)));
    await older.goto(`${server.url}/#/demo/${key}`);
    await expect.poll(() => older.locator(`[data-item-id="${opening.id}"] td`).first().textContent(), RETRY).toBe(String(opening.number));
    expect(documents).toEqual(['/', `/demo/${key}`]);
    expect(await older.evaluate(() => location.pathname + location.hash)).toBe(`/#/demo/${key}`);
    expect(reads).toEqual([]);
    // A key that opens nothing: the page carries no data, and the screen says so after its own read.
    const wrong = await visitor.newPage();
    const wrongPage = await wrong.goto(`${server.url}/demo/${'A'.repeat(32)}`);
    expect(await wrongPage!.text()).not.toContain('norma-shared-report');
    await wrong.getByText('Отчёт по этой ссылке не открывается: Ссылка недействительна или отозвана').waitFor();
    await visitor.close();
    await context.close();
  });

  it('stacks on a 360 px phone without horizontal scrolling', async () => {
    const context = await signedIn({ width: 360, height: 740 });
    const page = await openInteractive(context, route());
    await page.screenshot({ path: join(work, 'interactive-360.png'), fullPage: true });
    // The guest's phone view: a type name wraps, never cut («Подготовительно-заключительная работа»).
    const typeCells = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="frv-table"] td.frv-type')].map((td) => {
        const row = td.closest('tr')!.getBoundingClientRect();
        return { text: td.textContent!.trim(), fits: td.scrollWidth <= td.clientWidth + 1 && td.getBoundingClientRect().right <= row.right + 1 };
      }),
    );
    expect(typeCells.length).toBeGreaterThan(0);
    expect(typeCells.filter((c) => !c.fits)).toEqual([]);
    const long = await page.evaluate(() => {
      // The longest type name, put into a cell as it is, still fits the 360 px row.
      const td = document.querySelector<HTMLElement>('[data-testid="frv-table"] td.frv-type')!;
      td.lastChild!.textContent = ' Подготовительно-заключительная работа';
      const row = td.closest('tr')!.getBoundingClientRect();
      return td.scrollWidth <= td.clientWidth + 1 && td.getBoundingClientRect().right <= row.right + 1;
    });
    expect(long).toBe(true);
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    // On failure, the message names what sticks out on the right.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)
        .join('; '),
    );
    expect(scrollWidth, wide).toBeLessThanOrEqual(innerWidth);
    const [player, table] = await page.evaluate(() => [
      document.querySelector('.interactive-player')!.getBoundingClientRect().bottom,
      document.querySelector('.interactive-table')!.getBoundingClientRect().top,
    ]);
    expect(table).toBeGreaterThanOrEqual(player);
    for (const path of [`/statement/${assemblyId}/${employeeId}/${shift.from}/${shift.to}`, `/report/${assemblyId}/${day.from}/${day.to}`]) {
      await page.goto(`${server.url}/#${path}`);
      await page.locator('.report').waitFor();
      const [w, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(w, path).toBeLessThanOrEqual(inner);
    }
    await context.close();
  });
});
