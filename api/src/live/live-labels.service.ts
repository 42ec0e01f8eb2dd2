import type { Db } from '../db/database';
import { enqueueJob, stillClaimed } from '../jobs/queue';

/**
 * The queries of live labels (issue 45, docs/live-cameras.md «Живая разметка»): a camera's active
 * model, and its one labelling job (`camera_streams.live_job_id`) that labels the segments the
 * recorder closes, in order — each once (`stream_segments.labeled_at`, set in the transaction that
 * writes its labels).
 */

/** A model as live labels need it: trained, of which camera and organisation, with a workplace. */
export async function liveModelCandidate(db: Db, modelId: number) {
  return db
    .selectFrom('models')
    .innerJoin('cameras', 'cameras.id', 'models.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .select(['models.id', 'models.name', 'models.camera_id', 'models.workplace_id', 'models.object_storage_key', 'structures.organization_id'])
    .where('models.id', '=', modelId)
    .executeTakeFirst();
}

/** What live labels of the camera may be set to: its trained models, newest first, and the employees of its structure. */
export async function liveModelChoices(db: Db, cameraId: number) {
  const models = await db
    .selectFrom('models')
    .select(['id', 'name'])
    .where('camera_id', '=', cameraId)
    .where('object_storage_key', 'is not', null)
    .where('workplace_id', 'is not', null)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  const employees = await db
    .selectFrom('employees')
    .innerJoin('cameras', 'cameras.structure_id', 'employees.structure_id')
    .select(['employees.id', 'employees.name'])
    .where('cameras.id', '=', cameraId)
    .orderBy('employees.name')
    .limit(1000)
    .execute();
  return { models, employees };
}

/** Whether the employee belongs to the camera's structure. */
export async function employeeOfCamera(db: Db, cameraId: number, employeeId: number): Promise<boolean> {
  const row = await db
    .selectFrom('employees')
    .innerJoin('cameras', 'cameras.structure_id', 'employees.structure_id')
    .select('employees.id')
    .where('cameras.id', '=', cameraId)
    .where('employees.id', '=', employeeId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The camera's active model (id and name), or null. */
export async function liveModelOf(db: Db, cameraId: number): Promise<{ id: number; name: string; employee_id: number | null } | null> {
  const row = await db
    .selectFrom('camera_streams')
    .innerJoin('models', 'models.id', 'camera_streams.live_model_id')
    .select(['models.id', 'models.name', 'camera_streams.live_employee_id as employee_id'])
    .where('camera_streams.camera_id', '=', cameraId)
    .executeTakeFirst();
  return row ?? null;
}

/** Sets (or clears) the camera's active model and whom it labels for; segments closing from now on are labelled by it. False when the camera has no stream. */
export async function setLiveModel(db: Db, cameraId: number, modelId: number | null, employeeId: number | null): Promise<boolean> {
  const updated = await db
    .updateTable('camera_streams')
    .set({ live_model_id: modelId, live_model_since: modelId === null ? null : Date.now(), live_employee_id: modelId === null ? null : employeeId })
    .where('camera_id', '=', cameraId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The kind of a live camera's labelling job: one per camera at a time (`camera_streams.live_job_id`), labelling its closed segments in order. */
export const LIVE_LABEL_JOB = 'live.label';

/** Thrown inside the queuing transaction when another queued the camera's job first: nothing is written. */
class AlreadyQueued extends Error {}

/** The camera's live labelling as its job sees it: the active model (trained, of this camera), for whom, since when, the job alive now and its state. */
export async function liveTarget(db: Db, cameraId: number) {
  const row = await db
    .selectFrom('camera_streams')
    .innerJoin('cameras', 'cameras.id', 'camera_streams.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .leftJoin('models', 'models.id', 'camera_streams.live_model_id')
    .leftJoin('jobs', 'jobs.id', 'camera_streams.live_job_id')
    .select([
      'camera_streams.live_model_id as model_id',
      'camera_streams.live_model_since',
      'camera_streams.live_employee_id',
      'camera_streams.live_job_id',
      'jobs.status as job_status',
      'models.camera_id as model_camera_id',
      'models.object_storage_key',
      'models.workplace_id',
      'structures.organization_id',
    ])
    .where('camera_streams.camera_id', '=', cameraId)
    .executeTakeFirst();
  if (!row) return undefined;
  // Only the camera's own trained model labels it (its areas are drawn on this picture).
  const labelling = row.model_id !== null && row.model_camera_id === cameraId && row.object_storage_key !== null && row.workplace_id !== null;
  return { ...row, labelling, jobAlive: row.live_job_id !== null && (row.job_status === 'queued' || row.job_status === 'running') };
}

/**
 * The camera's segments waiting for live labels, oldest first: closed since its model was set, not
 * labelled, not given up on (`label_error`). Empty when the camera has no active model.
 */
export async function pendingSegments(db: Db, cameraId: number, limit: number) {
  return db
    .selectFrom('stream_segments')
    .innerJoin('camera_streams', 'camera_streams.camera_id', 'stream_segments.camera_id')
    .select(['stream_segments.id', 'stream_segments.video_id', 'stream_segments.start_time', 'stream_segments.end_time'])
    .where('stream_segments.camera_id', '=', cameraId)
    .where('camera_streams.live_model_id', 'is not', null)
    .where('stream_segments.labeled_at', 'is', null)
    .where('stream_segments.label_error', 'is', null)
    .whereRef('stream_segments.closed_at', '>=', 'camera_streams.live_model_since')
    .orderBy('stream_segments.start_time')
    .limit(limit)
    .execute();
}

/**
 * Queues the camera's live-labelling job (LIVE_LABEL_JOB) when it has an active trained model,
 * segments waiting and no job alive (queued or running) — else nothing: the job alive takes every
 * segment waiting, the ones closed while it runs included. The job is queued as any other
 * (`run_after` now: in its organisation's line by time, docs/live-cameras.md «Приоритет»), and its
 * id is set on the camera by compare-and-set in the same transaction: two callers at once queue one.
 * Returns the job's id, or null when none was queued.
 */
export async function queueCameraLabels(db: Db, cameraId: number): Promise<number | null> {
  const target = await liveTarget(db, cameraId);
  if (!target || !target.labelling || target.jobAlive) return null;
  if ((await pendingSegments(db, cameraId, 1)).length === 0) return null;
  try {
    return await db.transaction().execute(async (trx) => {
      const jobId = await enqueueJob(trx, { kind: LIVE_LABEL_JOB, payload: { camera_id: cameraId }, organizationId: target.organization_id, maxAttempts: 3 });
      const update = trx.updateTable('camera_streams').set({ live_job_id: jobId }).where('camera_id', '=', cameraId);
      const previous = target.live_job_id;
      const taken = await (previous === null ? update.where('live_job_id', 'is', null) : update.where('live_job_id', '=', previous)).executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) throw new AlreadyQueued();
      return jobId;
    });
  } catch (err) {
    if (err instanceof AlreadyQueued) return null;
    throw err;
  }
}

/** The camera's job is done looking: the camera has no job alive (unless another took its place). */
export async function releaseCameraJob(db: Db, cameraId: number, jobId: number) {
  await db.updateTable('camera_streams').set({ live_job_id: null }).where('camera_id', '=', cameraId).where('live_job_id', '=', jobId).execute();
}

/** Inside the transaction that writes a segment's labels: marks it labelled by the job; false when it was labelled already (nothing is written twice). */
export async function markSegmentLabelled(trx: Db, segmentId: number, jobId: number, at: number): Promise<boolean> {
  const updated = await trx
    .updateTable('stream_segments')
    .set({ labeled_at: at, label_job_id: jobId })
    .where('id', '=', segmentId)
    .where('labeled_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** A segment whose labels cannot be written (its video deleted, no employee to write them for): why; it is not tried again. */
export async function markSegmentFailed(db: Db, segmentId: number, jobId: number, message: string) {
  await db
    .updateTable('stream_segments')
    .set({ label_error: message.slice(0, 1000), label_job_id: jobId })
    .where('id', '=', segmentId)
    .where('labeled_at', 'is', null)
    .execute();
}

/** The camera's last `limit` segments, newest first, with their label job's state and end: the moments of the lag «frame → label». */
export async function recentLabelledSegments(db: Db, cameraId: number, limit: number) {
  return db
    .selectFrom('stream_segments')
    .leftJoin('jobs', 'jobs.id', 'stream_segments.label_job_id')
    .select([
      'stream_segments.video_id',
      'stream_segments.start_time',
      'stream_segments.end_time',
      'stream_segments.closed_at',
      'stream_segments.label_job_id as job_id',
      'stream_segments.labeled_at',
      'stream_segments.label_error',
      'jobs.status as job_status',
    ])
    .where('stream_segments.camera_id', '=', cameraId)
    .orderBy('stream_segments.start_time', 'desc')
    .limit(limit)
    .execute();
}

/** The kind of a live camera's view-check job: one per camera at a time (`camera_streams.view_job_id`), queued by its labelling job when nothing waits. */
export const LIVE_VIEW_CHECK_JOB = 'live.view_check';

/** A camera's view is compared with its model's training view at most this often (the check costs ~15 ffmpeg seeks, seconds under load). */
export const VIEW_CHECK_MS = 10 * 60_000;

/** The camera's last view check (0032) as stored: the labelling job passes it into each segment's result, health and the board show it. */
export interface StoredViewCheck {
  checked_at: number;
  model_id: number;
  video_id: number | null;
  view_similarity: number | null;
  aspect_change: number | null;
  warnings: string[];
  error: string | null;
}

/** The camera's view check: its last outcome, its job alive, and the last segment labelled (what the next check compares). */
export async function viewCheckState(db: Db, cameraId: number) {
  const row = await db
    .selectFrom('camera_streams')
    .leftJoin('jobs', 'jobs.id', 'camera_streams.view_job_id')
    .select([
      'camera_streams.view_job_id',
      'jobs.status as job_status',
      'camera_streams.view_checked_at',
      'camera_streams.view_model_id',
      'camera_streams.view_video_id',
      'camera_streams.view_similarity',
      'camera_streams.view_aspect_change',
      'camera_streams.view_warnings',
      'camera_streams.view_error',
    ])
    .where('camera_streams.camera_id', '=', cameraId)
    .executeTakeFirst();
  if (!row) return undefined;
  const last = await db
    .selectFrom('stream_segments')
    .select(['video_id', 'start_time', 'end_time'])
    .where('camera_id', '=', cameraId)
    .where('labeled_at', 'is not', null)
    .orderBy('start_time', 'desc')
    .limit(1)
    .executeTakeFirst();
  const stored: StoredViewCheck | null =
    row.view_checked_at === null || row.view_model_id === null
      ? null
      : {
          checked_at: row.view_checked_at,
          model_id: row.view_model_id,
          video_id: row.view_video_id,
          view_similarity: row.view_similarity === null ? null : Number(row.view_similarity),
          aspect_change: row.view_aspect_change === null ? null : Number(row.view_aspect_change),
          warnings: row.view_warnings === null ? [] : (JSON.parse(row.view_warnings) as string[]),
          error: row.view_error,
        };
  const jobAlive = row.view_job_id !== null && (row.job_status === 'queued' || row.job_status === 'running');
  return { jobId: row.view_job_id, jobAlive, stored, lastLabelled: last ?? null };
}

/**
 * Queues the camera's view check (LIVE_VIEW_CHECK_JOB) when it labels live with its model, no segment
 * waits for labels, a segment was labelled, no check is alive, and the last check is older than
 * VIEW_CHECK_MS or of another model — else nothing. Deduplicated as the labelling job: its id is set
 * on the camera by compare-and-set in the queuing transaction (two callers at once queue one). The
 * job's id, or null when none was queued.
 */
export async function queueViewCheck(db: Db, cameraId: number, now = Date.now()): Promise<number | null> {
  const target = await liveTarget(db, cameraId);
  if (!target || !target.labelling) return null;
  const state = await viewCheckState(db, cameraId);
  if (!state || state.jobAlive || state.lastLabelled === null) return null;
  const fresh = state.stored !== null && state.stored.model_id === target.model_id && now - state.stored.checked_at < VIEW_CHECK_MS;
  if (fresh || (await pendingSegments(db, cameraId, 1)).length > 0) return null;
  try {
    return await db.transaction().execute(async (trx) => {
      const jobId = await enqueueJob(trx, {
        kind: LIVE_VIEW_CHECK_JOB,
        payload: { camera_id: cameraId },
        organizationId: target.organization_id,
        maxAttempts: 2,
      });
      const update = trx.updateTable('camera_streams').set({ view_job_id: jobId }).where('camera_id', '=', cameraId);
      const previous = state.jobId;
      const taken = await (previous === null ? update.where('view_job_id', 'is', null) : update.where('view_job_id', '=', previous)).executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) throw new AlreadyQueued();
      return jobId;
    });
  } catch (err) {
    if (err instanceof AlreadyQueued) return null;
    throw err;
  }
}

/**
 * Stores the outcome of the camera's view check and takes the job off the camera, in one transaction
 * fenced by the job's claim (a job cancelled or taken over writes nothing). False when the claim is gone.
 */
export async function storeViewCheck(
  db: Db,
  cameraId: number,
  job: { id: number; workerId: string },
  outcome: { modelId: number; videoId: number | null; similarity: number | null; aspectChange: number | null; warnings: string[]; error: string | null },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await stillClaimed(trx, job.id, job.workerId))) return false;
    await trx
      .updateTable('camera_streams')
      .set({
        view_checked_at: Date.now(),
        view_model_id: outcome.modelId,
        view_video_id: outcome.videoId,
        view_similarity: outcome.similarity,
        view_aspect_change: outcome.aspectChange,
        view_warnings: JSON.stringify(outcome.warnings.slice(0, 20).map((w) => w.slice(0, 1000))),
        view_error: outcome.error === null ? null : outcome.error.slice(0, 1000),
      })
      .where('camera_id', '=', cameraId)
      .execute();
    await trx.updateTable('camera_streams').set({ view_job_id: null }).where('camera_id', '=', cameraId).where('view_job_id', '=', job.id).execute();
    return true;
  });
}

/** The camera's view-check job has nothing to do (the model switched off): the camera has no check alive (unless another took its place). */
export async function releaseViewJob(db: Db, cameraId: number, jobId: number) {
  await db.updateTable('camera_streams').set({ view_job_id: null }).where('camera_id', '=', cameraId).where('view_job_id', '=', jobId).execute();
}
