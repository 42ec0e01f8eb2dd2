import { createHash } from 'node:crypto';
import { FIGURE_DEFAULTS } from '@norma/workers/tracking';
import type { Db } from '../db/database';
import { isPostgres } from '../db/postgres';
import { badRequest, conflict } from '../http/errors';
import { toIso } from '../http/time';
import { CANCELLED_MESSAGE, endJobs, enqueueJob, finishJob } from '../jobs/queue';
import { figuresOf, type FiguresInputs, type FiguresWindow } from './figures';
import { EVENT_MESSAGES, listZones } from './service';

/**
 * The figures of a hall over a window (GET /api/v1/event/figures, docs/event-analytics.md «API: цифры»,
 * «Цифры длинных окон»): all their SQL. A short window is computed on each request; a long one (more
 * stored track text than STORED_FIGURES_CHARS) by the job `event_figures` (figures.job.ts) and kept in
 * event_figures with the digest of the inputs it was computed from — a request with the same digest
 * gets it at once, one with another digest (tracks, zones, calibrations or cameras changed) gets it
 * marked stale while the job computes it again.
 */

/** The job kind of a long window's figures (figures.job.ts; class 'long' in api/src/job-registry.ts). */
export const FIGURES_JOB = 'event_figures';

/**
 * The most track text (characters of the stored points' JSON, about 70 a point) one figures
 * computation reads, per request or in the job: about 700 000 foot points; 800 000 synthetic ones took
 * 1.6 s to compute (docs/event-analytics.md «API: цифры»).
 */
export const FIGURES_TEXT_MAX = 50_000_000;

/**
 * Above this much stored track text in the window the figures are the job's, stored (about 30 000
 * foot points of real tracks at ≈ 70 characters a point). Measured 30.11.2026 on the 2-core machine
 * under a load average of 10–11 (bench/event-figures-window.bench.ts: read, parse, compute and
 * serialise per request): 1 M characters 0.53 s, 2.5 M 0.94 s, 5 M 2.1 s, 10 M 4.4 s — time grows in
 * proportion, so at 2 M a request stays under a second even on a loaded machine, and longer windows
 * never hold one (docs/event-analytics.md «Цифры длинных окон»).
 */
export const STORED_FIGURES_CHARS = 2_000_000;

/** The longest video the API stores (24 h): a video starting this long before the window may still reach into it. */
const VIDEO_REACH_MS = 24 * 3600 * 1000;
/** Bumped when the figures' computation changes: stored figures of an older version are stale. */
const FIGURES_VERSION = 1;

export const FIGURES_MESSAGES = {
  computing: 'Цифры за это окно ещё считаются: откройте ссылку через несколько минут',
  nothingToCancel: 'Цифры этого окна не пересчитываются: отменять нечего',
  shortWindow: 'Цифры этого окна считаются при каждом запросе: задача не нужна',
  removed: 'Окно цифр удалено: результат не записан',
} as const;

/** Everything the figures are computed from except the tracks themselves, and the size of the tracks' stored text. */
export type FiguresHead = Omit<FiguresInputs, 'tracks'> & { chars: number };

/** The payload of an `event_figures` job. */
export interface FiguresPayload {
  figures_id: number;
  structure_id: number;
  from: number;
  to: number;
}

