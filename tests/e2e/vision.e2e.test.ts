import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { SCENE_OPERATION_NAMES, SCENE_PASSWORD as PASSWORD, seedSceneWorld } from '../support/scene-world';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';
import { startDemo, type Demo } from '../support/demo';
import { untilState } from '../support/wait';

/**
 * Issue 14 in Chromium (docs/vision.md): an analyst opens /models/{videoId} of a marked demo video,
 * adds an area by dragging on the current frame (both §5 texts first), trains a model and waits
 * for it to be stored, reads its report, sees its suggestion run in the browser, applies it and
 * deletes it after confirming. Then, beside an API without workers (the training stays queued),
 * cancels a training after confirming, and sees the refusal when the job ended meanwhile.
 */
let demo: Demo;
let server: RunningServer;
let browser: Browser;
let cookie: string;
let videoId: number;
let workplaceId: number;
let operationNames: string[];
const SLOW = untilState(250);

interface Markups {
  video_markups: { workplace_id: number; operation_id: number; start_time: number; end_time: number }[];
}

const get = <T>(path: string) => demo.get<T>(path);

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser, cookie } = demo);
  const packing = { id: demo.packingId };
  const tasks = await get<{ elements: { video: { id: number } }[] }>(`/api/v1/get_tasks?structure_id=${packing.id}&option=all&offset=0&limit=100`);
  const operations = await get<{ operations: { id: number; name: string }[] }>(`/api/v1/available_operations?structure_id=${packing.id}`);
  // A video with markup inside its 20 seconds (the demo marks a few): its workplace and operations.
  for (const { video } of tasks.elements) {
    const markups = await get<Markups>(`/api/v1/video_markups/${video.id}`);
    const rows = markups.video_markups.filter((m) => m.start_time < 20 && m.end_time > 0);
    const place = rows[0]?.workplace_id;
    const ids = [...new Set(rows.filter((m) => m.workplace_id === place).map((m) => m.operation_id))];
    if (place && ids.length > 0) {
      videoId = video.id;
      workplaceId = place;
      operationNames = ids.map((id) => operations.operations.find((o) => o.id === id)!.name);
      break;
    }
  }
  if (!videoId) throw new Error('no marked demo video');
});
afterAll(async () => {
  await demo?.stop();
});

async function openModels(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await signInThroughPage(page, server.url, 'analyst');
  await page.goto(`${server.url}/#/models/${videoId}`);
  await page.getByTestId('models-table').waitFor();
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
  return page;
}

const toast = (page: Page, text: string | RegExp) => page.locator('.toast').filter({ hasText: text });

