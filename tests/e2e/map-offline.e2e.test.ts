import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage } from '../support/browser';
import { cyrillicMontserratLoaded, PLACES_MISSING } from '../support/geonames';
import { apiSessionCookie, startServer, type RunningServer, postOk } from '../support/server';

/**
 * The map editor offline (issue 28, docs/map.md «Без сети»): a planner who opened the map once
 * online opens it from a cold start with no network — basemap, style and the current project —,
 * draws and saves, and the drawing reaches the server exactly once when the network returns; a
 * drawing queued on a version changed on the server meanwhile is refused (409) and the screen
 * shows the server's project.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
const password = 'map-offline-secret';

interface Feature {
  properties: { type: string; name?: string };
}
interface Project {
  id: number;
  name: string;
  updated_at: number;
  drawn_feature_collection: { features: Feature[] };
}

const post = (path: string, body: unknown, withCookie?: string) => postOk(server.url, path, body, withCookie);
const current = async (): Promise<Project> => (await fetch(`${server.url}/api/v1/projects/last/get`, { headers: { cookie } })).json();
const types = (project: Project) => project.drawn_feature_collection.features.map((f) => f.properties.type).sort();

const area = {
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [30.3, 59.93],
        [30.318, 59.93],
        [30.318, 59.939],
        [30.3, 59.939],
        [30.3, 59.93],
      ],
    ],
  },
  properties: { type: 'area', type_id: 10 },
};

/** The editor is open with its basemap loaded and the project shown. */
async function openEditor(page: Page) {
  await page.goto(`${server.url}/#/ciblock/map`);
  await page.getByRole('heading', { name: 'Редактор карты' }).waitFor();
  await page.locator('[data-testid=map-canvas][data-map-loaded=true]').waitFor();
  await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe('Набережная');
  await expect.poll(() => page.getByTestId('map-busy').count(), RETRY).toBe(0);
}

