import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY } from '../support/browser';
import { currentProject, drawByCoordinates, exportDrawing, openNewProject, startMapEditor } from '../support/map';
import type { RunningServer } from '../support/server';
import { dwgHolds } from '../../workers/test-support/dwg-bytes';
// The two string forms, as the writer's unit tests pin them down (workers/src/map/dwg/write.test.ts).
import { encodeCp1251, encodeDwgText } from '../../workers/src/map/dwg/cp1251';

/**
 * The DWG's text encoding in the map editor's export (issue 46): «Текст DWG» offers the Unicode codes
 * (default) and Windows-1251; the choice goes with «Подготовить DWG» and the downloaded file has the
 * name in that form (docs/map.md «DWG»).
 */
let server: RunningServer;
let page: Page;
let errors: string[];
let cookie: string;
let stop: (() => Promise<void>) | undefined;
const password = 'map-dwg-text-secret';
const NAME = 'Парк «Ёлочки»';

const side = () => page.getByTestId('map-side');

beforeAll(async () => {
  ({ server, page, errors, cookie, stop } = await startMapEditor(password, { admin: 'dwgadmin' }));
});
afterAll(async () => {
  await stop?.();
});

describe('DWG text encoding in the map export (issue 46)', () => {
  it('sends the chosen encoding with the DWG build; the file holds the name as Windows-1251 bytes or as \\U+ codes', async () => {
    await openNewProject(page, server.url, 'Кодировка');
    await drawByCoordinates(page);
    const popup = page.getByTestId('map-popup');
    await popup.getByLabel('Название').fill(NAME);
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect
      .poll(async () => (await currentProject(server.url, cookie)).drawn_feature_collection.features.map((f) => f.properties.name), RETRY)
      .toEqual([NAME]);

    const choice = side().getByLabel('Текст DWG');
    expect(await choice.inputValue()).toBe('unicode');
    expect(await choice.locator('option').allTextContents()).toEqual(['Юникод (LibreCAD)', 'Windows-1251 (GDAL)']);
    const builds: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/dwg/build')) builds.push(request.postDataJSON());
    });
    const exportDwg = async () => (await exportDrawing(page, 'dwg')).bytes;

    await choice.selectOption('cp1251');
    const gdal = await exportDwg();
    expect(builds).toEqual([{ format: 'dwg', text_encoding: 'cp1251' }]);
    expect(dwgHolds(gdal, encodeCp1251(NAME))).toBe(true);
    expect(dwgHolds(gdal, encodeDwgText(NAME))).toBe(false);

    await choice.selectOption('unicode');
    const plain = await exportDwg();
    expect(builds).toEqual([
      { format: 'dwg', text_encoding: 'cp1251' },
      { format: 'dwg', text_encoding: 'unicode' },
    ]);
    expect(dwgHolds(plain, encodeDwgText(NAME))).toBe(true);
    expect(dwgHolds(plain, encodeCp1251(NAME))).toBe(false);

    // DXF picks its own encoding: the choice is not sent with it.
    await side().getByRole('button', { name: 'Подготовить DXF' }).click();
    await side().getByRole('link', { name: 'Скачать output.dxf' }).waitFor();
    expect(builds[2]).toEqual({ format: 'dxf' });
    expect(errors).toEqual([]);
  });
});
