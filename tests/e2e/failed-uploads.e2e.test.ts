import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../workers/test-support/test-clips';
import { RETRY, watchErrors } from '../support/browser';
import { startCameraFolderApp, type CameraFolderApp } from '../support/camera-folder';

/** An upload that is no video: its processing fails, the screens say why and let it be deleted. */

const NOT_A_VIDEO = Buffer.from('это текст, а не видео\n'.repeat(200));
let app: CameraFolderApp;

const failedVideos = async () =>
  (await (await fetch(`${app.server.url}/api/v1/failed_videos?structure_id=${app.structureId}`, { headers: { cookie: app.cookie } })).json()) as {
    id: number;
    filename: string;
  }[];

beforeAll(async () => {
  app = await startCameraFolderApp('norma-failed-uploads-');
});
afterAll(async () => {
  await app?.stop();
});

describe('failed uploads in Chromium', () => {
  it('the new-project screen shows the failed processing with its reason and deletes the recording', async () => {
    const { server, page } = app;
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/project`);
    await page.getByLabel('Структурная единица').selectOption({ label: 'Участок' });
    await page.getByLabel('Камера').selectOption({ index: 1 });
    await page.getByLabel('Файл').setInputFiles({ name: 'fake.mp4', mimeType: 'video/mp4', buffer: NOT_A_VIDEO });
    await page.getByRole('button', { name: 'Загрузить и обработать' }).click();
    const job = page.getByTestId('upload-job').filter({ hasText: 'fake.mp4' });
    await job.getByText(/Обработка не удалась: Файл не является видеозаписью в поддерживаемом формате.*Файл удалён с сервера/).waitFor();
    expect((await failedVideos()).map((v) => v.filename)).toEqual(['fake.mp4']);
    await job.getByRole('button', { name: 'Удалить запись' }).click();
    await job.getByText('Запись удалена').waitFor();
    expect(await failedVideos()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the task list lists recordings that failed, with the reason, and deletes them', async () => {
    const { server, page, cookie } = app;
    const upload = await fetch(`${server.url}/api/v1/upload?camera_id=${app.cameraId}&filename=broken.mp4`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'video/mp4' },
      body: NOT_A_VIDEO,
    });
    expect(upload.status).toBe(200);
    const { job_id: jobId } = (await upload.json()) as { job_id: number };
    // The ingest runs in the server's background workers; a failure is final at once (no retries).
    await expect.poll(() => app.jobStatus(jobId), { ...RETRY, interval: 200 }).toBe('failed');
    await page.goto(`${server.url}/#/markup/${app.structureId}`);
    const row = page.getByTestId('failed-upload').filter({ hasText: 'broken.mp4' });
    await row.getByText(/Файл не является видеозаписью в поддерживаемом формате/).waitFor();
    await row.getByRole('button', { name: 'Удалить' }).click();
    await page.getByTestId('failed-uploads').waitFor({ state: 'detached' });
    expect(await failedVideos()).toEqual([]);
  });

  it('the task list processes a failed recording again, and it becomes ready', async () => {
    const { server, page, cookie } = app;
    const errors = watchErrors(page);
    // The recorder's file, synced while it was still being written (no index yet): its processing fails, the file stays.
    const name = 'cam1_2026-11-18_09-00-00.mp4';
    const whole = join(app.dataDir, 'whole.mp4');
    await makeClip(whole, { seconds: 2, faststart: false });
    const bytes = readFileSync(whole);
    const path = join(app.dataDir, 'objects', 'rec', '1', name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    const synced = await fetch(`${server.url}/api/v1/sync_videos?structure_id=${app.structureId}`, { headers: { cookie } });
    expect(((await synced.json()) as { new_videos: string[] }).new_videos).toEqual([name]);
    await expect.poll(async () => (await failedVideos()).map((v) => v.filename), { ...RETRY, interval: 200 }).toEqual([name]);
    const videoId = (await failedVideos())[0]!.id;
    // The recorder has finished writing it.
    writeFileSync(path, bytes);

    // The page may still be on this screen from the test before: loaded afresh, it lists the new failure.
    await page.goto(`${server.url}/#/markup/${app.structureId}`);
    await page.reload();
    const row = page.getByTestId('failed-upload').filter({ hasText: name });
    await row.waitFor();
    await row.getByRole('button', { name: 'Повторить обработку' }).click();
    await page.getByText('Обработка запущена заново').waitFor();
    await page.getByTestId('failed-uploads').waitFor({ state: 'detached' });
    const status = async () =>
      ((await (await fetch(`${server.url}/api/v1/video_meta/${videoId}`, { headers: { cookie } })).json()) as { status: string }).status;
    await expect.poll(status, { ...RETRY, interval: 200 }).toBe('ready');
    expect(await failedVideos()).toEqual([]);
    // The video is the finished file now: the loader, asking about it, is told it is there.
    const hash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
    const check = await fetch(`${server.url}/api/v1/upload_check?camera_id=${app.cameraId}&content_hash=${hash}`, { headers: { cookie } });
    expect(await check.json()).toEqual({ exists: true, video_id: videoId, status: 'ready' });
    expect(errors).toEqual([]);
  });
});
