import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { currentProject, intersects, mapInView, mapView, openNewProject, rect, screenBox, type Box, type Point } from '../support/map';
import { analystOrganization, startServer, type RunningServer } from '../support/server';

/**
 * «Удалить объект» never covers the shape it outlines (issue 46): the panel used to sit top left
 * over the map, on whatever was drawn there. At 1440×900, 1024×768 and 360×740 (touch) a small
 * territory is drawn right where the panel used to be and a large one over most of the map; a tap
 * in the small one outlines it — the panel's box and the shape's box on screen do not meet (and the
 * old top-left place would have met it); choosing the large one, which leaves no corner clear, moves
 * the map so it lies clear of the panel, whole and on the map.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
const password = 'map-remove-secret';

const SIZES = [
  { width: 1440, height: 900, touch: false },
  { width: 1024, height: 768, touch: false },
  { width: 360, height: 740, touch: true },
];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ analyst: cookie } = await analystOrganization(server.url, password, { admin: 'remover', analyst: 'planner' }));
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('«Удалить объект» clear of the outlined shape (issue 46)', () => {
  for (const size of SIZES)
    it(`${size.width}×${size.height}: the panel never meets the chosen shape's box`, async () => {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        isMobile: size.touch,
        hasTouch: size.touch,
        locale: 'ru-RU',
      });
      const page = await context.newPage();
      const errors = watchErrors(page, { allowHttpErrors: true });
      await signInThroughPage(page, server.url, 'planner', password);
      await openNewProject(page, server.url, `Удаление ${size.width}`, { touch: size.touch });
      const press = async (locator: Locator) => {
        await locator.scrollIntoViewIfNeeded();
        await (size.touch ? locator.tap() : locator.click());
      };
      /** A point on the map: a tap, or a click after pointer moves (the drawing tools follow the pointer). */
      const at = async ({ x, y }: Point) => {
        if (size.touch) return page.touchscreen.tap(x, y);
        await page.mouse.move(x, y, { steps: 4 });
        await page.mouse.click(x, y);
      };
      const popup = page.getByTestId('map-popup');
      const territory = async (name: string, corners: (map: Box) => Point[]) => {
        // The tool stays on after a save; pressed again it would turn off.
        const tool = page.getByRole('button', { name: 'Территория', exact: true });
        if ((await tool.getAttribute('aria-pressed')) !== 'true') await press(tool);
        const map = await mapInView(page);
        const points = corners(map);
        for (const p of [...points, points[0]]) await at(p);
        await popup.getByRole('heading', { name: 'Территория' }).waitFor();
        await popup.getByLabel('Название').fill(name);
        await press(popup.getByRole('button', { name: 'Сохранить' }));
        await expect
          .poll(async () => (await currentProject(server.url, cookie)).drawn_feature_collection.features.some((f) => f.properties.name === name), RETRY)
          .toBe(true);
      };
      // Small, where the panel used to sit (top left); large, over most of the map (clear of the info box at the bottom).
      await territory('Малая', (m) => [
        { x: m.x + 60, y: m.y + 60 },
        { x: m.x + 170, y: m.y + 60 },
        { x: m.x + 170, y: m.y + 140 },
        { x: m.x + 60, y: m.y + 140 },
      ]);
      await territory('Большая', (m) => [
        { x: m.x + m.width * 0.04, y: m.y + m.height * 0.04 },
        { x: m.x + m.width * 0.96, y: m.y + m.height * 0.04 },
        { x: m.x + m.width * 0.96, y: m.y + m.height * 0.85 },
        { x: m.x + m.width * 0.04, y: m.y + m.height * 0.85 },
      ]);
      const shape = async (name: string) =>
        (await currentProject(server.url, cookie)).drawn_feature_collection.features.filter((f) => f.properties.name === name);

      if (size.touch) await press(page.getByRole('button', { name: 'Ещё' }));
      await press(page.getByRole('button', { name: 'Удалить объект' }));
      const picker = page.getByTestId('map-remove');
      await picker.getByText('Нажмите на объект').waitFor();
      let map = await mapInView(page);
      await at({ x: map.x + 115, y: map.y + 100 });
      const labels = picker.locator('label');
      await expect.poll(() => labels.count(), RETRY).toBe(2);
      const [small, large] = (await labels.allTextContents()).map((t) => t.trim());
      expect(small).toMatch(/^Территория «Малая»/);
      expect(large).toMatch(/^Территория «Большая»/);
      const outlined = () => page.getByTestId('map-canvas').getAttribute('data-remove-pick');
      await expect.poll(outlined, RETRY).toBe(small);

      /** The panel's box and the named shape's box on screen now. */
      const boxes = async (name: string) => {
        map = await mapInView(page);
        return { panel: await rect(picker), shape: screenBox(await mapView(page), map, await shape(name)) };
      };
      const covered = async (name: string) => {
        const { panel, shape: box } = await boxes(name);
        return intersects(panel, box);
      };
      await expect.poll(() => covered('Малая'), RETRY).toBe(false);
      const placed = await boxes('Малая');
      // Where the panel used to be (top left of the map), it would cover the small territory.
      expect(intersects({ ...placed.panel, x: map.x + 8, y: map.y + 8 }, placed.shape)).toBe(true);
      expect(await picker.getAttribute('data-corner')).not.toBe('top-left');

      // The large one leaves no corner clear: the map moves it beside the panel, whole.
      const before = await mapView(page);
      await press(picker.getByText(large));
      await expect.poll(outlined, RETRY).toBe(large);
      await expect.poll(() => mapView(page), RETRY).not.toEqual(before);
      await expect.poll(() => covered('Большая'), RETRY).toBe(false);
      const moved = await boxes('Большая');
      expect(moved.shape.x).toBeGreaterThanOrEqual(map.x);
      expect(moved.shape.y).toBeGreaterThanOrEqual(map.y);
      expect(moved.shape.x + moved.shape.width).toBeLessThanOrEqual(map.x + map.width);
      expect(moved.shape.y + moved.shape.height).toBeLessThanOrEqual(map.y + map.height);

      // Nothing was deleted by the taps; «Отмена» drops the choice.
      await press(picker.getByRole('button', { name: 'Отмена' }));
      await expect.poll(outlined, RETRY).toBe('');
      expect((await currentProject(server.url, cookie)).drawn_feature_collection.features).toHaveLength(2);
      expect(errors).toEqual([]);
      await context.close();
    });
});
