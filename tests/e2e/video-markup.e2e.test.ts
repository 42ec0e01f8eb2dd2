import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFor, signInThroughPage, watchErrors, RETRY } from '../support/browser';
import { startDemo, type Demo, type DemoMarkups as Markups } from '../support/demo';
import { codeThreeSegments, openVideoMarkup, settled } from '../support/markup-keys';
import type { RunningServer } from '../support/server';

let demo: Demo;
let server: RunningServer;
let browser: Browser;
let get: Demo['get'];
let packingId: number;

interface Task {
  video: { id: number; filename: string };
}
/** An unmarked recording of the packing area on the second demo day, camera `key`, clip `index`. */
async function unmarkedVideo(key: number, index = 0): Promise<number> {
  const tasks = await get<{ elements: Task[] }>(
    `/api/v1/get_tasks?structure_id=${packingId}&option=all&offset=0&limit=100&filename_pattern=cam${key}_2026-11-17`,
  );
  const sorted = tasks.elements.map((t) => t.video).sort((a, b) => a.filename.localeCompare(b.filename));
  return sorted[index]!.id;
}

async function signedIn(login = 'assessor'): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  await signInThroughPage(page, server.url, login);
  await page.close();
  return context;
}

async function openVideo(context: BrowserContext, videoId: number, second?: number): Promise<Page> {
  const page = await context.newPage();
  await openVideoMarkup(page, server.url, videoId, second);
  return page;
}

/** A recording of the assembly area on the second demo day, camera `key`: the packing area's recordings of the day are the other tests'. */
async function assemblyVideo(key: number): Promise<number> {
  const tasks = await get<{ elements: Task[] }>(
    `/api/v1/get_tasks?structure_id=${demo.structureId('Участок сборки редукторов')}&option=all&offset=0&limit=100&filename_pattern=cam${key}_2026-11-17`,
  );
  return tasks.elements[0]!.video.id;
}

/** Saves the video's first markup: `count` rows of `seconds` each from 0 s, the operations in turn, at its first workplace. */
async function putRows(videoId: number, count: number, seconds: number) {
  const { operations } = await get<{ operations: { id: number }[] }>(`/api/v1/available_operations?video_id=${videoId}`);
  const [workplace] = await get<{ id: number }[]>(`/api/v1/workplaces?video_id=${videoId}`);
  const rows = Array.from({ length: count }, (_, i) => ({
    id: -1,
    operation_id: operations[i % operations.length]!.id,
    workplace_id: workplace!.id,
    employee_id: null,
    start_time: i * seconds,
    end_time: (i + 1) * seconds,
    comment: null,
  }));
  const put = await fetch(`${server.url}/api/v1/video_markups/${videoId}`, {
    method: 'PUT',
    headers: { cookie: demo.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ video_markups: rows, base_version: 0 }),
  });
  expect(put.status).toBe(200);
}

/** A 1,400 × 1,000 context signed in by the demo's cookie: a further sign-in within the minute would meet the sign-in limit (10 a minute). */
async function demoContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addCookies(cookiesFor(server.url, demo.cookie));
  return context;
}

/**
 * The markup drafts in the page's IndexedDB (idb-keyval's store: pwa/src/offline/drafts.ts), by key;
 * none where the app has not made the store yet (the open is then aborted, leaving nothing made).
 */
function drafts(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onupgradeneeded = () => open.transaction!.abort();
        open.onerror = () => resolve({});
        open.onsuccess = () => {
          const db = open.result;
          const store = db.transaction('keyval').objectStore('keyval');
          const found: Record<string, unknown> = {};
          const cursor = store.openCursor();
          cursor.onerror = () => reject(cursor.error);
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) {
              db.close();
              return resolve(found);
            }
            if (String(at.key).startsWith('norma:draft:')) found[String(at.key)] = at.value;
            at.continue();
          };
        };
      }),
  );
}

/** Puts `value` at `key` of the page's idb-keyval store and deletes `drop`. */
function moveDraft(page: Page, drop: string, key: string, value: unknown): Promise<void> {
  return page.evaluate(
    ({ drop, key, value }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('keyval', 'readwrite');
          tx.objectStore('keyval').delete(drop);
          tx.objectStore('keyval').put(value, key);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { drop, key, value },
  );
}

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser, get, packingId } = demo);
});
afterAll(async () => demo?.stop());

