import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../workers/test-support/test-clips';
import { launchBrowser, signInThroughPage, watchErrors } from '../support/browser';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';
import { seedCameraFolder } from '../support/camera-folder';

/** Issue 24: an upload cut in half (an interrupted copy) is processed, and the screens say it is damaged and why. */

const PASSWORD = 'secret-pass';
let dataDir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;
let cookie: string;
let structureId: number;
let cameraId: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'norma-damaged-'));
  ({ structureId, cameraId } = await seedCameraFolder(dataDir, PASSWORD));
  [server, browser] = await Promise.all([startServer({}, { dataDir }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'lead', PASSWORD);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInThroughPage(page, server.url, 'lead', PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a damaged recording in Chromium', () => {
  it('the task list and the markup screen show «повреждена» with the reason', async () => {
    const whole = join(dataDir, 'whole.mp4');
    await makeClip(whole, { seconds: 30, faststart: true });
    const bytes = readFileSync(whole);
    const upload = await fetch(`${server.url}/api/v1/upload?camera_id=${cameraId}&filename=cam1_2026-11-16_09-00-00.mp4`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'video/mp4', origin: server.url },
      body: bytes.subarray(0, Math.floor(bytes.length / 2)),
    });
    expect(upload.status).toBe(200);
    const { job_id: jobId, video_id: videoId } = (await upload.json()) as { job_id: number; video_id: number };
    await expect
      .poll(async () => ((await (await fetch(`${server.url}/api/v1/jobs/${jobId}`, { headers: { cookie } })).json()) as { status: string }).status, {
        timeout: 120_000,
        interval: 200,
      })
      .toBe('success');

    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/markup/${structureId}`);
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
