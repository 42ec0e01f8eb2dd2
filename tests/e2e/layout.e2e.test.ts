import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage } from '../support/browser';
import { layoutProblems, SCREEN_SIZES } from '../support/layout';
import { everyRoute } from '../support/routes';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

// Every screen readable on a computer, a tablet and a phone (issue 28): the page never scrolls
// sideways, no text is cut or spills out of its cell or button, no word is broken mid-word.

let server: RunningServer;
let browser: Browser;
/** Screens with the demo's data in them, besides the route list's fixed ids. */
const filled: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  const cookie = await apiSessionCookie(server.url, 'analyst');
  const get = async <T>(path: string): Promise<T> => (await fetch(`${server.url}${path}`, { headers: { cookie } })).json() as Promise<T>;
  const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  const packing = structures.find((s) => s.name === 'Участок упаковки')!.id;
  const assembly = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
  // The packing area's first recorded minutes (as tests/e2e/reports.e2e.test.ts).
  const recorded = ['2026-11-16T05:59:00.000Z', '2026-11-16T06:02:00.000Z'];
  const share = await fetch(`${server.url}/api/v1/generate_hash`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ structure_id: packing, from_time: recorded[0], to_time: recorded[1] }),
  });
  expect(share.status).toBe(200);
  const { hash } = (await share.json()) as { hash: string };
  filled.push(
    `/interactive/${packing}/${recorded[0]}/${recorded[1]}`,
    `/edit/${packing}/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z`,
    `/markup/${packing}`,
    `/edit/${assembly}/2026-11-16T05:00:00Z/2026-11-16T14:00:00Z`,
    `/demo/${hash}`,
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Waits until the screen has its title and nothing on it is still loading. */
async function settled(page: Page, route: string) {
  await page
    .locator('main h1')
    .first()
    .waitFor({ timeout: RETRY.timeout })
    .catch((e) => {
      throw new Error(`${route}: ${e.message}`);
    });
  await page
    .waitForFunction(
      () =>
        !document.querySelector('[aria-busy="true"]') &&
        !/Загрузка[^.\n…]{0,12}…/.test((document.querySelector('main') as HTMLElement | null)?.innerText ?? ''),
      undefined,
      // A period of 1,500 rows takes a while to draw on a shared machine.
      { timeout: 4 * RETRY.timeout },
    )
    .catch((e) => {
      throw new Error(`${route}: ${e.message}`);
    });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

describe('every screen at 1440×900, 1024×768 and 360×740', () => {
  for (const size of SCREEN_SIZES) {
    it(`${size.name} ${size.width}×${size.height}: no sideways scroll, no cut text, no broken words`, async () => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, locale: 'ru-RU' });
      const page = await context.newPage();
      await signInThroughPage(page, server.url, 'analyst');
      const found: string[] = [];
      for (const route of [...everyRoute, ...filled]) {
        await page.goto(`${server.url}/#${route}`);
        await settled(page, route);
        for (const problem of await layoutProblems(page)) found.push(`${route}: ${problem}`);
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
