import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClassifier } from '@norma/workers/vision';
import { RETRY } from '../support/browser';
import { untilState } from '../support/wait';
import { SCENE_PASSWORD, seedSceneWorld } from '../support/scene-world';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * Issue 14: training and applying resume after the worker process dies. An API started with
 * NORMA_WORKERS=0 and `npm run workers` processes on the same DATA_DIR; the worker is killed with
 * SIGKILL in the middle of a job (its progress already written), a new one takes the stale job
 * back (NORMA_JOB_STALE_SECONDS, seconds here instead of a minute) and finishes it: the training
 * gives a stored model that loads, the applying the same markups as one clean run, no duplicates.
 */

const root = resolve(import.meta.dirname, '..', '..');
const SECONDS = 40;
const TRAIN_END = 28;
const STALE_SECONDS = 4;

let dataDir: string;
let server: RunningServer;
let cookie: string;
let videoId: number;
let workplaceId: number;
let operationIds: number[];
let areaIds: number[];
const workers = new Set<ReturnType<typeof Bun.spawn>>();
let workerLog = '';

beforeAll(async () => {
  const world = await seedSceneWorld({ seconds: SECONDS, fps: 10, seed: 5, markedUntil: TRAIN_END });
  ({ dataDir, workplaceId, areaIds } = world);
  videoId = world.videoIds[0]!;
  operationIds = Object.values(world.operationIds);
  server = await startServer({ NORMA_WORKERS: '0' }, { dataDir });
  cookie = await apiSessionCookie(server.url, 'lead', SCENE_PASSWORD);
});
afterAll(async () => {
  for (const worker of workers) {
    worker.kill('SIGKILL');
    await worker.exited;
  }
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run workers`' process (api/src/worker-main.ts) on the test's data folder, stale locks taken back after STALE_SECONDS. */
function startWorker() {
  const worker = Bun.spawn([join(root, 'node_modules', '.bin', 'bun'), 'api/src/worker-main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, NORMA_JOB_STALE_SECONDS: String(STALE_SECONDS) },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  workers.add(worker);
  void (async () => {
    for await (const chunk of worker.stdout as ReadableStream<Uint8Array>) workerLog += new TextDecoder().decode(chunk);
  })();
  return worker;
}

async function kill(worker: ReturnType<typeof Bun.spawn>) {
  worker.kill('SIGKILL');
  await worker.exited;
  workers.delete(worker);
}

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json', origin: server.url },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

interface JobState {
  status: string;
  progress: number;
  attempts: number;
  last_error: string | null;
}
const job = async (id: number) => (await api('GET', `/api/v1/jobs/${id}`)).body as JobState;

/** Waits until the job's progress is written, then kills the worker at once: the job is left running with its lock. */
async function killMidway(worker: ReturnType<typeof Bun.spawn>, jobId: number) {
  await expect.poll(async () => (await job(jobId)).progress, { ...RETRY, interval: 20 }).toBeGreaterThan(0);
  await kill(worker);
  const left = await job(jobId);
  expect(left.status, 'the job was still running when its worker died').toBe('running');
  expect(left.progress).toBeLessThan(100);
}

const modelMarkups = async () =>
  (
    (await api('GET', `/api/v1/video_markups/${videoId}`)).body.video_markups as {
      source: string;
      operation_id: number;
      start_time: number;
      end_time: number;
    }[]
  )
    .filter((m) => m.source === 'model')
    .map((m) => [m.operation_id, m.start_time, m.end_time])
    .sort((a, b) => a[1]! - b[1]! || a[0]! - b[0]!);

describe('vision jobs after the worker process dies', () => {
  let modelId: number;

  it('training: a new worker takes the job back and stores a model that loads', async () => {
    const started = await api('POST', '/api/v1/start_marker_training', {
      workplace_id: workplaceId,
      operation_ids: operationIds,
      marked_video_id: videoId,
      video_area_ids: areaIds,
      start_second: 0,
      end_second: TRAIN_END,
      comment: 'до и после сбоя',
    });
    expect(started.status).toBe(200);
    modelId = started.body.model_id;
    const jobId: number = started.body.job_id;

    await killMidway(startWorker(), jobId);
    startWorker();
    await expect.poll(() => job(jobId), untilState(250)).toMatchObject({ status: 'success', progress: 100 });
    expect((await job(jobId)).attempts).toBe(2);

    const meta = (await api('GET', `/api/v1/model/${modelId}`)).body.meta;
    expect(meta).toMatchObject({ status: 'trained', completion_percentage: 100, error: null });
    expect(meta.object_storage_key).toMatch(/\.onnx$/);
    const file = await fetch(`${server.url}/api/v1/model/${modelId}/onnx`, { headers: { cookie } });
    expect(file.status).toBe(200);
    const session = await loadClassifier(new Uint8Array(await file.arrayBuffer()), { inputs: 2 * 21, classes: 4 });
    await session.release();
  });

  it('applying: the rerun after the kill leaves exactly the markups of one clean run', async () => {
    const apply = async () => {
      const started = await api('POST', '/api/v1/start_marker_applying', {
        model_id: modelId,
        unmarked_video_id: videoId,
        start_second: 0,
        end_second: SECONDS,
      });
      expect(started.status).toBe(200);
      return started.body.job_id as number;
    };
    // One clean run, with the worker left from the training test.
    const clean = await apply();
    await expect.poll(() => job(clean), { ...RETRY, interval: 100 }).toMatchObject({ status: 'success' });
    const once = await modelMarkups();
    // Only the unmarked 12 s hold model segments: the layer never overlaps people's rows (docs/vision.md «Слой модели»).
    expect(once.length).toBeGreaterThanOrEqual(2);

    // Stop every worker, queue the same applying again, run it in a fresh worker and kill that one midway.
    for (const worker of [...workers]) await kill(worker);
    const again = await apply();
    await killMidway(startWorker(), again);
    startWorker();
    await expect.poll(() => job(again), untilState(250)).toMatchObject({ status: 'success', progress: 100 });
    expect((await job(again)).attempts).toBe(2);
    expect(await modelMarkups()).toEqual(once);
    expect(workerLog).toContain('фоновые задачи запущены');
  });
});
