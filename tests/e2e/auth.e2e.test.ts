import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchErrors, RETRY } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('register → login → projects → logout, in Chromium', () => {
  it('walks the whole account flow with the spec’s messages', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.goto(`${server.url}/#/registration`);

    // Validation texts of spec 01 §5, shown on the page.
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), RETRY).toBe('Заполните все поля');
    await page.getByLabel('Логин').fill('Марина');
    await page.getByLabel('Имя').fill('Марина');
    await page.getByLabel('Фамилия').fill('Кузнецова');
    await page.getByLabel('Пароль', { exact: true }).fill('очень-секретно');
    await page.getByLabel('Повторите пароль').fill('другое');
    await page.getByLabel('Повторите пароль').press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent(), RETRY).toBe('Пароли не совпадают');

    // Enter in the repeat field registers; the user lands on /projects with the name shown.
    await page.getByLabel('Повторите пароль').fill('очень-секретно');
    await page.getByLabel('Повторите пароль').press('Enter');
    await page.waitForURL(/#\/projects$/);
    await expect.poll(() => page.getByTestId('user-name').textContent(), RETRY).toBe('Марина Кузнецова');
    await page.getByRole('heading', { name: 'Проекты' }).waitFor();

    // Logout shows the server's reply and returns to the start page.
    await page.getByRole('button', { name: 'Выход' }).first().click();
    await page.getByText('Вы вышли из системы').waitFor();
    await page.waitForURL(`${server.url}/#/`);
    await page.getByRole('link', { name: 'Вход' }).waitFor();

    // A wrong password is shown, not swallowed.
    await page.goto(`${server.url}/#/login`);
    await page.getByLabel('Логин').fill('марина');
    await page.getByLabel('Пароль').fill('неверный-пароль');
    await page.getByLabel('Пароль').press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent(), RETRY).toBe('Неверный логин или пароль');

    // Login with Enter goes to /projects.
    await page.getByLabel('Пароль').fill('очень-секретно');
    await page.getByLabel('Пароль').press('Enter');
    await page.waitForURL(/#\/projects$/);
    await expect.poll(() => page.getByTestId('user-name').textContent(), RETRY).toBe('Марина Кузнецова');
    // The new organisation has no structures yet and says so.
    await page.getByText('Структурных единиц пока нет.').waitFor();

    // A workspace route without a session sends the visitor to the login screen.
    const fresh = await browser.newContext();
    const anonymous = await fresh.newPage();
    await anonymous.goto(`${server.url}/#/projects`);
    await anonymous.waitForURL(/#\/login$/);
    await fresh.close();

    expect(errors).toEqual([]);
    await page.close();
  });
});
