import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughPage, launchBrowser, watchErrors, RETRY } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import type { PeriodMarkupRow, VideoMarkupsReply } from '../../api/src/contract';
import { rowsFromServer } from '../../pwa/src/screens/period-edit/rows';

/**
 * The period editor and the video screen show the same markups (DESIGN.md "Time and markups"):
 * on the demo organisation an analyst edits a period and sees the rows on the video.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let cookie: string;
let assemblyId: number;

const get = async <T>(path: string): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

const from = '2026-11-16T06:00:00.000Z'; // 16-11-2026 09:00 Moscow
const to = '2026-11-16T07:00:00.000Z';

async function toast(page: Page, text: string | RegExp) {
  await page.locator('.toast', { hasText: text }).first().waitFor();
}

/** The numbers (1, 2, …) of the period's rows now in the page. */
const builtRows = (page: Page) => page.getByTestId('period-row').evaluateAll((rows) => rows.map((row) => Number(row.querySelector('.pe-n')?.textContent)));

/**
 * Scrolls a long period's box (it builds only the rows in view, issue 47) until row `n` is built:
 * half a box at a time towards it, so that no row is skipped.
 */
async function reveal(page: Page, n: number) {
  const box = page.getByTestId('period-scroll');
  await expect
    .poll(async () => {
      const built = await builtRows(page);
      if (built.includes(n)) return true;
      const down = n > Math.max(...built);
      await box.evaluate((element, down) => element.scrollBy(0, ((down ? 1 : -1) * element.clientHeight) / 2), down);
      return false;
    }, RETRY)
    .toBe(true);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await signInThroughPage(page, server.url, 'analyst');
  cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  await page.close();
  const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  assemblyId = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('period markups and the video screen', () => {
  it('edits a period picked on the projects page and sees the rows on the video', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/projects/${assemblyId}`);
    const fromPicker = page.getByTestId('period-from');
    await fromPicker.locator('output', { hasText: '17-11-2026 00:00' }).waitFor();
    await expect.poll(() => fromPicker.getByLabel('С: дата').locator('option').allTextContents(), RETRY).toEqual(['16-11-2026', '17-11-2026']);
    await fromPicker.getByLabel('С: дата').selectOption('2026-11-16');
    await fromPicker.getByLabel('С: час').selectOption('9');
    await page.getByTestId('period-to').getByLabel('По: дата').selectOption('2026-11-16');
    await page.getByTestId('period-to').getByLabel('По: час').selectOption('10');
    await page.getByRole('link', { name: 'Редактировать разметку' }).click();
    await page.waitForURL(`${server.url}/#/edit/${assemblyId}/${encodeURIComponent(from)}/${encodeURIComponent(to)}`);
    await page.getByTestId('period-row').first().waitFor();

    // A row of the window that lies on a video: the latest such row.
    const { operation_markups: rows } = await get<{ operation_markups: PeriodMarkupRow[] }>(
      `/api/v1/operation_markups?structure_id=${assemblyId}&from_time=${encodeURIComponent(from)}&to_time=${encodeURIComponent(to)}`,
    );
    const index = rows.findIndex((r) => r.video_id !== null);
    const row = rows[index]!;
    const n = index + 1;
    await reveal(page, n);
    await expect.poll(() => page.getByLabel(`Строка ${n}: начало`).inputValue(), RETRY).toMatch(/^16-11-2026 09:00:/);
    await page.getByLabel(`Строка ${n}: комментарий`).fill('правка из редактора периода');

    // A new row on the same workplace and employee, inside the recordings (09:00:05–09:00:07).
    await page.getByRole('button', { name: 'Добавить строку' }).click();
    const operations = await page.getByLabel('Строка 1: операция').locator('option').allTextContents();
    expect(operations.slice(1)).toEqual([...operations.slice(1)].sort((a, b) => a.localeCompare(b, 'ru')));
    await page.getByLabel('Строка 1: операция').selectOption(String(row.operation_id));
    await page.getByLabel('Строка 1: рабочее место').selectOption(String(row.workplace_id));
    await page.getByLabel('Строка 1: сотрудник').selectOption(String(row.employee_id));
    await page.getByLabel('Строка 1: начало').fill('16-11-2026 09:00:05');
    await page.getByLabel('Строка 1: конец').fill('16-11-2026 09:00:07');
    await page.getByLabel('Строка 1: комментарий').fill('новая строка из редактора');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    // Saved: the unsaved flag goes (the success message itself is checked in workspace-admin.e2e).
    await page.getByTestId('unsaved').waitFor({ state: 'detached' });

    // The edited row keeps its video; the video screen's call shows the new comment.
    const onVideo = await get<VideoMarkupsReply>(`/api/v1/video_markups/${row.video_id}`);
    expect(onVideo.video_markups.find((m) => m.id === row.id)?.comment).toBe('правка из редактора периода');

    // The new row lies on the video of the same camera that covers 09:00:05.
    const meta = await get<{ camera_id: number }>(`/api/v1/video_meta/${row.video_id}`);
    const videos = await get<{ id: number; start_time: string; duration: number }[]>(`/api/v1/videos?camera_id=${meta.camera_id}`);
    const at = Date.parse('2026-11-16T06:00:05Z');
    const covering = videos.find((v) => Date.parse(v.start_time) <= at && at < Date.parse(v.start_time) + v.duration * 1000)!;
    const onCovering = await get<VideoMarkupsReply>(`/api/v1/video_markups/${covering.id}`);
    const added = onCovering.video_markups.find((m) => m.comment === 'новая строка из редактора')!;
    expect([added.start_time, added.end_time]).toEqual([(at - Date.parse(covering.start_time)) / 1000, (at - Date.parse(covering.start_time)) / 1000 + 2]);

    // …and the video screen itself shows it.
    const video = await context.newPage();
    await video.goto(`${server.url}/#/video/${covering.id}`);
    await video.waitForFunction(
      (text) => [...document.querySelectorAll('input')].some((i) => (i as HTMLInputElement).value === text),
      'новая строка из редактора',
    );
    await video.close();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a long period builds only the rows in view; End in its box reaches the last row with its data', async () => {
    // The demo's whole first day (09:00–17:00 Moscow).
    const dayFrom = '2026-11-16T06:00:00.000Z';
    const dayTo = '2026-11-16T14:00:00.000Z';
    const { operation_markups: apiRows } = await get<{ operation_markups: PeriodMarkupRow[] }>(
      `/api/v1/operation_markups?structure_id=${assemblyId}&from_time=${encodeURIComponent(dayFrom)}&to_time=${encodeURIComponent(dayTo)}`,
    );
    // The editor's own order and texts (newest first, date-times of the organisation's zone).
    const expected = rowsFromServer(apiRows, 'Europe/Moscow');
    expect(expected.length).toBeGreaterThan(500);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/edit/${assemblyId}/${encodeURIComponent(dayFrom)}/${encodeURIComponent(dayTo)}`);
    await page.getByText(`строк: ${expected.length}`).waitFor();
    await page.getByTestId('period-row').first().waitFor();
    const first = await builtRows(page);
    expect(first[0]).toBe(1);
    expect(first.length).toBeLessThan(60);
    await expect.poll(() => page.getByLabel('Строка 1: начало').inputValue(), RETRY).toBe(expected[0]!.startText);

    // The keyboard: the box takes the focus (named by its row count), End scrolls it to the last row.
    const box = page.getByRole('region', { name: `Строки разметки: ${expected.length}` });
    await box.focus();
    const n = expected.length;
    // One press, though the rows measured on the way change the box's length.
    await page.keyboard.press('End');
    await expect.poll(async () => (await builtRows(page)).includes(n), RETRY).toBe(true);
    const last = expected[n - 1]!;
    expect(await page.getByLabel(`Строка ${n}: начало`).inputValue()).toBe(last.startText);
    expect(await page.getByLabel(`Строка ${n}: конец`).inputValue()).toBe(last.endText);
    expect(await page.getByLabel(`Строка ${n}: операция`).inputValue()).toBe(String(last.operationId));
    expect(await page.getByLabel(`Строка ${n}: рабочее место`).inputValue()).toBe(String(last.workplaceId));
    expect((await builtRows(page)).length).toBeLessThan(60);
    // The last row is in view inside the box, not under its edge.
    const inView = await page.getByLabel(`Строка ${n}: начало`).evaluate((input) => {
      const scroller = input.closest('[data-testid="period-scroll"]')!.getBoundingClientRect();
      const row = input.closest('tr')!.getBoundingClientRect();
      return row.top >= scroller.top - 1 && row.bottom <= scroller.bottom + 1;
    });
    expect(inView).toBe(true);
    // Home goes back to the first row.
    await page.keyboard.press('Home');
    await expect.poll(async () => (await builtRows(page))[0], RETRY).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a save over a period the video screen changed meanwhile, and reloads', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.goto(`${server.url}/#/edit/${assemblyId}/${encodeURIComponent(from)}/${encodeURIComponent(to)}`);
    await page.getByTestId('period-row').first().waitFor();
    const { operation_markups: rows } = await get<{ operation_markups: PeriodMarkupRow[] }>(
      `/api/v1/operation_markups?structure_id=${assemblyId}&from_time=${encodeURIComponent(from)}&to_time=${encodeURIComponent(to)}`,
    );
    const onVideo = rows.find((r) => r.video_id !== null)!;
    // Meanwhile the video screen saves a change to a row of this period.
    const current = await get<VideoMarkupsReply>(`/api/v1/video_markups/${onVideo.video_id}`);
    const target = current.video_markups.find((m) => m.id === onVideo.id)!;
    const saved = await fetch(`${server.url}/api/v1/video_markups/${onVideo.video_id}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ video_markups: [{ ...target, comment: 'с экрана видео' }], base_version: current.version }),
    });
    expect(saved.status).toBe(200);

    await page.getByLabel('Строка 1: комментарий').fill('поверх чужой правки');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Данные введены некорректно$/ })
      .waitFor();
    await toast(page, /уже изменили/);
    const after = await get<VideoMarkupsReply>(`/api/v1/video_markups/${onVideo.video_id}`);
    expect(after.video_markups.find((m) => m.id === onVideo.id)?.comment).toBe('с экрана видео');
    expect(JSON.stringify(after)).not.toContain('поверх чужой правки');

    await page.getByRole('button', { name: /Загрузить разметку заново/ }).click();
    await page.getByTestId('unsaved').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByLabel('Строка 1: комментарий').inputValue(), RETRY).not.toBe('поверх чужой правки');
    expect(errors).toEqual([]);
    await page.close();
  });
});
