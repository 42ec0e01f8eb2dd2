import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { untilState } from '../../../tests/support/wait';
import { insertTrackedVideo, type StoredTrackPoint } from '../../test-support/event-trackings';
import { errorMessage as message, eventHall, type EventCallInit, type EventHall } from '../../test-support/event-hall';
import { createTestApp, type TestApp } from '../../test-support/testing';
import type { VideoWorld } from '../../test-support/video-fixtures';
import { startWorkers } from '../job-registry';
import type { JobRunner } from '../jobs/runner';
import { FiguresFold, figuresOf, type FiguresInputs } from './figures';
import { FIGURES_JOB, figuresHead, figuresTracks, STORED_FIGURES_CHARS, trackBatches } from './figures.service';

/**
 * Stored figures of long windows (issue 44, docs/event-analytics.md «Цифры длинных окон»): a hall
 * whose window holds more stored track text than STORED_FIGURES_CHARS gets its figures from the job
 * `event_figures` — 202 with the job's state until it first ends, then the stored figures at once
 * (no new job), equal to the per-request computation (figuresOf over the same reads) on the same
 * window; a zone edited makes them stale (the old figures with fresh false while the job computes
 * again), the job's new ones follow the edit; cancel and compute again; a short window stays
 * computed per request; roles and bad input refused, nothing written.
 */
let t: TestApp;
let hall: EventHall;
let w: VideoWorld;
let runner: JobRunner | null = null;

