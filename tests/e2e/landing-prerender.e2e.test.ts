/**
 * The landing page prerendered into index.html (docs/site.md «Быстрая главная»; pwa/vite.config.ts,
 * norma:prerender-landing): the HTML a visitor gets already holds the page, Chromium hydrates those
 * very nodes with no mismatch, a signed-in user still gets their header on '/', and a deep link never
 * shows the landing page before the app draws its own screen.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, watchErrors } from '../support/browser';
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

const MISSION = 'Норма рабочего времени — по видео, а не на глаз';
const LANDING_TITLE = 'Анализ рабочего времени по видео — Norma';

/**
 * Before any script of the app runs: keeps the landing heading the HTML arrived with, and whether
 * #root was displayed when the parser put it into the page.
 */
async function recordFirstDom(page: Page) {
  await page.addInitScript(() => {
    const record = window as unknown as { rootDisplay?: string; prerenderedHeading?: Element | null };
    new MutationObserver((_changes, observer) => {
      const root = document.getElementById('root');
      if (!root) return;
      observer.disconnect();
      record.rootDisplay = getComputedStyle(root).display;
    }).observe(document, { childList: true, subtree: true });
    document.addEventListener('readystatechange', () => {
      // 'interactive' comes before the module scripts run (they run just ahead of DOMContentLoaded).
      if (document.readyState === 'interactive' && record.prerenderedHeading === undefined) record.prerenderedHeading = document.getElementById('mission');
    });
  });
}

/** True once React has taken over the node (it keeps its fiber on the element). */
const hydratedHeading = (page: Page) =>
  page.evaluate(() => {
    const heading = document.getElementById('mission');
    const record = window as unknown as { prerenderedHeading?: Element | null };
    return {
      same: heading !== null && heading === record.prerenderedHeading,
      owned: heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber')),
    };
  });

describe('landing page prerendered at build time, in Chromium', () => {
  it('sends the page as HTML with its title and description', async () => {
    const response = await fetch(`${server.url}/`);
    const html = await response.text();
    expect(html).toContain('data-prerendered');
    expect(html).toContain(`<h1 id="mission">${MISSION}</h1>`);
    expect(html).toContain(`<title>${LANDING_TITLE}</title>`);
    expect(html).toMatch(/<meta name="description" content="Norma измеряет, как расходуется рабочее время/);
    // The contact form is there before any script, with its spec prompts.
    expect(html).toContain('data-testid="contact-form"');
    // Nothing of a signed-in user is in the shared HTML.
    expect(html).not.toContain('data-testid="user-name"');
  });

  it('hydrates the very nodes it was sent, with no console error, and works as the app', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await recordFirstDom(page);
    await page.goto(`${server.url}/`);
    expect(await page.evaluate(() => (window as unknown as { rootDisplay?: string }).rootDisplay)).toBe('block');
    await expect.poll(() => hydratedHeading(page), RETRY).toEqual({ same: true, owned: true });
    expect(await page.title()).toBe(LANDING_TITLE);
    // Client routing from the hydrated page: another page, then back to the landing page.
    await page.getByRole('link', { name: 'Наши продукты' }).click();
    await page.getByRole('heading', { name: 'Продукты', level: 1 }).waitFor();
    await expect.poll(() => page.title(), RETRY).toBe('Продукты — Norma');
    await page.getByRole('link', { name: 'Norma — на главную' }).click();
    await page.getByRole('heading', { name: MISSION }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a signed-in user their name on the landing page, after hydration', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/registration`);
    await page.getByLabel('Логин').fill('prerender');
    await page.getByLabel('Имя').fill('Ирина');
    await page.getByLabel('Фамилия').fill('Соколова');
    await page.getByLabel('Пароль', { exact: true }).fill('очень-секретно');
    await page.getByLabel('Повторите пароль').fill('очень-секретно');
    await page.getByLabel('Повторите пароль').press('Enter');
    await page.waitForURL(/#\/projects$/);

    // A new load of the document (from /#/projects a hash change alone would stay in the app).
    await recordFirstDom(page);
    await page.goto('about:blank');
    await page.goto(`${server.url}/#/`);
    await expect.poll(() => page.getByTestId('user-name').textContent(), RETRY).toBe('Ирина Соколова');
    await expect.poll(() => hydratedHeading(page), RETRY).toEqual({ same: true, owned: true });
    expect(await page.getByRole('link', { name: 'Вход' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('never shows the landing page on a deep link: the app draws its own screen and index.html’s title', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await recordFirstDom(page);
    await page.goto(`${server.url}/#/login`);
    // Hidden from the moment #root is parsed, before the app's script has run.
    expect(await page.evaluate(() => (window as unknown as { rootDisplay?: string }).rootDisplay)).toBe('none');
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    expect(await page.getByRole('heading', { name: MISSION }).count()).toBe(0);
    expect(await page.title()).toBe('Norma');
    expect(await page.evaluate(() => document.querySelector('meta[name="description"]')?.getAttribute('content'))).toBe(
      'Norma: фотография рабочего дня, хронометраж и нормирование труда по видео.',
    );
    // Then to the landing page inside the app: rendered by the client, as any other screen.
    await page.getByRole('link', { name: 'Norma — на главную' }).click();
    await page.getByRole('heading', { name: MISSION }).waitFor();
    await expect.poll(() => page.title(), RETRY).toBe(LANDING_TITLE);
    expect(errors).toEqual([]);
    await page.close();
  });
});
