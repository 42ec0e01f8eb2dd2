import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughPage, launchBrowser, watchErrors, RETRY } from '../support/browser';
import { everyRoute } from '../support/routes';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;
let analyst: BrowserContext;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  analyst = await browser.newContext();
  const page = await analyst.newPage();
  await signInThroughPage(page, server.url, 'analyst');
  await page.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the demo analyst’s workspace', () => {
  it('shows the name, the demo badge and the project tree of the demo organisation', async () => {
    const page = await analyst.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/projects`);
    await expect.poll(() => page.getByTestId('user-name').textContent(), RETRY).toBe('Олег Петров');
    await page.getByText('демо-данные').waitFor();
    const tree = page.getByRole('tree');
    await tree.getByRole('button', { name: 'Северный машиностроительный завод' }).waitFor();
    // «Выход» is in the page's own button row, once (issue 28).
    await expect.poll(() => page.getByRole('button', { name: 'Выход' }).count(), RETRY).toBe(1);
    // No NORMA_LINK_TRACKER on this server: no link to a tracker that does not exist (issue 28).
    expect(await page.getByRole('link', { name: 'Трекер задач' }).count()).toBe(0);
    // Expand down to a leaf and open it.
    await tree
      .getByRole('treeitem', { name: /Северный/ })
      .getByRole('button', { name: 'Развернуть' })
      .first()
      .click();
    await tree
      .getByRole('treeitem', { name: /Механосборочный цех/ })
      .getByRole('button', { name: 'Развернуть' })
      .first()
      .click();
    await tree.getByRole('button', { name: 'Участок сборки редукторов' }).click();
    await page.waitForURL(/#\/projects\/\d+$/);
    await expect.poll(() => page.getByTestId('structure-title').textContent(), RETRY).toBe('Участок сборки редукторов');
    // A deep link opens the tree down to the chosen structure.
    const id = page.url().split('/').pop();
    await page.goto(`${server.url}/#/`);
    await page.goto(`${server.url}/#/projects/${id}`);
    await page.getByRole('treeitem', { name: /Участок сборки редукторов/ }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('every route of both specs', () => {
  it('renders a titled screen without a console error, signed in', async () => {
    const page = await analyst.newPage();
    const errors = watchErrors(page);
    for (const route of everyRoute) {
      await page.goto(`${server.url}/#${route}`);
      const heading = page.locator('main h1').first();
      await heading.waitFor({ timeout: RETRY.timeout }).catch((e) => {
        throw new Error(`${route}: ${e.message}\n${errors.join('\n')}`);
      });
      const title = (await heading.textContent()) ?? '';
      expect(title, route).not.toBe('Страница не найдена');
      expect(title.length, route).toBeGreaterThan(2);
      // Russian product text: no English exclamations (toasts included), no developer notes (issue 28).
      const shown = await page.locator('body').innerText();
      expect(shown, route).not.toMatch(/[A-Za-z]{4,}!|METHODOLOGY|docs\//);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('/model/{id} of a model that does not exist says so (the demo has no models; a trained one is in vision.e2e)', async () => {
    const page = await analyst.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.goto(`${server.url}/#/model/999999`);
    await expect.poll(() => page.locator('main h1').first().textContent(), RETRY).toBe('Модель № 999999');
    await expect.poll(() => page.getByRole('alert').first().textContent(), RETRY).toBe('Этой модели нет в списке!');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sends a signed-out visitor from workspace routes to the login screen, and shows public ones', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/markup/4`);
    await page.waitForURL(/#\/login$/);
    for (const route of ['/', '/calculator', '/products', '/demo/abc123']) {
      await page.goto(`${server.url}/#${route}`);
      await page.locator('main h1').first().waitFor();
      expect(page.url()).toContain(`#${route}`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows an unknown route as "not found"', async () => {
    const page = await analyst.newPage();
    await page.goto(`${server.url}/#/no-such-screen`);
    await expect.poll(() => page.locator('main h1').textContent(), RETRY).toBe('Страница не найдена');
    await page.close();
  });
});

describe('installable PWA', () => {
  it('serves a manifest with icons and keeps the app shell working offline', async () => {
    const manifest = await (await fetch(`${server.url}/manifest.webmanifest`)).json();
    expect(manifest.lang).toBe('ru');
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect((await fetch(`${server.url}${icon.src}`)).headers.get('content-type')).toBe('image/png');

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/#/`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Wait until the worker controls the page, so the next load can come from its cache.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    await page.reload();
    await page.locator('main h1').first().waitFor();
    expect(await page.locator('main h1').first().textContent()).toContain('Норма рабочего времени');
    // The self-hosted font is part of the shell.
    const fontLoaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return document.fonts.check('16px Montserrat');
    });
    expect(fontLoaded).toBe(true);
    await context.close();
  });
});
