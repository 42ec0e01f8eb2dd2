import { sql } from 'kysely';
import { retryDelayMs, type ClaimedJob, type JobStore } from './runner';
import type { Db } from '../db/database';
import { isPostgres } from '../db/postgres';
import { isStorageFullText } from '../db/storage-full';
import { withoutServerPaths } from './error-text';
import type { Selectable } from 'kysely';
import type { JobsTable } from '../db/schema';

export interface EnqueueInput {
  kind: string;
  payload: unknown;
  organizationId: number | null;
  /** Attempts before the job fails for good (default 3). */
  maxAttempts?: number;
  /** Do not start before this instant, ms (default now). */
  runAfter?: number;
}

const enqueueListeners = new Set<() => void>();

/** Lets an in-process runner start a queued job at once instead of at its next poll. */
export function onJobEnqueued(listener: () => void): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

/** Adds a job to the queue (inside the caller's transaction when `db` is one); returns its id. */
export async function enqueueJob(db: Db, input: EnqueueInput): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('jobs')
    .values({
      kind: input.kind,
      payload: JSON.stringify(input.payload ?? {}),
      organization_id: input.organizationId,
      max_attempts: input.maxAttempts ?? 3,
      run_after: input.runAfter ?? now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  queueMicrotask(() => {
    for (const listener of enqueueListeners) listener();
  });
  return row.id;
}

/**
 * A job that failed for want of space (ENOSPC, SQLITE_FULL) is tried up to this many times in all,
 * the first retry after STORAGE_FULL_RETRY_BASE_MS and each next one twice as late, at most 10 minutes
 * (retryDelayMs): about an hour for someone to free the disk, instead of three tries in 15 seconds.
 */
export const STORAGE_FULL_ATTEMPTS = 10;
export const STORAGE_FULL_RETRY_BASE_MS = 60_000;

type JobRow = Pick<Selectable<JobsTable>, 'kind' | 'payload' | 'max_attempts'> & { id: number; attempts: number };

const claimed = (row: JobRow): ClaimedJob => ({
  id: row.id,
  kind: row.kind,
  payload: JSON.parse(row.payload),
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
});

/** The jobs (`j`) of one organisation; null: the jobs of no organisation, a group of their own. */
const ofOrganization = (organizationId: number | null) =>
  organizationId === null ? sql`j.organization_id IS NULL` : sql`j.organization_id = ${organizationId}`;

/**
 * The job queue over the `jobs` table (DESIGN.md "Jobs"). A claim is one UPDATE … RETURNING, so two
 * workers never take the same job; every later write is fenced by the claiming worker's id. The claim
 * is fair between organisations (issue 39): it takes the oldest ready job of the organisation that
 * runs the fewest jobs now, so one organisation's uploads queued first do not hold up another's.
 */
export function sqlJobStore(db: Db): JobStore {
  // PostgreSQL: workers in other processes skip a row another claim has locked instead of waiting for it.
  // SQLite has one writer at a time, so the UPDATE alone is the lock.
  const skipLocked = sql.raw(isPostgres(db) ? ' FOR UPDATE SKIP LOCKED' : '');
  const owned = (id: number, workerId: string) => db.updateTable('jobs').where('id', '=', id).where('locked_by', '=', workerId).where('status', '=', 'running');
  return {
    async claim(workerId, kinds, avoid = []) {
      if (kinds.length === 0) return null;
      const now = Date.now();
      // Kinds of an organisation the runner keeps to its share of the slots (runner.ts, nextClaim).
      const passOver = avoid
        .filter((a) => a.kinds.length > 0)
        .map((a) => sql` AND NOT (${ofOrganization(a.organizationId)} AND j.kind IN (${sql.join(a.kinds)}))`);
      // The organisation with the fewest running jobs first (in every runner; no organisation is a group
      // of its own), then the oldest ready job: on a tie, the organisation whose oldest ready job is the
      // oldest, and its oldest. One statement, so the choice and the take are one atomic step.
      const result = await sql<JobRow & { organization_id: number | null }>`
        UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = ${workerId}, locked_at = ${now},
          progress = 0, updated_at = ${now}
        WHERE id = (
          SELECT j.id FROM jobs j
          WHERE j.status = 'queued' AND j.run_after <= ${now} AND j.kind IN (${sql.join(kinds)})${sql.join(passOver, sql``)}
          ORDER BY (
            SELECT COUNT(*) FROM jobs r WHERE r.status = 'running'
              AND (r.organization_id = j.organization_id OR (r.organization_id IS NULL AND j.organization_id IS NULL))
          ), j.run_after, j.id
          LIMIT 1${skipLocked}
        ) AND status = 'queued'
        RETURNING id, kind, payload, attempts, max_attempts, organization_id`.execute(db);
      const row = result.rows[0];
      return row ? { ...claimed(row), organizationId: row.organization_id } : null;
    },
    async progress(id, workerId, percent) {
      const now = Date.now();
      const updated = await owned(id, workerId)
        .set({ progress: Math.round(percent * 10) / 10, locked_at: now, updated_at: now })
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },
    async heartbeat(id, workerId) {
      const updated = await owned(id, workerId).set({ locked_at: Date.now() }).executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },
    async succeed(id, workerId, result) {
      const now = Date.now();
      await owned(id, workerId)
        .set({ status: 'success', progress: 100, result: JSON.stringify(result ?? null), error: null, locked_by: null, locked_at: null, updated_at: now })
        .execute();
    },
    async fail(id, workerId, message, retry) {
      const now = Date.now();
      const row = await db.selectFrom('jobs').select(['attempts', 'max_attempts']).where('id', '=', id).executeTakeFirst();
      // A full disk is usually freed within the hour: it gets more attempts, further apart (STORAGE_FULL_ATTEMPTS).
      const full = isStorageFullText(message);
      const maxAttempts = row === undefined ? 0 : full ? Math.max(row.max_attempts, STORAGE_FULL_ATTEMPTS) : row.max_attempts;
      const again = retry && row !== undefined && row.attempts < maxAttempts;
      const delay = again ? retryDelayMs(row!.attempts, full ? STORAGE_FULL_RETRY_BASE_MS : undefined) : 0;
      const updated = await owned(id, workerId)
        .set({
          status: again ? 'queued' : 'failed',
          run_after: now + delay,
          ...(row === undefined ? {} : { max_attempts: maxAttempts }),
          // The one place a job's error is stored: users see it (GET /api/v1/jobs/{id}), the server's paths stay out.
          error: withoutServerPaths(message),
          locked_by: null,
          locked_at: null,
          updated_at: now,
        })
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return 'lost';
      return again ? 'retrying' : 'failed';
    },
    async release(id, workerId) {
      const now = Date.now();
      await owned(id, workerId)
        .set({
          status: 'queued',
          attempts: sql`CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END`,
          progress: 0,
          locked_by: null,
          locked_at: null,
          run_after: now,
          updated_at: now,
        })
        .execute();
    },
    async requeueStale(olderThanMs) {
      const now = Date.now();
      const cutoff = now - olderThanMs;
      const stale = await db
        .selectFrom('jobs')
        .select(['id', 'kind', 'payload', 'attempts', 'max_attempts'])
        .where('status', '=', 'running')
        .where('locked_at', '<', cutoff)
        .execute();
      const lost: ClaimedJob[] = [];
      for (const row of stale) {
        const again = row.attempts < row.max_attempts;
        const updated = await db
          .updateTable('jobs')
          .set({
            status: again ? 'queued' : 'failed',
            error: again ? 'Обработка прервалась: задача возвращена в очередь' : 'Обработка прервалась, попытки исчерпаны',
            locked_by: null,
            locked_at: null,
            run_after: now,
            progress: 0,
            updated_at: now,
          })
          .where('id', '=', row.id)
          .where('status', '=', 'running')
          .where('locked_at', '<', cutoff)
          .executeTakeFirst();
        if (!again && Number(updated.numUpdatedRows) > 0) lost.push(claimed(row));
      }
      return lost;
    },
  };
}

/**
 * Finishes the claimed job inside the caller's transaction, together with the handler's own
 * writes (a model stored, markups written): a job cancelled meanwhile is not overwritten and the
 * caller rolls back. False when the job is no longer this worker's running job.
 */
export async function finishJob(db: Db, id: number, workerId: string, result: unknown): Promise<boolean> {
  const now = Date.now();
  const updated = await db
    .updateTable('jobs')
    .set({ status: 'success', progress: 100, result: JSON.stringify(result ?? null), error: null, locked_by: null, locked_at: null, updated_at: now })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Whether the job is still this claim's running job, inside the caller's transaction: a handler that
 * commits parts of its work as it goes (a live camera's labelling run, segment by segment) fences each
 * part with it and renews the lock, as finishJob fences the last. False: cancelled or taken over.
 */
export async function stillClaimed(db: Db, id: number, workerId: string): Promise<boolean> {
  const updated = await db
    .updateTable('jobs')
    .set({ locked_at: Date.now() })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The organisation a job belongs to (null: no organisation's, undefined: no such job). */
export async function jobOrganizationId(db: Db, id: number): Promise<number | null | undefined> {
  return (await db.selectFrom('jobs').select('organization_id').where('id', '=', id).executeTakeFirst())?.organization_id;
}

export const CANCELLED_MESSAGE = 'Задача отменена';

type JobStatus = 'queued' | 'running' | 'success' | 'failed' | 'cancelled';

/**
 * Ends the jobs `ids` that are still in one of the `from` states (a deleted video's queued ingest, a
 * deleted model's training, a cancel): a running one stops at its next progress write, as its lock
 * is gone. The number of jobs ended (0: they had ended already).
 */
export async function endJobs(
  db: Db,
  ids: readonly number[],
  to: { status: 'failed' | 'cancelled'; error: string },
  from: readonly JobStatus[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const updated = await db
    .updateTable('jobs')
    .set({ ...to, locked_by: null, locked_at: null, updated_at: Date.now() })
    .where('id', 'in', [...ids])
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(updated.numUpdatedRows);
}

export interface JobView {
  id: number;
  kind: string;
  status: 'queued' | 'running' | 'success' | 'failed' | 'cancelled';
  progress: number;
  error: string | null;
  result: unknown;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** A job of the organisation, as GET /api/v1/jobs/{id} shows it; undefined when absent or foreign. */
export async function findJob(db: Db, id: number, organizationId: number): Promise<JobView | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    progress: row.progress,
    error: row.status === 'failed' || row.status === 'cancelled' ? row.error : null,
    // A job waiting for its retry keeps the last attempt's error visible here.
    last_error: row.status === 'failed' || row.status === 'cancelled' ? null : row.error,
    result: row.result === null ? null : JSON.parse(row.result),
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
