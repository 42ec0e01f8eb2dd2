import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../workers/test-support/test-clips';
import { RETRY, watchErrors } from '../support/browser';
import { startCameraFolderApp, type CameraFolderApp } from '../support/camera-folder';

/** Issue 24: an upload cut in half (an interrupted copy) is processed, and the screens say it is damaged and why. */

let app: CameraFolderApp;

beforeAll(async () => {
  app = await startCameraFolderApp('norma-damaged-');
});
afterAll(async () => {
  await app?.stop();
});

describe('a damaged recording in Chromium', () => {
  it('the task list and the markup screen show «повреждена» with the reason', async () => {
    const { server, page, cookie } = app;
    const whole = join(app.dataDir, 'whole.mp4');
    await makeClip(whole, { seconds: 30, faststart: true });
    const bytes = readFileSync(whole);
    const upload = await fetch(`${server.url}/api/v1/upload?camera_id=${app.cameraId}&filename=cam1_2026-11-16_09-00-00.mp4`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'video/mp4', origin: server.url },
      body: bytes.subarray(0, Math.floor(bytes.length / 2)),
    });
    expect(upload.status).toBe(200);
    const { job_id: jobId, video_id: videoId } = (await upload.json()) as { job_id: number; video_id: number };
    await expect.poll(() => app.jobStatus(jobId), { ...RETRY, interval: 200 }).toBe('success');

    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/markup/${app.structureId}`);
    const row = page.getByTestId('task-row').filter({ hasText: 'cam1_2026-11-16_09-00-00.mp4' });
    await row.getByTestId('damaged').getByText('повреждена', { exact: true }).waitFor();
    await row.getByText(/Запись повреждена: файл обрезан — заявлено 30 с, читается/).waitFor();

    await page.goto(`${server.url}/#/video/${videoId}`);
    await page.getByTestId('damaged').getByText('повреждена', { exact: true }).waitFor();
    await page
      .getByRole('alert')
      .filter({ hasText: /файл обрезан — заявлено 30 с/ })
      .waitFor();
    expect(errors).toEqual([]);
  });
});
