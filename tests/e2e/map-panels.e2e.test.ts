import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY } from '../support/browser';
import { layoutProblems, unreachableControls } from '../support/layout';
import {
  currentProject,
  intersects,
  mapInView,
  mapView,
  openNewProject,
  plannerPage,
  rect,
  screenBox,
  startMapServer,
  toScreen,
  type Box,
} from '../support/map';
import type { RunningServer } from '../support/server';

/**
 * The map editor's project info box never covers the work (issue 46, finding 3), in Chromium at
 * 1440×900 and 1024×768: closed it is one line and a small share of the map; a popup's «Сохранить»
 * drawn over the opened box is the element under its own centre; a click on the map right next to
 * the box adds a vertex; «Весь проект» puts the whole drawing clear of the box. At 360×740 the map
 * opens and the closed box is one line with nothing out of place (drawing by taps on a phone:
 * map-phone.e2e.test.ts).
 *
 * The share thresholds: the closed box is one line (under 50 px tall) of the name, the count and
 * two small buttons. On the 1440 and 1024 maps it must stay under 5 % of the map: the issue measured
 * 17 % and 25 % for the old box. On the phone the map is only about 340 px wide and the two buttons
 * alone take more than half of that, so the line is under 8 % there (about 325×38 px of 340×520).
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
let stop: (() => Promise<void>) | undefined;
const password = 'map-panels-secret';

const current = () => currentProject(server.url, cookie);
const view = mapView;

/** Clicks at a point with pointer moves before it (the drawing tools follow the pointer). */
async function clickAt(page: Page, x: number, y: number) {
  await page.mouse.move(x, y, { steps: 4 });
  await page.mouse.click(x, y);
}

/**
 * Scrolls the whole map into the window (on a phone the page is taller than the window, and a
 * toolbar click scrolls back up) and returns where the map and the info box are now.
 */
async function inView(page: Page): Promise<{ map: Box; box: Box }> {
  return { map: await mapInView(page), box: await rect(page.getByTestId('map-info')) };
}

/** «Сохранить» of the open popup is what the page has under its centre (nothing covers it). */
async function saveIsOnTop(popup: Locator) {
  const save = popup.getByRole('button', { name: 'Сохранить' });
  await save.waitFor();
  return save.evaluate((button) => {
    const r = button.getBoundingClientRect();
    const found = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return found === button || `${found?.tagName}.${found?.className} at ${JSON.stringify(r)}`;
  });
}

beforeAll(async () => {
  ({ server, browser, cookie, stop } = await startMapServer(password, { admin: 'panels' }));
});
afterAll(async () => {
  await stop?.();
});

const SIZES = [
  { width: 1440, height: 900, shareMax: 0.05, draws: true },
  { width: 1024, height: 768, shareMax: 0.05, draws: true },
  // The phone: the map opens and the closed box is one line; drawing there by taps — map-phone.e2e.test.ts.
  { width: 360, height: 740, shareMax: 0.08, draws: false },
];

