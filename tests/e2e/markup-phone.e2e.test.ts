import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { layoutProblems, unreachableControls } from '../support/layout';
import { openVideoMarkup, settled } from '../support/markup-keys';
import { apiSessionCookie, postOk, startServer, type RunningServer } from '../support/server';

// The markup screen you can code on from a phone and a tablet (issue 47): a compact app header, the
// toolbar's essentials with the rest under «Ещё», the video and every operation button on the first
// screen without scrolling, every touch target at least 44×44 px, and a tap on an operation records
// a segment. A computer's window keeps the full header and toolbar.

let server: RunningServer;
let browser: Browser;
/** A demo recording with marked segments: the rows' fields count among the touch targets too. */
let markedVideo = 0;
let cookie = '';

beforeAll(async () => {
  // Four sign-ins through the page from one address, besides the other files' (the limit is auth's to test).
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4', NORMA_SIGNIN_PER_MINUTE: '100' }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'analyst');
  for (let id = 1; id <= 60 && !markedVideo; id++) {
    const reply = await fetch(`${server.url}/api/v1/video_markups/${id}`, { headers: { cookie } });
    if (reply.ok && ((await reply.json()) as { video_markups: unknown[] }).video_markups.length > 0) markedVideo = id;
  }
  expect(markedVideo).toBeGreaterThan(0);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens the marked video and waits until its rows, its operation buttons and the fonts are there. */
async function openMarked(page: Page) {
  await openVideoMarkup(page, server.url, markedVideo);
  await page.getByTestId('op-row').first().waitFor();
  await page.getByTestId('op-buttons').waitFor();
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await settled(page);
}

/** Every visible button, link, field and list smaller than 44×44 px, one line each (an empty list: none). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], summary')) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const box = el.getBoundingClientRect();
      // A screen-reader-only control (1 px, clipped) is not for a finger.
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.width >= 44 - 0.5 && box.height >= 44 - 0.5) continue;
      const name = ((el.textContent ?? '').replace(/\s+/g, ' ').trim() || el.getAttribute('aria-label') || '').slice(0, 40);
      small.push(`${el.tagName.toLowerCase()} «${name}» ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return small;
  });
}

/**
 * What of the video and the operation buttons is not whole inside the window as the page is now
 * (or is hidden in the grid's own scroll box), one line each; and whether the page scrolls sideways.
 */
function outOfView(page: Page) {
  return page.evaluate(() => {
    const inside = (r: DOMRect, box: { top: number; left: number; bottom: number; right: number }) =>
      r.top >= box.top - 1 && r.left >= box.left - 1 && r.bottom <= box.bottom + 1 && r.right <= box.right + 1;
    const window_ = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
    const grid = document.querySelector('[data-testid="op-buttons"]')!.getBoundingClientRect();
    const outside: string[] = [];
    const video = document.querySelector('.player video')!;
    if (!inside(video.getBoundingClientRect(), window_)) outside.push(`video ${JSON.stringify(video.getBoundingClientRect())}`);
    for (const button of document.querySelectorAll('[data-testid="op-buttons"] .op-button')) {
      const r = button.getBoundingClientRect();
      if (!inside(r, window_) || !inside(r, grid)) outside.push(`«${button.textContent}» ${JSON.stringify(r)}`);
    }
    return {
      outside,
      buttons: document.querySelectorAll('[data-testid="op-buttons"] .op-button').length,
      sideways: document.documentElement.scrollWidth - innerWidth,
    };
  });
}

const TOUCH_SIZES = [
  { name: 'телефон', width: 360, height: 740, isMobile: true },
  { name: 'планшет лёжа', width: 1024, height: 768, isMobile: false },
  { name: 'планшет стоя', width: 768, height: 1024, isMobile: false },
] as const;

describe('the markup screen on a phone and a tablet', () => {
  for (const size of TOUCH_SIZES) {
    it(`${size.name} ${size.width}×${size.height}: compact header, video and every operation button on the first screen, 44 px targets, a tap records a segment`, async () => {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        isMobile: size.isMobile,
        hasTouch: true,
        locale: 'ru-RU',
      });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await signInThroughPage(page, server.url, 'analyst');
      await openMarked(page);
      const where = `${size.name} ${size.width}×${size.height}`;

      // The app header is one row: the screen's name and «Меню»; the site's links are behind it.
      const menuButton = page.getByTestId('site-menu-button');
      await menuButton.waitFor();
      expect(await page.locator('.site-header').textContent()).toContain('Разметка видео');
      expect(await page.locator('.site-header .site-nav').count()).toBe(0);
      expect((await page.locator('.site-header').boundingBox())!.height).toBeLessThanOrEqual(56);
      // The toolbar: «Сохранить», «Завершить» and «Ещё»; the other actions are not on the screen until asked for.
      const topBar = page.locator('.command-bar.top');
      expect(await topBar.locator(':scope > button').allTextContents()).toEqual(['Сохранить', 'Завершить']);
      expect(await topBar.getByRole('button', { name: 'Заполнить пропуски' }).count()).toBe(0);

      // At the top of the page, without scrolling: the video and every operation button, whole.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const view = await outOfView(page);
      expect(view.buttons).toBeGreaterThanOrEqual(3);
      expect(view.outside, where).toEqual([]);
      expect(view.sideways, where).toBeLessThanOrEqual(0);
      expect(await smallTargets(page), `${where}: меньше 44×44 px`).toEqual([]);
      expect(await layoutProblems(page)).toEqual([]);
      expect(await unreachableControls(page)).toEqual([]);

      // The site menu: its links a finger high; a second tap closes it.
      await menuButton.tap();
      const menu = page.getByTestId('site-menu');
      await menu.getByRole('link', { name: 'Продукты' }).waitFor();
      expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
      expect(await smallTargets(page), `${where}, меню: меньше 44×44 px`).toEqual([]);
      expect(await layoutProblems(page)).toEqual([]);
      await menuButton.tap();
      await expect.poll(() => menu.count(), RETRY).toBe(0);

      // «Ещё»: the rest of the toolbar and the keys' help.
      await topBar.getByTestId('markup-more').tap();
      const more = topBar.getByRole('group', { name: 'Другие действия' });
      expect(await more.getByRole('button').allTextContents()).toEqual([
        'Отмена',
        'Заполнить пропуски',
        'Настроить модель',
        'Отметить стенды',
        'Скачать TSV',
        'Клавиши (?)',
      ]);
      expect(await smallTargets(page), `${where}, «Ещё»: меньше 44×44 px`).toEqual([]);
      expect(await unreachableControls(page)).toEqual([]);
      await more.getByRole('button', { name: 'Клавиши (?)' }).tap();
      await page.getByRole('dialog', { name: 'Клавиши разметки' }).waitFor();
      await expect.poll(() => more.count(), RETRY).toBe(0);
      await page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).tap();
      await expect.poll(() => page.getByRole('dialog').count(), RETRY).toBe(0);

      // A tap on an operation records a segment, another ends it and starts the next; the page stays put.
      await page.getByLabel('Рабочее место новых операций').selectOption({ index: 1 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect.poll(() => page.evaluate(() => window.scrollY), RETRY).toBe(0);
      const rows = () => page.getByTestId('op-row').count();
      const before = await rows();
      const buttons = page.getByTestId('op-buttons').locator('.op-button:not(.stop)');
      await buttons.nth(0).tap();
      await expect.poll(rows, RETRY).toBe(before + 1);
      await page.getByRole('button', { name: 'Вперёд на 1 секунду' }).tap();
      await buttons.nth(1).tap();
      await expect.poll(rows, RETRY).toBe(before + 2);
      expect(await buttons.nth(1).getAttribute('aria-pressed')).toBe('true');
      await page.getByRole('button', { name: 'Стоп', exact: true }).tap();
      await expect.poll(() => buttons.nth(1).getAttribute('aria-pressed'), RETRY).toBe('false');
      await page.getByTestId('unsaved').waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect((await outOfView(page)).outside, `${where}, после касаний`).toEqual([]);
      expect(await smallTargets(page), `${where}, после касаний: меньше 44×44 px`).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('the markup screen on a computer', () => {
  it('1440×900: the full site header and the whole toolbar, the keys as before', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'ru-RU' });
    const page = await context.newPage();
    await signInThroughPage(page, server.url, 'analyst');
    await openMarked(page);
    await page.locator('.site-header .site-nav').getByRole('link', { name: 'Продукты' }).waitFor();
    expect(await page.getByTestId('site-menu-button').count()).toBe(0);
    expect(await page.getByTestId('markup-more').count()).toBe(0);
    expect(await page.locator('.command-bar.top > button').allTextContents()).toEqual([
      'Отмена',
      'Заполнить пропуски',
      'Настроить модель',
      'Отметить стенды',
      'Скачать TSV',
      'Сохранить',
      'Завершить',
    ]);
    // The keys' help is its own button, and «?» still opens it.
    await page.getByRole('button', { name: 'Клавиши (?)' }).waitFor();
    await page.locator('.markup-head h1').click();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Клавиши разметки' }).waitFor();
    await context.close();
  });
});

describe('many operations on a phone', () => {
  // Runs last: it gives the video's area 16 more operations than the demo has.
  it("360×740: the grid ends at the window's edge and scrolls inside itself, the video stays whole in view", async () => {
    const get = async <T>(path: string): Promise<T> => (await fetch(`${server.url}${path}`, { headers: { cookie } })).json() as Promise<T>;
    const available = await get<{ operations: { id: number; type: string }[] }>(`/api/v1/available_operations?video_id=${markedVideo}`);
    const structures = await get<{ id: number }[]>('/api/v2/get_all_structures');
    let area = 0;
    for (const { id } of structures) {
      const own = await get<{ operations: { id: number }[] }>(`/api/v1/operations?structure_id=${id}`);
      if (own.operations.some((o) => o.id === available.operations[0]!.id)) area = id;
    }
    expect(area).toBeGreaterThan(0);
    await postOk(
      server.url,
      '/api/v1/operations',
      {
        structure_id: area,
        changed_operations: Array.from({ length: 16 }, (_, i) => ({ name: `Дополнительная операция ${i + 1}`, type: available.operations[0]!.type })),
      },
      cookie,
    );

    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: 'ru-RU' });
    const page = await context.newPage();
    await signInThroughPage(page, server.url, 'analyst');
    await openMarked(page);
    const buttons = page.getByTestId('op-buttons').locator('.op-button:not(.stop)');
    await expect.poll(() => buttons.count(), RETRY).toBe(available.operations.length + 16);
    const grid = page.getByTestId('op-buttons');
    const state = () =>
      grid.evaluate((box) => {
        const video = document.querySelector('.player video')!.getBoundingClientRect();
        const own = box.getBoundingClientRect();
        return {
          videoInView: video.top >= -1 && video.bottom <= innerHeight + 1,
          gridBottom: Math.round(own.bottom),
          scrollsInside: box.scrollHeight > box.clientHeight + 1,
          lastInView: (() => {
            const last = [...box.querySelectorAll('.op-button')].at(-1)!.getBoundingClientRect();
            return last.top >= own.top - 1 && last.bottom <= own.bottom + 1 && last.bottom <= innerHeight + 1;
          })(),
          innerHeight,
        };
      });
    const first = await state();
    expect(first.videoInView).toBe(true);
    expect(first.scrollsInside).toBe(true);
    expect(first.gridBottom).toBeLessThanOrEqual(first.innerHeight);
    expect(first.lastInView).toBe(false);
    // Scrolled inside the grid to its last row: «Стоп» in view, the video still whole, the page not moved.
    await grid.evaluate((box) => box.scrollTo(0, box.scrollHeight));
    await expect.poll(async () => (await state()).lastInView, RETRY).toBe(true);
    expect((await state()).videoInView).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await smallTargets(page)).toEqual([]);
    expect(await layoutProblems(page)).toEqual([]);

    await page.getByLabel('Рабочее место новых операций').selectOption({ index: 1 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const rows = () => page.getByTestId('op-row').count();
    const before = await rows();
    await buttons.last().tap();
    await expect.poll(rows, RETRY).toBe(before + 1);
    await context.close();
  });
});
