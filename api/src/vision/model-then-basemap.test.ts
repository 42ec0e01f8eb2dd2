import { afterAll, beforeAll, expect, it } from 'vitest';
import { sceneSchedule, SCENE_AREAS } from '../../../workers/test-support/vision-scene';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { markedScene } from '../../test-support/marked-scene';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

/**
 * Issue 41: a model trained and applied in the server process (onnxruntime-web's first session replaced
 * globalThis.Worker) must not break the threads started after it — the basemap is built on one
 * (map/basemap.ts) and answered 500 (ERR_WORKER_PATH) until a restart. Same app, same process: train,
 * apply, then read the basemap.
 */
let t: TestApp;
let w: VideoWorld;
let videoId: number;
let operationIds: Record<'A' | 'B' | 'C', number>;
const SECONDS = 60;
const HALF = 30;
const START = Date.UTC(2024, 0, 10, 6, 0, 0);

const call = async (method: string, path: string, body?: unknown) => {
  const response = await t.request(path, { method, cookie: w.cookies.admin, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

/** Runs the queued jobs in this process, as the server does (NORMA_JOB_SLOTS), and returns the job's row. */
async function runJob(id: number) {
  const runner = startWorkers(t.deps, { pollMs: 50 });
  await runner.drain();
  await runner.stop();
  return t.deps.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  ({ videoId, operationIds } = await markedScene(t, w, sceneSchedule(SECONDS), { start: START, seconds: SECONDS, half: HALF }));
});
afterAll(async () => t.cleanup());

it('serves the basemap (200, a PMTiles archive) after a model is trained and applied in the same server', async () => {
  const areas = [];
  for (const [name, rect] of Object.entries(SCENE_AREAS)) {
    const area = await call('POST', '/api/v1/video-area', { camera_id: w.cameraIds[0], name, ...rect });
    expect(area.status).toBe(200);
    areas.push(area.body.id as number);
  }
  const trained = await call('POST', '/api/v1/start_marker_training', {
    workplace_id: w.workplaceIds[0],
    operation_ids: Object.values(operationIds),
    marked_video_id: videoId,
    video_area_ids: areas,
    start_second: 0,
    end_second: HALF,
    comment: 'перед подложкой',
  });
  expect(trained.status).toBe(200);
  expect(await runJob(trained.body.job_id)).toMatchObject({ status: 'success', error: null });
  // Applying opens the model with onnxruntime-web in this process: its first session is what replaced the global.
  const applied = await call('POST', '/api/v1/start_marker_applying', {
    model_id: trained.body.model_id,
    unmarked_video_id: videoId,
    start_second: HALF,
    end_second: SECONDS,
  });
  expect(applied.status).toBe(200);
  expect(await runJob(applied.body.job_id)).toMatchObject({ status: 'success', error: null });

  const basemap = await t.request('/api/v1/map/basemap.pmtiles');
  expect({ status: basemap.status, error: basemap.status === 200 ? null : await basemap.text() }).toEqual({ status: 200, error: null });
  expect(basemap.headers.get('content-type')).toBe('application/vnd.pmtiles');
  const bytes = new Uint8Array(await basemap.arrayBuffer());
  expect(new TextDecoder().decode(bytes.slice(0, 7))).toBe('PMTiles');
  expect(bytes[7]).toBe(3);
});
