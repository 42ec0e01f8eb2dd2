import { readFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors, watchForeignRequests } from './browser';
import { analystOrganization, startServer, type RunningServer } from './server';

/**
 * The map editor's end-to-end helpers (tests/e2e/map-*.e2e.test.ts): the server with a fresh
 * organisation and the analyst's signed-in page, the project as the API holds it, where the drawing
 * lies on screen (from the map element's `data-view`), a new project made through the side menu, an
 * area drawn by coordinates and the exported files.
 */

/** A box on the page, as Playwright gives it. */
export type Box = NonNullable<Awaited<ReturnType<Locator['boundingBox']>>>;
export interface Point {
  x: number;
  y: number;
}

export interface Feature {
  geometry: { type: string; coordinates: unknown };
  properties: { type: string; type_id?: number; radius?: number; name?: string };
}
export interface Project {
  name: string;
  drawn_feature_collection: { features: Feature[] };
  general_feature_collection: { features: Feature[] };
}

/** The current project as the API holds it for `cookie`. */
export const currentProject = async (serverUrl: string, cookie: string): Promise<Project> =>
  (await fetch(`${serverUrl}/api/v1/projects/last/get`, { headers: { cookie } })).json() as Promise<Project>;

/** The drawn features of one type (area, road, zone, object). */
export const drawnOfType = async (serverUrl: string, cookie: string, type: string) =>
  (await currentProject(serverUrl, cookie)).drawn_feature_collection.features.filter((f) => f.properties.type === type);

export const rect = async (locator: Locator): Promise<Box> => (await locator.boundingBox())!;
export const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));

/** The map's visible extent [west, south, east, north] (the map element's `data-view`). */
export const mapView = async (page: Page): Promise<number[]> =>
  JSON.parse((await page.getByTestId('map-canvas').getAttribute('data-view')) ?? '[]') as number[];

/** Where lng/lat lies on the page, from the map's extent (web Mercator, no rotation). */
export function toScreen([west, south, east, north]: number[], map: Box, [lng, lat]: number[]): Point {
  return {
    x: map.x + ((lng - west) / (east - west)) * map.width,
    y: map.y + ((mercY(north) - mercY(lat)) / (mercY(north) - mercY(south))) * map.height,
  };
}

/** The on-screen box of every coordinate of `features`. */
export function screenBox(extent: number[], map: Box, features: Feature[]): Box {
  const points: number[][] = [];
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') points.push(c as number[]);
    else if (Array.isArray(c)) c.forEach(visit);
  };
  features.forEach((f) => visit(f.geometry.coordinates));
  const xy = points.map((p) => toScreen(extent, map, p));
  const xs = xy.map((p) => p.x);
  const ys = xy.map((p) => p.y);
  return { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
}

/** Scrolls the whole map into the window (a phone's page is taller than the window) and returns where it is. */
export async function mapInView(page: Page): Promise<Box> {
  await page.getByTestId('map-canvas').evaluate((el) => el.scrollIntoView({ block: 'end' }));
  return rect(page.getByTestId('map-canvas'));
}

/** A control pressed as a finger would (scrolled into view first: a phone's page is taller than the window). */
export async function tap(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  await locator.tap();
}

/** Opens the editor and waits until its map has loaded. */
export async function openMap(page: Page, serverUrl: string) {
  await page.goto(`${serverUrl}/#/ciblock/map`);
  await page.locator('[data-testid=map-canvas][data-map-loaded=true]').waitFor();
}

/**
 * Makes a new project `name` through the side menu of the open editor (by click, or by tap on a
 * touch screen), the current one when the name shows.
 */
export async function createProject(page: Page, name: string, { touch = false } = {}) {
  const press = async (locator: Locator) => {
    if (touch) await tap(locator);
    else await locator.click();
  };
  const side = page.getByTestId('map-side');
  await press(side.getByRole('button', { name: 'Создать проект' }));
  await side.getByLabel('Название проекта').fill(name);
  await press(side.getByRole('button', { name: 'Создать', exact: true }));
  await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe(name);
}