const T0 = Date.UTC(2026, 10, 16, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
/** The long window: the seven days from T0. */
const LONG = { from: T0, to: T0 + 7 * 86_400_000 };
/** Long videos recorded one a minute from T0; the short window's own video is a day later. */
const VIDEOS = 14;
const SHORT_START = T0 + 86_400_000;

const call = (path: string, init?: EventCallInit) => hall.call(path, init);
const figuresUrl = (from: number, to: number) =>
  `/api/v1/event/figures?structure_id=${w.structureId}&from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;
const windowBody = { from: iso(LONG.from), to: iso(LONG.to) };

interface Stored {
  fresh: boolean;
  computed_at: string | null;
  job: { id: number; status: string; progress: number; error: string | null } | null;
}

/** A person walking the frame (200 × 200 pixels, 10 a metre): 300 points at 5 fps, the foot point crossing the stand at (5, 5) m for `seed` 0. */
const walker = (seed: number): StoredTrackPoint[] =>
  Array.from({ length: 300 }, (_, i) => [i * 5, i / 5, 10 + ((seed * 7 + i) % 170), 10 + ((seed * 13 + Math.floor(i / 2)) % 160), 10, 20, 0.9]);

/** The per-request computation of the window (GET's short path: the same reads, figuresOf), as JSON gives it. */
async function computedNow(window: { from: number; to: number }) {
  const w2 = { structureId: w.structureId, fromMs: window.from, toMs: window.to };
  const head = await figuresHead(t.deps.db, w2);
  const tracks = (await figuresTracks(
    t.deps.db,
    head.runs.map((r) => r.trackingId),
  ))!;
  return JSON.parse(JSON.stringify({ ...figuresOf({ ...head, tracks }, w2), stored: null })) as Record<string, unknown>;
}
const withoutStore = (body: Record<string, unknown>) => ({ ...body, stored: null });

const figuresJobs = () => t.deps.db.selectFrom('jobs').select(['id', 'status']).where('kind', '=', FIGURES_JOB).orderBy('id').execute();

/** Runs the workers until the job ends; its final status. */
async function jobEnds(jobId: number) {
  runner = startWorkers(t.deps, { pollMs: 20 });
  await expect
    .poll(async () => (await t.deps.db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirstOrThrow()).status, untilState(200))
    .toMatch(/^(success|failed|cancelled)$/);
  await runner.stop();
  runner = null;
  return (await t.deps.db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirstOrThrow()).status;
}

let standZone: number;

beforeAll(async () => {
  t = await createTestApp();
  hall = await eventHall(t);
  w = hall.w;
  const camera = w.cameraIds[0]!;
  await hall.calibrateSquare(camera, { pixels: 200, metres: 20 });
  for (let v = 0; v < VIDEOS; v++) {
    const tracks = Array.from({ length: 20 }, (_, i) => walker(v * 20 + i));
    await insertTrackedVideo(t.deps.db, camera, { filename: `long-${v}.mp4`, start: T0 + v * 60_000 }, tracks);
  }
  await insertTrackedVideo(t.deps.db, camera, { filename: 'short.mp4', start: SHORT_START }, [walker(0), walker(1)]);
  standZone = await hall.addZone({ name: 'Стенд 1', role: 'stand', shape: { type: 'circle', center: [5, 5], radius: 3 } });
  // The long window holds more track text than the threshold, the short one far less.
  const head = await figuresHead(t.deps.db, { structureId: w.structureId, fromMs: LONG.from, toMs: LONG.to });
  expect(head.chars).toBeGreaterThan(STORED_FIGURES_CHARS);
});
afterEach(async () => {
  await runner?.stop();
  runner = null;
});
afterAll(async () => t?.cleanup());

describe('stored figures of a long window', () => {
  it('are computed by the job once, then returned at once, equal to the per-request computation', async () => {
    const first = await call(figuresUrl(LONG.from, LONG.to), { cookie: w.cookies.viewer });
    expect(first.status).toBe(202);
    const pending = first.body as { structure_id: number; stored: Stored };
    expect(pending.structure_id).toBe(w.structureId);
    expect(pending.stored).toMatchObject({ fresh: false, computed_at: null, job: { status: 'queued', progress: 0 } });
    // A second read while it waits queues nothing more.
    expect(((await call(figuresUrl(LONG.from, LONG.to))).body as { stored: Stored }).stored.job!.id).toBe(pending.stored.job!.id);
    expect(await figuresJobs()).toHaveLength(1);

    expect(await jobEnds(pending.stored.job!.id)).toBe('success');
    const done = await call(figuresUrl(LONG.from, LONG.to), { cookie: w.cookies.viewer });
    expect(done.status).toBe(200);
    const stored = (done.body as { stored: Stored }).stored;
    expect(stored).toMatchObject({ fresh: true, job: { id: pending.stored.job!.id, status: 'success', progress: 100 } });
    expect(stored.computed_at).not.toBeNull();
    const now = await computedNow(LONG);
    expect(withoutStore(done.body)).toEqual(now);
    // The figures are real: 20 walkers in each long video and the short window's 2 (a day later, inside the seven days); the stand is visited.
    expect(done.body.visitors).toBe(VIDEOS * 20 + 2);
    const stand = (done.body.dwell as { zone_id: number; name: string; visits: number }[]).find((d) => d.zone_id === standZone)!;
    expect(stand.name).toBe('Стенд 1');
    expect(stand.visits).toBeGreaterThan(0);
    // Read again: the same stored figures, no new job.
    const again = await call(figuresUrl(LONG.from, LONG.to));
    expect(again.body).toEqual(done.body);
    expect(await figuresJobs()).toHaveLength(1);
  });

  it('fold batch by batch (as the job reads them) into the same figures as all the tracks at once', async () => {
    const window = { structureId: w.structureId, fromMs: LONG.from, toMs: LONG.to };
    const head = await figuresHead(t.deps.db, window);
    const trackingIds = head.runs.map((r) => r.trackingId);
    // A budget of a few tracks (each walker ≈ 9 000 characters): every tracking is read in several batches.
    const budget = 40_000;
    const fold = new FiguresFold(head, window);
    // The first pass (the heat maps' extents), as the job reads it: the same batches.
    for await (const batch of trackBatches(t.deps.db, trackingIds, undefined, budget)) fold.measure(batch.tracks);
    const read: FiguresInputs['tracks'] = [];
    let before = 0;
    let batches = 0;
    for await (const batch of trackBatches(t.deps.db, trackingIds, undefined, budget)) {
      const text = batch.tracks.reduce((sum, track) => sum + JSON.stringify(track.points).length, 0);
      expect(batch.chars - before).toBe(text);
      expect(text <= budget || batch.tracks.length === 1).toBe(true);
      before = batch.chars;
      batches++;
      read.push(...batch.tracks);
      fold.add(batch.tracks);
    }
    expect(batches).toBeGreaterThan(2 * trackingIds.length);
    expect(before).toBe(head.chars);
    const whole = (await figuresTracks(t.deps.db, trackingIds))!;
    expect(read.map((tr) => [tr.trackingId, tr.number])).toEqual(whole.map((tr) => [tr.trackingId, tr.number]));
    expect(JSON.stringify(fold.figures())).toBe(JSON.stringify(figuresOf({ ...head, tracks: whole }, window)));
  });

  it('turn stale when a zone is edited: the old figures marked, the job computes the new ones', async () => {
    const before = await call(figuresUrl(LONG.from, LONG.to));
    expect((before.body as { stored: Stored }).stored.fresh).toBe(true);
    const edited = await call(`/api/v1/event/zone/${standZone}`, {
      method: 'PUT',
      body: { name: 'Стенд 1 (шире)', role: 'stand', shape: { type: 'circle', center: [5, 5], radius: 6 } },
    });
    expect(edited.status).toBe(200);

    const stale = await call(figuresUrl(LONG.from, LONG.to));
    expect(stale.status).toBe(200);
    const store = (stale.body as { stored: Stored }).stored;
    expect(store.fresh).toBe(false);
    expect(store.job).toMatchObject({ status: 'queued' });
    expect(store.job!.id).not.toBe((before.body as { stored: Stored }).stored.job!.id);
    // The old figures, as they were: the zone's old name and visits.
    expect(withoutStore(stale.body)).toEqual(withoutStore(before.body));

    expect(await jobEnds(store.job!.id)).toBe('success');
    const fresh = await call(figuresUrl(LONG.from, LONG.to));
    expect((fresh.body as { stored: Stored }).stored.fresh).toBe(true);
    expect(withoutStore(fresh.body)).toEqual(await computedNow(LONG));
    const dwell = (b: Record<string, unknown>) =>
      (b.dwell as { zone_id: number; name: string; inside_seconds: number }[]).find((d) => d.zone_id === standZone)!;
    expect(dwell(fresh.body).name).toBe('Стенд 1 (шире)');
    // A zone twice as wide holds the walkers longer.
    expect(dwell(fresh.body).inside_seconds).toBeGreaterThan(dwell(before.body).inside_seconds);
  });

  it('can be cancelled (the stored figures stay, a read queues nothing) and computed again', async () => {
    const calibration = {
      frame_width: 200,
      frame_height: 200,
      image_points: [
        [0, 0],
        [200, 0],
        [200, 200],
        [0, 200],
      ],
      plan_points: [
        [0, 0],
        [40, 0],
        [40, 40],
        [0, 40],
      ],
    };
    expect((await call(`/api/v1/event/calibration?camera_id=${w.cameraIds[0]}`, { method: 'PUT', body: calibration })).status).toBe(200);
    const stale = await call(figuresUrl(LONG.from, LONG.to));
    const job = (stale.body as { stored: Stored }).stored.job!;
    expect(job.status).toBe('queued');
    const jobsBefore = (await figuresJobs()).length;

    const cancelled = await call('/api/v1/event/figures/cancel', {
      method: 'POST',
      body: { structure_id: w.structureId, ...windowBody },
      cookie: w.cookies.viewer,
    });
    expect(cancelled.status).toBe(200);
    expect((cancelled.body as { stored: Stored }).stored).toMatchObject({ fresh: false, job: { id: job.id, status: 'cancelled' } });
    const after = await call(figuresUrl(LONG.from, LONG.to));
    expect((after.body as { stored: Stored }).stored).toMatchObject({ fresh: false, job: { id: job.id, status: 'cancelled' } });
    expect(withoutStore(after.body)).toEqual(withoutStore(stale.body));
    expect(await figuresJobs()).toHaveLength(jobsBefore);
    const nothing = await call('/api/v1/event/figures/cancel', { method: 'POST', body: { structure_id: w.structureId, ...windowBody } });
    expect(nothing.status).toBe(409);
    expect(message(nothing)).toBe('Цифры этого окна не пересчитываются: отменять нечего');

    const again = await call('/api/v1/event/figures/compute', { method: 'POST', body: { structure_id: w.structureId, ...windowBody } });
    expect(again.status).toBe(200);
    const queued = (again.body as { stored: Stored }).stored.job!;
    expect(queued.status).toBe('queued');
    expect(queued.id).not.toBe(job.id);
    expect(await jobEnds(queued.id)).toBe('success');
    const fresh = await call(figuresUrl(LONG.from, LONG.to));
    expect((fresh.body as { stored: Stored }).stored.fresh).toBe(true);
    expect(withoutStore(fresh.body)).toEqual(await computedNow(LONG));
  });

  it('leave a short window computed per request, and refuse other halls, bad windows and short-window jobs', async () => {
    const rowsBefore = await t.deps.db.selectFrom('event_figures').select('id').execute();
    const short = await call(figuresUrl(SHORT_START - 60_000, SHORT_START + 120_000));
    expect(short.status).toBe(200);
    expect(short.body.stored).toBeNull();
    expect(short.body).toEqual(await computedNow({ from: SHORT_START - 60_000, to: SHORT_START + 120_000 }));
    const shortBody = { structure_id: w.structureId, from: iso(SHORT_START - 60_000), to: iso(SHORT_START + 120_000) };
    const shortJob = await call('/api/v1/event/figures/compute', { method: 'POST', body: shortBody });
    expect(shortJob.status).toBe(409);
    expect(message(shortJob)).toBe('Цифры этого окна считаются при каждом запросе: задача не нужна');

    const jobs = (await figuresJobs()).length;
    expect((await call(figuresUrl(LONG.from, LONG.to), { cookie: w.cookies.rival })).status).toBe(404);
    expect(
      (await call('/api/v1/event/figures/compute', { method: 'POST', body: { structure_id: w.structureId, ...windowBody }, cookie: w.cookies.rival })).status,
    ).toBe(404);
    expect((await call('/api/v1/event/figures/cancel', { method: 'POST', body: { structure_id: w.foreignStructureId, ...windowBody } })).status).toBe(404);
    const backwards = await call('/api/v1/event/figures/compute', {
      method: 'POST',
      body: { structure_id: w.structureId, from: windowBody.to, to: windowBody.from },
    });
    expect(backwards.status).toBe(400);
    expect(message(backwards)).toContain('конец окна должен быть позже начала');
    const extra = await call('/api/v1/event/figures/compute', { method: 'POST', body: { structure_id: w.structureId, ...windowBody, force: true } });
    expect(extra.status).toBe(400);
    expect(await figuresJobs()).toHaveLength(jobs);
    expect(await t.deps.db.selectFrom('event_figures').select('id').execute()).toEqual(rowsBefore);
  });

  it('queue one job for a window read by several at once, first and after its inputs changed, and all readers get it', async () => {
    // A window no test read before (six days from a minute before T0: every long video is in it).
    const window = { from: T0 - 60_000, to: T0 + 6 * 86_400_000 };
    const readAtOnce = async () => {
      // Three users, two reads each: as many run at once as the API lets in (http/fair-share.ts: two a user).
      const readers = [w.cookies.admin, w.cookies.viewer, w.cookies.assessor];
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => call(figuresUrl(window.from, window.to), { cookie: readers[i % 3] })));
      expect(replies.map((r) => r.status)).toEqual(Array<number>(6).fill(202));
      const ids = new Set(replies.map((r) => (r.body as { stored: Stored }).stored.job!.id));
      expect(ids.size).toBe(1);
      return [...ids][0]!;
    };
    const windowRows = () =>
      t.deps.db
        .selectFrom('event_figures')
        .select('job_id')
        .where('structure_id', '=', w.structureId)
        .where('from_ms', '=', window.from)
        .where('to_ms', '=', window.to)
        .execute();
    const jobsBefore = await figuresJobs();

    const first = await readAtOnce();
    expect(await figuresJobs()).toEqual([...jobsBefore, { id: first, status: 'queued' }]);
    expect(await windowRows()).toEqual([{ job_id: first }]);

    // New inputs: the queued job is cancelled once and one job replaces it for all readers.
    const renamed = await call(`/api/v1/event/zone/${standZone}`, {
      method: 'PUT',
      body: { name: 'Стенд 1 (снова)', role: 'stand', shape: { type: 'circle', center: [5, 5], radius: 3 } },
    });
    expect(renamed.status).toBe(200);
    const second = await readAtOnce();
    expect(second).not.toBe(first);
    expect(await figuresJobs()).toEqual([...jobsBefore, { id: first, status: 'cancelled' }, { id: second, status: 'queued' }]);
    expect(await windowRows()).toEqual([{ job_id: second }]);
  });
});
