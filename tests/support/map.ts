import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { RETRY } from './browser';

/**
 * The map editor's end-to-end helpers (tests/e2e/map-*.e2e.test.ts): the project as the API holds
 * it, where the drawing lies on screen (from the map element's `data-view`), and a new project made
 * through the side menu.
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

/**
 * Opens the editor, waits for its map and makes a new project `name` through the side menu (by
 * click, or by tap on a touch screen), the current one when the name shows.
 */
export async function openNewProject(page: Page, serverUrl: string, name: string, { touch = false } = {}) {
  const press = async (locator: Locator) => {
    await locator.scrollIntoViewIfNeeded();
    await (touch ? locator.tap() : locator.click());
  };
  await page.goto(`${serverUrl}/#/ciblock/map`);
  await page.locator('[data-testid=map-canvas][data-map-loaded=true]').waitFor();
  const side = page.getByTestId('map-side');
  await press(side.getByRole('button', { name: 'Создать проект' }));
  await side.getByLabel('Название проекта').fill(name);
  await press(side.getByRole('button', { name: 'Создать', exact: true }));
  await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe(name);
}