/** Opens the editor, waits for its map and makes a new project `name` (see `createProject`). */
export async function openNewProject(page: Page, serverUrl: string, name: string, { touch = false } = {}) {
  await openMap(page, serverUrl);
  await createProject(page, name, { touch });
}

/** About a kilometre square near the editor's start view, as rows of «lng<Tab>lat». */
export const SQUARE_ROWS = '30.30\t59.93\n30.318\t59.93\n30.318\t59.939\n30.30\t59.939';

/** Draws an area by coordinates: «Полигон по координатам», the rows, «Построить»; returns the dialog. */
export async function drawByCoordinates(page: Page, rows = SQUARE_ROWS): Promise<Locator> {
  await page.getByRole('button', { name: 'Полигон по координатам' }).click();
  const dialog = page.getByRole('dialog', { name: 'Полигон по координатам' });
  await dialog.locator('textarea[name=params]').fill(rows);
  await dialog.getByRole('button', { name: 'Построить' }).click();
  return dialog;
}

/** A downloaded file: the name the page gave it and its bytes. */
export interface Downloaded {
  filename: string;
  bytes: Buffer;
}

/** Clicks `link` and reads the file it downloads. */
export async function downloadFrom(page: Page, link: Locator): Promise<Downloaded> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { filename: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

/**
 * «Подготовить DWG|DXF» in the side menu, then the file of this build. Its link is waited for after
 * the build's output_url answer: the previous export's link is gone while it builds, and the
 * «готовится» line a quick build shows may last less than a poll.
 */
export async function exportDrawing(page: Page, format: 'dwg' | 'dxf'): Promise<Downloaded> {
  const side = page.getByTestId('map-side');
  await Promise.all([
    page.waitForResponse((response) => response.url().includes('/api/v1/dwg/output_url')),
    side.getByRole('button', { name: `Подготовить ${format.toUpperCase()}` }).click(),
  ]);
  const link = side.getByRole('link', { name: `Скачать output.${format}` });
  await link.waitFor();
  return downloadFrom(page, link);
}

/** The editor's usual window: a desktop one that takes the exports' downloads. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1400, height: 900 }, acceptDownloads: true };

/**
 * The server and Chromium started side by side, and a fresh organisation: the admin `admin`, the
 * analyst `planner` (its API cookie: `cookie`) and `viewers`, all with `password`. `stop` ends both.
 */
export async function startMapServer(password: string, logins: { admin: string; viewers?: string[] }) {
  const [server, browser]: [RunningServer, Browser] = await Promise.all([startServer(), launchBrowser()]);
  const stop = async () => {
    await browser.close();
    await server.stop();
  };
  try {
    const { analyst: cookie } = await analystOrganization(server.url, password, { ...logins, analyst: 'planner' });
    return { server, browser, cookie, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A page of a new context (`options`) signed in as `planner` through the login screen. `errors`: its
 * console errors (refused calls allowed: the tests provoke some); `foreign`: its requests to anywhere
 * but the server. `onPage` runs before the sign-in, for listeners that must see the page from its start.
 */
export async function plannerPage(
  browser: Browser,
  serverUrl: string,
  password: string,
  { options = DESKTOP, onPage }: { options?: BrowserContextOptions; onPage?: (page: Page) => void } = {},
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = watchErrors(page, { allowHttpErrors: true });
  const foreign = watchForeignRequests(page, serverUrl);
  onPage?.(page);
  await signInThroughPage(page, serverUrl, 'planner', password);
  return { context, page, errors, foreign };
}

/** `startMapServer` and the analyst's `plannerPage` on it: a map editor test's usual start. */
export async function startMapEditor(
  password: string,
  logins: { admin: string; viewers?: string[] },
  page: { options?: BrowserContextOptions; onPage?: (page: Page) => void } = {},
) {
  const started = await startMapServer(password, logins);
  try {
    return { ...started, ...(await plannerPage(started.browser, started.server.url, password, page)) };
  } catch (error) {
    await started.stop();
    throw error;
  }
}
