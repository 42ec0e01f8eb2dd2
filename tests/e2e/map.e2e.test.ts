import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY, signInThroughPage, watchErrors } from '../support/browser';
import {
  createProject,
  currentProject,
  downloadFrom,
  drawByCoordinates,
  exportDrawing,
  openMap,
  SQUARE_ROWS,
  startMapEditor,
  type Feature,
  type Project,
} from '../support/map';
import type { RunningServer } from '../support/server';
import { cyrillicMontserratLoaded, PLACES_MISSING } from '../support/geonames';
import { WATER_MISSING } from '../support/gshhg';

/**
 * The map editor /ciblock/map in Chromium (spec 02 "Map editor", issue 15): an analyst of a fresh
 * organisation opens the offline basemap, creates a project, draws an area by coordinates, builds
 * a street grid, undoes and redoes it, exports DXF, switches the drawing to СК-42; a viewer of the same organisation sees it
 * read-only.
 */
let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
let cookie: string;
let stop: (() => Promise<void>) | undefined;
const password = 'map-editor-secret';
/** Basemap archive answers seen by the page: status and whether a Range was asked. */
const basemapAnswers: Array<{ status: number; range: boolean }> = [];
/** Requests the page made to anywhere but the server (the map must need none: no glyphs, no tiles). */
let foreign: string[] = [];

const current = () => currentProject(server.url, cookie);
const countOf = (features: Feature[], type: string) => features.filter((f) => f.properties.type === type).length;
const shown = async (type: string) => Number(await page.getByTestId(`map-count-${type}`).textContent());
const side = () => page.getByTestId('map-side');

beforeAll(async () => {
  const onPage = (analystPage: Page) =>
    analystPage.on('response', (response) => {
      if (response.url().includes('/api/v1/map/basemap.pmtiles'))
        basemapAnswers.push({ status: response.status(), range: !!response.request().headers().range });
    });
  ({ server, browser, page, errors, foreign, cookie, stop } = await startMapEditor(password, { admin: 'gorplan', viewers: ['watcher'] }, { onPage }));
});
afterAll(async () => {
  await stop?.();
});