describe('models screen in Chromium', () => {
  it('adds an area on the frame, trains, reports, suggests in the browser, applies and deletes a model', async () => {
    const page = await openModels();
    const errors = watchErrors(page, { allowHttpErrors: true });

    // §5: a name first, then a frame with a rectangle.
    const areaForm = page.getByTestId('area-form');
    await areaForm.getByRole('button', { name: 'Добавить область' }).click();
    await toast(page, 'Надо заполнить имя области').waitFor();
    await areaForm.getByLabel('Имя области').fill('Вся сцена');
    await areaForm.getByRole('button', { name: 'Добавить область' }).click();
    await toast(page, 'Надо получить кадр и обвести хотя бы один прямоугольник').waitFor();
    // Error messages stay until closed; closed, they no longer cover the frame.
    for (const text of ['Надо заполнить имя области', 'Надо получить кадр и обвести хотя бы один прямоугольник'])
      await toast(page, text).getByRole('button', { name: 'Закрыть' }).click();

    await page.getByRole('button', { name: 'Текущий кадр' }).click();
    const stage = page.getByTestId('frame-canvas').locator('canvas').first();
    await stage.waitFor();
    // The form's buttons scrolled the page: bring the frame back before pressing on it.
    await stage.scrollIntoViewIfNeeded();
    const box = (await stage.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.1);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6, { steps: 5 });
    await page.mouse.up();
    // The corners in source pixels (the 640-wide demo frame shown at the canvas's width).
    await expect.poll(() => areaForm.getByLabel('Область x2').inputValue(), RETRY).not.toBe('');
    const corner = async (key: string) => Number(await areaForm.getByLabel(`Область ${key}`).inputValue());
    expect(await corner('x2')).toBeGreaterThan(await corner('x1'));
    expect(await corner('y2')).toBeGreaterThan(await corner('y1'));
    await areaForm.getByRole('button', { name: 'Добавить область' }).click();
    await expect.poll(() => page.getByTestId('area-row').filter({ hasText: 'Вся сцена' }).count(), RETRY).toBe(1);

    // Training: the workplace is required (§5), then the model id is announced.
    const form = page.getByTestId('training-form');
    await form.getByLabel('Операции').selectOption(operationNames);
    await form.getByLabel('Области видео').selectOption({ label: 'Вся сцена' });
    await form.getByLabel('Конец, с').fill('20');
    await form.getByRole('button', { name: 'Начать обучение' }).click();
    await toast(page, 'Выберите рабочее место для разметки').waitFor();
    await toast(page, 'Выберите рабочее место для разметки').getByRole('button', { name: 'Закрыть' }).click();
    await form.getByLabel('Рабочее место').selectOption(String(workplaceId));
    await form.getByRole('button', { name: 'Начать обучение' }).click();
    const started = toast(page, /модель № \d+/);
    await started.waitFor();
    const modelId = Number(/модель № (\d+)/.exec((await started.textContent())!)![1]);
    const row = page.locator(`[data-testid="model-row"][data-model-id="${modelId}"]`);
    await row.waitFor();

    // The bar polls until the job is done: 100 % and green once the file is stored.
    await expect.poll(() => row.getAttribute('data-stored'), SLOW).toBe('true');
    await expect.poll(() => row.getByTestId('model-progress').textContent(), RETRY).toBe('100\u00a0%');
    expect(await row.getByTestId('model-progress').getAttribute('class')).toContain('success');
    expect(await row.locator('.vision-key').textContent()).toMatch(new RegExp(`^models/\\d+/${modelId}\\.onnx$`));

    // The browser runs the same file (wasm here: headless Chromium has no WebGPU adapter).
    await page.getByLabel('Модель для подсказки').selectOption(String(modelId));
    const suggestion = page.getByTestId('suggestion');
    await expect.poll(() => suggestion.getAttribute('data-backend'), SLOW).toBe('wasm');
    await page.evaluate(() => {
      const video = document.querySelector('video')!;
      video.currentTime = 0;
      return video.play();
    });
    await expect.poll(() => suggestion.locator('strong').count(), SLOW).toBe(1);
    const suggested = await suggestion.locator('strong').textContent();
    expect(['Фон (прочее)', ...operationNames]).toContain(suggested);
    await page.evaluate(() => document.querySelector('video')!.pause());

    // The markup screen offers the same suggestion; M (listed in the key help) codes the suggested operation.
    const markup = await page.context().newPage();
    await markup.goto(`${server.url}/#/video/${videoId}`);
    await markup.getByLabel('Модель для подсказки').selectOption(String(modelId));
    await expect.poll(() => markup.getByTestId('suggestion').getAttribute('data-backend'), SLOW).toBe('wasm');
    await markup.getByRole('button', { name: 'Клавиши (?)' }).click();
    await markup.getByText('Принять подсказку модели').waitFor();
    await markup.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).click();
    await markup.evaluate(() => document.querySelector('video')!.play());
    await expect.poll(() => markup.getByTestId('suggestion').locator('strong').count(), SLOW).toBe(1);
    await markup.evaluate(() => document.querySelector('video')!.pause());
    const rowsBefore = await markup.getByTestId('op-row').count();
    const said = (await markup.getByTestId('suggestion').locator('strong').textContent())!;
    await markup.locator('.markup-head h1').click();
    await markup.keyboard.press('m');
    if (said === 'Фон (прочее)') await toast(markup, 'Модель сейчас не подсказывает операцию').waitFor();
    else await expect.poll(() => markup.getByTestId('op-row').count(), RETRY).toBe(rowsBefore + 1);
    await markup.close();

    // Apply: the alert names the model and the video.
    await row.getByRole('button', { name: 'Применить' }).click();
    await toast(page, /Модель «.+» применяется к видео «.+»/).waitFor();
    await expect.poll(() => row.getByTestId('apply-status').textContent(), SLOW).toBe('применена');

    // The report on /model/{id}.
    const report = await get<{ meta: { name: string; report: string } }>(`/api/v1/model/${modelId}`);
    expect(report.meta.report.length).toBeGreaterThan(50);
    const details = await page.context().newPage();
    await details.goto(`${server.url}/#/model/${modelId}`);
    await expect.poll(() => details.getByTestId('model-name').textContent(), RETRY).toBe(report.meta.name);
    await expect.poll(() => details.getByTestId('model-report').inputValue(), RETRY).toBe(report.meta.report);
    expect(await details.getByTestId('model-report').getAttribute('readonly')).not.toBeNull();
    await details.close();

    // Delete asks first; «Нет» keeps the model, «Да, удалить» removes it.
    await row.getByRole('button', { name: 'Удалить' }).click();
    await row.getByText(`Удалить модель ${modelId}?`).waitFor();
    await row.getByRole('button', { name: 'Нет' }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Удалить' }).click();
    await row.getByRole('button', { name: 'Да, удалить' }).click();
    await expect.poll(() => row.count(), RETRY).toBe(0);
    expect((await fetch(`${server.url}/api/v1/model/${modelId}`, { headers: { cookie } })).status).toBe(404);

    expect(errors).toEqual([]);
  });
});

