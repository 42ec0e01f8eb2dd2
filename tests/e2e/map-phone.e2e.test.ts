import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY } from '../support/browser';
import {
  currentProject,
  drawnOfType,
  mapInView as scrollMapIntoView,
  mapView,
  openNewProject,
  rect,
  startMapEditor,
  tap,
  toScreen,
  type Box,
  type Point,
} from '../support/map';
import type { RunningServer } from '../support/server';

/**
 * Drawing on a phone (issue 46): at 360×740 with a touch screen the toolbar is one row of 44 px
 * targets (the rest under «Ещё») and the map most of the window; a planner draws a territory and a
 * road with taps alone — the toolbar, the map and the property popup by touch — and the API holds
 * both where they were tapped. A zone takes the second tap's distance as its radius; one under 50 m
 * is refused in Russian. Then «Удалить объект» on a zone drawn inside the territory: the tap lists
 * both, chooses the smaller and outlines it, and deletes only what «Удалить» is pressed for.
 */
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let errors: string[];
let cookie: string;
let stop: (() => Promise<void>) | undefined;
const password = 'map-phone-secret';

const current = () => currentProject(server.url, cookie);
const drawn = (type: string) => drawnOfType(server.url, cookie, type);
const view = () => mapView(page);
const mapInView = () => scrollMapIntoView(page);

/** Each vertex of `ring` lies within `px` of one of the tapped points. */
async function nearTapped(coordinates: number[][], tapped: Point[], map: Box, px: number) {
  const extent = await view();
  for (const c of coordinates) {
    const p = toScreen(extent, map, c);
    expect(Math.min(...tapped.map((t) => Math.hypot(t.x - p.x, t.y - p.y)))).toBeLessThan(px);
  }
}

beforeAll(async () => {
  ({ server, context, page, errors, cookie, stop } = await startMapEditor(
    password,
    { admin: 'phoneadmin' },
    { options: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: 'ru-RU' } },
  ));
});
afterAll(async () => {
  await stop?.();
});

