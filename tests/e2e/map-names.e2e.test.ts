import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY } from '../support/browser';
import { currentProject, drawByCoordinates, exportDrawing, openNewProject, startMapEditor } from '../support/map';
import type { RunningServer } from '../support/server';

/**
 * Names on features (issue 46) in Chromium: the analyst names a drawn area in its property form,
 * the name is saved (spaces tidied), the map shows it as a label — placed by maplibre, in the page's
 * own font, with nothing fetched from another origin — and the exported DXF carries it as a label
 * in the text style LibreCAD draws Cyrillic with.
 */
let server: RunningServer;
let page: Page;
let errors: string[];
let cookie: string;
let stop: (() => Promise<void>) | undefined;
const password = 'map-names-secret';
/** Requests the page made to anywhere but the server. */
let foreign: string[] = [];
const NAME = 'Парк «Ёлочки» № 1';

/** The names maplibre placed on the map (the map element's `data-names`). */
const namesShown = async (): Promise<string[]> => JSON.parse((await page.getByTestId('map-canvas').getAttribute('data-names')) ?? '[]');

beforeAll(async () => {
  ({ server, page, errors, cookie, foreign, stop } = await startMapEditor(password, { admin: 'namer' }));
});
afterAll(async () => {
  await stop?.();
});

describe('names in the map editor (issue 46)', () => {
  it('names an area in its property form: saved, shown on the map in the page font, exported as the CAD label', async () => {
    await openNewProject(page, server.url, 'Названия');
    await drawByCoordinates(page);
    const popup = page.getByTestId('map-popup');
    await popup.getByRole('heading', { name: 'Территория' }).waitFor();
    const field = popup.getByLabel('Название');
    expect(await field.getAttribute('maxlength')).toBe('200');
    // Spaces (a no-break one too) are tidied before the save.
    await field.fill(`  Парк  «Ёлочки»\u00a0№ 1 `);
    await popup.getByRole('button', { name: 'Сохранить' }).click();
    await expect
      .poll(async () => (await currentProject(server.url, cookie)).drawn_feature_collection.features.map((f) => f.properties.name), RETRY)
      .toEqual([NAME]);

    // On the map: a label maplibre placed, drawn from the page's Montserrat, with no request elsewhere.
    await expect.poll(namesShown, RETRY).toEqual([NAME]);
    expect(await page.evaluate(`document.fonts.check('13px Montserrat', ${JSON.stringify(NAME)})`)).toBe(true);
    expect(foreign).toEqual([]);

    // Exported: the DXF has the name as a label in the style LibreCAD draws Cyrillic with.
    const text = new TextDecoder('windows-1251').decode((await exportDrawing(page, 'dxf')).bytes);
    expect(text).toContain('ANSI_1251');
    expect(text).toMatch(new RegExp(`\\n1\\r?\\n${NAME}\\r?\\n50\\r?\\n0\\r?\\n7\\r?\\nlc_opengost-ar\\r?\\n`));
    expect(errors).toEqual([]);
  });
});
