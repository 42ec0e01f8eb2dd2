import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mediaTools } from '@norma/workers/media';
import { readMot } from '@norma/workers/tracking';
import { matchFrame, precisionRecall } from '@norma/workers/vision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VTEST_AVI, VTEST_MISSING, vtestFixture } from '../../../tests/support/vtest';
import { untilState } from '../../../tests/support/wait';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { startWorkers } from '../job-registry';
import type { JobRunner } from '../jobs/runner';
import { startMoveNetThreads, type MoveNetThread } from '../threads/movenet-threads';

/**
 * The tracking job on real footage (issue 44, docs/event-analytics.md «Задача трекинга»): the first
 * CLIP seconds of vtest.avi (cut by ffmpeg without re-encoding, so frame n is vtest.avi's frame n)
 * stored as a video, tracked by a real job — MoveNet on the server's threads, as main.ts runs them —
 * at 10 frames a second so that every hand-labelled frame (tests/fixtures/vtest-people.json, every
 * 25th) is one the job looked at. Checked: the stored boxes on those frames against the labels at
 * IoU 0.5, the MOTChallenge export read back equal to the stored tracks, cancelling, another
 * organisation's 404, bad input refused with nothing written.
 */
const CLIP = 8;
const VIDEO_FPS = 10;

let t: TestApp;
let w: VideoWorld;
let videoId: number;
let threads: MoveNetThread;
let runner: JobRunner | null = null;

interface Run {
  id: number;
  status: string;
  progress: number;
  job_id: number | null;
  error: string | null;
  settings: { fps_sampled: number; detector: string; input_width: number; thresholds: Record<string, number> };
  stats: { tracks: number; frames: number; seconds: number; work_seconds: number; x_real_time: number } | null;
  video_fps: number | null;
}
interface State {
  video_id: number;
  run: Run | null;
  finished: Run | null;
}
interface TracksPage {
  tracking_id: number;
  total: number;
  offset: number;
  tracks: { number: number; first_time: number; last_time: number; points_total: number; points: number[][] }[];
}