/** What the figures of the window are computed from, but the tracks: cameras, calibrations, finished trackings in the window, zones. */
export async function figuresHead(db: Db, window: FiguresWindow): Promise<FiguresHead> {
  const { structureId, fromMs, toMs } = window;
  const cameras = await db.selectFrom('cameras').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('id').execute();
  const cameraIds = cameras.map((c) => c.id);
  const calibrations =
    cameraIds.length === 0
      ? []
      : await db
          .selectFrom('event_calibrations')
          .select(['camera_id', 'frame_width', 'frame_height', 'image_points', 'plan_points'])
          .where('camera_id', 'in', cameraIds)
          .orderBy('camera_id')
          .execute();
  const runs =
    cameraIds.length === 0
      ? []
      : (
          await db
            .selectFrom('event_trackings')
            .innerJoin('videos', 'videos.id', 'event_trackings.video_id')
            .select([
              'event_trackings.id as tracking_id',
              'event_trackings.frame_width',
              'event_trackings.frame_height',
              'videos.id as video_id',
              'videos.camera_id',
              'videos.start_time',
              'videos.duration',
            ])
            .where('videos.camera_id', 'in', cameraIds)
            .where('event_trackings.status', '=', 'done')
            .where('videos.start_time', '<', toMs)
            .where('videos.start_time', '>', fromMs - VIDEO_REACH_MS)
            .orderBy('event_trackings.id')
            .execute()
        ).filter((r) => r.duration === null || r.start_time + r.duration * 1000 > fromMs);
  const runIds = runs.map((r) => r.tracking_id);
  let chars = 0;
  if (runIds.length > 0) {
    const sum = await db
      .selectFrom('event_tracks')
      .select((eb) => eb.fn.sum<number | string | null>(eb.fn('length', ['points'])).as('chars'))
      .where('tracking_id', 'in', runIds)
      .executeTakeFirstOrThrow();
    chars = Number(sum.chars ?? 0);
  }
  const { zones } = await listZones(db, structureId);
  return {
    cameras,
    calibrations: calibrations.map((c) => ({
      camera_id: c.camera_id,
      frame_width: c.frame_width,
      frame_height: c.frame_height,
      image_points: JSON.parse(c.image_points) as [number, number][],
      plan_points: JSON.parse(c.plan_points) as [number, number][],
    })),
    runs: runs.map((r) => ({
      trackingId: r.tracking_id,
      videoId: r.video_id,
      cameraId: r.camera_id,
      startMs: r.start_time,
      frameWidth: r.frame_width,
      frameHeight: r.frame_height,
    })),
    zones: zones.map((z) => ({ id: z.id, name: z.name, role: z.role, shape: z.shape })),
    chars,
  };
}

/**
 * The most stored track text one batch of trackBatches reads (about 14 000 foot points at ≈ 70
 * characters a point): the raw text and its parsed points held at once stay this small whatever the
 * window; a single longer track is a batch of its own.
 */
export const TRACK_BATCH_CHARS = 1_000_000;

/**
 * The tracks of the given trackings in batches of about `batchChars` of stored text, in the
 * order of the trackings and their track numbers (one tracking's track numbers split into ranges by
 * their text's length, read first). `chars` — the text read so far, this batch included. Ends early
 * when `signal` aborts. A finished tracking's tracks never change (a new run is a new tracking), so
 * its id stands for them in the digest.
 */
export async function* trackBatches(db: Db, trackingIds: number[], signal?: AbortSignal, batchChars = TRACK_BATCH_CHARS) {
  let chars = 0;
  for (const trackingId of trackingIds) {
    if (signal?.aborted) return;
    const sizes = await db
      .selectFrom('event_tracks')
      .select((eb) => ['track_number', eb.fn<number | string>('length', ['points']).as('chars')])
      .where('tracking_id', '=', trackingId)
      .orderBy('track_number')
      .execute();
    for (const range of numberRanges(sizes, batchChars)) {
      if (signal?.aborted) return;
      const rows = await db
        .selectFrom('event_tracks')
        .select(['track_number', 'points'])
        .where('tracking_id', '=', trackingId)
        .where('track_number', '>=', range.first)
        .where('track_number', '<=', range.last)
        .orderBy('track_number')
        .execute();
      chars += range.chars;
      const tracks: FiguresInputs['tracks'] = rows.map((row) => ({ trackingId, number: row.track_number, points: JSON.parse(row.points) as number[][] }));
      yield { tracks, chars };
    }
  }
}

/** Consecutive track numbers grouped into ranges of at most `budget` characters each (a longer track alone). */
function numberRanges(sizes: readonly { track_number: number; chars: number | string }[], budget: number) {
  const ranges: { first: number; last: number; chars: number }[] = [];
  let open: (typeof ranges)[number] | null = null;
  for (const size of sizes) {
    const chars = Number(size.chars);
    if (open && open.chars + chars <= budget) {
      open.last = size.track_number;
      open.chars += chars;
    } else {
      open = { first: size.track_number, last: size.track_number, chars };
      ranges.push(open);
    }
  }
  return ranges;
}

/** All the tracks of the given trackings at once (a short window per request); null when `signal` stopped the reading. */
export async function figuresTracks(db: Db, trackingIds: number[], signal?: AbortSignal) {
  const tracks: FiguresInputs['tracks'] = [];
  for await (const batch of trackBatches(db, trackingIds, signal)) for (const track of batch.tracks) tracks.push(track);
  return signal?.aborted ? null : tracks;
}

/**
 * The digest of what the figures of a window are computed from: the window, the hall's cameras and
 * calibrations, its zones (stands enter the figures only through their zones), the finished trackings
 * in the window (each id stands for its tracks), the computation's version and its settings.
 */
