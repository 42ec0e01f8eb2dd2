import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors, watchForeignRequests } from '../support/browser';
import { analystOrganization, startServer, type RunningServer } from '../support/server';

/**
 * Names on features (issue 46) in Chromium: the analyst names a drawn area in its property form,
 * the name is saved (spaces tidied), the map shows it as a label — placed by maplibre, in the page's
 * own font, with nothing fetched from another origin — and the exported DXF carries it as a label
 * in the text style LibreCAD draws Cyrillic with.
 */
let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
let cookie: string;
const password = 'map-names-secret';
/** Requests the page made to anywhere but the server. */
let foreign: string[] = [];
const NAME = 'Парк «Ёлочки» № 1';

interface Project {
  drawn_feature_collection: { features: Array<{ properties: { type: string; name?: string } }> };
}
const current = async (): Promise<Project> => (await fetch(`${server.url}/api/v1/projects/last/get`, { headers: { cookie } })).json();
const side = () => page.getByTestId('map-side');
/** The names maplibre placed on the map (the map element's `data-names`). */
const namesShown = async (): Promise<string[]> => JSON.parse((await page.getByTestId('map-canvas').getAttribute('data-names')) ?? '[]');

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  ({ analyst: cookie } = await analystOrganization(server.url, password, { admin: 'namer', analyst: 'planner' }));
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  errors = watchErrors(page, { allowHttpErrors: true });
  foreign = watchForeignRequests(page, server.url);
  await signInThroughPage(page, server.url, 'planner', password);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('names in the map editor (issue 46)', () => {
  it('names an area in its property form: saved, shown on the map in the page font, exported as the CAD label', async () => {
    await page.goto(`${server.url}/#/ciblock/map`);
    await page.locator('[data-testid=map-canvas][data-map-loaded=true]').waitFor();
    await side().getByRole('button', { name: 'Создать проект' }).click();
    await side().getByLabel('Название проекта').fill('Названия');
    await side().getByRole('button', { name: 'Создать', exact: true }).click();
    await expect.poll(() => page.getByTestId('map-project-name').textContent(), RETRY).toBe('Названия');

    await page.getByRole('button', { name: 'Полигон по координатам' }).click();
    const dialog = page.getByRole('dialog', { name: 'Полигон по координатам' });
    await dialog.locator('textarea[name=params]').fill('30.30\t59.93\n30.318\t59.93\n30.318\t59.939\n30.30\t59.939');
    await dialog.getByRole('button', { name: 'Построить' }).click();
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Территория' }).waitFor();
    const field = popup.getByLabel('Название');
    expect(await field.getAttribute('maxlength')).toBe('200');
    // Spaces (a no-break one too) are tidied before the save.
    await field.fill(`  Парк  «Ёлочки»\u00a0№ 1 `);
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect.poll(async () => (await current()).drawn_feature_collection.features.map((f) => f.properties.name), RETRY).toEqual([NAME]);

    // On the map: a label maplibre placed, drawn from the page's Montserrat, with no request elsewhere.
    await expect.poll(namesShown, RETRY).toEqual([NAME]);
    expect(await page.evaluate(`document.fonts.check('13px Montserrat', ${JSON.stringify(NAME)})`)).toBe(true);
    expect(foreign).toEqual([]);

    // Exported: the DXF has the name as a label in the style LibreCAD draws Cyrillic with.
    await side().getByRole('button', { name: 'Подготовить DXF' }).click();
    const link = side().getByRole('link', { name: 'Скачать output.dxf' });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const text = new TextDecoder('windows-1251').decode(readFileSync((await download.path())!));
    expect(text).toContain('ANSI_1251');
    expect(text).toMatch(new RegExp(`\\n1\\r?\\n${NAME}\\r?\\n50\\r?\\n0\\r?\\n7\\r?\\nlc_opengost-ar\\r?\\n`));
    expect(errors).toEqual([]);
  });
});
