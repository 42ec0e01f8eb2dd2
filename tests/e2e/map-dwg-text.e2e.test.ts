import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { analystOrganization, startServer, type RunningServer } from '../support/server';
import { dwgHolds } from '../../workers/test-support/dwg-bytes';
// The two string forms, as the writer's unit tests pin them down (workers/src/map/dwg/write.test.ts).
import { encodeCp1251, encodeDwgText } from '../../workers/src/map/dwg/cp1251';

/**
 * The DWG's text encoding in the map editor's export (issue 46): «Текст DWG» offers the Unicode codes
 * (default) and Windows-1251; the choice goes with «Подготовить DWG» and the downloaded file has the
 * name in that form (docs/map.md «DWG»).
 */
let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
let cookie: string;
const password = 'map-dwg-text-secret';
const NAME = 'Парк «Ёлочки»';

interface Project {
  drawn_feature_collection: { features: Array<{ properties: { name?: string } }> };
}
const current = async (): Promise<Project> => (await fetch(`${server.url}/api/v1/projects/last/get`, { headers: { cookie } })).json();
const side = () => page.getByTestId('map-side');

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ analyst: cookie } = await analystOrganization(server.url, password, { admin: 'dwgadmin', analyst: 'planner' }));
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  errors = watchErrors(page, { allowHttpErrors: true });
  await signInThroughPage(page, server.url, 'planner', password);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('DWG text encoding in the map export (issue 46)', () => {
  it('sends the chosen encoding with the DWG build; the file holds the name as Windows-1251 bytes or as \\U+ codes', async () => {
    await page.goto(`${server.url}/#/ciblock/map`);
    await page.locator('[data-testid=map-canvas][data-map-loaded=true]').waitFor();
    await side().getByRole('button', { name: 'Создать проект' }).click();
    await side().getByLabel('Название проекта').fill('Кодировка');
    await side().getByRole('button', { name: 'Создать', exact: true }).click();
    await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe('Кодировка');
    await page.getByRole('button', { name: 'Полигон по координатам' }).click();
    const dialog = page.getByRole('dialog', { name: 'Полигон по координатам' });
    await dialog.locator('textarea[name=params]').fill('30.30\t59.93\n30.318\t59.93\n30.318\t59.939\n30.30\t59.939');
    await dialog.getByRole('button', { name: 'Построить' }).click();
    const popup = page.getByTestId('map-popup');
    await popup.getByLabel('Название').fill(NAME);
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect.poll(async () => (await current()).drawn_feature_collection.features.map((f) => f.properties.name), RETRY).toEqual([NAME]);

    const choice = side().getByLabel('Текст DWG');
    expect(await choice.inputValue()).toBe('unicode');
    expect(await choice.locator('option').allTextContents()).toEqual(['Юникод (LibreCAD)', 'Windows-1251 (GDAL)']);
    const builds: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/dwg/build')) builds.push(request.postDataJSON());
    });
    const exportDwg = async () => {
      // The link of this build comes after its output_url answer (the previous link is gone while it builds).
      await Promise.all([
        page.waitForResponse((response) => response.url().includes('/api/v1/dwg/output_url')),
        side().getByRole('button', { name: 'Подготовить DWG' }).click(),
      ]);
      const link = side().getByRole('link', { name: 'Скачать output.dwg' });
      await link.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      return new Uint8Array(readFileSync((await download.path())!));
    };

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
