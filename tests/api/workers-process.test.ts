import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../workers/test-support/test-clips';
import { RETRY } from '../support/browser';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';
import { seedCameraFolder } from '../support/camera-folder';

/**
 * `npm run workers` beside an API started with NORMA_WORKERS=0: an upload's ingest job waits in the
 * queue while no worker runs, and the separate worker process takes it and finishes it.
 */

const root = resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'secret-pass';

let dataDir: string;
let cameraId: number;
let server: RunningServer;
let worker: ReturnType<typeof Bun.spawn> | null = null;
let workerLog = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'norma-workers-'));
  ({ cameraId } = await seedCameraFolder(dataDir, PASSWORD));
  server = await startServer({ NORMA_WORKERS: '0' }, { dataDir });
});
afterAll(async () => {
  worker?.kill();
  await worker?.exited;
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('workers as a process of their own', () => {
  it('takes the jobs an API without workers queued, on the same data folder', async () => {
    const cookie = await apiSessionCookie(server.url, 'lead', PASSWORD);
    const clipPath = join(dataDir, 'clip-source.mp4');
    await makeClip(clipPath, { seconds: 3, creationTime: '2026-11-17T05:00:00Z' });
    const upload = await fetch(`${server.url}/api/v1/upload?camera_id=${cameraId}&filename=cam1_2026-11-17_10-00-00.mp4`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'video/mp4' },
      body: Bun.file(clipPath),
    });
    expect(upload.status).toBe(200);
    const { job_id: jobId, video_id: videoId } = (await upload.json()) as { job_id: number; video_id: number };
    const job = async () => (await (await fetch(`${server.url}/api/v1/jobs/${jobId}`, { headers: { cookie } })).json()) as { status: string; progress: number };

    // The API runs no jobs: the ingest stays queued.
    await Bun.sleep(1500);
    expect(await job()).toMatchObject({ status: 'queued', progress: 0 });

    worker = Bun.spawn([join(root, 'node_modules', '.bin', 'bun'), 'api/src/worker-main.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    void (async () => {
      for await (const chunk of worker!.stdout as ReadableStream<Uint8Array>) workerLog += new TextDecoder().decode(chunk);
    })();
    await expect.poll(job, { ...RETRY, interval: 250 }).toMatchObject({ status: 'success', progress: 100 });
    const meta = (await (await fetch(`${server.url}/api/v1/video_meta/${videoId}`, { headers: { cookie } })).json()) as { status: string; duration: number };
    expect(meta.status).toBe('ready');
    expect(Math.abs(meta.duration - 3)).toBeLessThan(0.3);
    expect(workerLog).toContain('фоновые задачи запущены');
  });
});