describe('the project info box never covers the work (issue 46)', () => {
  for (const size of SIZES) {
    const what = size.draws ? 'one line, under popups, map clicks beside it land, «Весь проект» clear of it' : 'the map opens, the box is one line';
    it(`${size.width}×${size.height}: ${what}`, async () => {
      const { context, page, errors } = await plannerPage(browser, server.url, password, {
        options: { viewport: { width: size.width, height: size.height }, locale: 'ru-RU' },
      });
      await openNewProject(page, server.url, `Панели ${size.width}`);

      const info = page.getByTestId('map-info');
      /** «Подробнее» / «Свернуть»: the one button that opens and closes the details. */
      const more = info.locator('button[aria-controls=map-info-details]');
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      let { map, box } = await inView(page);
      expect((box.width * box.height) / (map.width * map.height)).toBeLessThan(size.shareMax);
      expect(box.height).toBeLessThan(50);
      const problems = [...(await layoutProblems(page)), ...(await unreachableControls(page))];
      expect(problems, problems.join('\n')).toEqual([]);
      if (!size.draws) {
        expect(errors).toEqual([]);
        await context.close();
        return;
      }

      // An area whose vertices sit right next to the closed box: above it and to its right.
      const before = await view(page);
      await page.getByRole('button', { name: 'Территория', exact: true }).click();
      ({ map, box } = await inView(page));
      // On the phone the closed line spans the map: there the vertices sit just above it.
      const roomRight = box.x + box.width + 40 < map.x + map.width;
      const near = roomRight
        ? [
            { x: box.x + box.width + 8, y: box.y + box.height - 4 },
            { x: box.x + 4, y: box.y - 8 },
            { x: Math.min(box.x + box.width + 100, map.x + map.width - 20), y: box.y - 100 },
          ]
        : [
            { x: box.x + box.width - 4, y: box.y - 8 },
            { x: box.x + 4, y: box.y - 8 },
            { x: map.x + map.width / 2, y: box.y - 100 },
          ];
      for (const p of near) await clickAt(page, p.x, p.y);
      await clickAt(page, near[0].x, near[0].y);
      const popup = page.getByTestId('map-popup');
      await popup.getByRole('heading', { name: 'Территория' }).waitFor();
      expect(await saveIsOnTop(popup)).toBe(true);
      await popup.getByRole('button', { name: 'Сохранить' }).click();
      await expect.poll(async () => (await current()).drawn_feature_collection.features.length, RETRY).toBe(1);
      const area = (await current()).drawn_feature_collection.features[0];
      const ring = (area.geometry.coordinates as number[][][])[0];
      expect(ring).toHaveLength(near.length + 1);
      // Each vertex lies where it was clicked (within the snapping distance): none went to the box.
      expect(await view(page)).toEqual(before);
      const placed = ring.slice(0, -1).map((c) => toScreen(before, map, c));
      for (const p of near) expect(Math.min(...placed.map((q) => Math.hypot(q.x - p.x, q.y - p.y)))).toBeLessThan(3);

      // Opened, the box is taller; a zone drawn right of it opens its popup over it, and the popup wins.
      await more.click();
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      await info.getByTestId('map-crs').waitFor();
      await page.getByRole('button', { name: 'Зона', exact: true }).click();
      ({ map, box } = await inView(page));
      // Beside the box where there is room (1440, 1024); on the phone the opened box spans the map, so above it.
      const beside = box.x + box.width + 90 < map.x + map.width;
      const centre = beside ? { x: box.x + box.width + 30, y: box.y + box.height - 30 } : { x: map.x + map.width / 2, y: box.y - 40 };
      await clickAt(page, centre.x, centre.y);
      await clickAt(page, centre.x + 25, centre.y);
      await popup.getByRole('heading', { name: 'Зона обслуживания' }).waitFor();
      expect(intersects(await rect(popup.locator('.maplibregl-popup-content')), box)).toBe(true);
      expect(await saveIsOnTop(popup)).toBe(true);
      await popup.getByRole('button', { name: 'Сохранить' }).click();
      await expect.poll(async () => (await current()).drawn_feature_collection.features.length, RETRY).toBe(2);

      // «Весь проект» after a zoom out: the drawing inside the map and clear of the box, opened and closed.
      for (const opened of [true, false]) {
        ({ map } = await inView(page));
        const zoomedOut = await view(page);
        await page.mouse.move(map.x + map.width / 2, map.y + map.height / 2);
        await page.mouse.wheel(0, 600);
        await expect.poll(() => view(page), RETRY).not.toEqual(zoomedOut);
        const moved = await view(page);
        await info.getByRole('button', { name: 'Весь проект' }).click();
        await expect.poll(() => view(page), RETRY).not.toEqual(moved);
        const project = await current();
        ({ map, box } = await inView(page));
        const drawing = screenBox(await view(page), map, [...project.drawn_feature_collection.features, ...project.general_feature_collection.features]);
        expect(intersects(drawing, box), `${JSON.stringify(drawing)} / ${JSON.stringify(box)}`).toBe(false);
        expect(drawing.x).toBeGreaterThanOrEqual(map.x);
        expect(drawing.y).toBeGreaterThanOrEqual(map.y);
        expect(drawing.x + drawing.width).toBeLessThanOrEqual(map.x + map.width);
        expect(drawing.y + drawing.height).toBeLessThanOrEqual(map.y + map.height);
        if (opened) await info.getByRole('button', { name: 'Свернуть' }).click();
      }

      // Open or closed is remembered for the session: it survives a reload.
      await more.click();
      await page.reload();
      await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe(`Панели ${size.width}`);
      expect(await info.getByRole('button', { name: 'Свернуть' }).getAttribute('aria-expanded')).toBe('true');
      await info.getByRole('button', { name: 'Свернуть' }).click();
      await page.reload();
      await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe(`Панели ${size.width}`);
      expect(await info.getByRole('button', { name: 'Подробнее' }).getAttribute('aria-expanded')).toBe('false');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