describe('map editor in Chromium', () => {
  it('renders the offline basemap from the PMTiles archive, read with HTTP Range', async () => {
    await openMap(page, server.url);
    await page.getByRole('heading', { name: 'Редактор карты' }).waitFor();
    await page.locator('canvas.maplibregl-canvas').waitFor();
    await expect.poll(() => basemapAnswers.some((a) => a.status === 206 && a.range), RETRY).toBe(true);
    // Nothing from another origin: the style has no glyphs or sprites.
    expect(basemapAnswers.every((a) => a.status === 206 || a.status === 200 || a.status === 304)).toBe(true);
    await expect.poll(() => page.getByTestId('map-info').textContent(), RETRY).toMatch(/Проектов нет/);
  });

  it.skipIf(WATER_MISSING)('the start view is not one colour: the Neva and the bay in water beside the land (GSHHG), not all land', async () => {
    // The colours the built-in style paints water (the background: the sea) and land with.
    const style = (await (await fetch(`${server.url}/api/v1/map/style.json`)).json()) as { layers: { id: string; paint?: Record<string, string> }[] };
    const paint = (id: string, property: string) => style.layers.find((layer) => layer.id === id)!.paint![property]!;
    const colours = { water: paint('sea', 'background-color'), land: paint('land', 'fill-color') };
    // Shares of the start view's pixels in each colour, from a picture of the map as shown (tiles arrive one by one: polled).
    const shares = async () => {
      const png = (await page.locator('canvas.maplibregl-canvas').screenshot()).toString('base64');
      return page.evaluate(
        async ({ png, colours }) => {
          const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], { type: 'image/png' }));
          const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
          context.drawImage(bitmap, 0, 0);
          const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
          const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
          const near = (target: number[], i: number) => target.every((value, channel) => Math.abs(pixels[i + channel]! - value) <= 6);
          const [water, land] = [rgb(colours.water), rgb(colours.land)];
          let inWater = 0;
          let onLand = 0;
          for (let i = 0; i < pixels.length; i += 4) {
            if (near(water, i)) inWater++;
            else if (near(land, i)) onLand++;
          }
          const all = pixels.length / 4;
          return { water: inWater / all, land: onLand / all };
        },
        { png, colours },
      );
    };
    await expect.poll(async () => (await shares()).water, RETRY).toBeGreaterThan(0.05);
    expect((await shares()).land).toBeGreaterThan(0.2);
  });

  it.skipIf(PLACES_MISSING)(
    'the start view names the city in Russian: the places layer shows «Санкт-Петербург», drawn from the page font, nothing fetched elsewhere',
    async () => {
      // The canvas's accessible name lists the town labels maplibre placed on screen (rendered features of `places`).
      await expect.poll(() => page.locator('canvas.maplibregl-canvas').getAttribute('aria-label'), RETRY).toMatch(/^Карта: .*Санкт-Петербург/);
      const label = (await page.locator('canvas.maplibregl-canvas').getAttribute('aria-label'))!;
      expect(label).not.toMatch(/[A-Za-z]/);
      // The letters come from the app's own Montserrat (its Cyrillic file is loaded), not from a glyph server.
      expect(await cyrillicMontserratLoaded(page)).toBe(true);
      // The names' source and licence are credited on the map.
      await expect.poll(() => page.locator('.maplibregl-ctrl-attrib-inner').textContent(), RETRY).toMatch(/GeoNames \(CC BY 4\.0\)/);
      expect(foreign).toEqual([]);
    },
  );

  it('creates a project; with one project delete is disabled', async () => {
    await createProject(page, 'Северный квартал');
    await expect.poll(() => side().getByRole('button', { name: 'Удалить проект' }).isDisabled(), RETRY).toBe(true);
    expect((await current()).name).toBe('Северный квартал');
  });

  it('a feature not saved in its popup is not kept', async () => {
    await page.getByRole('button', { name: 'Объект', exact: true }).click();
    const box = (await page.getByTestId('map-canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Объект' }).waitFor();
    expect(await popup.evaluate((el) => (el.querySelector('.maplibregl-popup-content') as HTMLElement).getBoundingClientRect().width)).toBe(240);
    await popup.getByRole('button', { name: 'Закрыть' }).click();
    await expect.poll(() => popup.count(), RETRY).toBe(0);
    expect((await current()).drawn_feature_collection.features).toHaveLength(0);
    expect(await shown('object')).toBe(0);
    await page.getByRole('button', { name: 'Изменить', exact: true }).click();
  });

  it('draws an area by coordinates (a refused row shows its message) and keeps it once saved in the popup', async () => {
    const dialog = await drawByCoordinates(page, '30.30\t59.93\n30.318\t59.93');
    await expect.poll(() => dialog.getByRole('alert').textContent(), RETRY).toMatch(/Нужно не меньше трёх точек/);
    await page.locator('.toast', { hasText: 'Нужно не меньше трёх точек' }).first().waitFor();

    // About a kilometre square near the initial view.
    await dialog.locator('textarea[name=params]').fill(SQUARE_ROWS);
    await dialog.getByRole('button', { name: 'Построить' }).click();
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Территория' }).waitFor();
    await popup.getByLabel('Тип').selectOption({ label: 'Жилая застройка' });
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect
      .poll(async () => (await current()).drawn_feature_collection.features.map((f) => f.properties), RETRY)
      .toEqual([expect.objectContaining({ type: 'area', type_id: 10 })]);
    await expect.poll(() => shown('area'), RETRY).toBe(1);
    expect(await popup.count()).toBe(0);
  });

  it('generates a grid, shows busy meanwhile, then roads, blocks and the info label', async () => {
    await page.locator('summary', { hasText: 'Построить дороги' }).click();
    await page.getByRole('group', { name: 'Построить дороги' }).getByRole('button', { name: 'Сетка' }).click();
    await page.getByTestId('map-busy').waitFor();
    await expect.poll(() => page.getByTestId('map-busy').count(), RETRY).toBe(0);
    const project = await current();
    const roads = countOf(project.general_feature_collection.features, 'road');
    const blocks = countOf(project.general_feature_collection.features, 'block');
    expect(roads).toBeGreaterThan(10);
    expect(blocks).toBeGreaterThan(5);
    await expect.poll(() => shown('road'), RETRY).toBe(roads);
    expect(await shown('block')).toBe(blocks);
    const label = page.getByTestId('map-label').first();
    await expect.poll(() => label.textContent(), RETRY).toMatch(/^Сетка улиц: \d+ кв\./);
    await label.hover();
    await expect.poll(() => page.getByTestId('map-full-text').textContent(), RETRY).toMatch(/Кварталов/);
  });

  it('undo removes the built network (server and screen), redo brings it back; no move past the end', async () => {
    const built = await current();
    const roads = countOf(built.general_feature_collection.features, 'road');
    const undo = page.getByRole('button', { name: 'Отменить' });
    const redo = page.getByRole('button', { name: 'Повторить' });
    expect(await redo.isDisabled()).toBe(true);
    await undo.click();
    await expect.poll(async () => (await current()).general_feature_collection.features.length, RETRY).toBe(0);
    await expect.poll(() => shown('road'), RETRY).toBe(0);
    expect(await shown('block')).toBe(0);
    expect(await shown('area')).toBe(1);
    expect((await current()).drawn_feature_collection.features).toHaveLength(1);
    await expect.poll(() => page.getByTestId('map-label').count(), RETRY).toBe(0);

    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(async () => countOf((await current()).general_feature_collection.features, 'road'), RETRY).toBe(roads);
    await expect.poll(() => shown('road'), RETRY).toBe(roads);
    await expect.poll(() => redo.isDisabled(), RETRY).toBe(true);
    // At the end a redo changes nothing.
    await page.keyboard.press('Control+Shift+Z');
    expect(countOf((await current()).general_feature_collection.features, 'road')).toBe(roads);

    // Back to the empty project and no further: undo is disabled at the start.
    await page.keyboard.press('Control+Z');
    await expect.poll(() => shown('road'), RETRY).toBe(0);
    await expect.poll(() => undo.isDisabled(), RETRY).toBe(false);
    await undo.click();
    await expect.poll(() => shown('area'), RETRY).toBe(0);
    await expect.poll(() => undo.isDisabled(), RETRY).toBe(true);
    expect((await current()).drawn_feature_collection.features).toHaveLength(0);
    await redo.click();
    await expect.poll(() => shown('area'), RETRY).toBe(1);
    await redo.click();
    await expect.poll(() => shown('road'), RETRY).toBe(roads);
  });

  it('exports DWG and DXF, each with a spinner and then a download link named for its file', async () => {
    const dwg = await exportDrawing(page, 'dwg');
    expect(dwg.filename).toBe('output.dwg');
    const dwgBytes = dwg.bytes;
    expect(dwgBytes.subarray(0, 6).toString('latin1')).toBe('AC1015');
    expect(dwgBytes.length).toBeGreaterThan(10_000);

    await side().getByRole('button', { name: 'Подготовить DXF' }).click();
    await side().getByRole('status').filter({ hasText: 'готовится' }).waitFor();
    const link = side().getByRole('link', { name: 'Скачать output.dxf' });
    await link.waitFor();
    const dxf = await downloadFrom(page, link);
    expect(dxf.filename).toBe('output.dxf');
    // AutoCAD 2000 DXF in Windows-1251 ($DWGCODEPAGE ANSI_1251).
    const text = new TextDecoder('windows-1251').decode(dxf.bytes);
    expect(text).toMatch(/^\s*0\r?\nSECTION/);
    expect(text.length).toBeGreaterThan(10_000);
    expect(text).toContain('Дороги_');
    expect(text).toContain('ANSI_1251');

    // The project's coordinate reference: shown on the map, written beside the drawing as a .prj.
    await expect.poll(() => page.getByTestId('map-crs').textContent(), RETRY).toMatch(/^Координаты чертежа: Местная поперечная Меркатора, центр/);
    const prjLink = side().getByTestId('map-download-prj');
    await expect.poll(() => prjLink.textContent(), RETRY).toBe('Скачать output.prj (система координат)');
    const prj = await downloadFrom(page, prjLink);
    expect(prj.filename).toBe('output.prj');
    expect(prj.bytes.toString('utf8')).toMatch(/^PROJCS\["Norma local transverse Mercator"/);
  });

  it('the analyst switches the drawing to СК-42: the shown reference and the exported .prj follow it', async () => {
    // The info box is one line until opened (issue 46).
    await page.getByTestId('map-info').getByRole('button', { name: 'Подробнее' }).click();
    const pick = page.getByTestId('map-info').getByLabel('Система координат');
    expect(await pick.inputValue()).toBe('local');
    await page.getByTestId('map-info').getByText('В ней выгружаются чертежи DWG и DXF и файл .prj.').waitFor();
    await pick.selectOption('sk42');
    const shownCrs = page.getByTestId('map-crs');
    await expect.poll(() => shownCrs.textContent(), RETRY).toMatch(/^Координаты чертежа: СК-42, зона Гаусса–Крюгера \d+$/);
    const zone = /(\d+)$/.exec((await shownCrs.textContent())!)![1];
    expect(((await current()) as Project & { crs: { kind: string; zone: number } }).crs).toMatchObject({ kind: 'sk42', zone: Number(zone) });

    // This build's link comes after its output_url answer (the previous export's link is gone while it builds);
    // waited on by that answer, not by the «готовится» line, which a quick build may show for less than a poll.
    await Promise.all([
      page.waitForResponse((response) => response.url().includes('/api/v1/dwg/output_url')),
      side().getByRole('button', { name: 'Подготовить DXF' }).click(),
    ]);
    const prjLink = side().getByTestId('map-download-prj');
    await prjLink.waitFor();
    expect((await downloadFrom(page, prjLink)).bytes.toString('utf8')).toMatch(new RegExp(`^PROJCS\\["Pulkovo 1942 / Gauss-Kruger zone ${zone}"`));
    expect(errors).toEqual([]);
  });

  it('saves the current network as the golden standard', async () => {
    await side().getByRole('button', { name: 'Сохранить как эталон' }).click();
    await page.locator('.toast', { hasText: 'Текущая сеть сохранена как эталон' }).waitFor();
    const golden = ((await current()) as Project & { golden: { features: Feature[] } | null }).golden;
    expect(countOf(golden?.features ?? [], 'road')).toBeGreaterThan(10);
  });

  it('a second project: a failed algorithm shows its reason; it can be deleted, then delete is disabled again', async () => {
    await createProject(page, 'Второй');
    // An algorithm that cannot run on an empty project: the failed job's reason is shown.
    await page.locator('summary', { hasText: 'Построить дороги' }).click();
    await page.getByRole('group', { name: 'Построить дороги' }).getByRole('button', { name: 'Зоны' }).click();
    await page
      .locator('.toast', { hasText: /^Алгоритм не выполнен: .+/ })
      .first()
      .waitFor();
    await expect.poll(() => page.getByTestId('map-busy').count(), RETRY).toBe(0);
    const remove = side().getByRole('button', { name: 'Удалить проект' });
    await expect.poll(() => remove.isDisabled(), RETRY).toBe(false);
    await remove.click();
    await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe('Северный квартал');
    await expect.poll(() => remove.isDisabled(), RETRY).toBe(true);
    expect(await side().getByRole('combobox', { name: 'Проект' }).locator('option').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('the zone tool draws a circle zone with its radius; removal mode opens no popup, offers it and removes it on «Удалить»', async () => {
    const box = (await page.getByTestId('map-canvas').boundingBox())!;
    const center = { x: box.x + box.width - 60, y: box.y + 60 };
    await page.getByRole('button', { name: 'Зона', exact: true }).click();
    await page.mouse.click(center.x, center.y);
    await page.mouse.move(center.x + 15, center.y, { steps: 3 });
    await page.mouse.move(center.x + 30, center.y, { steps: 3 });
    await page.mouse.click(center.x + 30, center.y);
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Зона обслуживания' }).waitFor();
    await popup.getByLabel('Тип').selectOption({ label: 'Детский сад' });
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect.poll(() => shown('zone'), RETRY).toBe(1);
    const zone = (await current()).drawn_feature_collection.features.find((f) => f.properties.type === 'zone') as unknown as {
      properties: { type_id: number; radius: number; capacity: number };
    };
    expect(zone.properties).toMatchObject({ type_id: 21, capacity: expect.any(Number) });
    expect(zone.properties.radius).toBeGreaterThan(0);

    // A kept feature's popup shows its saved properties; closing it keeps the feature.
    await page.getByRole('button', { name: 'Изменить', exact: true }).click();
    await page.mouse.click(center.x, center.y);
    await popup.getByRole('heading', { name: 'Зона обслуживания' }).waitFor();
    expect(await popup.getByLabel('Тип').locator('option:checked').textContent()).toBe('Детский сад');
    await popup.getByRole('button', { name: 'Закрыть' }).click();
    await expect.poll(() => popup.count(), RETRY).toBe(0);
    expect(countOf((await current()).drawn_feature_collection.features, 'zone')).toBe(1);
    expect(await shown('zone')).toBe(1);

    // «Удалить объект»: the click offers the zone (it is the only shape there), «Удалить» deletes it.
    await page.getByRole('button', { name: 'Удалить объект' }).click();
    await page.mouse.click(center.x, center.y);
    const picker = page.getByTestId('map-remove');
    await picker.getByRole('radio', { name: 'Зона — Детский сад', checked: true }).waitFor();
    expect(await picker.getByRole('radio').count()).toBe(1);
    expect(countOf((await current()).drawn_feature_collection.features, 'zone')).toBe(1);
    await picker.getByRole('button', { name: 'Удалить', exact: true }).click();
    await expect.poll(() => shown('zone'), RETRY).toBe(0);
    expect(await popup.count()).toBe(0);
    expect(countOf((await current()).drawn_feature_collection.features, 'zone')).toBe(0);
    expect(countOf((await current()).drawn_feature_collection.features, 'area')).toBe(1);
    await page.getByRole('button', { name: 'Изменить', exact: true }).click();
    expect(errors).toEqual([]);
  });

  it('a viewer sees the map read-only: no drawing tools, algorithms, undo or project changes', async () => {
    const viewer = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const view = await viewer.newPage();
    const viewErrors = watchErrors(view);
    await signInThroughPage(view, server.url, 'watcher', password);
    await openMap(view, server.url);
    await expect.poll(() => view.getByTestId('map-project-name').textContent(), RETRY).toBe('Северный квартал');
    await view.getByText('Только просмотр').waitFor();
    const toolbar = view.getByRole('toolbar', { name: 'Инструменты карты' });
    for (const name of ['Территория', 'Дорога', 'Зона', 'Объект', 'Полигон по координатам', 'Удалить всё', 'Отменить', 'Повторить'])
      expect(await toolbar.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    expect(await toolbar.getByText('Построить дороги').count()).toBe(0);
    expect(await toolbar.getByText('Оптимизировать').count()).toBe(0);
    const viewSide = view.getByTestId('map-side');
    expect(await viewSide.getByRole('button', { name: 'Создать проект' }).count()).toBe(0);
    expect(await viewSide.getByRole('button', { name: 'Удалить проект' }).count()).toBe(0);
    expect(await viewSide.getByRole('button', { name: 'Сохранить как эталон' }).count()).toBe(0);
    // Exports start jobs (dwg/build: workspace.write), so a viewer is not offered them.
    expect(await viewSide.getByRole('button', { name: 'Подготовить DXF' }).count()).toBe(0);
    expect(await viewSide.getByRole('button', { name: 'Подготовить DWG' }).count()).toBe(0);
    // The coordinate reference is shown (as the analyst picked it), but only the analyst may change it.
    await expect.poll(() => view.getByTestId('map-crs').textContent(), RETRY).toMatch(/^Координаты чертежа: СК-42/);
    expect(await view.getByLabel('Система координат').count()).toBe(0);
    expect(await view.getByTestId('map-count-road').textContent()).not.toBe('0');
    expect(viewErrors).toEqual([]);
    await viewer.close();
  });

  it('draws the cadastral parcel 78:31:0001001:2, whose corners come from arithmetic (30.315 + 0.01), rounded to 7 decimals', async () => {
    await page.getByRole('button', { name: 'Полигон по кадастровому номеру' }).click();
    const dialog = page.getByRole('dialog', { name: 'Полигон по кадастровому номеру' });
    await dialog.locator('textarea[name=params]').fill('78:31:0001001:2');
    await dialog.getByRole('button', { name: 'Найти' }).click();
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Территория' }).waitFor();
    expect(await page.locator('.toast', { hasText: 'не удалось нарисовать' }).count()).toBe(0);
    await popup.getByLabel('Тип').selectOption({ label: 'Жилая застройка' });
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect.poll(() => shown('area'), RETRY).toBe(2);
    const rings = (await current()).drawn_feature_collection.features.map(
      (f) => (f as unknown as { geometry: { coordinates: number[][][] } }).geometry.coordinates[0],
    );
    expect(rings).toContainEqual(expect.arrayContaining([[30.325, 59.935]]));
    expect(errors).toEqual([]);
  });

  it('«Удалить всё» asks first: «Нет» keeps the drawing, «Да, удалить всё» clears it', async () => {
    const toolbar = page.getByRole('toolbar', { name: 'Инструменты карты' });
    const before = (await current()).drawn_feature_collection.features.length;
    expect(before).toBeGreaterThan(0);
    await toolbar.getByRole('button', { name: 'Удалить всё' }).click();
    await toolbar.getByText('Удалить все объекты проекта?').waitFor();
    await toolbar.getByRole('button', { name: 'Нет', exact: true }).click();
    await toolbar.getByRole('button', { name: 'Удалить всё' }).waitFor();
    expect((await current()).drawn_feature_collection.features.length).toBe(before);
    expect(await shown('area')).toBe(2);
    await toolbar.getByRole('button', { name: 'Удалить всё' }).click();
    await toolbar.getByRole('button', { name: 'Да, удалить всё' }).click();
    await expect.poll(async () => (await current()).drawn_feature_collection.features.length, RETRY).toBe(0);
    await expect.poll(() => shown('area'), RETRY).toBe(0);
    expect(errors).toEqual([]);
  });
});
