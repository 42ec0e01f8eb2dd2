import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    await job.getByText(/Обработка не удалась: Файл не удалось прочитать как видео.*Файл удалён с сервера/).waitFor();
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
    await row.getByText(/Файл не удалось прочитать как видео/).waitFor();
    await row.getByRole('button', { name: 'Удалить' }).click();
    await page.getByTestId('failed-uploads').waitFor({ state: 'detached' });
    expect(await failedVideos()).toEqual([]);
  });
});