describe('cancelling a training in Chromium', () => {
  let quiet: RunningServer;
  let dataDir: string;
  let leadCookie: string;
  let body: Record<string, unknown>;
  let sceneVideoId: number;

  beforeAll(async () => {
    // No workers: a training stays queued until it is cancelled.
    // 30 s with one chosen operation: the rest of the span is the other work the model must see (issue 43).
    const world = await seedSceneWorld({ seconds: 30, fps: 10, markedUntil: 30 });
    dataDir = world.dataDir;
    sceneVideoId = world.videoIds[0]!;
    body = {
      workplace_id: world.workplaceId,
      operation_ids: [world.operationIds.A],
      marked_video_id: sceneVideoId,
      video_area_ids: world.areaIds,
      start_second: 0,
      end_second: 30,
    };
    quiet = await startServer({ NORMA_WORKERS: '0' }, { dataDir });
    leadCookie = await apiSessionCookie(quiet.url, 'lead', PASSWORD);
  });
  afterAll(async () => {
    await quiet?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const train = async () => {
    const response = await fetch(`${quiet.url}/api/v1/start_marker_training`, {
      method: 'POST',
      headers: { cookie: leadCookie, 'content-type': 'application/json', origin: quiet.url },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { model_id: number; job_id: number };
  };
  const jobStatus = async (id: number) =>
    ((await (await fetch(`${quiet.url}/api/v1/jobs/${id}`, { headers: { cookie: leadCookie } })).json()) as { status: string }).status;

  it('cancels a queued training after confirming; a job that ended meanwhile is refused with a message', async () => {
    const first = await train();
    const second = await train();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await signInThroughPage(page, quiet.url, 'lead', PASSWORD);
    await page.goto(`${quiet.url}/#/models/${sceneVideoId}`);
    const row = (id: number) => page.locator(`[data-testid="model-row"][data-model-id="${id}"]`);
    await row(first.model_id).getByText('в очереди').waitFor();

    // «Нет» keeps the job; «Да, отменить» cancels it: the toast, the row and the job say so.
    await row(first.model_id).getByRole('button', { name: 'Отменить' }).click();
    await row(first.model_id).getByText(`Отменить обучение модели ${first.model_id}?`).waitFor();
    await row(first.model_id).getByRole('button', { name: 'Нет' }).click();
    expect(await jobStatus(first.job_id)).toBe('queued');
    await row(first.model_id).getByRole('button', { name: 'Отменить' }).click();
    await row(first.model_id).getByRole('button', { name: 'Да, отменить' }).click();
    await toast(page, `Обучение модели № ${first.model_id} отменено`).waitFor();
    await row(first.model_id).getByText('обучение отменено').waitFor();
    expect(await row(first.model_id).getByRole('button', { name: 'Отменить' }).count()).toBe(0);
    expect(await row(first.model_id).getByTestId('model-progress').getAttribute('class')).toContain('info');
    expect(await jobStatus(first.job_id)).toBe('cancelled');

    // Asked, but the job ends elsewhere before «Да»: the refusal is shown, nothing breaks.
    await row(second.model_id).getByRole('button', { name: 'Отменить' }).click();
    const elsewhere = await fetch(`${quiet.url}/api/v1/jobs/${second.job_id}/cancel`, { method: 'POST', headers: { cookie: leadCookie, origin: quiet.url } });
    expect(elsewhere.status).toBe(200);
    await row(second.model_id).getByRole('button', { name: 'Да, отменить' }).click();
    await toast(page, 'Задача уже завершена: отменять нечего').waitFor();
    await row(second.model_id).getByText('обучение отменено').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
  it('trains on people’s poses when the analyst ticks it: the form sends poses, the queued model is announced', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, quiet.url, 'lead', PASSWORD);
    await page.goto(`${quiet.url}/#/models/${sceneVideoId}`);
    const form = page.getByTestId('training-form');
    await form.getByLabel('Операции').locator('option').first().waitFor();
    await form.getByLabel('Операции').selectOption({ label: SCENE_OPERATION_NAMES.A });
    await form.getByLabel('Области видео').selectOption({ index: 0 });
    await form.getByLabel('Рабочее место').selectOption(String(body.workplace_id));
    await form.getByLabel('Конец, с').fill('30');
    const poses = form.getByRole('checkbox', { name: 'Учитывать позы людей (только на сервере)' });
    expect(await poses.isChecked()).toBe(false);
    await poses.check();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/api/v1/start_marker_training') && r.method() === 'POST'),
      form.getByRole('button', { name: 'Начать обучение' }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ poses: true, workplace_id: body.workplace_id, end_second: 30 });
    const started = toast(page, /модель № \d+/);
    await started.waitFor();
    const modelId = Number(/модель № (\d+)/.exec((await started.textContent())!)![1]);
    await page.locator(`[data-testid="model-row"][data-model-id="${modelId}"]`).getByText('в очереди').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
