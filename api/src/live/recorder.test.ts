import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaTools, run } from '@norma/workers/media';
import { checkPicture, VIEW_MIN_DETAIL, VIEW_MOVED_BELOW, VIEW_WITHOUT_DETAILS, viewDetail, viewSignature, type VisionSpec } from '@norma/workers/vision';
import { STATE_WAIT_MS, untilState } from '../../../tests/support/wait';
import { startWorkers } from '../job-registry';
import { RTSP_MISSING, startRefusingCamera, startRtspCamera, VTEST_AVI, type RtspCamera } from '../../test-support/rtsp-camera';
import { RTSPS_MISSING, startRtspsCamera } from '../../test-support/rtsps-camera';
import { videoSource } from '../vision/job-support';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { SCENE_AREAS, sceneSchedule } from '../../../workers/test-support/vision-scene';
import { markedScene } from '../../test-support/marked-scene';
import { labelMissedSegments, lagP95 } from './live-labels';
import { LIVE_LABEL_JOB, LIVE_VIEW_CHECK_JOB, queueViewCheck, VIEW_CHECK_MS } from './live-labels.service';
import { startRecorder, type Recorder } from './recorder';
import { saveStreamSettings, streamOfCamera } from './service';

/**
 * The recorder on the real stack (issue 45): Debian's RTSP server with vtest.avi published into it,
 * ffmpeg recording it into 4-second segments that become videos of the camera, the publisher killed
 * for a measured outage and restarted; then live labels — a model trained on a synthetic scene, the
 * scene published as the camera's stream, each closed segment labelled by the model with no one
 * pressing «применить», the lag «frame → label» measured. On the test run's database (SQLite, or
 * PostgreSQL). One file, one RTSP server (docs/live-cameras.md «Тесты»).
 */

const SECRET = 'rec-S3cret';
let t: TestApp;
let w: VideoWorld;
let camera: RtspCamera;
let workDir: string;
const logs: string[] = [];
const recorders: Recorder[] = [];

beforeAll(async () => {
  if (RTSP_MISSING) return;
  t = await createTestApp();
  w = await videoWorld(t);
  camera = await startRtspCamera();
  workDir = mkdtempSync(join(tmpdir(), 'norma-recorder-'));
});