const call = async (path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) => {
  const response = await t.request(path, {
    method: init.method ?? 'GET',
    cookie: init.cookie ?? w.cookies.admin,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};
const state = async () => (await call(`/api/v1/event/tracking?video_id=${videoId}`)).body as State;
const counts = async () => ({
  trackings: (await t.deps.db.selectFrom('event_trackings').select('id').execute()).length,
  jobs: (await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', 'event_tracking').execute()).length,
});

/**
 * Waits until the video's last run has ended: each step waits (the shared state limit) for the run to
 * move on — its status or its progress — so a loaded machine makes the job slower, not the test fail.
 */
async function untilEnded(): Promise<Run> {
  for (;;) {
    const before = (await state()).run!;
    if (before.status !== 'queued' && before.status !== 'running') return before;
    await expect
      .poll(async () => {
        const now = (await state()).run!;
        return now.status !== before.status || now.progress !== before.progress;
      }, untilState(500))
      .toBe(true);
  }
}

async function cutClip(target: string) {
  const { ffmpeg } = await mediaTools();
  await mkdir(dirname(target), { recursive: true });
  const child = Bun.spawn([ffmpeg, '-hide_banner', '-loglevel', 'error', '-nostdin', '-i', VTEST_AVI, '-t', String(CLIP), '-c', 'copy', '-y', target], {
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const [stderr, status] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  if (status !== 0) throw new Error(`ffmpeg: ${stderr}`);
}

describe.skipIf(VTEST_MISSING)('the tracking job on vtest.avi', () => {
  beforeAll(async () => {
    t = await createTestApp();
    w = await videoWorld(t);
    const key = 'recordings/site/cam1/vtest-8s.avi';
    await cutClip(t.deps.storage.pathOf(key));
    videoId = await insertVideo(t.deps.db, w.cameraIds[0]!, { filename: 'vtest-8s.avi', start: Date.UTC(2024, 0, 10, 6), duration: CLIP, key });
    threads = startMoveNetThreads();
    t.deps.movenetThread = threads;
  });
  afterAll(async () => {
    await runner?.stop();
    threads?.close();
    await t?.cleanup();
  });

  it('refuses bad input and strangers before anything is written', async () => {
    const before = await counts();
    const bad = await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId, fps: 50 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('частота обработки — от 1 до 10 кадров в секунду');
    expect((await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId, fps: 'пять' } })).status).toBe(400);
    expect((await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId, extra: 1 } })).status).toBe(400);
    expect((await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId }, cookie: w.cookies.viewer })).status).toBe(403);
    expect((await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId }, cookie: w.cookies.rival })).status).toBe(404);
    expect((await call(`/api/v1/event/tracking?video_id=${videoId}`, { cookie: w.cookies.rival })).status).toBe(404);
    expect(await counts()).toEqual(before);
    // No finished tracking yet: the export says so in Russian.
    const none = await call(`/api/v1/event/tracks.mot?video_id=${videoId}`);
    expect(none.status).toBe(404);
    expect(JSON.stringify(none.body)).toContain('нет законченного трекинга');
    expect(await state()).toEqual({ video_id: videoId, run: null, finished: null });
  });

  it('tracks the clip: boxes on the labelled frames, × real time, the MOT export equal to the stored tracks', async () => {
    const started = await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId, fps: VIDEO_FPS } });
    expect(started.status).toBe(200);
    expect((started.body as State).run).toMatchObject({ status: 'queued', progress: 0, settings: { fps_sampled: VIDEO_FPS, detector: 'movenet-multipose' } });
    // One run at a time.
    expect((await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId } })).status).toBe(409);

    runner = startWorkers(t.deps, { pollMs: 20 });
    expect((await untilEnded()).status).toBe('done');
    await runner.stop();
    runner = null;
    const done = await state();
    expect(done.finished!.id).toBe(done.run!.id);
    const stats = done.run!.stats!;
    expect(done.run).toMatchObject({ progress: 100, video_fps: VIDEO_FPS, error: null });
    expect(stats.frames).toBe(CLIP * VIDEO_FPS);
    expect(stats.tracks).toBeGreaterThan(3);
    console.log(`Задача трекинга, ${CLIP} с vtest.avi при ${VIDEO_FPS} кадр/с, MoveNet на потоках: ${JSON.stringify(stats)}`);

    // Every track, page by page.
    const tracks: TracksPage['tracks'] = [];
    for (let offset = 0; ; offset += 5) {
      const page = (await call(`/api/v1/event/tracks?video_id=${videoId}&offset=${offset}&limit=5`, { cookie: w.cookies.viewer })).body as TracksPage;
      tracks.push(...page.tracks);
      expect(page.total).toBe(stats.tracks);
      if (page.tracks.length < 5) break;
    }
    expect(tracks).toHaveLength(stats.tracks);
    expect(tracks.every((tr) => tr.points_total === tr.points.length && tr.first_time === tr.points[0]![1] && tr.last_time === tr.points.at(-1)![1])).toBe(
      true,
    );

    // The stored boxes on the hand-labelled frames of the clip, at IoU 0.5.
    const labelled = vtestFixture().frames.filter((f) => f.frame < CLIP * VIDEO_FPS);
    const matched = labelled.map((f) =>
      matchFrame(
        f.people,
        tracks.flatMap((tr) =>
          tr.points.filter((p) => p[0] === f.frame).map((p) => ({ box: { x1: p[2]!, y1: p[3]!, x2: p[2]! + p[4]!, y2: p[3]! + p[5]! }, score: p[6]! })),
        ),
      ),
    );
    const pr = precisionRecall(matched);
    console.log(`Рамки треков на ${labelled.length} размеченных кадрах: ${JSON.stringify(pr)}`);
    expect(pr.people).toBeGreaterThanOrEqual(15);
    expect(pr.precision).toBeGreaterThanOrEqual(0.9);
    expect(pr.recall).toBeGreaterThanOrEqual(0.9);

    // The MOTChallenge text: frames from 1 at the video's rate, and exactly the stored boxes.
    const response = await t.request(`/api/v1/event/tracks.mot?video_id=${videoId}`, { cookie: w.cookies.viewer });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="vtest-8s.mot.txt"');
    const rows = readMot(await response.text());
    const stored = tracks
      .flatMap((tr) => tr.points.map((p) => ({ frame: p[0]! + 1, id: tr.number, x: p[2]!, y: p[3]!, w: p[4]!, h: p[5]!, conf: p[6]! })))
      .sort((a, b) => a.frame - b.frame || a.id - b.id);
    const round2 = (v: number) => Math.round(v * 100) / 100;
    expect(
      rows.map((r) => ({ frame: r.frame, id: r.id, x: r.box.x1, y: r.box.y1, w: round2(r.box.x2 - r.box.x1), h: round2(r.box.y2 - r.box.y1), conf: r.conf })),
    ).toEqual(stored.map((s) => ({ ...s, conf: round2(s.conf) })));
    expect(Math.min(...rows.map((r) => r.frame))).toBeGreaterThanOrEqual(1);
    expect((await t.request(`/api/v1/event/tracks.mot?video_id=${videoId}`, { cookie: w.cookies.rival })).status).toBe(404);
  });

  it('a job taken back after its worker died runs again and leaves one result', async () => {
    const before = await state();
    const posted = await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId, fps: 1 } });
    const jobId = (posted.body as State).run!.job_id!;
    // A worker took it and died: the job is 'running' under a lock nobody renews.
    const long = Date.now() - 3_600_000;
    await t.deps.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead-worker#1', locked_at: long, attempts: 1, progress: 40 })
      .where('id', '=', jobId)
      .execute();
    expect((await state()).run).toMatchObject({ status: 'running', progress: 40 });
    expect(before.finished).not.toBeNull();
    runner = startWorkers(t.deps, { pollMs: 20, staleMs: 60_000 });
    const ended = await untilEnded();
    await runner.stop();
    runner = null;
    expect(ended).toMatchObject({ status: 'done', job_id: jobId, settings: { fps_sampled: 1 } });
    expect(ended.stats!.frames).toBe(CLIP);
    const job = await t.deps.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'success', attempts: 2 });
    // One run of the video left, the new one, with its own tracks only; the 10 fps run it replaced is gone.
    const runs = await t.deps.db.selectFrom('event_trackings').select(['id', 'status']).where('video_id', '=', videoId).execute();
    expect(runs).toEqual([{ id: ended.id, status: 'done' }]);
    const numbers = (await t.deps.db.selectFrom('event_tracks').select(['tracking_id', 'track_number']).execute()).map(
      (r) => `${r.tracking_id}:${r.track_number}`,
    );
    expect(numbers.every((n) => n.startsWith(`${ended.id}:`))).toBe(true);
    expect(new Set(numbers).size).toBe(ended.stats!.tracks);
    expect((await state()).finished!.id).toBe(ended.id);
  });

  it('cancels a running tracking: the finished one stays as it was', async () => {
    const before = await state();
    const storedTracks = (await t.deps.db.selectFrom('event_tracks').select('id').execute()).length;
    expect((await call('/api/v1/event/tracking/cancel', { method: 'POST', body: { video_id: videoId } })).status).toBe(409);
    expect((await call('/api/v1/event/tracking', { method: 'POST', body: { video_id: videoId, fps: VIDEO_FPS } })).status).toBe(200);
    runner = startWorkers(t.deps, { pollMs: 20 });
    await expect.poll(async () => (await state()).run?.progress ?? 0, untilState(100)).toBeGreaterThan(0);
    expect((await call('/api/v1/event/tracking/cancel', { method: 'POST', body: { video_id: videoId }, cookie: w.cookies.viewer })).status).toBe(403);
    const cancelled = await call('/api/v1/event/tracking/cancel', { method: 'POST', body: { video_id: videoId } });
    expect(cancelled.status).toBe(200);
    expect((cancelled.body as State).run).toMatchObject({ status: 'cancelled', error: 'Задача отменена' });
    await runner.drain();
    await runner.stop();
    runner = null;
    const after = await state();
    expect(after.run!.status).toBe('cancelled');
    expect(after.finished).toEqual(before.finished);
    expect((await t.deps.db.selectFrom('event_tracks').select('id').execute()).length).toBe(storedTracks);
    expect((await t.request(`/api/v1/event/tracks.mot?video_id=${videoId}`)).status).toBe(401);
    expect((await t.request(`/api/v1/event/tracks.mot?video_id=${videoId}`, { cookie: w.cookies.admin })).status).toBe(200);
  });
});