export function inputsKey(head: FiguresHead, window: FiguresWindow): string {
  const inputs = {
    version: FIGURES_VERSION,
    settings: FIGURE_DEFAULTS,
    window: [window.structureId, window.fromMs, window.toMs],
    cameras: head.cameras,
    calibrations: head.calibrations,
    runs: head.runs,
    zones: head.zones,
    chars: head.chars,
  };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('base64url');
}

const storedRow = (db: Db, window: FiguresWindow) =>
  db
    .selectFrom('event_figures')
    .leftJoin('jobs', 'jobs.id', 'event_figures.job_id')
    .select([
      'event_figures.id',
      'event_figures.inputs_key',
      'event_figures.job_id',
      'event_figures.figures',
      'event_figures.computed_key',
      'event_figures.computed_at',
      'jobs.status as job_status',
      'jobs.progress as job_progress',
      'jobs.error as job_error',
    ])
    .where('event_figures.structure_id', '=', window.structureId)
    .where('event_figures.from_ms', '=', window.fromMs)
    .where('event_figures.to_ms', '=', window.toMs)
    .executeTakeFirst();
type StoredRow = NonNullable<Awaited<ReturnType<typeof storedRow>>>;

/** The state of a window's stored figures as the API shows it (`stored` of the reply). */
function storeView(row: StoredRow | undefined, key: string) {
  const job =
    row?.job_id != null && row.job_status
      ? {
          id: row.job_id,
          status: row.job_status as 'queued' | 'running' | 'success' | 'failed' | 'cancelled',
          progress: row.job_progress ?? 0,
          error: row.job_error,
        }
      : null;
  return {
    fresh: row?.computed_key === key,
    computed_at: row?.computed_at == null ? null : toIso(row.computed_at),
    job,
  };
}

/**
 * Queues the job computing the window's figures for the inputs `key` when `wanted` still says so of the
 * window's row read under its lock; a job still computing for older inputs is cancelled, its result
 * would be stale. One job a window however many readers ask at once: the row is made first (an empty
 * inputs_key, nothing queued yet; a reader at the same moment inserts nothing), then locked — on
 * PostgreSQL FOR UPDATE until the commit (its transactions run side by side under READ COMMITTED), on
 * SQLite the transaction is the lock (one writer at a time) — and read again after the lock: the second
 * reader sees the first one's job and queues none.
 */
async function queueFigures(db: Db, window: FiguresWindow, key: string, wanted: (row: StoredRow) => boolean) {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('event_figures')
      .values({ structure_id: window.structureId, from_ms: window.fromMs, to_ms: window.toMs, inputs_key: '', created_at: Date.now() })
      .onConflict((oc) => oc.columns(['structure_id', 'from_ms', 'to_ms']).doNothing())
      .execute();
    if (isPostgres(trx)) {
      await trx
        .selectFrom('event_figures')
        .select('id')
        .where('structure_id', '=', window.structureId)
        .where('from_ms', '=', window.fromMs)
        .where('to_ms', '=', window.toMs)
        .forUpdate()
        .execute();
    }
    const row = (await storedRow(trx, window))!;
    if (!wanted(row)) return;
    if (row.job_id !== null && isActive(row)) await endJobs(trx, [row.job_id], { status: 'cancelled', error: CANCELLED_MESSAGE }, ['queued', 'running']);
    const hall = await trx.selectFrom('structures').select('organization_id').where('id', '=', window.structureId).executeTakeFirstOrThrow();
    const payload: FiguresPayload = { figures_id: row.id, structure_id: window.structureId, from: window.fromMs, to: window.toMs };
    const jobId = await enqueueJob(trx, { kind: FIGURES_JOB, payload, organizationId: hall.organization_id });
    await trx.updateTable('event_figures').set({ inputs_key: key, job_id: jobId }).where('id', '=', row.id).execute();
  });
}

/** The window's job is queued or running. */
const isActive = (row: StoredRow | undefined) => row?.job_id != null && (row.job_status === 'queued' || row.job_status === 'running');

/** A read queues the job unless the figures are fresh or a job was already queued for these inputs (even one that failed or was cancelled). */
const readWants = (key: string) => (row: StoredRow | undefined) => row?.computed_key !== key && row?.inputs_key !== key;

/** POST …/compute queues the job unless the figures are fresh or a job for these inputs is queued or running. */
const computeWants = (key: string) => (row: StoredRow | undefined) => row?.computed_key !== key && !(isActive(row) && row?.inputs_key === key);

