import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY, signInThroughPage } from '../support/browser';
import { startDemo, type Demo, type DemoMarkups as Markups } from '../support/demo';
import { codeThreeSegments, openVideoMarkup } from '../support/markup-keys';
import type { RunningServer } from '../support/server';

/**
 * A shared tablet (issue 24): signing out without a network really signs out, and a save queued
 * offline is sent only in the session of the user who made it.
 */
let demo: Demo;
let server: RunningServer;
let browser: Browser;
let get: Demo['get'];

/** The browser's cookies for the server, as a Cookie header: what the device would send. */
async function deviceCookie(context: BrowserContext): Promise<string> {
  return (await context.cookies(server.url)).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** A context where Background Sync is refused: the page's own rounds send the outbox (offline-field covers the worker's). */
async function tabletContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  return context;
}

async function signInControlled(page: Page, login: string) {
  await signInThroughPage(page, server.url, login);
  // clientsClaim: the first session is controlled, so the app shell opens offline afterwards.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: RETRY.timeout });
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Выход' }).first().click();
  await page.waitForURL(`${server.url}/#/`);
  await page.getByRole('link', { name: 'Вход' }).waitFor();
}

/** Opens the video online, goes offline, codes three segments (0–5, 5–10, 10–15 s) and saves: the save is queued. */
async function queueSaveOffline(context: BrowserContext, page: Page, videoId: number) {
  await openVideoMarkup(page, server.url, videoId);
  await context.setOffline(true);
  await codeThreeSegments(page);
  await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
  await page.keyboard.press('Control+s');
  await page.getByText('Нет связи с сервером: изменения сохранены на этом устройстве').waitFor();
  await expect.poll(() => page.getByTestId('sync-indicator').textContent(), RETRY).toBe('Не отправлено: 1');
}

/**
 * Fires the service worker's Background Sync through DevTools, as the browser does when its
 * network returns (an emulated network change does not); resolves when the worker has finished.
 */
async function dispatchOutboxSync(context: BrowserContext) {
  const blank = await context.newPage();
  const cdp = await context.newCDPSession(blank);
  const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => resolve(event.registrations as { registrationId: string; scopeURL: string }[])),
  );
  await cdp.send('ServiceWorker.enable');
  const registration = (await registrations).find((r) => r.scopeURL.startsWith(server.url))!;
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: server.url,
    registrationId: registration.registrationId,
    tag: 'norma-outbox',
    lastChance: false,
  });
  await blank.close();
}

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser, get } = demo);
});
afterAll(async () => demo?.stop());

