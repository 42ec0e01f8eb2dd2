import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signInThroughPage, watchErrors, RETRY } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

/**
 * An organisation that can be itself (issue 41): on an installation with the demo, a newly
 * registered organisation sees no demo badge and no «Заявки с сайта», renames itself and moves to
 * Yekaterinburg after a preview of what changes; the demo's admin still sees the badge.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the organisation’s own name and time zone', () => {
  it('a new organisation renames itself and sets Екатеринбург after the preview; no demo badge, no site requests', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/registration`);
    await page.getByLabel('Логин').fill('konsultant');
    await page.getByLabel('Имя', { exact: true }).fill('Кира');
    await page.getByLabel('Фамилия').fill('Консультантова');
    await page.getByLabel('Пароль', { exact: true }).fill('very-secret-1');
    await page.getByLabel('Повторите пароль').fill('very-secret-1');
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.waitForURL(/#\/projects$/);
    await expect.poll(() => page.getByTestId('organization-name').textContent(), RETRY).toBe('Организация konsultant');
    expect(await page.getByTestId('demo-badge').count()).toBe(0);

    await page.goto(`${server.url}/#/admin`);
    await page.getByRole('tab', { name: 'Организация' }).waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Структура и камеры', 'Пользователи', 'Организация']);
    await page.getByRole('tab', { name: 'Организация' }).click();
    const panel = page.getByTestId('organization-panel');
    await expect.poll(() => panel.getByLabel('Название').inputValue(), RETRY).toBe('Организация konsultant');
    await panel.getByLabel('Название').fill('ООО «Консультант»');
    await panel.getByLabel('Часовой пояс').selectOption('Asia/Yekaterinburg');
    const preview = page.getByTestId('time-zone-preview');
    await preview.waitFor();
    const text = (await preview.textContent()) ?? '';
    expect(text).toContain('по поясу Москва (Europe/Moscow)');
    expect(text).toContain('по поясу Екатеринбург (Asia/Yekaterinburg) (+2 ч)');
    expect(text).toContain('будет читаться по новому поясу');
    expect(text).toContain('Сутки в отчётах будут начинаться в полночь по новому поясу');
    expect(text).toContain('Уже загруженные записи (0) сохранят своё начало');

    await panel.getByRole('button', { name: 'Сохранить' }).click();
    await expect.poll(() => page.getByTestId('organization-name').textContent(), RETRY).toBe('ООО «Консультант»');
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const me = await (await fetch(`${server.url}/api/v1/whoami`, { headers: { cookie } })).json();
    expect(me.organization).toMatchObject({ name: 'ООО «Консультант»', time_zone: 'Asia/Yekaterinburg', is_demo: false });
    expect(me.permissions).not.toContain('site.requests');
    // The preview is gone with the change saved; the screen's subtitle names the organisation anew.
    await expect.poll(() => preview.count(), RETRY).toBe(0);
    await page.getByText('ООО «Консультант» · к проектам').waitFor();
    expect(await page.getByTestId('demo-badge').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the demo’s admin still sees the badge and the site’s requests, and the demo keeps its zone', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'admin');
    await page.getByTestId('demo-badge').waitFor();
    await page.goto(`${server.url}/#/admin`);
    await page.getByRole('tab', { name: 'Заявки с сайта' }).click();
    await page.getByTestId('feedback-panel').waitFor();
    await page.getByRole('tab', { name: 'Организация' }).click();
    const panel = page.getByTestId('organization-panel');
    await expect.poll(() => panel.getByLabel('Часовой пояс').isDisabled(), RETRY).toBe(true);
    await panel.getByText('Часовой пояс демонстрационной организации не меняется').waitFor();
    // The organisation's long name fits the header on a computer and is left out on a phone, where the
    // header is one row with the screen's name and the user sits under «Меню».
    await page.getByTestId('organization-name').waitFor();
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => page.locator('.site-header .compact-title').textContent(), RETRY).toBe('Администрирование');
    const header = await page.locator('.site-header').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(60);
    await page.getByTestId('site-menu-button').click();
    await page.getByTestId('site-menu').waitFor();
    expect(await page.getByTestId('organization-name').isVisible()).toBe(false);
    const userRow = await page.locator('.site-menu .site-user').boundingBox();
    expect(userRow!.x + userRow!.width).toBeLessThanOrEqual(360);
    expect(errors).toEqual([]);
    await context.close();
  });
});