/** Puts an object in the middle of the map and saves it in its popup. */
async function drawObject(page: Page) {
  await page.getByRole('button', { name: 'Объект', exact: true }).click();
  const box = (await page.getByTestId('map-canvas').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const popup = page.getByTestId('map-popup');
  await popup.getByRole('heading', { name: 'Объект' }).waitFor();
  await popup.getByRole('button', { name: 'Сохранить' }).click();
  await expect.poll(() => popup.count(), RETRY).toBe(0);
  await page.getByRole('button', { name: 'Изменить', exact: true }).click();
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  await post('/api/v2/register', { login: 'nevaplan', password, first_name: 'Анна', last_name: 'Невская' });
  const admin = await apiSessionCookie(server.url, 'nevaplan', password);
  await post('/api/v1/admin/users', { login: 'planner', password, first_name: 'Пётр', last_name: 'Планов', role: 'analyst' }, admin);
  cookie = await apiSessionCookie(server.url, 'planner', password);
  await post('/api/v1/projects/create', { name: 'Набережная' }, cookie);
  await post('/api/v1/projects/last/save', { type: 'FeatureCollection', features: [area] }, cookie);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('map editor without a network', () => {
  let context: BrowserContext;

  it('opens from a cold start offline with its basemap and project, and a drawing saved offline arrives once', async () => {
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // No Background Sync (as in offline-field): the page's own rounds send the queue.
    await context.grantPermissions(['clipboard-read'], { origin: server.url });
    const online = await context.newPage();
    await signInThroughPage(online, server.url, 'planner', password);
    await online.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: RETRY.timeout });
    await openEditor(online);
    // Opened once online: the archive is kept whole, and the empty forms of every drawn type.
    await expect
      .poll(
        () =>
          online.evaluate(async () => {
            const basemap = await (await caches.open('norma-basemap')).match('/api/v1/map/basemap.pmtiles');
            const menus = await (await caches.open('norma-api')).keys();
            return { basemap: basemap?.status ?? 0, menus: menus.filter((r) => r.url.includes('/api/v1/html_menu')).length };
          }),
        RETRY,
      )
      .toEqual({ basemap: 200, menus: 4 });
    await online.close();

    // Cold start offline: a new tab at the editor's address.
    await context.setOffline(true);
    const page = await context.newPage();
    const basemapAnswers: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/v1/map/basemap.pmtiles') && response.fromServiceWorker()) basemapAnswers.push(response.status());
    });
    await openEditor(page);
    await expect.poll(() => page.getByTestId('map-count-area').textContent(), RETRY).toBe('1');
    // The basemap is drawn from the kept archive: ranges cut by the worker, and no map error.
    await expect.poll(() => basemapAnswers.includes(206), RETRY).toBe(true);
    expect(await page.locator('.toast', { hasText: 'Карта: не удалось загрузить' }).count()).toBe(0);
    expect(await page.getByTestId('offline-banner').count()).toBe(1);
    // The map's own offline text: what works here and what waits for the server, not markup saves.
    const banner = await page.getByTestId('offline-banner').textContent();
    expect(banner).toContain('Карта работает на этом устройстве');
    expect(banner).toContain('Алгоритмы, чертёж DWG и DXF');
    expect(banner).not.toContain('разметки');
    if (!PLACES_MISSING) {
      // Town names too: drawn from the app's Montserrat, whose Cyrillic file comes from the offline cache.
      await expect.poll(() => page.locator('canvas.maplibregl-canvas').getAttribute('aria-label'), RETRY).toMatch(/^Карта: .*Санкт-Петербург/);
      expect(await cyrillicMontserratLoaded(page)).toBe(true);
    }

    await drawObject(page);
    await page.getByText('Нет связи с сервером: рисунок сохранён на этом устройстве').waitFor();
    await expect.poll(() => page.getByTestId('map-count-object').textContent(), RETRY).toBe('1');
    await expect.poll(() => page.getByTestId('sync-indicator').textContent(), RETRY).toBe('Не отправлено: 1');
    expect(types(await current())).toEqual(['area']);

    // Reopened offline: the queued drawing is shown over the kept project.
    await page.reload();
    await openEditor(page);
    await expect.poll(() => page.getByTestId('map-count-object').textContent(), RETRY).toBe('1');
    expect(types(await current())).toEqual(['area']);

    // Back online: sent once.
    await context.setOffline(false);
    await expect.poll(async () => types(await current()), RETRY).toEqual(['area', 'object']);
    await expect.poll(() => page.getByTestId('sync-indicator').count(), RETRY).toBe(0);
    const arrived = await current();
    // Another round (a fresh page sends what waits at start): nothing is sent again, nothing conflicts.
    await page.reload();
    await openEditor(page);
    await expect.poll(() => page.getByTestId('map-count-object').textContent(), RETRY).toBe('1');
    await expect.poll(() => page.evaluate(() => navigator.onLine), RETRY).toBe(true);
    expect(await page.locator('.toast-error').count()).toBe(0);
    const after = await current();
    expect(after.updated_at).toBe(arrived.updated_at);
    expect(types(after)).toEqual(['area', 'object']);
    await page.close();
  });

  it('a drawing queued offline on a version changed on the server meanwhile is refused, and the server version is shown', async () => {
    const page = await context.newPage();
    await openEditor(page);
    await context.setOffline(true);
    await drawObject(page);
    await page.getByText('Нет связи с сервером: рисунок сохранён на этом устройстве').waitFor();
    await expect.poll(() => page.getByTestId('map-count-object').textContent(), RETRY).toBe('2');
    // Someone else changes the project meanwhile.
    await post('/api/v1/projects/last/save', { type: 'FeatureCollection', features: [{ ...area, properties: { type: 'area', type_id: 11 } }] }, cookie);
    await context.setOffline(false);
    await page.locator('.toast-error', { hasText: 'Рисунок, сохранённый без сети, не принят' }).waitFor({ timeout: RETRY.timeout });
    await expect.poll(() => page.getByTestId('map-count-object').textContent(), RETRY).toBe('0');
    await expect.poll(() => page.getByTestId('sync-indicator').count(), RETRY).toBe(0);
    expect(types(await current())).toEqual(['area']);
    // The banner's text is the screen's: leaving the map offline brings back the app's general one.
    await context.setOffline(true);
    await expect.poll(() => page.getByTestId('offline-banner').textContent(), RETRY).toContain('Карта работает на этом устройстве');
    await page.evaluate(() => {
      location.hash = '#/projects';
    });
    await expect.poll(() => page.getByTestId('offline-banner').textContent(), RETRY).toContain('сохранения разметки отправятся');
    await context.setOffline(false);
    await page.close();
    await context.close();
  });
});
