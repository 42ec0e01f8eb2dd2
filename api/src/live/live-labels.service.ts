import type { Db } from '../db/database';
import { enqueueJob } from '../jobs/queue';
import { VISION_APPLY_JOB } from '../vision/service';

/**
 * The queries of live labels (issue 45, docs/live-cameras.md «Живая разметка»): a camera's active
 * model, and the applying job queued for each segment the recorder closes — at most one per segment
 * (`stream_segments.label_job_id`, set in the transaction that queues the job).
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

/** Thrown inside the queuing transaction when another queued the segment's job first: nothing is written. */
class AlreadyQueued extends Error {}

/**
 * Queues the applying of the camera's active model to a closed segment (the whole segment), unless
 * there is no active model, it is not trained, the segment closed before the model was set, or the
 * segment has its job already. The job is ordered first among its organisation's queued jobs
 * (`run_after` 0: the queue takes the oldest `run_after` first, jobs/queue.ts), so labels keep up
 * with recording. Returns the job's id, or null when none was queued.
 */
export async function queueSegmentLabels(db: Db, videoId: number): Promise<number | null> {
  const row = await db
    .selectFrom('stream_segments')
    .innerJoin('camera_streams', 'camera_streams.camera_id', 'stream_segments.camera_id')
    .innerJoin('models', 'models.id', 'camera_streams.live_model_id')
    .innerJoin('cameras', 'cameras.id', 'stream_segments.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .select([
      'stream_segments.id as segment_id',
      'stream_segments.camera_id',
      'stream_segments.start_time',
      'stream_segments.end_time',
      'stream_segments.closed_at',
      'stream_segments.label_job_id',
      'camera_streams.live_model_since',
      'camera_streams.live_employee_id',
      'models.id as model_id',
      'models.camera_id as model_camera_id',
      'models.object_storage_key',
      'models.workplace_id',
      'structures.organization_id',
    ])
    .where('stream_segments.video_id', '=', videoId)
    .executeTakeFirst();
  if (!row || row.label_job_id !== null || !row.object_storage_key || row.workplace_id === null) return null;
  // Only the camera's own model (its areas are drawn on this picture), and only segments closed since it was set.
  if (row.model_camera_id !== row.camera_id) return null;
  if (row.closed_at === null || row.live_model_since === null || row.closed_at < row.live_model_since) return null;
  try {
    return await db.transaction().execute(async (trx) => {
      const jobId = await enqueueJob(trx, {
        kind: VISION_APPLY_JOB,
        payload: {
          model_id: row.model_id,
          video_id: videoId,
          start_second: 0,
          end_second: (row.end_time - row.start_time) / 1000,
          ...(row.live_employee_id === null ? {} : { employee_id: row.live_employee_id }),
          live: true,
        },
        organizationId: row.organization_id,
        maxAttempts: 3,
        runAfter: 0,
      });
      const taken = await trx
        .updateTable('stream_segments')
        .set({ label_job_id: jobId })
        .where('id', '=', row.segment_id)
        .where('label_job_id', 'is', null)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) throw new AlreadyQueued();
      return jobId;
    });
  } catch (err) {
    if (err instanceof AlreadyQueued) return null;
    throw err;
  }
}

/** The camera's segments closed since its model was set that have no label job yet (a recorder stopped between closing and queuing). */
export async function unlabelledSegments(db: Db, cameraId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('stream_segments')
    .innerJoin('camera_streams', 'camera_streams.camera_id', 'stream_segments.camera_id')
    .select('stream_segments.video_id')
    .where('stream_segments.camera_id', '=', cameraId)
    .where('camera_streams.live_model_id', 'is not', null)
    .where('stream_segments.label_job_id', 'is', null)
    .whereRef('stream_segments.closed_at', '>=', 'camera_streams.live_model_since')
    .orderBy('stream_segments.start_time')
    .limit(100)
    .execute();
  return rows.map((r) => r.video_id);
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
      'jobs.status as job_status',
      'jobs.updated_at as job_updated_at',
    ])
    .where('stream_segments.camera_id', '=', cameraId)
    .orderBy('stream_segments.start_time', 'desc')
    .limit(limit)
    .execute();
}
