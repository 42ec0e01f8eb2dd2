import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { layoutProblems, SCREEN_SIZES } from '../support/layout';
import { drawnOfType, mapView, rect, toScreen } from '../support/map';
import { analystOrganization, postOk, startServer, type RunningServer } from '../support/server';

/**
 * A zone under the smallest radius (50 m) saved before the rule (issue 46), in Chromium: the editor
 * opens the project, the zone's property form marks it «перерисуйте», and a save of the drawing with
 * that zone untouched — as the editor sends it back, coordinates and radius rounded — is kept. The map
 * marks it (a dashed outline, a note, a tooltip, a legend line); deleted and then undone, it comes back.
 */
let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
let cookie: string;
const password = 'map-small-zone-secret';
const CENTRE = [30.3, 59.93];
const RADIUS = 40;
const TITLE = `Зона радиусом ${RADIUS} м — меньше наименьшего радиуса 50 м (сохранена до правила): перерисуйте её`;
const LEGEND = `Пунктир — зона меньше 50 м (1), сохранённая до правила: перерисуйте`;

/** A 64-sided circle of `radius` m around `centre`, as the zone tool draws one. */
function circle([lon, lat]: number[], radius: number): number[][] {
  const metresPerDegree = 111_320;
  return Array.from({ length: 65 }, (_, i) => {
    const a = ((i % 64) / 64) * 2 * Math.PI;
    return [lon + (radius * Math.cos(a)) / (metresPerDegree * Math.cos((lat * Math.PI) / 180)), lat + (radius * Math.sin(a)) / metresPerDegree];
  });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ analyst: cookie } = await analystOrganization(server.url, password, { admin: 'zoneadmin', analyst: 'planner' }));
  const project = (await postOk(server.url, '/api/v1/projects/create', { name: 'Прошлый месяц' }, cookie)) as { id: number };
  const road = {
    type: 'Feature',
    geometry: {
      type: 'LineString',
      coordinates: [
        [30.2985, 59.9294],
        [30.2985, 59.9306],
      ],
    },
    properties: { type: 'road', type_id: 1 },
  };
  await postOk(server.url, '/api/v1/projects/last/save', { type: 'FeatureCollection', features: [road] }, cookie);
  // The zone as a project saved before the rule holds it: the API no longer takes a new one, so it is written where the project is stored.
  const zone = {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [circle(CENTRE, RADIUS)] },
    properties: { type: 'zone', type_id: 20, radius: RADIUS },
  };
  const stored = JSON.stringify({ type: 'FeatureCollection', features: [road, zone] });
  const db = new Database(join(server.dataDir, 'norma.sqlite'));
  try {
    // small_zones NULL: a project from before migration 0037, whose small zones the server has not recorded yet.
    db.query('UPDATE map_projects SET drawn_feature_collection = ?, drawing_feature_collection = ?, small_zones = NULL WHERE id = ?').run(
      stored,
      stored,
      project.id,
    );
  } finally {
    db.close();
  }
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  errors = watchErrors(page, { allowHttpErrors: true });
  await signInThroughPage(page, server.url, 'planner', password);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('an old zone under 50 m in the map editor (issue 46)', () => {
  it('is marked in its property form and saved again untouched', async () => {
    await page.goto(`${server.url}/#/ciblock/map`);
    await page.locator('[data-testid=map-canvas][data-map-loaded=true]').waitFor();
    await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe('Прошлый месяц');
    await expect.poll(async () => Number(await page.getByTestId('map-count-zone').textContent()), RETRY).toBe(1);
    // The project opens fitted to its drawing: the zone's centre is on the map.
    const map = await rect(page.getByTestId('map-canvas'));
    await expect
      .poll(async () => {
        const [west, south, east, north] = await mapView(page);
        return west < CENTRE[0] && CENTRE[0] < east && south < CENTRE[1] && CENTRE[1] < north;
      }, RETRY)
      .toBe(true);
    const at = toScreen(await mapView(page), map, CENTRE);
    // Marked on the map, not only in the form: maplibre drew the dashed outline (the map element's
    // `data-small-zones`), the pointer over the zone gets the tooltip, the legend says what the dash means.
    await expect.poll(() => page.getByTestId('map-canvas').getAttribute('data-small-zones'), RETRY).toBe(JSON.stringify([TITLE]));
    expect(await page.getByTestId('map-small-zones').textContent()).toBe(LEGEND);
    await page.mouse.move(at.x, at.y);
    await expect.poll(() => page.locator('[data-testid=map-canvas] canvas').getAttribute('title'), RETRY).toBe(TITLE);
    await page.mouse.click(at.x, at.y);

    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Зона обслуживания' }).waitFor();
    expect(await popup.getByRole('note').textContent()).toBe(`Радиус ${RADIUS} м — меньше наименьшего радиуса 50 м — перерисуйте`);

    // Named and saved: the whole drawing goes back with the old zone in it, and the server keeps it.
    await popup.getByLabel('Название').fill('Старый сквер');
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect
      .poll(async () => (await drawnOfType(server.url, cookie, 'zone')).map((f) => [f.properties.name, f.properties.radius]), RETRY)
      .toEqual([['Старый сквер', RADIUS]]);
    expect((await drawnOfType(server.url, cookie, 'road')).length).toBe(1);
    expect(errors).toEqual([]);
  });

  it('deleted with «Удалить объект» and saved, comes back with «Отменить» and the server keeps it', async () => {
    const zones = async () => (await drawnOfType(server.url, cookie, 'zone')).map((f) => [f.properties.name, f.properties.radius]);
    const map = await rect(page.getByTestId('map-canvas'));
    const at = toScreen(await mapView(page), map, CENTRE);
    await page.getByRole('button', { name: 'Удалить объект' }).click();
    await page.mouse.click(at.x, at.y);
    const picker = page.getByTestId('map-remove');
    await picker.getByRole('radio', { checked: true }).waitFor();
    expect(await picker.getByRole('radio').count()).toBe(1);
    await picker.getByRole('button', { name: 'Удалить', exact: true }).click();
    await expect.poll(zones, RETRY).toEqual([]);
    await expect.poll(() => page.getByTestId('map-small-zones').count(), RETRY).toBe(0);
    // Undo saves the drawing before the deletion again: the project held that zone before the rule, so it is kept.
    await page.getByRole('button', { name: 'Изменить', exact: true }).click();
    await page.getByRole('button', { name: 'Отменить' }).click();
    await expect.poll(zones, RETRY).toEqual([['Старый сквер', RADIUS]]);
    await expect.poll(async () => Number(await page.getByTestId('map-count-zone').textContent()), RETRY).toBe(1);
    await expect.poll(() => page.getByTestId('map-small-zones').textContent(), RETRY).toBe(LEGEND);
    expect((await drawnOfType(server.url, cookie, 'road')).length).toBe(1);
    expect(errors).toEqual([]);
  });

  it('the legend of the mark reads whole at 1440, 1024 and 360 px', async () => {
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      const legend = page.getByTestId('map-small-zones');
      await expect.poll(() => legend.textContent(), RETRY).toBe(LEGEND);
      const box = await rect(legend);
      expect(box.x >= 0 && box.x + box.width <= size.width && box.y >= 0 && box.y + box.height <= size.height, `${size.name}: ${JSON.stringify(box)}`).toBe(
        true,
      );
      expect(await layoutProblems(page), size.name).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});
