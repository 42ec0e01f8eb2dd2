import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockReport, InteractiveFrv, StatementReport } from '../../pwa/src/screens/reports/types';
import { RETRY, signInThroughPage, watchErrors } from '../support/browser';
import type { RunningServer } from '../support/server';
import { startDemo, type Demo } from '../support/demo';

/**
 * Reports computed in the browser (issue 12): the PWA assembles the statement, the block report
 * and the interactive report from GET /api/v1/report/inputs with core-wasm, the code the API runs.
 * In Chromium each equals the API's answer field by field, and a report opened online opens
 * offline with the same numbers.
 */
let demo: Demo;
let server: RunningServer;
let browser: Browser;
let assemblyId: number;
let employeeId: number;

/** The demo's first day (Moscow): the whole day and the shift 08:00–17:00. */
const day = { from: '2026-11-15T21:00:00.000Z', to: '2026-11-16T21:00:00.000Z' };
const shift = { from: '2026-11-16T05:00:00.000Z', to: '2026-11-16T14:00:00.000Z' };

const get = <T>(path: string) => demo.get<T>(path);

type Window = { structureId: number; from: string; to: string };
/** The page's `window.normaReports` (pwa/src/screens/reports/compute.ts); a type only: the callbacks run in the page. */
type NormaWindow = {
  normaReports: {
    computeStatement(window: Window, employeeId: number): Promise<unknown>;
    computeBlockReport(window: Window): Promise<unknown>;
    computeInteractiveFrv(window: Window): Promise<unknown>;
  };
};

/** The three reports as the screens address them, with what each shows and how the page computes it. */
const reports = () => [
  {
    name: 'statement',
    route: `/statement/${assemblyId}/${employeeId}/${shift.from}/${shift.to}`,
    testId: 'statement',
    api: `/api/v1/report?structure_id=${assemblyId}&employee_id=${employeeId}&from_time=${shift.from}&to_time=${shift.to}`,
    compute: (page: Page) =>
      page.evaluate(({ w, e }) => (window as unknown as NormaWindow).normaReports.computeStatement(w, e), {
        w: { structureId: assemblyId, ...shift },
        e: employeeId,
      }),
  },
  {
    name: 'block report',
    route: `/report/${assemblyId}/${day.from}/${day.to}`,
    testId: 'block-report',
    api: `/api/v2/report?structure_id=${assemblyId}&from_time=${day.from}&to_time=${day.to}`,
    compute: (page: Page) => page.evaluate((w) => (window as unknown as NormaWindow).normaReports.computeBlockReport(w), { structureId: assemblyId, ...day }),
  },
  {
    name: 'interactive report',
    route: `/interactive/${assemblyId}/${day.from}/${day.to}`,
    testId: 'frv-table',
    api: `/api/v2/frv?structure_id=${assemblyId}&from_time=${day.from}&to_time=${day.to}`,
    compute: (page: Page) =>
      page.evaluate((w) => (window as unknown as NormaWindow).normaReports.computeInteractiveFrv(w), { structureId: assemblyId, ...day }),
  },
];

/** Opens a report screen and returns its whole text once the numbers are there. */
async function shownText(page: Page, route: string, testId: string): Promise<string> {
  await page.goto(`${server.url}/#${route}`);
  // A statement puts its parts into the page one task after another (aria-busy until all are in), and
  // a virtualised table settles its rows once measured: read it whole, when two reads agree.
  await page.locator(`[data-testid="${testId}"]:not([aria-busy="true"])`).waitFor({ timeout: RETRY.timeout });
  let last: string | null = null;
  await expect
    .poll(async () => {
      const now = await page.getByTestId(testId).innerText();
      const settled = now === last;
      last = now;
      return settled;
    }, RETRY)
    .toBe(true);
  return last!;
}

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser } = demo);
  assemblyId = demo.structureId('Участок сборки редукторов');
  const dates = await get<{ employees: Record<string, number[]> }>(`/api/v1/report/dates?structure_id=${assemblyId}`);
  employeeId = dates.employees['2026-11-16']![0]!;
});
afterAll(async () => {
  await demo?.stop();
});

