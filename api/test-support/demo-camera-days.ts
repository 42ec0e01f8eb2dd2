import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VisionSpec } from '@norma/workers/vision';
import { afterAll, beforeAll, expect } from 'vitest';
import { startWorkers } from '../src/job-registry';
import { DEMO_PASSWORD, demoLeaves } from '../src/seed/demo-plan';
import { defaultVideoCacheDir, seedDemoIfEmpty } from '../src/seed/demo';
import { createTestApp, type TestApp } from './testing';

/**
 * The demo scene across days (issues 25 and 43): the assembly leaf's camera 1, its first clip of
 * each of the two days, seeded alone and longer than the default (a few work cycles each); the
 * analyst signed in. Cross-day, resolution and light tests train on day one and test on day two.
 */
export const DEMO_CAMERA_LEAF = demoLeaves[0]!;

export async function seedDemoCameraDays(t: TestApp, videoSeconds: number) {
  const seeded = await seedDemoIfEmpty(t.deps, {
    videoSeconds,
    videoCacheDir: defaultVideoCacheDir(),
    onlyClips: (l, clip) => l.slug === DEMO_CAMERA_LEAF.slug && clip.cameraKey === 1 && clip.clipIndex === 0,
  });
  expect(seeded).toBe(true);
  const cookie = await t.signIn('analyst', DEMO_PASSWORD);
  /** A JSON call as the analyst: the status and the parsed body (null when empty). */
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await t.request(path, { method, cookie, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  return { cookie, call };
}

/**
 * The set-up of a test file on the demo camera days: before its tests, an app with the two days seeded
 * (`seedDemoCameraDays`), the analyst's `call` and a scratch folder for re-encoded videos; after them,
 * both removed. Read the fields inside tests (they are set in `beforeAll`).
 */
export function demoCameraDaysSuite(videoSeconds: number) {
  const suite = {} as { t: TestApp; call: DemoCall; scratch: string };
  beforeAll(async () => {
    suite.t = await createTestApp();
    suite.call = (await seedDemoCameraDays(suite.t, videoSeconds)).call;
    suite.scratch = await mkdtemp(join(tmpdir(), 'norma-camera-days-'));
  });
  afterAll(async () => {
    if (suite.scratch) await rm(suite.scratch, { recursive: true, force: true });
    await suite.t?.cleanup();
  });
  return suite;
}

/** The seeded camera's rows: structure, camera, the two days' videos, the first workplace and the main operations in order. */
export async function demoCameraDays(t: TestApp) {
  const { db } = t.deps;
  const leaf = DEMO_CAMERA_LEAF;
  const structure = await db.selectFrom('structures').select('id').where('name', '=', leaf.name).executeTakeFirstOrThrow();
  const camera = await db.selectFrom('cameras').select('id').where('structure_id', '=', structure.id).where('camera_key', '=', 1).executeTakeFirstOrThrow();
  const videos = await db.selectFrom('videos').selectAll().where('camera_id', '=', camera.id).orderBy('start_time').execute();
  expect(videos).toHaveLength(2);
  const workplace = await db
    .selectFrom('workplaces')
    .select('id')
    .where('structure_id', '=', structure.id)
    .where('name', '=', leaf.workplaces[0])
    .executeTakeFirstOrThrow();
  const operations = await db
    .selectFrom('operations')
    .select(['id', 'name'])
    .where('structure_id', '=', structure.id)
    .where('type', '=', 'main')
    .orderBy('id')
    .execute();
  return { structure, camera, dayOne: videos[0]!, dayTwo: videos[1]!, workplace, operations };
}

export type DemoCall = Awaited<ReturnType<typeof seedDemoCameraDays>>['call'];
type DemoDays = Awaited<ReturnType<typeof demoCameraDays>>;

/** What a demo model is trained on: by default day 1 from 0 s, the main operations, the demo's areas drawn on day 1. */
export interface DemoTraining {
  endSecond: number;
  comment: string;
  /** Where the job tests instead of blocks of the span (issue 25). */
  test?: { video_id: number; start_second: number; end_second: number };
  operationIds?: number[];
  markedVideoId?: number;
  areaIds?: number[];
}

/**
 * A model of the demo camera trained by the real job (issues 25 and 43): POST
 * /api/v1/start_marker_training as the analyst, the workers drained, the job a success. Returns the
 * job's result, the stored model row, its spec and its ONNX file.
 */
export async function trainedDemoModel(t: TestApp, call: DemoCall, days: DemoDays, training: DemoTraining) {
  const { db, storage } = t.deps;
  const areaIds =
    training.areaIds ?? ((await call('GET', `/api/v1/video-areas?video_id=${days.dayOne.id}`)).body.video_areas as { id: number }[]).map((a) => a.id);
  const started = await call('POST', '/api/v1/start_marker_training', {
    workplace_id: days.workplace.id,
    operation_ids: training.operationIds ?? days.operations.map((o) => o.id),
    marked_video_id: training.markedVideoId ?? days.dayOne.id,
    video_area_ids: areaIds,
    start_second: 0,
    end_second: training.endSecond,
    ...(training.test ? { test: training.test } : {}),
    comment: training.comment,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const runner = startWorkers(t.deps, { pollMs: 50 });
  await runner.drain();
  await runner.stop();
  const job = await db.selectFrom('jobs').selectAll().where('id', '=', started.body.job_id).executeTakeFirstOrThrow();
  expect(job.error).toBeNull();
  expect(job.status).toBe('success');
  const model = await db.selectFrom('models').selectAll().where('id', '=', started.body.model_id).executeTakeFirstOrThrow();
  const spec = JSON.parse(model.spec!) as VisionSpec;
  const onnx = new Uint8Array(await storage.file(model.object_storage_key!).arrayBuffer());
  return { model, spec, onnx, result: JSON.parse(job.result!) };
}

/** People's markups of the seeded workplace over [0, seconds) of a video, seconds from the video's start (what the job scores against). */
export async function peopleSpans(t: TestApp, days: DemoDays, video: { start_time: number }, seconds: number) {
  const rows = await t.deps.db
    .selectFrom('markups')
    .select(['operation_id', 'start_time', 'end_time'])
    .where('structure_id', '=', days.structure.id)
    .where('workplace_id', '=', days.workplace.id)
    .where('source', '!=', 'model')
    .where('start_time', '<', video.start_time + seconds * 1000)
    .where('end_time', '>', video.start_time)
    .orderBy('start_time')
    .execute();
  return rows.map((m) => ({
    operationId: m.operation_id,
    startSecond: (m.start_time - video.start_time) / 1000,
    endSecond: (m.end_time - video.start_time) / 1000,
  }));
}