describe('drawing on a phone, 360×740 with touch (issue 46)', () => {
  it('taps draw a territory and a road; both are saved where they were tapped (the property popup fits the map)', async () => {
    await openNewProject(page, server.url, 'Телефон', { touch: true });

    // One row of 44 px targets (it wrapped over seven rows before), and the map most of the window at the page's top.
    await page.evaluate(() => window.scrollTo(0, 0));
    const toolbar = page.getByTestId('map-toolbar');
    const bar = await rect(toolbar);
    const buttons = toolbar.getByRole('button');
    expect(await buttons.count()).toBe(7);
    for (const b of await buttons.all()) {
      const box = await rect(b);
      expect(box.width, (await b.getAttribute('aria-label')) ?? '').toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
      // All on one line, inside the window: no scrolling sideways for a tool.
      expect(box.y).toBeLessThan(bar.y + 4);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
    expect(bar.height).toBeLessThanOrEqual(60);
    const viewport = { width: 360, height: 740 };
    const mapBox = await rect(page.getByTestId('map-canvas'));
    const visible = (Math.min(mapBox.y + mapBox.height, viewport.height) - Math.max(mapBox.y, 0)) * mapBox.width;
    expect(visible / (viewport.width * viewport.height)).toBeGreaterThan(0.6);
    expect(mapBox.y + mapBox.height).toBeLessThanOrEqual(viewport.height);
    // «Ещё»: the rest of the tools, each a 44 px target; a second tap closes it.
    const more = toolbar.getByRole('button', { name: 'Ещё' });
    await tap(more);
    const list = page.locator('.map-more-list');
    for (const name of ['Удалить объект', 'Повторить', 'Полигон по координатам', 'Удалить всё', 'Сетка', 'Типы дорог', 'Меню проекта'])
      expect((await rect(list.getByRole('button', { name, exact: true }))).height, name).toBeGreaterThanOrEqual(44);
    expect(await list.getByRole('group', { name: 'Построить дороги' }).isVisible()).toBe(true);
    await tap(more);
    await list.waitFor({ state: 'detached' });

    // A territory: four taps and a fifth on the first vertex closes it.
    await tap(page.getByRole('button', { name: 'Территория', exact: true }));
    let map = await mapInView();
    const corners = [
      { x: map.x + map.width * 0.2, y: map.y + map.height * 0.2 },
      { x: map.x + map.width * 0.8, y: map.y + map.height * 0.2 },
      { x: map.x + map.width * 0.8, y: map.y + map.height * 0.55 },
      { x: map.x + map.width * 0.2, y: map.y + map.height * 0.55 },
    ];
    for (const p of [...corners, corners[0]]) await page.touchscreen.tap(p.x, p.y);
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Территория' }).waitFor();
    await popup.getByLabel('Тип').selectOption({ label: 'Жилая застройка' });
    await tap(popup.getByRole('button', { name: 'Сохранить' }));
    await expect.poll(async () => (await drawn('area')).length, RETRY).toBe(1);
    const area = (await drawn('area'))[0];
    expect(area.properties.type_id).toBe(10);
    const ring = (area.geometry.coordinates as number[][][])[0];
    expect(ring).toHaveLength(5);
    map = await mapInView();
    await nearTapped(ring, corners, map, 3);

    // A road: two taps, and a tap on its last point ends it.
    await tap(page.getByRole('button', { name: 'Дорога', exact: true }));
    map = await mapInView();
    const ends = [
      { x: map.x + map.width * 0.1, y: map.y + map.height * 0.75 },
      { x: map.x + map.width * 0.9, y: map.y + map.height * 0.7 },
    ];
    for (const p of [...ends, ends[1]]) await page.touchscreen.tap(p.x, p.y);
    await popup.getByRole('heading', { name: 'Дорога' }).waitFor();
    await tap(popup.getByRole('button', { name: 'Сохранить' }));
    await expect.poll(async () => (await drawn('road')).length, RETRY).toBe(1);
    const road = (await drawn('road'))[0];
    expect(road.geometry.type).toBe('LineString');
    expect(road.geometry.coordinates).toHaveLength(2);
    map = await mapInView();
    await nearTapped(road.geometry.coordinates as number[][], ends, map, 3);
    expect((await drawn('area')).length).toBe(1);
    expect(errors).toEqual([]);
  });

  it('«Удалить объект» on a zone inside a territory: both listed, the smaller chosen and outlined; only «Удалить» deletes, the one chosen', async () => {
    // A zone inside the territory: a tap for its centre, one for its edge.
    await tap(page.getByRole('button', { name: 'Зона', exact: true }));
    let map = await mapInView();
    const at = (m: Box) => ({ x: m.x + m.width * 0.5, y: m.y + m.height * 0.4 });
    await page.touchscreen.tap(at(map).x, at(map).y);
    await page.touchscreen.tap(at(map).x + 30, at(map).y);
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Зона обслуживания' }).waitFor();
    await popup.getByLabel('Название').fill('Школа № 1');
    await tap(popup.getByRole('button', { name: 'Сохранить' }));
    await expect.poll(async () => (await drawn('zone')).length, RETRY).toBe(1);
    // Its radius is the second tap's distance (a tap moves no pointer: it used to close a 1 cm circle), hundreds of metres at this zoom.
    const extent = await view();
    const drawnZone = (await drawn('zone'))[0];
    for (const c of (drawnZone.geometry.coordinates as number[][][])[0]) {
      const p = toScreen(extent, map, c);
      expect(Math.abs(Math.hypot(p.x - at(map).x, p.y - at(map).y) - 30)).toBeLessThan(3);
    }
    expect(drawnZone.properties.radius).toBeGreaterThanOrEqual(50);

    // A second tap right beside the first (a slip of the finger): no zone under 50 m, said in Russian, no popup, nothing saved.
    map = await mapInView();
    const slip = { x: map.x + map.width * 0.3, y: map.y + map.height * 0.8 };
    await page.touchscreen.tap(slip.x, slip.y);
    await page.touchscreen.tap(slip.x + 1, slip.y);
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Зона не нарисована' }).textContent(), RETRY)
      .toMatch(/^Зона не нарисована: радиус \d+ м, а зона обслуживания — не меньше 50 м/);
    expect(await popup.count()).toBe(0);
    expect(await drawn('zone')).toHaveLength(1);
    await tap(page.getByRole('alert').filter({ hasText: 'Зона не нарисована' }).getByRole('button', { name: 'Закрыть' }));

    // «Удалить объект» is under «Ещё» on a phone; «Ещё» shows the tool is on.
    await tap(page.getByRole('button', { name: 'Ещё' }));
    await tap(page.locator('.map-more-list').getByRole('button', { name: 'Удалить объект' }));
    await page.locator('.map-more-list').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Ещё' }).getAttribute('class')).toContain(' on');
    const picker = page.getByTestId('map-remove');
    await picker.getByText('Нажмите на объект').waitFor();
    map = await mapInView();
    await page.touchscreen.tap(at(map).x, at(map).y);
    const choices = picker.getByRole('radio');
    await expect.poll(() => choices.count(), RETRY).toBe(2);
    expect(await picker.locator('legend').textContent()).toMatch(/^Под точкой 2 объекта — выбран меньший/);
    const [zone, area] = (await picker.locator('label').allTextContents()).map((t) => t.trim());
    expect(zone).toBe('Зона «Школа № 1» — Школа');
    expect(area).toMatch(/^Территория — Жилая застройка, [\d,]+ (га|м²)$/);
    expect(await choices.nth(0).isChecked()).toBe(true);
    // The chosen shape is outlined on the map (what maplibre drew: the map element's `data-remove-pick`).
    const outlined = () => page.getByTestId('map-canvas').getAttribute('data-remove-pick');
    await expect.poll(outlined, RETRY).toBe(zone);
    // The tap deleted nothing.
    expect((await current()).drawn_feature_collection.features.map((f) => f.properties.type).sort()).toEqual(['area', 'road', 'zone']);

    // The territory instead: outlined, and «Удалить» deletes it, not the zone over it.
    await tap(picker.getByText(area));
    await expect.poll(outlined, RETRY).toBe(area);
    expect(await choices.nth(1).isChecked()).toBe(true);
    await tap(picker.getByRole('button', { name: 'Удалить', exact: true }));
    await expect.poll(async () => (await current()).drawn_feature_collection.features.map((f) => f.properties.type).sort(), RETRY).toEqual(['road', 'zone']);
    await picker.getByText('Нажмите на объект').waitFor();
    await expect.poll(outlined, RETRY).toBe('');

    // The zone alone under the point now; «Отмена» keeps it.
    map = await mapInView();
    await page.touchscreen.tap(at(map).x, at(map).y);
    await expect.poll(() => picker.locator('label').allTextContents(), RETRY).toEqual([zone]);
    await expect.poll(outlined, RETRY).toBe(zone);
    await tap(picker.getByRole('button', { name: 'Отмена' }));
    await expect.poll(outlined, RETRY).toBe('');
    expect((await current()).drawn_feature_collection.features.map((f) => f.properties.type).sort()).toEqual(['road', 'zone']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