describe('reports computed in the browser', () => {
  let context: BrowserContext;

  it('equal the API’s reports field by field in Chromium', async () => {
    // Reduced motion: the human figure shows its final percent at once, so the text read is the settled one.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'analyst');
    // clientsClaim: the first session is controlled, so the inputs and the core get cached.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: RETRY.timeout });
    for (const report of reports()) {
      const api = await get<StatementReport | BlockReport | InteractiveFrv>(report.api);
      await shownText(page, report.route, report.testId);
      expect(await report.compute(page), report.name).toEqual(api);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a report opened online then offline shows the same numbers', async () => {
    const online = await context.newPage();
    const shown = new Map<string, string>();
    for (const report of reports()) {
      const text = await shownText(online, report.route, report.testId);
      expect(text).toMatch(/\d/);
      shown.set(report.name, text);
    }
    await online.close();

    await context.setOffline(true);
    const offline = await context.newPage();
    for (const report of reports()) {
      expect(await shownText(offline, report.route, report.testId), report.name).toBe(shown.get(report.name));
      // The numbers come from the stored inputs and the stored core: the server is not reachable.
      expect(await report.compute(offline), report.name).toEqual(await get(report.api));
    }
    expect(
      await offline.evaluate(() =>
        fetch('/api/v1/whoami').then(
          () => 'reached',
          () => 'offline',
        ),
      ),
    ).toBe('offline');
    await context.setOffline(false);
    await context.close();
  });
});

describe('reports on a 360 px phone', () => {
  /** The smallest label of every chart on the page in CSS pixels: font size × the SVG's scale. */
  const smallestChartText = (page: Page) =>
    page.evaluate(() => {
      let smallest = Infinity;
      for (const svg of document.querySelectorAll<SVGSVGElement>('svg.chart:not(.human-figure)')) {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const text of svg.querySelectorAll('text')) {
          if (!text.textContent?.trim()) continue;
          smallest = Math.min(smallest, Number(getComputedStyle(text).fontSize.replace('px', '')) * scale);
        }
      }
      return smallest;
    });
  const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('charts keep 11 px labels, tables show their columns without sideways scroll, the header folds', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'analyst');
    for (const report of reports().slice(0, 2)) {
      await shownText(page, report.route, report.testId);
      await expect.poll(() => page.locator('svg.chart').count(), RETRY).toBeGreaterThan(2);
      // Each chart takes its phone width from a ResizeObserver once it is laid out: wait for it, as for the charts.
      await expect.poll(() => smallestChartText(page), { ...RETRY, message: report.name }).toBeGreaterThanOrEqual(11);
      expect(await noSidewaysScroll(page), report.name).toBe(true);
      // Card tables: every cell inside the table's own box, none behind a sideways scroll.
      const hidden = await page.evaluate(
        () =>
          [...document.querySelectorAll('.report-data[data-layout="cards"]')].filter((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1)
            .length,
      );
      expect(hidden, report.name).toBe(0);
      expect(await page.locator('.site-nav').isVisible(), report.name).toBe(false);
    }
    // Legends wrap instead of being cut: no legend line ends in an ellipsis.
    const cut = await page.evaluate(
      () => [...document.querySelectorAll('[data-testid="chart-legend"] text')].filter((t) => t.textContent?.endsWith('…')).length,
    );
    expect(cut).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the interactive table starts at the first row with footage, marks the rest, keeps start, end and duration in view, and the video stays in view', async () => {
    const api = await get<InteractiveFrv>(reports()[2]!.api);
    const first = api.items.findIndex((i) => i.video_segments.length > 0);
    // The demo day starts hours before the recorded minutes.
    expect(first).toBeGreaterThan(0);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await signInThroughPage(page, server.url, 'analyst');
    await shownText(page, reports()[2]!.route, 'frv-table');
    const firstShown = async () =>
      page.evaluate(() => {
        const box = document.querySelector('[data-testid="frv-scroll"]')!.getBoundingClientRect();
        const row = [...document.querySelectorAll<HTMLElement>('[data-testid="frv-row"]')].find((r) => r.getBoundingClientRect().bottom > box.top + 2);
        return Number(row?.dataset.itemId);
      });
    await expect.poll(firstShown, RETRY).toBe(api.items[first]!.id);
    // Only the rows of that screen (and a few beyond) are built: none from the top of the day.
    const built = await page.locator('[data-testid="frv-row"]').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset.index)));
    expect(built.length).toBeLessThanOrEqual(20);
    expect(Math.min(...built)).toBeGreaterThanOrEqual(Math.max(0, first - 8));
    expect(await noSidewaysScroll(page)).toBe(true);
    // Start, end and duration of the row are inside the screen.
    const row = page.locator(`[data-item-id="${api.items[first]!.id}"]`);
    const cells = await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().right));
    expect(cells.length).toBe(8);
    for (const right of cells) expect(right).toBeLessThanOrEqual(360);
    // Scroll the page so that the player would leave the screen, then tap the operation.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await row.locator('.op-jump').click();
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const box = document.querySelector('.interactive-video-box')!.getBoundingClientRect();
            return box.top >= -1 && box.bottom <= window.innerHeight + 1;
          }),
        RETRY,
      )
      .toBe(true);
    // Rows before it say they have no footage.
    await page.getByTestId('frv-scroll').evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(() => page.locator('[data-testid="frv-row"][data-footage="no"] [data-testid="no-footage"]').count(), RETRY).toBeGreaterThan(0);
    await context.close();
  });
});