describe('signing out on a shared tablet without a network', () => {
  it('signs out for good: the old session is never used again and ends on the server first thing', async () => {
    const context = await tabletContext();
    const page = await context.newPage();
    await signInControlled(page, 'assessor');
    const oldCookie = await deviceCookie(context);
    expect((await get<{ login: string }>('/api/v1/whoami', oldCookie)).login).toBe('assessor');

    await context.setOffline(true);
    await signOut(page);
    await page.getByText('вы вышли на этом устройстве').waitFor();

    // Reloaded offline: the sign-in screen, not the previous user's workspace.
    await page.goto(`${server.url}/#/projects`);
    await page.waitForURL(/#\/login$/);
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    expect(await page.getByTestId('user-name').count()).toBe(0);
    // The cookie is still in the browser (a script cannot remove it): the app must refuse it.
    expect(await deviceCookie(context)).toBe(oldCookie);

    // Back online and reloaded: the sign-out goes first, everything after it is anonymous. Requests
    // are recorded as they leave the browser (page or service worker), with the cookie they carry:
    // answers may come back in any order, what matters is what is sent under the old session.
    const apiRequests: { path: string; cookie: Promise<string | undefined> }[] = [];
    const apiReplies: { path: string; status: number; body: string }[] = [];
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/'))
        apiRequests.push({
          path: url.pathname,
          cookie: request.allHeaders().then(
            (h) => h.cookie,
            () => undefined,
          ),
        });
    });
    context.on('response', (response) => {
      const url = new URL(response.url());
      if (!url.pathname.startsWith('/api/')) return;
      const entry = { path: url.pathname, status: response.status(), body: '' };
      apiReplies.push(entry);
      response.text().then(
        (text) => (entry.body = text),
        () => {},
      );
    });
    await context.setOffline(false);
    await page.reload();
    await page.waitForURL(/#\/login$/);
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    await expect.poll(() => apiReplies.some((c) => c.path === '/api/v1/whoami' && c.body !== ''), RETRY).toBe(true);
    const oldPairs = oldCookie.split('; ');
    const sent = await Promise.all(
      apiRequests.map(async (r) => {
        const carried = ((await r.cookie) ?? '').split('; ');
        return { path: r.path, oldSession: oldPairs.some((pair) => carried.includes(pair)) };
      }),
    );
    const order = sent.map((r) => `${r.path}${r.oldSession ? ' (old session)' : ''}`).join(', ');
    expect(sent[0]?.path, order).toBe('/api/v1/leave');
    expect(
      sent.filter((r) => r.oldSession && r.path !== '/api/v1/leave'),
      order,
    ).toEqual([]);
    // The sign-out's own answer may never reach this page (the page that sent it on reconnecting can be
    // reloaded first); that the server ended the session is proven below by the old cookie being refused.
    for (const leave of apiReplies.filter((c) => c.path === '/api/v1/leave')) expect(leave.status).toBe(200);
    const whoami = apiReplies.find((c) => c.path === '/api/v1/whoami')!;
    expect(JSON.parse(whoami.body)).toMatchObject({ error: { code: 'unauthorized' } });
    expect(await page.getByTestId('user-name').count()).toBe(0);

    // The server session is over: the old cookie opens nothing.
    const refused = await fetch(`${server.url}/api/v2/get_all_structures`, { headers: { cookie: oldCookie } });
    expect(refused.status).toBe(401);
    expect(await get<{ error?: unknown }>('/api/v1/whoami', oldCookie)).toHaveProperty('error');
    await context.close();
  });

  it('keeps a queued save for its owner: not sent as the next user, sent once when its owner signs in again', async () => {
    const context = await tabletContext();
    const videoId = (await demo.unmarkedVideo()).id;
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signInControlled(page, 'assessor');
    // Offline: three segments coded and saved on the device; then the assessor signs out.
    await queueSaveOffline(context, page, videoId);
    await signOut(page);
    await expect.poll(() => page.getByTestId('others-saves').textContent(), RETRY).toBe('Сохранения ждут входа автора: 1');

    // The analyst signs in on the same tablet, online: told that someone else's saves wait, not what they hold.
    await context.setOffline(false);
    await signInThroughPage(page, server.url, 'analyst');
    await expect.poll(() => page.getByTestId('user-name').textContent(), RETRY).toBe('Олег Петров');
    await expect.poll(() => page.getByTestId('others-saves').textContent(), RETRY).toBe('Сохранения другого пользователя ждут его входа: 1');
    expect(await page.getByTestId('sync-indicator').count()).toBe(0);
    // The video opens on the server's (empty) markup: the assessor's edits are neither shown nor offered.
    await page.goto(`${server.url}/#/video/${videoId}`);
    await page.locator('video').waitFor();
    await page.getByLabel('Рабочее место новых операций').waitFor();
    await expect.poll(() => page.getByTestId('others-saves').count(), RETRY).toBe(1);
    expect(await page.getByTestId('op-row').count()).toBe(0);
    expect(await page.getByTestId('unsaved').count()).toBe(0);
    const untouched = await get<Markups>(`/api/v1/video_markups/${videoId}`);
    expect(untouched.video_markups).toEqual([]);

    // The analyst leaves, the assessor comes back: her save goes, once, as hers.
    await signOut(page);
    await page.getByText('Вы вышли из системы').waitFor();
    await signInThroughPage(page, server.url, 'assessor');

    await expect.poll(async () => (await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups.length, RETRY).toBe(3);
    await expect.poll(() => page.getByTestId('sync-indicator').count(), RETRY).toBe(0);
    expect(await page.getByTestId('others-saves').count()).toBe(0);
    const saved = await get<Markups>(`/api/v1/video_markups/${videoId}`);
    expect(saved.video_markups.map((m) => [m.start_time, m.end_time, m.author_name])).toEqual([
      [0, 5, 'Мария Иванова'],
      [5, 10, 'Мария Иванова'],
      [10, 15, 'Мария Иванова'],
    ]);
    expect(saved.version).toBe(untouched.version + 1);
    await context.close();
  });

  it('the service worker’s Background Sync ends the pending sign-out first and sends nobody else’s save', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const videoId = (await demo.unmarkedVideo()).id;
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signInControlled(page, 'assessor');
    const oldCookie = await deviceCookie(context);
    await queueSaveOffline(context, page, videoId);
    await signOut(page);
    await page.close();

    // No tab of the app is open when the network returns; the worker is the first to talk to the server.
    const apiCalls: string[] = [];
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname);
    });
    await context.setOffline(false);
    await dispatchOutboxSync(context);
    await expect.poll(async () => (await fetch(`${server.url}/api/v2/get_all_structures`, { headers: { cookie: oldCookie } })).status, RETRY).toBe(401);
    expect(apiCalls[0]).toBe('/api/v1/leave');
    // Nobody is signed in now: the assessor's save waits for her.
    expect((await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups).toEqual([]);
    expect(apiCalls).not.toContain(`/api/v1/video_markups/${videoId}`);

    // The analyst signs in and the worker syncs again: still not sent in his session.
    const analyst = await context.newPage();
    await signInThroughPage(analyst, server.url, 'analyst');
    await expect.poll(() => analyst.getByTestId('others-saves').textContent(), RETRY).toBe('Сохранения другого пользователя ждут его входа: 1');
    // The worker tells open tabs when its round is over (sw.ts): counted here, so the check below follows that round.
    await analyst.evaluate(() => {
      const scope = window as unknown as { normaRounds: number };
      scope.normaRounds = 0;
      navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
        if (event.data?.type === 'norma-outbox-replayed') scope.normaRounds += 1;
      });
    });
    await dispatchOutboxSync(context);
    await expect.poll(() => analyst.evaluate(() => (window as unknown as { normaRounds: number }).normaRounds), RETRY).toBeGreaterThanOrEqual(1);
    await expect.poll(() => analyst.getByTestId('others-saves').count(), RETRY).toBe(1);
    expect((await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups).toEqual([]);
    expect(apiCalls).not.toContain(`/api/v1/video_markups/${videoId}`);
    await context.close();
  });
});
