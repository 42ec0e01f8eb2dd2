import { SCENE_AREAS, sceneSchedule, type SceneOperation } from '../../../workers/test-support/vision-scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { markedScene } from '../../test-support/marked-scene';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

/**
 * Issue 25: a model's markups are a reviewed layer. A model is trained on the first half of a
 * synthetic scene and applied over the second half (and the last 10 s of the people's markup):
 * no report changes until a person accepts a segment, applying again never stacks, the layer
 * never overlaps people's rows of the workplace, every segment has an employee, and accepted
 * segments count exactly as their rows say.
 */
let t: TestApp;
let w: VideoWorld;
let videoId: number;
let modelId: number;
let secondEmployee: number;
let operationIds: Record<Exclude<SceneOperation, 'idle'>, number>;
const SECONDS = 90;
const HALF = 45;
const APPLY_FROM = HALF - 10;
const START = Date.UTC(2024, 0, 10, 6, 0, 0);
const FROM = new Date(START - 3_600_000).toISOString();
const TO = new Date(START + 3 * 3_600_000).toISOString();
const schedule = sceneSchedule(SECONDS);

const call = async (method: string, path: string, body?: unknown, who: keyof VideoWorld['cookies'] = 'admin') => {
  const response = await t.request(path, { method, cookie: w.cookies[who], body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  return { status: response.status, body: text && json ? JSON.parse(text) : text };
};

const drain = async () => {
  const runner = startWorkers(t.deps, { pollMs: 50 });
  await runner.drain();
  await runner.stop();
};

/** Every report over the day, as the API answers them: none may move while the layer is unreviewed. */
async function reports() {
  const window = `structure_id=${w.structureId}&from_time=${FROM}&to_time=${TO}`;
  const get = async (path: string) => {
    const reply = await call('GET', path);
    expect(reply.status, path).toBe(200);
    return reply.body;
  };
  const period = await get(`/api/v1/operation_markups?${window}`);
  return {
    statement: await get(`/api/v1/report?${window}&employee_id=${w.employeeId}`),
    block: await get(`/api/v2/report?${window}`),
    frv: await get(`/api/v2/frv?${window}`),
    inputs: await get(`/api/v1/report/inputs?${window}`),
    dates: await get(`/api/v1/report/dates?structure_id=${w.structureId}`),
    summary: await get(`/api/v1/summary?from_time=${FROM}&to_time=${TO}&budget=100000&hour_cost=500`),
    dump: await get(`/api/v1/dump?structure_id=${w.structureId}&camera_key=1&date=2024-01-10&format=tsv`),
    videoTsv: await get(`/api/v1/video_markups/${videoId}?format=tsv`),
    period: period.operation_markups,
  };
}

const layer = () => t.deps.db.selectFrom('markups').selectAll().where('video_id', '=', videoId).where('source', '=', 'model').orderBy('start_time').execute();
const counted = () =>
  t.deps.db.selectFrom('markups').selectAll().where('structure_id', '=', w.structureId).where('source', '!=', 'model').orderBy('start_time').execute();

const apply = async (body: Record<string, unknown> = {}) => {
  const started = await call('POST', '/api/v1/start_marker_applying', {
    model_id: modelId,
    unmarked_video_id: videoId,
    start_second: APPLY_FROM,
    end_second: SECONDS,
    ...body,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  await drain();
  const job = await t.deps.db.selectFrom('jobs').selectAll().where('id', '=', started.body.job_id).executeTakeFirstOrThrow();
  expect(job.error).toBeNull();
  expect(job.status).toBe('success');
};

/** No model segment shares a moment with a counted row of its workplace. */
async function expectNoOverlap() {
  const people = await counted();
  for (const row of await layer()) {
    const clash = people.find((p) => p.workplace_id === row.workplace_id && p.start_time < row.end_time && p.end_time > row.start_time);
    expect(clash, `model row ${row.id} overlaps counted row ${clash?.id}`).toBeUndefined();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  const { db } = t.deps;
  ({ videoId, operationIds } = await markedScene(t, w, schedule, { start: START, seconds: SECONDS, half: HALF }));
  secondEmployee = (await db.insertInto('employees').values({ structure_id: w.structureId, name: 'Петров Пётр' }).returning('id').executeTakeFirstOrThrow()).id;
  const areas = [];
  for (const [name, rect] of Object.entries(SCENE_AREAS)) {
    const added = await call('POST', '/api/v1/video-area', { camera_id: w.cameraIds[0], name, ...rect });
    expect(added.status).toBe(200);
    areas.push(added.body.id as number);
  }
  const started = await call('POST', '/api/v1/start_marker_training', {
    workplace_id: w.workplaceIds[0],
    operation_ids: Object.values(operationIds),
    marked_video_id: videoId,
    video_area_ids: areas,
    start_second: 0,
    end_second: HALF,
    comment: 'слой модели',
  });
  expect(started.status).toBe(200);
  modelId = started.body.model_id;
  await drain();
  expect((await call('GET', `/api/v1/model/${modelId}`)).body.meta.status).toBe('trained');
});
afterAll(async () => t.cleanup());

describe('a model’s markups are a reviewed layer', () => {
  let before: Awaited<ReturnType<typeof reports>>;

  it('applying changes no report; every segment has the workplace’s employee and a confidence; none overlaps people’s rows', async () => {
    before = await reports();
    await apply();
    const rows = await layer();
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(row).toMatchObject({ model_id: modelId, author_id: null, employee_id: w.employeeId, workplace_id: w.workplaceIds[0] });
      expect(row.confidence).toBeGreaterThan(0);
      expect(row.confidence).toBeLessThanOrEqual(1);
    }
    await expectNoOverlap();
    expect(await reports()).toEqual(before);
    // The markup screen does see the layer, with its confidence.
    const screen = (await call('GET', `/api/v1/video_markups/${videoId}`)).body;
    const shown = screen.video_markups.filter((m: { source: string }) => m.source === 'model');
    expect(shown).toHaveLength(rows.length);
    expect(shown[0].confidence).toBeCloseTo(rows[0]!.confidence!, 6);
  });

  it('applying again replaces the layer instead of stacking it', async () => {
    const first = (await layer()).map((r) => [r.operation_id, r.start_time, r.end_time, r.employee_id]);
    await apply();
    await apply();
    expect((await layer()).map((r) => [r.operation_id, r.start_time, r.end_time, r.employee_id])).toEqual(first);
    const covered = (await layer()).reduce((sum, r) => sum + r.end_time - r.start_time, 0);
    expect(covered).toBeLessThanOrEqual((SECONDS - APPLY_FROM) * 1000);
    expect(await reports()).toEqual(before);
  });

  it('the analyst’s chosen employee is written; a stranger or a day without people’s markup is refused', async () => {
    await apply({ employee_id: secondEmployee });
    expect(new Set((await layer()).map((r) => r.employee_id))).toEqual(new Set([secondEmployee]));
    const stranger = await call('POST', '/api/v1/start_marker_applying', {
      model_id: modelId,
      unmarked_video_id: videoId,
      start_second: APPLY_FROM,
      end_second: SECONDS,
      employee_id: w.foreignOperation + 10_000,
    });
    expect(stranger.status).toBe(400);
    const nextDay = await insertVideo(t.deps.db, w.cameraIds[0]!, {
      filename: 'next.mp4',
      start: START + 86_400_000,
      duration: SECONDS,
      key: 'recordings/site/cam1/next.mp4',
    });
    const lonely = await call('POST', '/api/v1/start_marker_applying', { model_id: modelId, unmarked_video_id: nextDay, start_second: 0, end_second: SECONDS });
    expect(lonely.status).toBe(400);
    expect(lonely.body.error.message).toContain('выберите сотрудника');
    await t.deps.db.deleteFrom('videos').where('id', '=', nextDay).execute();
    await apply();
    expect(await reports()).toEqual(before);
  });

  it('accepting a segment makes it count exactly as its row says; rejecting one removes it; neither touches the rest of the layer', async () => {
    const screen = (await call('GET', `/api/v1/video_markups/${videoId}`)).body;
    const model = screen.video_markups.filter((m: { source: string }) => m.source === 'model');
    const [accepted, rejected] = model;
    const save = await call('PUT', `/api/v1/video_markups/${videoId}`, {
      video_markups: [accepted],
      operation_markups_to_delete: [rejected.id],
      video_stamps: [],
      video_stamps_to_delete: [],
      base_version: screen.version,
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    const row = await t.deps.db.selectFrom('markups').selectAll().where('id', '=', accepted.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'manual', author_id: w.admin.id, employee_id: w.employeeId, model_id: modelId });
    expect(await t.deps.db.selectFrom('markups').select('id').where('id', '=', rejected.id).executeTakeFirst()).toBeUndefined();
    expect((await layer()).length).toBe(model.length - 2);

    // Independent count: the interactive report lists exactly the counted rows, with their durations.
    const after = await reports();
    expect(after).not.toEqual(before);
    const rows = await counted();
    const items = after.frv.items as { id: number; duration: number; employee_id: number | null }[];
    expect(items.map((i) => i.id).sort((a, b) => a - b)).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    expect(items.find((i) => i.id === accepted.id)).toMatchObject({ duration: (row.end_time - row.start_time) / 1000, employee_id: w.employeeId });
    const total = items.reduce((sum, i) => sum + i.duration, 0);
    expect(total).toBeCloseTo(
      rows.reduce((sum, r) => sum + (r.end_time - r.start_time) / 1000, 0),
      6,
    );
    expect(after.dump).toContain('Иванов Иван');
    expect(after.dump.trim().split('\n')).toHaveLength(rows.length + 1);
    expect(after.period.map((p: { id: number }) => p.id)).toContain(accepted.id);
    expect(after.period.map((p: { id: number }) => p.id)).not.toContain(model[2].id);
  });

  it('a person’s new row pushes the layer out of its time; applying again leaves accepted rows alone', async () => {
    const screen = (await call('GET', `/api/v1/video_markups/${videoId}`)).body;
    const target = screen.video_markups.find((m: { source: string }) => m.source === 'model');
    const save = await call('PUT', `/api/v1/video_markups/${videoId}`, {
      video_markups: [
        {
          operation_id: w.operationIds.main,
          workplace_id: w.workplaceIds[0],
          employee_id: w.employeeId,
          start_time: target.start_time,
          end_time: target.end_time,
        },
      ],
      operation_markups_to_delete: [],
      video_stamps: [],
      video_stamps_to_delete: [],
      base_version: screen.version,
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    await expectNoOverlap();
    const people = await counted();
    await apply();
    expect((await counted()).map((r) => [r.id, r.source, r.start_time, r.end_time])).toEqual(people.map((r) => [r.id, r.source, r.start_time, r.end_time]));
    await expectNoOverlap();
  });
});