describe('video markup in Chromium', () => {
  it('codes three segments with the keyboard, saves, and sees them after a reload', async () => {
    const context = await signedIn();
    const videoId = await unmarkedVideo(1, 0);
    const page = await openVideo(context, videoId);
    const errors = watchErrors(page);
    await codeThreeSegments(page);
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    await page.getByTestId('unsaved').waitFor();
    await page.keyboard.press('Control+s');
    await page.getByText('Успешно сохранено!').waitFor();
    const saved = await get<Markups>(`/api/v1/video_markups/${videoId}`);
    expect(saved.video_markups.map((m) => [m.start_time, m.end_time])).toEqual([
      [0, 5],
      [5, 10],
      [10, 15],
    ]);
    expect(new Set(saved.video_markups.map((m) => m.operation_id)).size).toBe(3);
    await page.reload();
    await page.getByTestId('op-row').first().waitFor();
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    await expect.poll(() => page.getByTestId('unsaved').count(), RETRY).toBe(0);

    // The video's length reached the timeline, which shows the whole 20 s.
    await expect.poll(() => page.getByTestId('timeline').locator('.timeline-tools .muted').textContent(), RETRY).toBe('0:00:00 – 0:00:20');
    // «G» goes to the next unmarked place, 15 s (core-wasm's findGaps, loaded on this first use).
    await page.locator('.markup-head h1').click();
    await page.keyboard.press('g');
    await expect.poll(() => page.evaluate(() => Math.round(document.querySelector('video')!.currentTime * 10) / 10), RETRY).toBe(15);

    // Fill gaps closes every hole: 15–20 s becomes idle time.
    await page.getByRole('button', { name: 'Заполнить пропуски' }).first().click();
    await page.getByText('Пропуски заполнены простоем').waitFor();
    const filled = await get<Markups>(`/api/v1/video_markups/${videoId}`);
    expect(filled.video_markups.map((m) => [m.start_time, m.end_time])).toEqual([
      [0, 5],
      [5, 10],
      [10, 15],
      [15, 20],
    ]);

    // Finish saves, marks the task finished and goes back to the task list.
    await page.getByRole('button', { name: 'Завершить' }).first().click();
    await page.waitForURL(new RegExp(`#/markup/${packingId}$`));
    const finished = await get<{ elements: Task[] }>(`/api/v1/get_tasks?structure_id=${packingId}&option=finished&offset=0&limit=100`);
    expect(finished.elements.some((t) => t.video.id === videoId)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the timeline draws the segments; a click seeks, a click on a segment selects it, its edge drags, the wheel and a pinch zoom', async () => {
    // A touch screen too: the pinch is two real touches (CDP), as a tablet sends them.
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, hasTouch: true });
    const signIn = await context.newPage();
    await signInThroughPage(signIn, server.url, 'assessor');
    await signIn.close();
    const videoId = await unmarkedVideo(4, 1);
    const page = await openVideo(context, videoId);
    const errors = watchErrors(page);
    // At the second workplace: the model test below keeps the first one's time (cameras overlap) to itself.
    await codeThreeSegments(page, 2);
    const span = () => page.getByTestId('timeline').locator('.timeline-tools .muted').textContent();
    await expect.poll(span, RETRY).toBe('0:00:00 – 0:00:20');
    const surface = page.locator('.timeline-surface');
    const box = (await surface.boundingBox())!;
    // One lane (the workplace chosen): its segments are 16 px high from 34 px down; edges of the selected one from 24 px.
    const at = (seconds: number) => box.x + (seconds / 20) * box.width;
    const segmentY = box.y + 42;
    const edgeY = box.y + 30;

    // The segments' canvas holds each operation's colour where its segment is.
    const { operations } = await get<{ operations: { id: number; color: string }[] }>(`/api/v1/available_operations?video_id=${videoId}`);
    const coded = await get<Markups>(`/api/v1/video_markups/${videoId}`);
    expect(coded.video_markups).toEqual([]);
    const colourAt = (seconds: number) =>
      page.evaluate(
        ([px, py]) => {
          const canvas = document.querySelectorAll<HTMLCanvasElement>('.timeline-surface canvas')[1]!;
          const ratio = canvas.width / canvas.getBoundingClientRect().width;
          const [r, g, b] = canvas.getContext('2d')!.getImageData(Math.round(px! * ratio), Math.round(py! * ratio), 1, 1).data;
          return `#${[r, g, b].map((v) => v!.toString(16).padStart(2, '0')).join('')}`;
        },
        [(seconds / 20) * box.width, 42],
      );
    const firstThree = operations.slice(0, 3).map((o) => o.color.toLowerCase());
    expect([await colourAt(2.5), await colourAt(7.5), await colourAt(12.5)]).toEqual(firstThree);
    expect(await colourAt(17.5)).toBe('#000000');

    // A click where no segment is seeks there.
    await page.mouse.click(at(17.5), segmentY);
    await expect.poll(() => page.evaluate(() => Math.round(document.querySelector('video')!.currentTime * 10) / 10), RETRY).toBe(17.5);
    // A click on a segment selects its row.
    await page.mouse.click(at(7.5), segmentY);
    await expect.poll(() => page.getByTestId('op-row').nth(1).getAttribute('class'), RETRY).toContain('selected');
    // Its start edge dragged from 5 s to 6 s moves the row's start there.
    await page.mouse.move(at(5), edgeY);
    await page.mouse.down();
    await page.mouse.move(at(5.5), edgeY);
    await page.mouse.move(at(6), edgeY);
    await page.mouse.up();
    await page.keyboard.press('Control+s');
    await page.getByText('Успешно сохранено!').waitFor();
    const saved = await get<Markups>(`/api/v1/video_markups/${videoId}`);
    expect(saved.video_markups.map((m) => [m.start_time, m.end_time])).toEqual([
      [0, 5],
      [6, 10],
      [10, 15],
    ]);

    // The wheel over the middle zooms in by a fifth around 10 s.
    await page.mouse.move(box.x + box.width / 2, segmentY);
    await page.mouse.wheel(0, -120);
    await expect.poll(span, RETRY).toBe('0:00:02 – 0:00:18');
    // Two fingers spread from 100 to 200 px apart around the middle: half the span, still around 10 s.
    const touch = await context.newCDPSession(page);
    const fingers = (half: number) => [
      { x: box.x + box.width / 2 - half, y: segmentY, id: 1 },
      { x: box.x + box.width / 2 + half, y: segmentY, id: 2 },
    ];
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(50) });
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(100) });
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(span, RETRY).toBe('0:00:06 – 0:00:14');
    // The pinch was no click: the video stayed where it was.
    expect(await page.evaluate(() => Math.round(document.querySelector('video')!.currentTime * 10) / 10)).toBe(17.5);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses to save an invalid row with the spec’s texts and changes nothing', async () => {
    const context = await signedIn();
    const videoId = await unmarkedVideo(2, 0);
    const page = await openVideo(context, videoId);
    await page.getByRole('button', { name: 'Добавить операцию' }).click();
    await page.getByText('Начало не раньше конца').waitFor();
    await page.getByRole('button', { name: 'Сохранить', exact: true }).first().click();
    await page.getByText('Разметка некорректна!').waitFor();
    await page.getByText('Начало каждой операции должно быть раньше конца, и у всех строк должны быть выбраны операция и рабочее место.').waitFor();
    expect((await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups).toEqual([]);

    // The message belongs to the video screen: on the summary it is gone (issue 28).
    await page.evaluate(() => (location.hash = '#/summary'));
    await page.getByRole('heading', { name: 'Сводка по разметчикам' }).waitFor();
    await expect.poll(() => page.getByTestId('toast').count(), RETRY).toBe(0);
    await context.close();
  });

  it('refuses an operation key before «Разметка для» is chosen: a message, and no row without a workplace', async () => {
    const context = await signedIn();
    const videoId = await unmarkedVideo(2, 1);
    const page = await openVideo(context, videoId);
    const errors = watchErrors(page);
    // The packing area has three workplaces: nothing is chosen in «Разметка для» for an unmarked video.
    expect(await page.getByLabel('Рабочее место новых операций').inputValue()).toBe('');
    await page.locator('.markup-head h1').click();
    await page.keyboard.press('1');
    await settled(page);
    await page.getByText('Сначала выберите, для кого разметка').first().waitFor();
    expect(await page.getByTestId('op-row').count()).toBe(0);
    await expect.poll(() => page.getByTestId('unsaved').count(), RETRY).toBe(0);
    // A tap on an operation's button is the same: no row.
    await page.getByTestId('op-buttons').locator('button.op-button:not(.stop)').first().click();
    await settled(page);
    expect(await page.getByTestId('op-row').count()).toBe(0);
    expect(await page.getByTestId('unsaved').count()).toBe(0);

    // Once chosen, the same key codes.
    await page.getByLabel('Рабочее место новых операций').selectOption({ index: 1 });
    await page.locator('.markup-head h1').click();
    await page.keyboard.press('1');
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches camera to the same absolute second', async () => {
    const context = await signedIn();
    const videoId = await unmarkedVideo(1, 1);
    const page = await openVideo(context, videoId, 10);
    await page.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).currentTime >= 9.9);
    const meta = await get<{ start_time: string }>(`/api/v1/video_meta/${videoId}`);
    // The list as of the playhead now (the first one may be from before the seek finished under load).
    await page.getByRole('button', { name: 'Обновить' }).click();
    const other = page.locator('.other-camera', { hasText: 'Камера 2' });
    await other.waitFor();
    await other.click();
    // A refusal (the other camera no longer covers this second) is shown as a toast: fail with its text.
    await page
      .waitForURL((url) => !url.href.includes(`/video/${videoId}/`), { waitUntil: 'commit' })
      .catch(async (e: Error) => {
        throw new Error(`${e.message}; toasts: ${(await page.locator('.toast').allTextContents()).join(' | ')}`);
      });
    // A hash change is a same-document navigation: wait for the URL, not for a page load event.
    await page.waitForURL((url) => /#\/video\/\d+\/\d+$/.test(url.href) && !url.href.includes(`/video/${videoId}/`), { waitUntil: 'commit' });
    const [, targetId, second] = /#\/video\/(\d+)\/(\d+)$/.exec(page.url())!;
    expect(Number(targetId)).not.toBe(videoId);
    const target = await get<{ start_time: string; camera_key: number }>(`/api/v1/video_meta/${targetId}`);
    expect(target.camera_key).toBe(2);
    const instantHere = Date.parse(meta.start_time) + 10_000;
    const instantThere = Date.parse(target.start_time) + Number(second) * 1000;
    expect(Math.abs(instantHere - instantThere)).toBeLessThanOrEqual(1000);
    await context.close();
  });

  it('keeps edits made offline and sends them when the connection returns', async () => {
    const context = await signedIn();
    const videoId = await unmarkedVideo(3, 0);
    const page = await openVideo(context, videoId);
    await context.setOffline(true);
    await codeThreeSegments(page);
    await page.getByRole('button', { name: 'Сохранить', exact: true }).first().click();
    await page.getByText('Нет связи с сервером: изменения сохранены на этом устройстве').waitFor();
    expect((await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups).toEqual([]);
    await context.setOffline(false);
    await page.getByText('отложенное сохранение отправлено').waitFor();
    expect((await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups).toHaveLength(3);
    await context.close();
  });

  it('refuses the second of two concurrent saves with the conflict message, overwriting nothing', async () => {
    const first = await signedIn('assessor');
    const second = await signedIn('analyst');
    const videoId = await unmarkedVideo(4, 0);
    const pageA = await openVideo(first, videoId);
    const pageB = await openVideo(second, videoId);
    await codeThreeSegments(pageA);
    await pageA.keyboard.press('Control+s');
    await pageA.getByText('Успешно сохранено!').waitFor();

    await pageB.getByLabel('Рабочее место новых операций').selectOption({ index: 2 });
    await pageB.locator('.markup-head h1').click();
    await pageB.keyboard.press('4');
    await pageB.keyboard.press('ArrowRight');
    await pageB.keyboard.press('Enter');
    await pageB.keyboard.press('Control+s');
    await pageB.getByText('Разметка этого видео изменилась на сервере').waitFor();
    const stored = await get<Markups>(`/api/v1/video_markups/${videoId}`);
    expect(stored.video_markups).toHaveLength(3);

    // The second assessor can lay their change over the fresh version and save it.
    await pageB.getByRole('button', { name: 'Наложить мои изменения' }).click();
    await pageB.getByText('Ваши изменения наложены на свежую версию').waitFor();
    await pageB.keyboard.press('Control+s');
    await pageB
      .getByText('Успешно сохранено!')
      .waitFor()
      .catch(async (e) => {
        throw new Error(`${e.message}\n${await pageB.locator('.toasts, .banner').allTextContents()}`);
      });
    expect((await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups).toHaveLength(4);
    await first.close();
    await second.close();
  });

  it('shows the model’s segment a save clipped right after the save, without reading the markup again', async () => {
    const videoId = await unmarkedVideo(3, 1);
    const meta = await get<{ structure_id: number; start_time: string }>(`/api/v1/video_meta/${videoId}`);
    const [workplace] = await get<{ id: number; name: string }[]>(`/api/v1/workplaces?video_id=${videoId}`);
    const { operations } = await get<{ operations: { id: number }[] }>(`/api/v1/available_operations?video_id=${videoId}`);
    // The model's unreviewed segment 2–14 s at the workplace, written into the demo's database as the applying job writes it.
    const start = Date.parse(meta.start_time);
    const db = new Database(join(server.dataDir, 'norma.sqlite'));
    let modelId: number;
    try {
      const now = Date.now();
      modelId = db
        .query<{ id: number }, (string | number | null)[]>(
          `INSERT INTO markups (structure_id, operation_id, workplace_id, employee_id, start_time, end_time, comment, video_id, author_id, source, confidence, created_at, updated_at)
           VALUES (?, ?, ?, NULL, ?, ?, 'Модель', ?, NULL, 'model', 0.8, ?, ?) RETURNING id`,
        )
        .get(meta.structure_id, operations[1]!.id, workplace!.id, start + 2000, start + 14_000, videoId, now, now)!.id;
    } finally {
      db.close();
    }
    const context = await signedIn();
    const page = await openVideo(context, videoId);
    const errors = watchErrors(page);
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(1);
    const reads: string[] = [];
    const saves: string[] = [];
    page.on('request', (request) => {
      if (!request.url().includes(`/api/v1/video_markups/${videoId}`)) return;
      (request.method() === 'GET' ? reads : saves).push(request.url());
    });
    const replies: { deleted_markup_ids?: number[]; video_markups: unknown[] }[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'PUT' && response.url().includes(`/api/v1/video_markups/${videoId}`))
        void response.json().then((body) => replies.push(body));
    });
    // The person codes 5–10 s at the same workplace over the model's segment, and saves.
    await page.getByLabel('Рабочее место новых операций').selectOption({ label: workplace!.name });
    await page.locator('.markup-head h1').click();
    for (const key of ['ArrowRight', '1', 'ArrowRight', 'Enter']) {
      await page.keyboard.press(key);
      await settled(page);
    }
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(2);
    await page.keyboard.press('Control+s');
    // The server cut the model's segment into 2–5 and 10–14 s: both pieces are on the screen now.
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(2);
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    await expect.poll(() => page.getByTestId('unsaved').count(), RETRY).toBe(0);
    const saved = await get<{ video_markups: { id: number; start_time: number; end_time: number; source: string }[] }>(`/api/v1/video_markups/${videoId}`);
    expect(saved.video_markups.map((m) => [m.start_time, m.end_time, m.source])).toEqual([
      [2, 5, 'model'],
      [5, 10, 'manual'],
      [10, 14, 'model'],
    ]);
    // The save asked only for its changes, and the answer carried them: no row it did not change, the clipped segment gone.
    expect(saves).toHaveLength(1);
    expect(saves[0]).toContain('reply=changes');
    await expect.poll(() => replies.length, RETRY).toBe(1);
    expect(replies[0]!.deleted_markup_ids).toEqual([modelId]);
    expect(replies[0]!.video_markups).toHaveLength(3);
    expect(reads).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps unsaved rows over a reload (the local draft, this user’s), and takes a draft kept before drafts had owners', async () => {
    const videoId = await assemblyVideo(2);
    const context = await demoContext();
    const page = await openVideo(context, videoId);
    const errors = watchErrors(page);
    await codeThreeSegments(page);
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    // Written a moment after the last change, under the signed-in user's login (the demo's analyst).
    const own = `norma:draft:analyst:video:${videoId}`;
    await expect.poll(async () => Object.keys(await drafts(page)), RETRY).toEqual([own]);
    const draft = (await drafts(page))[own];

    await page.reload();
    await page.getByText('Восстановлены несохранённые изменения этого видео').waitFor();
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    await page.getByTestId('unsaved').waitFor();
    expect((await get<Markups>(`/api/v1/video_markups/${videoId}`)).video_markups).toEqual([]);

    // A draft kept under the older key, without an owner, goes with whoever opens the video.
    const { owner: _, ...ownerless } = draft as { owner?: string };
    await moveDraft(page, own, `norma:draft:video:${videoId}`, ownerless);
    await page.reload();
    await page.getByText('Восстановлены несохранённые изменения этого видео').waitFor();
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the screen with its player while a slow markup still comes, then its rows', async () => {
    const videoId = await assemblyVideo(3);
    await putRows(videoId, 3, 1);
    const context = await demoContext();
    // The markup's read is held until the test lets it go: a slow network, past the screen's wait for it.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    await context.route(new RegExp(`/api/v1/video_markups/${videoId}$`), async (route) => {
      await held;
      await route.continue();
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/video/${videoId}`);
    await page.getByText('Загрузка разметки…').waitFor();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
    expect(await page.getByTestId('op-row').count()).toBe(0);
    letGo();
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(3);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("draws the rows once on opening, in the layout of the list's width (beside the side column: two lines), none drawn and dropped", async () => {
    const videoId = await assemblyVideo(1);
    // More rows than either layout draws: a wide guess would draw 14 of them, two lines draw 11.
    await putRows(videoId, 30, 0.5);
    const context = await demoContext();
    // Every row element the page ever adds (alone or inside what is added), counted from the document's
    // start, and when the first came; and the video element the page's first script makes (route-preload).
    await context.addInitScript(() => {
      const w = window as unknown as { rowsAdded: number; rowsAt?: number; earlyVideo?: HTMLVideoElement };
      w.rowsAdded = 0;
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof HTMLElement) w.rowsAdded += node.matches('[data-testid="op-row"]') ? 1 : node.querySelectorAll('[data-testid="op-row"]').length;
        if (w.rowsAdded > 0) w.rowsAt ??= performance.now();
      }).observe(document, { childList: true, subtree: true });
      let held: HTMLVideoElement | undefined;
      Object.defineProperty(window, '__normaEarlyVideo', {
        configurable: true,
        get: () => held,
        set: (video: HTMLVideoElement) => (held = w.earlyVideo = video),
      });
    });
    const page = await openVideo(context, videoId);
    const errors = watchErrors(page);
    await page.getByTestId('op-row').first().waitFor();
    await settled(page);
    const shown = await page.getByTestId('op-row').count();
    expect(shown).toBe(11);
    expect(await page.locator('[data-testid="op-row"].two').count()).toBe(shown);
    expect(await page.evaluate(() => (window as unknown as { rowsAdded: number }).rowsAdded)).toBe(shown);
    // The player shows the element the page's first script started loading, before the app's code came.
    expect(await page.evaluate(() => document.querySelector('video') === (window as unknown as { earlyVideo?: HTMLVideoElement }).earlyVideo)).toBe(true);
    // What is not needed to begin coding is read once the rows are there: the side panels' reads,
    // the camera's models; the statistics and the recording's date are shown then too.
    const sideReads = ['/api/v1/models?', '/api/v1/activities?', '/api/v1/other_videos?'];
    const startedAt = () =>
      page.evaluate(
        (paths) => paths.map((path) => performance.getEntriesByType('resource').find((entry) => entry.name.includes(path))?.startTime ?? null),
        sideReads,
      );
    await expect.poll(async () => (await startedAt()).every((at) => at !== null), RETRY).toBe(true);
    const rowsAt = await page.evaluate(() => (window as unknown as { rowsAt: number }).rowsAt);
    for (const at of await startedAt()) expect(at!).toBeGreaterThan(rowsAt);
    await page.getByRole('heading', { name: 'Бюджет времени видео' }).waitFor();
    await expect.poll(() => page.locator('.markup-head .muted').textContent(), RETRY).toMatch(/начало записи \d\d\.\d\d\.2026/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