afterAll(async () => {
  // What the recorders said, for a failure's diagnosis (credentials are masked in it: asserted below).
  if (logs.length > 0) console.log(logs.slice(-60).join('\n'));
  for (const recorder of recorders) await recorder.stop();
  await camera?.stop();
  await t?.cleanup();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const recorderOf = (name: string) => {
  const recorder = startRecorder(t.deps, {
    recorderId: name,
    workDir: join(workDir, name),
    pollMs: 200,
    leaseMs: 6000,
    backoffMs: { first: 250, max: 500 },
    timeoutSeconds: 2,
    log: (line) => logs.push(`[${name}] ${line}`),
  });
  recorders.push(recorder);
  return recorder;
};

/** The cameras of the tests before stop recording: only `cam` (4-second segments of `url`) is claimable. */
const onlyCamera = async (cam: number, url: string) => {
  for (const other of w.cameraIds) {
    const row = await streamOfCamera(t.deps.db, other);
    if (row && other !== cam)
      await saveStreamSettings(t.deps.db, other, {
        url: row.url,
        enabled: false,
        segmentSeconds: row.segment_seconds,
        retentionDays: null,
        retentionGb: null,
      });
  }
  await saveStreamSettings(t.deps.db, cam, { url, enabled: true, segmentSeconds: 4, retentionDays: null, retentionGb: null });
};

const segments = (cameraId: number) => t.deps.db.selectFrom('stream_segments').selectAll().where('camera_id', '=', cameraId).orderBy('start_time').execute();

describe.skipIf(RTSP_MISSING)('recorder', () => {
  const check = (cameraId: number, body: unknown) =>
    t.request(`/api/v1/camera/${cameraId}/stream/check`, { method: 'POST', cookie: w.cookies.admin, body: JSON.stringify(body) });

  it('checks a real stream: codec, picture, frame rate and a JPEG frame; a dead address says why, without the password', async () => {
    const cam = w.cameraIds[3]!;
    await camera.publish('cam1');
    const ok = await check(cam, { url: camera.url('cam1', `user:${SECRET}`) });
    const text = await ok.text();
    expect(ok.status, text.slice(0, 300)).toBe(200);
    expect(text).not.toContain(SECRET);
    const info = JSON.parse(text);
    expect(info).toMatchObject({ codec: 'h264', width: 768, height: 576, browser_playable: true });
    expect(info.frame_rate).toBeCloseTo(10, 0);
    const jpeg = Buffer.from(info.snapshot.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    expect([jpeg[0], jpeg[1], jpeg.at(-2), jpeg.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);

    const dead = await check(cam, { url: `rtsp://user:${SECRET}@127.0.0.1:9/cam1` });
    const deadText = await dead.text();
    expect(dead.status).toBe(422);
    expect(deadText).not.toContain(SECRET);
    expect(JSON.parse(deadText).error.message).toMatch(/Камера недоступна|не ответила/);

    const missingPath = await check(cam, { url: camera.url('nothing-here') });
    expect(missingPath.status).toBe(422);
    expect((await missingPath.json()).error.message).toMatch(/[а-я]/);

    // Without an address: the stored one; none stored → 400.
    expect((await check(cam, {})).status).toBe(400);
    expect((await check(cam, { url: 'http://x/y' })).status).toBe(400);
  });

  it('records a stream into contiguous videos, records an outage as one gap, reconnects, and one recorder holds a camera', async () => {
    const cam = w.cameraIds[0]!;
    const jobLogs: string[] = [];
    const workers = startWorkers(t.deps, { pollMs: 50, log: (line) => jobLogs.push(line) });
    await camera.publish('cam1');
    const saved = await t.request(`/api/v1/camera/${cam}/stream`, {
      method: 'PUT',
      cookie: w.cookies.admin,
      body: JSON.stringify({ url: camera.url('cam1', `rec:${SECRET}`), segment_seconds: 60 }),
    });
    expect(saved.status).toBe(200);
    // Short segments for the test (the API's least is 60 s).
    const stored = (await streamOfCamera(t.deps.db, cam))!;
    await saveStreamSettings(t.deps.db, cam, { url: stored.url, enabled: true, segmentSeconds: 4, retentionDays: null, retentionGb: null });

    const first = recorderOf('recorder-a');
    await expect.poll(() => first.held(), untilState()).toEqual([cam]);
    const second = recorderOf('recorder-b');
    await expect.poll(async () => (await segments(cam)).length, untilState(200)).toBeGreaterThanOrEqual(3);
    const online = await (await t.request(`/api/v1/camera/${cam}/stream`, { cookie: w.cookies.viewer })).json();
    expect(online).toMatchObject({ state: 'online', recording: true });
    expect(Date.now() - online.last_frame_at).toBeLessThan(10_000);
    // The stream's frame rate, measured by the recorder on a closed segment (vtest.avi is published at 10 frames a second).
    const health = await (await t.request(`/api/v1/structure/${w.structureId}/camera_health`, { cookie: w.cookies.viewer })).json();
    expect(health.cameras.find((c: { camera_id: number }) => c.camera_id === cam).frame_rate).toBeCloseTo(10, 0);

    // The outage: the publisher stops and, after a measured pause, starts again (up once the server describes its stream).
    const before = (await segments(cam)).length;
    await camera.unpublish();
    const killedAt = Date.now();
    await expect.poll(async () => (await streamOfCamera(t.deps.db, cam))!.state, untilState()).not.toBe('online');
    await Bun.sleep(Math.max(0, 8000 - (Date.now() - killedAt)));
    await camera.publish('cam1');
    const restartedAt = Date.now();
    // Reconnection waits at most 500 ms here (backoffMs) and the recorder's own start is in the gap too.
    const outage = restartedAt - killedAt;
    await expect
      .poll(async () => (await t.deps.db.selectFrom('recording_gaps').selectAll().where('camera_id', '=', cam).execute()).length, untilState(200))
      .toBe(1);
    await expect.poll(async () => (await segments(cam)).length, untilState(200)).toBeGreaterThanOrEqual(before + 3);

    await first.stop();
    expect(second.held()).toEqual([]);
    await second.stop();
    await workers.drain();
    await workers.stop();

    const gaps = await (await t.request(`/api/v1/camera/${cam}/recording_gaps`, { cookie: w.cookies.viewer })).json();
    expect(gaps, `${JSON.stringify(gaps)} killed ${killedAt} restarted ${restartedAt}`).toHaveLength(1);
    const gap = gaps[0] as { from_time: number; to_time: number };
    console.log(
      `outage ${outage} ms; gap ${gap.to_time - gap.from_time} ms (from ${gap.from_time - killedAt} ms after the kill to ${gap.to_time - restartedAt} ms after the restart)`,
    );
    expect(Math.abs(gap.to_time - gap.from_time - outage)).toBeLessThanOrEqual(2000);
    // Recording resumed within 15 s of the restart.
    expect(gap.to_time - restartedAt).toBeLessThanOrEqual(15_000);

    // Every segment is a ready video of the camera with its exact start; within a connection each
    // starts where the previous one ended (± 0.5 s), so no frame was lost while connected.
    const videos = await t.deps.db
      .selectFrom('videos')
      .select(['id', 'start_time', 'duration', 'status', 'storage_key', 'start_source', 'start_confirmed', 'job_id'])
      .where('camera_id', '=', cam)
      .orderBy('start_time')
      .execute();
    const recorded = await segments(cam);
    expect(videos.length).toBe(recorded.length);
    expect(videos.every((v) => v.status === 'ready' && v.start_confirmed === 1)).toBe(true);
    // The light path: each segment was browser-ready as recorded (h264, MP4 with its index first; a
    // connection's first one copied to begin at 0), so it became ready without an ingest job
    // (docs/live-cameras.md «Один приём на отрезок»).
    expect(videos.map((v) => v.job_id)).toEqual(videos.map(() => null));
    const { ffprobe } = await mediaTools();
    let crossings = 0;
    const steps: number[] = [];
    for (let i = 0; i < videos.length; i++) {
      const video = videos[i]!;
      const probed = Number(
        await run(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', t.deps.storage.pathOf(video.storage_key)]),
      );
      // Readable, with frames: the segment closed by an outage may be a fraction of a second long.
      expect(probed).toBeGreaterThan(0);
      if (i === 0) continue;
      const previous = videos[i - 1]!;
      const step = video.start_time - (previous.start_time + previous.duration! * 1000);
      if (previous.start_time < gap.from_time && video.start_time >= gap.to_time) {
        crossings++;
        expect(Math.abs(video.start_time - gap.to_time)).toBeLessThanOrEqual(500);
        continue;
      }
      steps.push(step);
      expect(Math.abs(step), `segment ${i}`).toBeLessThanOrEqual(500);
    }
    expect(crossings).toBe(1);
    console.log(`segments ${videos.length}; start steps (ms): ${steps.join(', ')}`);

    // The password never left the server: not in the replies, the recorder's log nor the jobs'.
    expect(JSON.stringify(online)).not.toContain(SECRET);
    expect(logs.join('\n')).not.toContain(SECRET);
    expect(jobLogs.join('\n')).not.toContain(SECRET);
    const row = (await streamOfCamera(t.deps.db, cam))!;
    expect(row.last_error ?? '').not.toContain(SECRET);
    expect(row.holder).toBeNull();
    expect(STATE_WAIT_MS).toBeGreaterThan(0);
  });
});

describe.skipIf(RTSP_MISSING)('live labels', () => {
  const call = async (method: string, path: string, body?: unknown, who: keyof VideoWorld['cookies'] = 'admin') => {
    const response = await t.request(path, { method, cookie: w.cookies[who], body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  it('labels every segment closed under the camera’s model once, in order, as the reviewed model layer, by one job per camera at a time; the lag is measured', async () => {
    const { db } = t.deps;
    const cam = w.cameraIds[0]!;
    const seconds = 90;
    const scene = await markedScene(t, w, sceneSchedule(seconds), { start: Date.UTC(2024, 0, 10, 6), seconds, half: 45 });
    const areas: number[] = [];
    for (const [name, rect] of Object.entries(SCENE_AREAS)) {
      const added = await call('POST', '/api/v1/video-area', { camera_id: cam, name, ...rect });
      expect(added.status).toBe(200);
      areas.push(added.body.id);
    }
    const training = {
      workplace_id: w.workplaceIds[0],
      operation_ids: Object.values(scene.operationIds),
      marked_video_id: scene.videoId,
      video_area_ids: areas,
      start_second: 0,
      end_second: 45,
      comment: 'живая разметка',
    };
    const started = await call('POST', '/api/v1/start_marker_training', training);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const modelId = started.body.model_id as number;
    // A model not yet trained is refused, and so is any before the camera has a stream.
    await camera.publish('scene', t.deps.storage.pathOf('recordings/site/cam1/scene.mp4'));
    const saved = await call('PUT', `/api/v1/camera/${cam}/stream`, { url: camera.url('scene'), segment_seconds: 5 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const untrained = await call('PUT', `/api/v1/camera/${cam}/live_model`, { model_id: modelId });
    expect([untrained.status, untrained.body.error.message]).toEqual([400, expect.stringMatching(/не обучена/)]);
    const noStream = await call('PUT', `/api/v1/camera/${w.cameraIds[2]}/live_model`, { model_id: modelId });
    expect([noStream.status, noStream.body.error.message]).toEqual([400, expect.stringMatching(/поток/)]);
    const trainer = startWorkers(t.deps, { pollMs: 50 });
    await trainer.drain();
    await trainer.stop();
    expect((await call('GET', `/api/v1/model/${modelId}`)).body.meta.status).toBe('trained');

    // The model of another camera is refused (400), a viewer may not set one (403), a bad body changes nothing (400).
    await call('PUT', `/api/v1/camera/${w.cameraIds[1]}/stream`, { url: camera.url('scene'), enabled: false });
    const otherCamera = await call('PUT', `/api/v1/camera/${w.cameraIds[1]}/live_model`, { model_id: modelId });
    expect(otherCamera.status).toBe(400);
    expect(otherCamera.body.error.message).toMatch(/другой камеры/);
    expect((await call('PUT', `/api/v1/camera/${cam}/live_model`, { model_id: modelId }, 'viewer')).status).toBe(403);
    expect((await call('PUT', `/api/v1/camera/${cam}/live_model`, { model_id: 'x' })).status).toBe(400);
    expect((await call('PUT', `/api/v1/camera/${cam}/live_model`, { model_id: 999_999 })).status).toBe(404);
    const stranger = await call('PUT', `/api/v1/camera/${cam}/live_model`, { model_id: modelId, employee_id: 999_999 });
    expect([stranger.status, stranger.body.error.message]).toEqual([400, expect.stringMatching(/не из структурной единицы/)]);
    expect((await streamOfCamera(db, cam))!.live_model_id).toBeNull();
    // Live footage has no people's markup of the day yet: the labels are written for the employee named here.
    const choices = await call('GET', `/api/v1/camera/${cam}/live_model_choices`, undefined, 'viewer');
    expect(choices.body.models.map((m: { id: number }) => m.id)).toEqual([modelId]);
    expect(choices.body.employees.map((e: { id: number }) => e.id)).toContain(w.employeeId);
    const set = await call('PUT', `/api/v1/camera/${cam}/live_model`, { model_id: modelId, employee_id: w.employeeId });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.live_model).toEqual({ id: modelId, name: expect.any(String), employee_id: w.employeeId });
    const since = (await streamOfCamera(db, cam))!.live_model_since!;

    const closed = async () =>
      (await db.selectFrom('stream_segments').select('id').where('camera_id', '=', cam).where('closed_at', '>=', since).execute()).length;
    const liveJobs = () => db.selectFrom('jobs').select(['id', 'status']).where('kind', '=', LIVE_LABEL_JOB).execute();
    // No worker yet: the first segment queues the camera's job, the second finds it alive and queues none.
    const recorder = recorderOf('recorder-live');
    await expect.poll(closed, untilState(200)).toBeGreaterThanOrEqual(2);
    expect(await liveJobs()).toEqual([{ id: (await streamOfCamera(db, cam))!.live_job_id, status: 'queued' }]);
    const workersFrom = Date.now();
    const workers = startWorkers(t.deps, { pollMs: 50, concurrency: 2 });
    // Six more segments closed (recording runs at the camera's pace); then the labels are awaited to
    // the end (drain), as slow as the machine is — the lag is measured, not bounded here.
    const before = await closed();
    await expect.poll(closed, untilState(200)).toBeGreaterThanOrEqual(before + 6);
    await recorder.stop();
    await workers.drain();
    await workers.stop();

    // Every segment closed since the model was set is labelled once, by one of the camera's labelling
    // jobs (one alive at a time, each taking the segments waiting in order); no one applied the model by hand.
    const recorded = await db
      .selectFrom('stream_segments')
      .selectAll()
      .where('camera_id', '=', cam)
      .where('closed_at', '>=', since)
      .orderBy('start_time')
      .execute();
    expect(recorded.length).toBeGreaterThanOrEqual(6);
    expect(await db.selectFrom('jobs').select('id').where('kind', '=', 'vision.apply').execute()).toEqual([]);
    const jobs = (await db.selectFrom('jobs').selectAll().where('kind', '=', LIVE_LABEL_JOB).orderBy('id').execute()).map((j) => ({
      ...j,
      payload: JSON.parse(j.payload),
      result: j.result === null ? null : JSON.parse(j.result),
    }));
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(job.payload).toEqual({ camera_id: cam });
      expect(job.status, job.error ?? '').toBe('success');
    }
    // The jobs' counts add up to the segments: none labelled twice, none left out.
    expect(jobs.reduce((n, j) => n + j.result.labelled, 0)).toBe(recorded.length);
    expect(jobs.reduce((n, j) => n + j.result.failed, 0)).toBe(0);
    let previousLabel = 0;
    for (const segment of recorded) {
      expect(segment.label_error).toBeNull();
      expect(segment.labeled_at, `segment ${segment.video_id}`).not.toBeNull();
      expect(jobs.map((j) => j.id)).toContain(segment.label_job_id);
      // In order: a segment is labelled after the one before it.
      expect(segment.labeled_at!).toBeGreaterThanOrEqual(previousLabel);
      previousLabel = segment.labeled_at!;
      const applied = await db
        .selectFrom('activities')
        .select('comment')
        .where('video_id', '=', segment.video_id)
        .where('comment', 'like', 'Модель «%')
        .execute();
      expect(applied, `labels of segment ${segment.video_id}`).toHaveLength(1);
    }
    // No job left alive, none to queue.
    expect((await streamOfCamera(db, cam))!.live_job_id).toBeNull();
    expect(await labelMissedSegments(db, cam)).toBe(0);

    // The camera's view was compared with the model's training view once, through the queue (a
    // live.view_check job, queued when nothing waited), and its outcome is kept where health reads it.
    const viewJobs = async () =>
      (await db.selectFrom('jobs').selectAll().where('kind', '=', LIVE_VIEW_CHECK_JOB).orderBy('id').execute()).map((j) => ({
        ...j,
        result: j.result === null ? null : JSON.parse(j.result),
      }));
    const checks = await viewJobs();
    expect(checks.map((j) => [j.status, j.result?.checked])).toEqual([['success', true]]);
    // The synthetic scene is noise and moving boxes on flat gray: its training view has no fixed details
    // (VIEW_MIN_DETAIL), so the view is not compared — said as the check's reason, and no «moved» alert.
    const trainedView = (JSON.parse((await db.selectFrom('models').select('spec').where('id', '=', modelId).executeTakeFirstOrThrow()).spec!) as VisionSpec)
      .view!;
    expect(viewDetail(trainedView)).toBeLessThan(VIEW_MIN_DETAIL);
    expect(checks[0]!.result).toMatchObject({ camera_id: cam, model_id: modelId, error: VIEW_WITHOUT_DETAILS, view_similarity: null, warnings: [] });
    const stream = (await streamOfCamera(db, cam))!;
    expect(stream).toMatchObject({ view_job_id: null, view_model_id: modelId, view_error: VIEW_WITHOUT_DETAILS, view_similarity: null });
    expect(recorded.map((s) => s.video_id)).toContain(stream.view_video_id);
    const healthReply = await call('GET', `/api/v1/structure/${w.structureId}/camera_health`, undefined, 'viewer');
    const viewHealth = healthReply.body.cameras.find((c: { camera_id: number }) => c.camera_id === cam).view_check;
    expect(viewHealth).toEqual({ checked_at: stream.view_checked_at, error: VIEW_WITHOUT_DETAILS, view_similarity: null, warnings: [] });
    // No false «view» alert (the view on real footage, moved and not: «real footage» below).
    expect(healthReply.body.alerts.filter((a: { kind: string }) => a.kind === 'view')).toEqual([]);
    // At most once in VIEW_CHECK_MS, one alive at a time: a fresh check queues none; later, two callers queue one.
    expect(await queueViewCheck(db, cam)).toBeNull();
    const later = Date.now() + VIEW_CHECK_MS;
    const queuedTwice = await Promise.all([queueViewCheck(db, cam, later), queueViewCheck(db, cam, later)]);
    expect(queuedTwice.filter((id) => id !== null)).toHaveLength(1);
    expect(await queueViewCheck(db, cam, later)).toBeNull();
    const checker = startWorkers(t.deps, { pollMs: 50 });
    await checker.drain();
    await checker.stop();
    expect((await viewJobs()).map((j) => j.status)).toEqual(['success', 'success']);
    expect((await streamOfCamera(db, cam))!.view_checked_at).toBeGreaterThan(stream.view_checked_at!);
    const busy = jobs.filter((j) => j.result.labelled > 1).length;
    // The segments that waited for the workers were labelled in one run, the model read once.
    expect(jobs[0]!.result.labelled).toBeGreaterThanOrEqual(2);
    // The labels are the model's unreviewed layer on the segments' videos, with the workplace's employee.
    const layer = await db
      .selectFrom('markups')
      .selectAll()
      .where('model_id', '=', modelId)
      .where(
        'video_id',
        'in',
        recorded.map((s) => s.video_id),
      )
      .execute();
    expect(layer.length).toBeGreaterThan(0);
    expect(layer.every((m) => m.source === 'model' && m.author_id === null && m.employee_id === w.employeeId && m.workplace_id === w.workplaceIds[0])).toBe(
      true,
    );
    expect(new Set(layer.map((m) => m.video_id)).size).toBeGreaterThanOrEqual(3);

    const report = await call('GET', `/api/v1/camera/${cam}/live_labels?limit=100`, undefined, 'viewer');
    expect(report.status).toBe(200);
    expect(report.body.lag_p95_ms).toBeGreaterThan(0);
    const lags = (
      report.body.segments as { lag_ms: number | null; start_time: number; end_time: number; closed_at: number; labeled_at: number | null }[]
    ).filter((s) => s.lag_ms !== null);
    // The lag with workers running: segments that closed after they started (the first ones waited for them on purpose).
    const steady = lags.filter((s) => s.closed_at >= workersFrom);
    const steadyP95 = lagP95(steady.map((s) => ({ ...s, labeled_at: s.labeled_at! })));
    const closing = lags.map((s) => s.closed_at - s.end_time);
    const labelling = lags.map((s) => s.labeled_at! - s.closed_at);
    console.log(
      `live labels, ${recorded[0]!.end_time - recorded[0]!.start_time} ms segments: ${lags.length} segments by ${jobs.length} camera jobs (${busy} labelled more than one); lag p95 ${steadyP95} ms over the ${steady.length} closed with workers running (${report.body.lag_p95_ms} ms over all); machine load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; first frame → label ${lags.map((s) => s.lag_ms).join(', ')} ms; ` +
        `segment end → seen closed ${closing.join(', ')} ms; closed → label stored ${labelling.join(', ')} ms`,
    );
    expect((await call('GET', `/api/v1/camera/${cam}/live_labels?limit=501`)).status).toBe(400);
    expect((await call('GET', `/api/v1/camera/${w.foreignCameraId}/live_labels`)).status).toBe(404);
  });
});

describe.skipIf(RTSP_MISSING)('refused login and two recorders', () => {
  it('a camera that refuses the credentials: the check and the camera’s state say so in Russian, and nothing is recorded', async () => {
    const refusing = await startRefusingCamera();
    try {
      const cam = w.cameraIds[2]!;
      const url = refusing.url('Streaming/Channels/101', `admin:${SECRET}`);
      const checked = await t.request(`/api/v1/camera/${cam}/stream/check`, { method: 'POST', cookie: w.cookies.admin, body: JSON.stringify({ url }) });
      const checkText = await checked.text();
      expect(checked.status).toBe(422);
      expect(checkText).not.toContain(SECRET);
      expect(JSON.parse(checkText).error.message).toBe('Камера отказала во входе: проверьте имя и пароль в адресе');

      await onlyCamera(cam, url);
      const recorder = recorderOf('recorder-refused');
      await expect.poll(() => recorder.held(), untilState()).toEqual([cam]);
      // The recorder tried, with the credentials (ffmpeg answers the challenge), and was refused.
      await expect.poll(() => refusing.requests.filter((r) => r.authorized).length, untilState(200)).toBeGreaterThanOrEqual(2);
      await expect
        .poll(async () => (await streamOfCamera(t.deps.db, cam))!.last_error, untilState(200))
        .toBe('Камера отказала во входе: проверьте имя и пароль в адресе');
      const reply = await (await t.request(`/api/v1/camera/${cam}/stream`, { cookie: w.cookies.viewer })).json();
      expect(reply).toMatchObject({
        state: expect.stringMatching(/^(offline|connecting)$/),
        last_error: 'Камера отказала во входе: проверьте имя и пароль в адресе',
      });
      expect(JSON.stringify(reply)).not.toContain(SECRET);
      await recorder.stop();
      expect(await segments(cam)).toEqual([]);
      expect(await t.deps.db.selectFrom('videos').select('id').where('camera_id', '=', cam).execute()).toEqual([]);
      expect(await t.deps.db.selectFrom('recording_gaps').select('from_time').where('camera_id', '=', cam).execute()).toEqual([]);
      expect(logs.join('\n')).not.toContain(SECRET);
    } finally {
      await refusing.stop();
    }
  });

  it('two recorders on one camera: exactly one holds it, and when that one is killed the other takes over', async () => {
    const { db } = t.deps;
    const cam = w.cameraIds[3]!;
    await camera.publish('takeover');
    await onlyCamera(cam, camera.url('takeover', `rec:${SECRET}`));
    // The first recorder is a process of its own (npm run recorder on the same database and store), in a
    // process group of its own: killed with SIGKILL it leaves its lease, as a machine that died would.
    const root = join(import.meta.dirname, '..', '..', '..');
    let childLog = '';
    const child = spawn(join(root, 'node_modules', '.bin', 'bun'), ['api/src/live/recorder-main.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: t.config.dataDir, ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (childLog += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (childLog += chunk.toString()));
    let killed = false;
    try {
      const holder = async () => (await streamOfCamera(db, cam))!.holder;
      await expect.poll(holder, untilState(200)).toMatch(/^recorder-/);
      const first = (await holder())!;
      await expect.poll(async () => (await segments(cam)).length, untilState(200)).toBeGreaterThanOrEqual(1);
      // The second recorder polls every 200 ms while the first records two more segments: it never holds the camera.
      const second = recorderOf('recorder-takeover');
      const held: number[][] = [];
      const watching = setInterval(() => held.push(second.held()), 50);
      const before = (await segments(cam)).length;
      await expect.poll(async () => (await segments(cam)).length, untilState(200)).toBeGreaterThanOrEqual(before + 2);
      clearInterval(watching);
      expect(held.length).toBeGreaterThan(10);
      expect(held.every((h) => h.length === 0)).toBe(true);
      expect(await holder()).toBe(first);

      process.kill(-child.pid!, 'SIGKILL');
      killed = true;
      const killedAt = Date.now();
      // Its lease runs out (30 s) and the second recorder takes the camera and records it.
      await expect.poll(() => second.held(), untilState(200)).toEqual([cam]);
      expect(Date.now() - killedAt).toBeGreaterThan(0);
      expect(await holder()).toBe('recorder-takeover');
      const taken = (await segments(cam)).length;
      await expect.poll(async () => (await segments(cam)).length, untilState(200)).toBeGreaterThanOrEqual(taken + 2);
      await second.stop();
      // Any segment the light path left to the ingest job (none when all are browser-ready) is processed.
      const workers = startWorkers(t.deps, { pollMs: 50 });
      await workers.drain();
      await workers.stop();
      // Both recorders' segments are ready videos of the camera; the outage between them is one gap.
      const videos = await db.selectFrom('videos').select(['status']).where('camera_id', '=', cam).execute();
      expect(videos.length).toBe((await segments(cam)).length);
      expect(videos.every((v) => v.status === 'ready')).toBe(true);
      const gaps = await db.selectFrom('recording_gaps').select(['from_time', 'to_time']).where('camera_id', '=', cam).execute();
      expect(gaps).toHaveLength(1);
      expect(gaps[0]!.from_time).toBeLessThanOrEqual(killedAt + 1000);
      expect(childLog).toContain('регистратор потоков запущен');
      expect(childLog).not.toContain(SECRET);
    } finally {
      if (!killed) process.kill(-child.pid!, 'SIGKILL');
    }
  });
});

describe.skipIf(RTSP_MISSING)('real footage: the view check, H.265 and MJPEG cameras, sound, rtsps', () => {
  /** Records `cam` from `url` with a recorder of its own until `count` new segments are closed; those segments. */
  const recordSome = async (cam: number, url: string, count: number, name: string) => {
    await onlyCamera(cam, url);
    const known = new Set((await segments(cam)).map((s) => s.id));
    const recorder = recorderOf(name);
    const fresh = async () => (await segments(cam)).filter((s) => !known.has(s.id));
    await expect.poll(async () => (await fresh()).length, untilState(200)).toBeGreaterThanOrEqual(count);
    await recorder.stop();
    return fresh();
  };
  /** vtest.avi as a camera sends it (h264, a key frame a second), seen through the ffmpeg filter `filter` (none: as filmed). */
  const vtestAs = async (name: string, filter: string | null) => {
    const { ffmpeg } = await mediaTools();
    const file = join(workDir, `vtest-${name}.mp4`);
    const picture = filter ? ['-vf', filter] : [];
    await run(ffmpeg, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-i', VTEST_AVI, '-an', ...picture, '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency'],
      ...['-force_key_frames', 'expr:gte(t,n_forced*1)', '-pix_fmt', 'yuv420p', file],
    ]);
    return file;
  };
  const videosOf = (recorded: { video_id: number }[]) =>
    t.deps.db
      .selectFrom('videos')
      .select(['id', 'status', 'job_id', 'storage_key', 'start_time', 'duration'])
      .where(
        'id',
        'in',
        recorded.map((s) => s.video_id),
      )
      .orderBy('start_time')
      .execute();
  /** The streams of a stored video as ffprobe reads them. */
  const streamsOf = async (key: string) => {
    const { ffprobe } = await mediaTools();
    const out = await run(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_streams', t.deps.storage.pathOf(key)]);
    return (JSON.parse(out) as { streams: { codec_type: string; codec_name: string; start_time: string; duration: string }[] }).streams;
  };

  it('the view check on real footage: the camera’s own view is unchanged, the same camera mirrored or moved is «changed»', async () => {
    const cam = w.cameraIds[1]!;
    const training = await vtestAs('training', null);
    // The camera's reference: the view a model keeps from its training span (pipeline.ts: viewSignature of the marked span).
    const reference = await viewSignature({ file: training, width: 768, height: 576 }, { startSecond: 0, endSecond: 45 });
    expect(viewDetail(reference)).toBeGreaterThanOrEqual(VIEW_MIN_DETAIL);
    const model = { source: { width: 768, height: 576 }, view: reference };
    const views: [string, string | null][] = [
      ['as filmed', null],
      ['mirrored', 'hflip'],
      // The camera turned a little: a tenth of the picture lost at the top left, the rest moved over.
      ['moved', 'crop=iw*0.9:ih*0.9:iw*0.1:ih*0.1,scale=768:576'],
    ];
    const found = new Map<string, Awaited<ReturnType<typeof checkPicture>>>();
    for (const [name, filter] of views) {
      await camera.publish('view', filter === null ? training : await vtestAs(name, filter), { asIs: true });
      const recorded = await recordSome(cam, camera.url('view'), 2, `recorder-view-${found.size}`);
      // The last segment (recorded whole), read and checked as live.view_check reads and checks it.
      const segment = recorded.at(-1)!;
      const video = await videoSource(t.deps.db, t.deps.storage, segment.video_id);
      found.set(name, await checkPicture(model, video, { startSecond: 0, endSecond: (segment.end_time - segment.start_time) / 1000 }));
    }
    console.log(`view check on vtest.avi recorded from the stream: ${[...found].map(([name, c]) => `${name} ${c.viewSimilarity?.toFixed(3)}`).join(', ')}`);
    const filmed = found.get('as filmed')!;
    expect(filmed.viewSimilarity!).toBeGreaterThanOrEqual(VIEW_MOVED_BELOW);
    expect(filmed.warnings).toEqual([]);
    for (const name of ['mirrored', 'moved']) {
      const moved = found.get(name)!;
      expect(moved.viewSimilarity!, name).toBeLessThan(VIEW_MOVED_BELOW);
      expect(moved.warnings, name).toEqual([expect.stringMatching(/^Вид камеры не совпадает с видом при обучении/)]);
    }
  });

  it('H.265 and MJPEG cameras: the check shows codec, size and frame rate; their segments become H.264 videos through the ingest job', async () => {
    const cam = w.cameraIds[1]!;
    for (const codec of ['hevc', 'mjpeg'] as const) {
      await camera.publish(`cam-${codec}`, undefined, { codec });
      const url = camera.url(`cam-${codec}`);
      const checked = await t.request(`/api/v1/camera/${cam}/stream/check`, { method: 'POST', cookie: w.cookies.admin, body: JSON.stringify({ url }) });
      const info = await checked.json();
      expect(checked.status, JSON.stringify(info).slice(0, 300)).toBe(200);
      expect(info).toMatchObject({ codec, width: 768, height: 576, browser_playable: false });
      expect(info.frame_rate).toBeCloseTo(10, 0);
      const jpeg = Buffer.from(info.snapshot.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
      expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);

      const recorded = await recordSome(cam, url, 2, `recorder-${codec}`);
      // Not browser-ready as recorded: each segment went to the ordinary ingest job, which turns it into H.264.
      const workers = startWorkers(t.deps, { pollMs: 50 });
      await workers.drain();
      await workers.stop();
      const videos = await videosOf(recorded);
      expect(videos).toHaveLength(recorded.length);
      for (const video of videos) {
        expect([video.status, video.job_id === null], `${codec} video ${video.id}`).toEqual(['ready', false]);
        const streams = await streamsOf(video.storage_key);
        expect(streams.filter((s) => s.codec_type === 'video').map((s) => s.codec_name)).toEqual(['h264']);
        expect(Number(video.duration)).toBeGreaterThan(0);
      }
      const health = await (await t.request(`/api/v1/structure/${w.structureId}/camera_health`, { cookie: w.cookies.viewer })).json();
      // About 10: frames / duration of a closed 4 s segment, within 10 % either way. Below: an MJPEG frame is
      // many UDP packets, and one lost on a loaded machine loses the frame. Above: one full test run under
      // heavy load read 10.87 for H.265 (cause not established; its 30 s footage is published in a loop).
      const rate = health.cameras.find((c: { camera_id: number }) => c.camera_id === cam).frame_rate;
      expect(rate, codec).toBeGreaterThanOrEqual(9);
      expect(rate, codec).toBeLessThanOrEqual(11);
    }
  });

  it('keeps a camera’s sound: every segment, a connection’s first too, has its AAC track from 0 beside the picture', async () => {
    const cam = w.cameraIds[1]!;
    await camera.publish('cam-sound', undefined, { audio: true });
    const recorded = await recordSome(cam, camera.url('cam-sound'), 3, 'recorder-sound');
    const videos = await videosOf(recorded);
    expect(videos).toHaveLength(recorded.length);
    const steps: number[] = [];
    for (const [i, video] of videos.entries()) {
      // h264 and AAC in MP4 with the index first: browser-ready as recorded, no ingest job.
      expect([video.status, video.job_id], `video ${i}`).toEqual(['ready', null]);
      const streams = await streamsOf(video.storage_key);
      const picture = streams.find((s) => s.codec_type === 'video')!;
      const sound = streams.find((s) => s.codec_type === 'audio');
      expect(sound?.codec_name, `sound of segment ${i}`).toBe('aac');
      // Both from the file's 0 (a connection's first segment is copied from its first frame on), the sound as long as the picture.
      expect(Number(picture.start_time)).toBeLessThanOrEqual(0.05);
      // The sound's first RTP packets can follow the key frame (CI saw the sound from 92 ms once): within
      // what a viewer takes for in sync, sound up to 125 ms late (ITU-R BT.1359).
      expect(Number(sound!.start_time)).toBeLessThanOrEqual(0.125);
      expect(Math.abs(Number(sound!.duration) - Number(picture.duration)), `segment ${i}`).toBeLessThanOrEqual(0.3);
      if (i === 0) continue;
      const previous = videos[i - 1]!;
      steps.push(Math.round(video.start_time - (previous.start_time + previous.duration! * 1000)));
      expect(Math.abs(steps.at(-1)!), `junction before ${i}`).toBeLessThanOrEqual(500);
    }
    console.log(`segments with sound: ${videos.length}; start steps (ms): ${steps.join(', ')}`);
  });

  it('rtsps: accepted as a camera’s address; a port that speaks no TLS is said in Russian by the check and by the recorder', async () => {
    const cam = w.cameraIds[1]!;
    // A port that speaks no TLS: the plain server's answers a TLS handshake with RTSP (a real TLS camera: the next test).
    const url = camera.url('cam-sound', `rec:${SECRET}`).replace(/^rtsp:/, 'rtsps:');
    const saved = await t.request(`/api/v1/camera/${cam}/stream`, { method: 'PUT', cookie: w.cookies.admin, body: JSON.stringify({ url, enabled: false }) });
    const savedBody = await saved.json();
    expect(saved.status, JSON.stringify(savedBody)).toBe(200);
    expect(savedBody.url).toBe(url.replace(SECRET, '***'));
    const tls = /^Защищённое соединение \(rtsps\) не установлено/;
    const checked = await t.request(`/api/v1/camera/${cam}/stream/check`, { method: 'POST', cookie: w.cookies.admin, body: JSON.stringify({ url }) });
    const checkText = await checked.text();
    expect(checked.status).toBe(422);
    expect(checkText).not.toContain(SECRET);
    expect(JSON.parse(checkText).error.message).toMatch(tls);
    await onlyCamera(cam, url);
    const recorder = recorderOf('recorder-rtsps');
    await expect.poll(async () => (await streamOfCamera(t.deps.db, cam))!.last_error ?? '', untilState(200)).toMatch(tls);
    await recorder.stop();
    expect(logs.join('\n')).not.toContain(SECRET);
  });

  it.skipIf(RTSPS_MISSING)(
    'rtsps on a real TLS camera: the check reads codec, size and frame rate, the recorder records contiguous videos, the password shows nowhere',
    async () => {
      const cam = w.cameraIds[1]!;
      // GStreamer's RTSP server speaking only TLS, with a self-signed certificate made at start and a
      // login it checks. The recorder (ffmpeg: tls_verify is off unless asked) does not verify a
      // camera's certificate: the link is encrypted, the camera's identity is not checked
      // (docs/live-cameras.md «rtsps://»). Should that change, this test fails first.
      const tlsCamera = await startRtspsCamera({ user: 'rec', password: SECRET });
      try {
        const url = tlsCamera.url(`rec:${SECRET}`);
        const check = (body: unknown) =>
          t.request(`/api/v1/camera/${cam}/stream/check`, { method: 'POST', cookie: w.cookies.admin, body: JSON.stringify(body) });
        const checked = await check({ url });
        const checkText = await checked.text();
        expect(checked.status, `${checkText.slice(0, 300)}\n${tlsCamera.log().slice(-1000)}`).toBe(200);
        expect(checkText).not.toContain(SECRET);
        const info = JSON.parse(checkText);
        expect(info).toMatchObject({ codec: 'h264', width: 768, height: 576, browser_playable: true });
        expect(info.frame_rate).toBeCloseTo(10, 0);
        const jpeg = Buffer.from(info.snapshot.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
        expect([jpeg[0], jpeg[1], jpeg.at(-2), jpeg.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
        // The login travels inside TLS and the camera checks it: a wrong password is refused, in Russian.
        const wrong = await check({ url: tlsCamera.url(`rec:wrong-${SECRET}`) });
        const wrongText = await wrong.text();
        expect(wrong.status).toBe(422);
        expect(wrongText).not.toContain(SECRET);
        expect(JSON.parse(wrongText).error.message).toMatch(/^Камера отказала во входе/);
        // The port speaks only TLS: the footage below came over rtsps, not plain RTSP.
        const plain = await check({ url: tlsCamera.plainUrl(`rec:${SECRET}`) });
        const plainText = await plain.text();
        expect(plain.status).toBe(422);
        expect(plainText).not.toContain(SECRET);

        const saved = await t.request(`/api/v1/camera/${cam}/stream`, {
          method: 'PUT',
          cookie: w.cookies.admin,
          body: JSON.stringify({ url, enabled: false }),
        });
        const savedText = await saved.text();
        expect(saved.status, savedText).toBe(200);
        expect(JSON.parse(savedText).url).toBe(url.replace(SECRET, '***'));
        const recorded = await recordSome(cam, url, 2, 'recorder-rtsps-tls');
        const videos = await videosOf(recorded);
        expect(videos).toHaveLength(recorded.length);
        expect(videos.length).toBeGreaterThanOrEqual(2);
        const steps: number[] = [];
        for (const [i, video] of videos.entries()) {
          // h264 copied into MP4 with its index first: ready as recorded, without an ingest job.
          expect([video.status, video.job_id], `video ${i}`).toEqual(['ready', null]);
          expect(Number(video.duration), `video ${i}`).toBeGreaterThan(0);
          const picture = (await streamsOf(video.storage_key)).filter((s) => s.codec_type === 'video');
          expect(picture.map((s) => s.codec_name)).toEqual(['h264']);
          if (i === 0) continue;
          const previous = videos[i - 1]!;
          steps.push(Math.round(video.start_time - (previous.start_time + previous.duration! * 1000)));
          // One connection: each segment starts where the previous ended, no frame lost between them.
          expect(Math.abs(steps.at(-1)!), `junction before ${i}`).toBeLessThanOrEqual(500);
        }
        console.log(`rtsps segments: ${videos.length}; start steps (ms): ${steps.join(', ')}`);

        const row = (await streamOfCamera(t.deps.db, cam))!;
        expect(row.last_error ?? '').not.toContain(SECRET);
        const answer = await (await t.request(`/api/v1/camera/${cam}/stream`, { cookie: w.cookies.viewer })).text();
        expect(answer).not.toContain(SECRET);
        expect(logs.join('\n')).not.toContain(SECRET);
      } finally {
        await tlsCamera.stop();
      }
    },
  );
});
