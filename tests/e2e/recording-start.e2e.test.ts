import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughPage, watchErrors, RETRY } from '../support/browser';
import { startDemo, type Demo } from '../support/demo';

/**
 * Issue 41, item 1, in Chromium: a recording whose name and metadata carry no start is not placed at
 * the upload's moment — the upload screen asks for its start, and it becomes a task at the time
 * given; an analyst changes it later in the task list and its markup moves with it.
 */
let demo: Demo;
let context: BrowserContext;
const scratch = mkdtempSync(join(tmpdir(), 'norma-start-'));

interface Markup {
  operation_id: number;
  workplace_id: number;
}

beforeAll(async () => {
  demo = await startDemo();
  context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughPage(page, demo.server.url, 'analyst');
  await page.close();
});
afterAll(async () => {
  await demo?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** A markup of the demo's packing area: an operation and a workplace to mark with. */
async function sampleMarkup(): Promise<Markup> {
  const tasks = await demo.get<{ elements: { video: { id: number } }[] }>(`/api/v1/get_tasks?structure_id=${demo.packingId}&option=all&offset=0&limit=100`);
  for (const { video } of tasks.elements) {
    const { video_markups } = await demo.get<{ video_markups: Markup[] }>(`/api/v1/video_markups/${video.id}`);
    if (video_markups[0]) return video_markups[0];
  }
  throw new Error('no markup in the demo');
}

/** The absolute start (ms) of the video's markups, as the period editor reads them. */
async function markupStarts(videoId: number, from: string, to: string): Promise<number[]> {
  const { operation_markups } = await demo.get<{ operation_markups: { video_id: number | null; start_time: string }[] }>(
    `/api/v1/operation_markups?structure_id=${demo.packingId}&from_time=${encodeURIComponent(from)}&to_time=${encodeURIComponent(to)}`,
  );
  return operation_markups.filter((m) => m.video_id === videoId).map((m) => Date.parse(m.start_time));
}

describe('a recording’s start at upload and later', () => {
  it('asks for an unknown start, lists the recording at the time given, and moves its markup when the start changes', async () => {
    const { server, cookie } = demo;
    const clip = join(scratch, 'phone-clip.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=320x180:r=10:d=3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/project`);
    await page.getByTestId('naming-hint').getByText('cam1_2026-11-16_09-00-00.mp4', { exact: false }).waitFor();
    await page.getByLabel('Структурная единица').selectOption({ label: 'Участок упаковки' });
    await page.getByLabel('Камера').selectOption({ index: 1 });
    await page.getByLabel('Файл').setInputFiles({ name: 'phone-clip.mp4', mimeType: 'video/mp4', buffer: readFileSync(clip) });
    await page.getByRole('button', { name: 'Загрузить и обработать' }).click();

    const editor = page.getByTestId('recording-start');
    await editor.getByText(/^Начало записи неизвестно/).waitFor();
    const field = editor.getByLabel(/^Начало записи \(Europe\/Moscow\)/);
    expect(await field.inputValue()).toBe('');
    // An empty start is not sent.
    await editor.getByRole('button', { name: 'Подтвердить' }).click();
    await editor.getByText('Укажите дату и время начала записи').waitFor();
    await field.fill('2026-11-20T10:15:30');
    await editor.getByRole('button', { name: 'Подтвердить' }).click();
    await page.getByTestId('confirmed-start').getByText('Начало записи подтверждено: 20.11.2026 10:15:30 (указано вручную)').waitFor();
    await page.getByText('Готово: запись появилась в задачах разметки').waitFor();
    const link = page.getByRole('link', { name: 'Открыть задачу' });
    const videoId = Number((await link.getAttribute('href'))!.split('/').pop());
    expect(videoId).toBeGreaterThan(0);

    // The task list shows it at the time given, confirmed.
    await page.goto(`${server.url}/#/markup/${demo.packingId}`);
    await page.getByLabel('Поиск по имени файла').fill('phone-clip');
    await page.getByRole('button', { name: 'Найти' }).click();
    const row = page.getByTestId('task-row').filter({ hasText: 'phone-clip.mp4' });
    await row.getByTestId('task-start').getByText('20.11.2026 10:15:30').waitFor();
    expect(await row.getByText('начало не подтверждено').count()).toBe(0);

    // A markup at 1–2 s of the recording.
    const sample = await sampleMarkup();
    const current = await demo.get<{ version: number }>(`/api/v1/video_markups/${videoId}`);
    const saved = await fetch(`${server.url}/api/v1/video_markups/${videoId}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        video_markups: [{ operation_id: sample.operation_id, workplace_id: sample.workplace_id, start_time: 1, end_time: 2 }],
        base_version: current.version,
      }),
    });
    expect(saved.status).toBe(200);
    const given = Date.parse('2026-11-20T07:15:30Z');
    expect(await markupStarts(videoId, '2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z')).toEqual([given + 1000]);

    // The analyst moves the start an hour on: the markup moves with it.
    await row.getByRole('button', { name: 'Изменить начало' }).click();
    await row.getByLabel(/^Начало записи/).fill('2026-11-20T11:15:30');
    await row.getByRole('button', { name: 'Сохранить' }).click();
    await row.getByTestId('task-start').getByText('20.11.2026 11:15:30').waitFor();
    await expect.poll(() => markupStarts(videoId, '2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z'), RETRY).toEqual([given + 3_600_000 + 1000]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an upload left before its start was given is named in the task list, and becomes a task once given there', async () => {
    const { server } = demo;
    const clip = join(scratch, 'left-clip.avi');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=320x180:r=10:d=3', '-c:v', 'mpeg4', clip]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/project`);
    await page.getByLabel('Структурная единица').selectOption({ label: 'Участок упаковки' });
    await page.getByLabel('Камера').selectOption({ index: 1 });
    await page.getByLabel('Файл').setInputFiles({ name: 'left-clip.avi', mimeType: 'video/x-msvideo', buffer: readFileSync(clip) });
    await page.getByRole('button', { name: 'Загрузить и обработать' }).click();
    await page
      .getByTestId('recording-start')
      .getByText(/^Начало записи неизвестно/)
      .waitFor();

    // The assessor goes to the task list without giving the start: the recording is not a task, but it is named.
    await page.goto(`${server.url}/#/markup/${demo.packingId}`);
    // Named as stored: left-clip.avi, or left-clip.mp4 once converted.
    const waiting = page.getByTestId('recording-without-start').filter({ hasText: 'left-clip' });
    await waiting.waitFor();
    await page.getByLabel('Поиск по имени файла').fill('left-clip');
    await page.getByRole('button', { name: 'Найти' }).click();
    await page.getByText('Задач нет по запросу «left-clip»').waitFor();

    await waiting.getByLabel(/^Начало записи \(Europe\/Moscow\)/).fill('2026-11-21T08:00:00');
    await waiting.getByRole('button', { name: 'Указать' }).click();
    // Once its processing is through, it is a task at the time given; the block has gone.
    const row = page.getByTestId('task-row').filter({ hasText: 'left-clip.mp4' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Найти' }).click();
          return row.count();
        },
        { ...RETRY, interval: 500 },
      )
      .toBe(1);
    await row.getByTestId('task-start').getByText('21.11.2026 08:00:00').waitFor();
    await expect.poll(() => page.getByTestId('recordings-without-start').count(), RETRY).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
