import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughPage, watchErrors, RETRY } from '../support/browser';
import type { RunningServer } from '../support/server';
import { startDemo, type Demo } from '../support/demo';

let demo: Demo;
let server: RunningServer;
let browser: Browser;
let analyst: BrowserContext;
let cookie: string;
let packingId: number;
const scratch = mkdtempSync(join(tmpdir(), 'norma-pipeline-'));

const get = <T>(path: string) => demo.get<T>(path);

beforeAll(async () => {
  demo = await startDemo();
  ({ server, browser, cookie } = demo);
  packingId = demo.packingId;
  analyst = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await analyst.newPage();
  await signInThroughPage(page, server.url, 'analyst');
  await page.close();
});
afterAll(async () => {
  await demo?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('from a camera folder to a task, in Chromium', () => {
  it('syncs new recordings, plays one, seeks to two thirds, and deletes the task', async () => {
    const page = await analyst.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/projects/${packingId}`);
    await page.getByRole('button', { name: 'Синхронизировать' }).click();
    const result = page.getByTestId('sync-result');
    await result.waitFor();
    const found = await result.locator('li').allTextContents();
    expect(found).toHaveLength(4);
    expect(found.every((name) => /^cam[1-4]_2026-11-17_/.test(name))).toBe(true);
    const filename = found.find((name) => name.startsWith('cam1_'))!;

    // The ingest jobs run in the background; the task appears once its video is ready.
    await page.goto(`${server.url}/#/markup/${packingId}`);
    await page.getByLabel('Поиск по имени файла').fill(filename);
    const row = page.getByTestId('task-row').filter({ hasText: filename });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Найти' }).click();
          return row.count();
        },
        { ...RETRY, interval: 500 },
      )
      .toBe(1);

    await row.getByRole('link', { name: 'Открыть' }).click();
    await page.waitForURL(/#\/video\/\d+$/);
    const videoId = Number(page.url().split('/').pop());
    await page.locator('video').waitFor();
    const position = await page.evaluate(async () => {
      const video = document.querySelector('video') as HTMLVideoElement;
      if (video.readyState < 1) await new Promise((done) => video.addEventListener('loadedmetadata', done, { once: true }));
      await video.play();
      // Playing for real: the position has moved on, whatever the machine's speed.
      await new Promise<void>((done) => {
        const moved = () => {
          if (video.currentTime <= 0.3) return;
          video.removeEventListener('timeupdate', moved);
          done();
        };
        video.addEventListener('timeupdate', moved);
      });
      video.pause();
      const target = (video.duration * 2) / 3;
      video.currentTime = target;
      await new Promise((done) => video.addEventListener('seeked', done, { once: true }));
      return { target, currentTime: video.currentTime, readyState: video.readyState, duration: video.duration };
    });
    expect(position.duration).toBeGreaterThan(19);
    expect(Math.abs(position.currentTime - position.target)).toBeLessThan(0.5);
    expect(position.readyState).toBeGreaterThanOrEqual(2);

    await page.goto(`${server.url}/#/markup/${packingId}`);
    await page.getByLabel('Поиск по имени файла').fill(filename);
    await page.getByRole('button', { name: 'Найти' }).click();
    await row.getByRole('button', { name: 'Удалить' }).click();
    await row.getByRole('button', { name: 'Да, удалить' }).click();
    await page.getByText('Задача удалена').waitFor();
    // The list reloads after the toast.
    await row.waitFor({ state: 'detached' });
    const gone = await fetch(`${server.url}/api/v1/video_meta/${videoId}`, { headers: { cookie } });
    expect(gone.status).toBe(404);
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
    await page.close();
  });

  it('asks for a date and a camera before downloading the work-time record', async () => {
    const page = await analyst.newPage();
    await page.goto(`${server.url}/#/markup/${packingId}`);
    await page.getByRole('button', { name: 'Скачать (TSV)' }).click();
    await page.getByText('Нужно выбрать дату и камеру').waitFor();
    await page.getByLabel('Дата').fill('2026-11-16');
    await page.getByLabel('Камера').selectOption('1');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Скачать (TSV)' }).click();
    const file = await download;
    const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    expect(text.split('\n')[0]).toContain('\t');
    expect(text.trim().split('\n').length).toBeGreaterThan(1);
    await page.close();
  });

  it('plays four cameras on one slider and says when a camera has no footage', async () => {
    const page = await analyst.newPage();
    await page.goto(`${server.url}/#/multi-video`);
    await page.getByLabel('Структурная единица').selectOption({ label: 'Участок сборки редукторов' });
    await page.getByTestId('camera-4').waitFor();
    // At the first instant only camera 1 records: the others start a few seconds later.
    await expect.poll(() => page.getByTestId('camera-1').locator('video').count(), RETRY).toBe(1);
    await expect.poll(() => page.getByTestId('camera-4').textContent(), RETRY).toContain('Нет записи в этот момент');
    // A caption names the camera once, not «Камера 1 · Камера 1» (issue 28).
    for (const key of [1, 2, 3, 4]) expect(await page.getByTestId(`camera-${key}`).locator('figcaption').textContent()).not.toMatch(/^(.+) · \1$/);
    const slider = page.getByLabel('Момент времени');
    const min = Number(await slider.getAttribute('min'));
    await slider.fill(String(min + 12));
    for (const key of [1, 2, 3, 4]) await page.getByTestId(`camera-${key}`).locator('video').waitFor();
    // Each player seeks once its metadata has loaded.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('video')].every((v) => (v as HTMLVideoElement).readyState >= 1 && (v as HTMLVideoElement).currentTime > 1),
    );
    const positions = await page.evaluate(() => [...document.querySelectorAll('video')].map((v) => (v as HTMLVideoElement).currentTime));
    // Camera k started (k−1)·2 s after camera 1 in 20-second demo clips, so each shows 12 − 2(k−1) s.
    expect(positions.map((p) => Math.round(p))).toEqual([12, 10, 8, 6]);
    await page.close();
  });

  it('uploads an MP4 from the new-project screen with real progress, asks its start, and refuses other formats', async () => {
    const clip = join(scratch, 'timelapse.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=320x180:r=10:d=3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip]);
    const page = await analyst.newPage();
    await page.goto(`${server.url}/#/project`);
    await page.getByLabel('Файл').setInputFiles({ name: 'clip.flv', mimeType: 'video/x-flv', buffer: Buffer.from('not a movie') });
    await page.getByText(/^Ошибка: допускаются видеофайлы MP4, MOV, AVI, MKV, WebM, MPEG-TS/).waitFor();
    // The picker offers the camera and phone formats, not only MP4.
    expect(await page.getByLabel('Файл').getAttribute('accept')).toContain('.avi');
    await page.getByLabel('Структурная единица').selectOption({ label: 'Участок упаковки' });
    await page.getByLabel('Камера').selectOption({ index: 1 });
    await page.getByLabel('Файл').setInputFiles(clip);
    await page.getByRole('button', { name: 'Загрузить и обработать' }).click();
    // No start in the name or the metadata: the start is asked, the file's time offered, then confirmed.
    await page.getByRole('button', { name: /^Взять время файла/ }).click();
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await page.getByTestId('confirmed-start').waitFor();
    await page.getByText('Готово: запись появилась в задачах разметки').waitFor();
    await page.getByRole('link', { name: 'Открыть задачу' }).waitFor();
    const tasks = await get<{ elements: { video: { filename: string } }[] }>(
      `/api/v1/get_tasks?structure_id=${packingId}&option=all&offset=0&limit=100&filename_pattern=timelapse`,
    );
    expect(tasks.elements.map((t) => t.video.filename)).toEqual(['timelapse.mp4']);
    await page.close();
  });
});
