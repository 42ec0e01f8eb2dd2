import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY, signInThroughPage } from '../support/browser';
import { startDemo, type Demo, type DemoMarkups as Markups } from '../support/demo';
import { codeThreeSegments, openVideoMarkup } from '../support/markup-keys';
import type { RunningServer } from '../support/server';

/**
 * The field promise (issue 12): a signed-in assessor opens the app with no network, codes a video
 * saved for offline use, and the saves arrive exactly once when the network returns.
 */
let demo: Demo;
let server: RunningServer;
let browser: Browser;
let get: Demo['get'];
let packingId: number;

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser, get, packingId } = demo);
});
afterAll(async () => demo?.stop());

describe('field work without a network', () => {
  let context: BrowserContext;

  it('opens signed-in screens offline from a cold start, queues saves and sends them once', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Granting only these refuses Background Sync: here the page's own rounds send the outbox (as in
    // browsers without it); the worker's sync is the next test. It also keeps the worker, which
    // Playwright attaches to a little late when the browser wakes it, from sending while "offline".
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const video = await demo.unmarkedVideo();
    const online = await context.newPage();
    await signInThroughPage(online, server.url, 'assessor');
    // clientsClaim: the very first session is controlled, so its reads are cached.
    await online.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: RETRY.timeout });
    await online.goto(`${server.url}/#/markup/${packingId}`);
    await online.getByTestId('task-row').first().waitFor();
    await openVideoMarkup(online, server.url, video.id);
    await online.getByRole('button', { name: 'Сохранить для работы без сети' }).click();
    await online.getByRole('button', { name: 'Убрать с устройства' }).waitFor();
    await online.close();

    // Cold start offline: a new tab at the start URL, as a home-screen launch would open.
    await context.setOffline(true);
    const page = await context.newPage();
    await page.goto(`${server.url}/#/projects`);
    await page.locator('#tree-title').waitFor();
    expect(page.url()).toMatch(/#\/projects$/);
    await page.goto(`${server.url}/#/markup/${packingId}`);
    await page.getByTestId('task-row').filter({ hasText: video.filename }).waitFor();
    await openVideoMarkup(page, server.url, video.id);
    await codeThreeSegments(page);
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    await page.keyboard.press('Control+s');
    await page.getByText('Нет связи с сервером: изменения сохранены на этом устройстве').waitFor();
    await expect.poll(() => page.getByTestId('sync-indicator').textContent(), RETRY).toBe('Не отправлено: 1');
    await page.close();

    // Reopened offline: the edits are still there and still queued; polls stay quiet.
    const again = await context.newPage();
    let otherCameraReads = 0;
    again.on('request', (request) => {
      if (request.url().includes('/api/v1/other_videos')) otherCameraReads += 1;
    });
    await openVideoMarkup(again, server.url, video.id);
    await expect.poll(() => again.getByTestId('op-row').count(), RETRY).toBe(3);
    await expect.poll(() => again.getByTestId('sync-indicator').textContent(), RETRY).toBe('Не отправлено: 1');
    await again.evaluate(() => {
      const player = document.querySelector('video') as HTMLVideoElement;
      player.muted = true;
      return player.play().catch(() => undefined);
    });
    // The player re-reads the other cameras each 5 s of playback: three reads made offline while
    // it plays (the fourth begun, so the third's failure has been handled) must show nothing.
    await expect.poll(() => otherCameraReads, RETRY).toBeGreaterThanOrEqual(4);
    expect(await again.getByTestId('offline-banner').count()).toBe(1);
    expect(await again.locator('.toast-error').count()).toBe(0);
    expect((await get<Markups>(`/api/v1/video_markups/${video.id}`)).video_markups).toEqual([]);

    // Back online on the projects page: the queued save is sent from there, once.
    await again.goto(`${server.url}/#/projects`);
    await again.locator('#tree-title').waitFor();
    await context.setOffline(false);
    await expect.poll(() => again.getByTestId('sync-indicator').count(), RETRY).toBe(0);
    await expect.poll(() => again.getByTestId('offline-banner').count(), RETRY).toBe(0);
    const saved = await get<Markups>(`/api/v1/video_markups/${video.id}`);
    expect(saved.video_markups.map((m) => [m.start_time, m.end_time])).toEqual([
      [0, 5],
      [5, 10],
      [10, 15],
    ]);

    // The markup screen opens on the sent version: nothing unsaved, nothing sent a second time.
    await openVideoMarkup(again, server.url, video.id);
    await expect.poll(() => again.getByTestId('op-row').count(), RETRY).toBe(3);
    expect(await again.getByTestId('unsaved').count()).toBe(0);
    expect(await again.locator('.conflict, .banner-error').count()).toBe(0);
    expect((await get<Markups>(`/api/v1/video_markups/${video.id}`)).video_markups).toHaveLength(3);
    await again.close();
  });

  it('sends the queued save from the service worker (Background Sync) with no tab of the app open', async () => {
    const worker = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const video = await demo.unmarkedVideo();
    const page = await worker.newPage();
    await signInThroughPage(page, server.url, 'assessor');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: RETRY.timeout });
    await openVideoMarkup(page, server.url, video.id);
    await worker.setOffline(true);
    await codeThreeSegments(page);
    await page.keyboard.press('Control+s');
    await page.getByText('Нет связи с сервером: изменения сохранены на этом устройстве').waitFor();
    await page.close();

    // Only a blank tab remains; the browser's sync event is dispatched through DevTools, as the
    // browser would when its network comes back (an emulated network change does not trigger it).
    const blank = await worker.newPage();
    const cdp = await worker.newCDPSession(blank);
    const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => resolve(event.registrations as { registrationId: string; scopeURL: string }[])),
    );
    await cdp.send('ServiceWorker.enable');
    const registration = (await registrations).find((r) => r.scopeURL.startsWith(server.url))!;
    await worker.setOffline(false);
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: server.url,
      registrationId: registration.registrationId,
      tag: 'norma-outbox',
      lastChance: false,
    });
    await expect.poll(async () => (await get<Markups>(`/api/v1/video_markups/${video.id}`)).video_markups.length, RETRY).toBe(3);

    // The app opened afterwards has nothing left to send and nothing unsaved.
    const reopened = await worker.newPage();
    await openVideoMarkup(reopened, server.url, video.id);
    await expect.poll(() => reopened.getByTestId('op-row').count(), RETRY).toBe(3);
    expect(await reopened.getByTestId('sync-indicator').count()).toBe(0);
    expect(await reopened.getByTestId('unsaved').count()).toBe(0);
    expect((await get<Markups>(`/api/v1/video_markups/${video.id}`)).video_markups).toHaveLength(3);
    await worker.close();
  });

  it('codes 20 segments by touch alone on a portrait tablet, with finger-sized targets', async () => {
    const touch = await browser.newContext({ hasTouch: true, viewport: { width: 800, height: 1280 } });
    const video = await demo.unmarkedVideo();
    const page = await touch.newPage();
    await signInThroughPage(page, server.url, 'assessor');
    await openVideoMarkup(page, server.url, video.id);
    await page.getByLabel('Рабочее место новых операций').selectOption({ index: 1 });
    const operationButtons = page.getByTestId('op-buttons').locator('.op-button:not(.stop)');
    const kinds = await operationButtons.count();
    expect(kinds).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < 20; i++) {
      await operationButtons.nth(i % kinds).tap();
      await page.getByRole('button', { name: 'Вперёд на 1 секунду' }).tap();
    }
    await page.getByRole('button', { name: 'Стоп' }).tap();
    await page.getByRole('button', { name: 'Сохранить', exact: true }).first().tap();
    await page.getByText('Успешно сохранено!').waitFor();
    const saved = (await get<Markups>(`/api/v1/video_markups/${video.id}`)).video_markups;
    expect(saved.map((m) => m.start_time)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(saved.slice(0, 19).map((m) => m.end_time)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    expect(saved[19]!.end_time).toBeGreaterThan(19);

    // «+» puts the new row at the playhead.
    await page.getByRole('button', { name: 'Назад на 5 секунд' }).tap();
    await page.getByRole('button', { name: 'Добавить операцию' }).tap();
    await expect
      .poll(
        () => page.locator('.op-row.selected [aria-label="Начало"] input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value).join(':')),
        RETRY,
      )
      .toMatch(/:15$/);

    // Every control used for coding is at least 44 px both ways.
    const targets = page.locator('.op-buttons button, .player-controls button, .markup-tools button, .op-row button, .op-row select, .command-bar button');
    const small = (
      await targets.evaluateAll((elements) =>
        elements
          .filter((e) => (e as HTMLElement).offsetParent !== null)
          .map((e) => {
            const box = e.getBoundingClientRect();
            return box.width < 44 || box.height < 44 ? `${e.textContent || e.getAttribute('aria-label')}: ${box.width}×${box.height}` : '';
          }),
      )
    ).filter(Boolean);
    expect(small).toEqual([]);

    // A phone held upright: a row wraps so the operation's name is not cut to a few letters.
    await page.setViewportSize({ width: 390, height: 844 });
    const row = page.getByTestId('op-row').first();
    await expect.poll(() => row.getAttribute('class'), RETRY).toContain('narrow');
    // Both widths of one row at one moment (the list may still redraw its rows for the new width).
    const widths = () =>
      row.evaluate((element) => ({
        row: element.getBoundingClientRect().width,
        operation: element.querySelector('[aria-label="Операция"]')?.getBoundingClientRect().width ?? 0,
      }));
    await expect.poll(async () => ((w) => w.row > 0 && w.operation > w.row * 0.6)(await widths()), RETRY).toBe(true);

    await touch.close();
  });

  it('keeps what the first visit opened: the projects page opens offline with no «Сохранить для работы без сети»', async () => {
    const first = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await first.newPage();
      // A first visit: the projects page reads the structure while the worker is still installing.
      await signInThroughPage(page, server.url, 'analyst');
      await page.getByRole('treeitem').first().waitFor();
      const tree = await page.getByRole('tree').innerText();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: RETRY.timeout });
      const kept = () => page.evaluate(async () => (await (await caches.open('norma-api')).keys()).map((request) => new URL(request.url).pathname));
      await expect.poll(kept, RETRY).toContain('/api/v2/get_all_structures');

      await first.setOffline(true);
      const again = await first.newPage();
      await again.goto(`${server.url}/#/projects`);
      await again.getByRole('treeitem').first().waitFor();
      expect(await again.getByRole('tree').innerText()).toBe(tree);
      expect(await again.getByText('Не удалось загрузить структуру', { exact: false }).count()).toBe(0);
    } finally {
      await first.close();
    }
  });

  it('lets the server decide online: a session it no longer knows is signed out, also for offline use', async () => {
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto(`${server.url}/#/projects`);
    await page.waitForURL(/#\/login$/);
    await context.setOffline(true);
    await page.reload();
    await page.waitForURL(/#\/login$/);
    await context.close();
  });
});