type FiguresReply = ReturnType<typeof figuresOf>;
export type FiguresAnswer =
  | { ready: true; figures: FiguresReply & { stored: ReturnType<typeof storeView> | null } }
  | { ready: false; pending: { structure_id: number; from: string; to: string; stored: ReturnType<typeof storeView> } };

/**
 * GET /api/v1/event/figures: a short window computed now (`stored` null); a long one from its stored
 * figures — fresh, or stale while the job computes them again — or, never computed yet, the job's state
 * (ready false: the route answers 202). A job that failed or was cancelled for these very inputs is not
 * queued again by a read (POST /api/v1/event/figures/compute does).
 */
export async function eventFigures(db: Db, window: FiguresWindow): Promise<FiguresAnswer> {
  const head = await figuresHead(db, window);
  if (head.chars > FIGURES_TEXT_MAX) throw badRequest(EVENT_MESSAGES.figuresTooMuch);
  if (head.chars <= STORED_FIGURES_CHARS) {
    const tracks = (await figuresTracks(
      db,
      head.runs.map((r) => r.trackingId),
    ))!;
    return { ready: true, figures: { ...figuresOf({ ...head, tracks }, window), stored: null } };
  }
  const key = inputsKey(head, window);
  const wanted = readWants(key);
  let row = await storedRow(db, window);
  // Read first without a transaction: most reads find their figures or their job and write nothing.
  if (wanted(row)) {
    await queueFigures(db, window, key, wanted);
    row = await storedRow(db, window);
  }
  return storedAnswer(row!, key, window);
}

function storedAnswer(row: StoredRow, key: string, window: FiguresWindow): FiguresAnswer {
  const stored = storeView(row, key);
  if (row.figures !== null) return { ready: true, figures: { ...(JSON.parse(row.figures) as FiguresReply), stored } };
  return { ready: false, pending: { structure_id: window.structureId, from: toIso(window.fromMs), to: toIso(window.toMs), stored } };
}

/** The long window's state after an action (compute, cancel): its stored figures' state, without the figures. */
async function storeState(db: Db, window: FiguresWindow, key: string) {
  const row = await storedRow(db, window);
  return { structure_id: window.structureId, from: toIso(window.fromMs), to: toIso(window.toMs), stored: storeView(row, key) };
}

/** The current digest of a long window, or a 409 when the window is short (computed on each request). */
async function longWindowKey(db: Db, window: FiguresWindow) {
  const head = await figuresHead(db, window);
  if (head.chars > FIGURES_TEXT_MAX) throw badRequest(EVENT_MESSAGES.figuresTooMuch);
  if (head.chars <= STORED_FIGURES_CHARS) throw conflict(FIGURES_MESSAGES.shortWindow);
  return inputsKey(head, window);
}

/** POST /api/v1/event/figures/compute: queues the long window's computation again (after a failure or a cancel), unless it is fresh or running. */
export async function computeFigures(db: Db, window: FiguresWindow) {
  const key = await longWindowKey(db, window);
  const wanted = computeWants(key);
  if (wanted(await storedRow(db, window))) await queueFigures(db, window, key, wanted);
  return storeState(db, window, key);
}

/** POST /api/v1/event/figures/cancel: cancels the long window's queued or running computation; the stored figures stay as they were. */
export async function cancelFigures(db: Db, window: FiguresWindow) {
  const key = await longWindowKey(db, window);
  const row = await storedRow(db, window);
  if (row?.job_id == null || (await endJobs(db, [row.job_id], { status: 'cancelled', error: CANCELLED_MESSAGE }, ['queued', 'running'])) === 0)
    throw conflict(FIGURES_MESSAGES.nothingToCancel);
  return storeState(db, window, key);
}

/**
 * The job's figures stored with the digest they were computed from, together with the job's success,
 * in one transaction: a job cancelled meanwhile (or taken over after its worker died) writes nothing.
 */
export async function commitFigures(db: Db, job: { id: number; workerId: string }, figuresId: number, key: string, figures: string) {
  return db
    .transaction()
    .execute(async (trx) => {
      const updated = await trx
        .updateTable('event_figures')
        .set({ figures, computed_key: key, computed_at: Date.now() })
        .where('id', '=', figuresId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new RolledBack('gone');
      if (!(await finishJob(trx, job.id, job.workerId, { figures_id: figuresId }))) throw new RolledBack('cancelled');
      return 'done' as const;
    })
    .catch((err: unknown) => {
      if (err instanceof RolledBack) return err.reason;
      throw err;
    });
}

class RolledBack extends Error {
  constructor(readonly reason: 'cancelled' | 'gone') {
    super(reason);
  }
}
