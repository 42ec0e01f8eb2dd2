import type { Db } from '../db/database';
import { conflict, notFound } from '../http/errors';
import type { ObjectStore } from '../storage/object-store';
import { modelStorageKey, organizationJob } from './cancel.service';
import { modelKey, VISION_APPLY_JOB, VISION_TRAIN_JOB } from './service';
import { CANCELLED_MESSAGE, endJobs, findJob, type JobView } from '../jobs/queue';

/**
 * After a training or applying job was cancelled (cancelJob below): a model that never got
 * stored keeps no file (a worker killed between writing it and recording it would leave one).
 * Applying writes its markups in the transaction that finishes the job, so it leaves nothing.
 */
export async function visionCancelled(db: Db, storage: ObjectStore, job: { organizationId: number; payload: unknown }): Promise<void> {
  const modelId = Number((job.payload as { model_id?: unknown } | null)?.model_id);
  if (!Number.isInteger(modelId)) return;
  const model = await modelStorageKey(db, modelId);
  if (model && !model.object_storage_key) await storage.remove(modelKey(job.organizationId, modelId));
}

/** Cleans up after a cancelled job of a kind (the job's own writes are fenced; leftovers such as a file are not). */
type CancelCleanup = (db: Db, storage: ObjectStore, job: { organizationId: number; payload: unknown }) => Promise<void>;

/**
 * The kinds a user may cancel (docs/api.md «Фоновые задачи»): model training and applying. Video
 * ingest and the map's jobs are not: a half-processed video or map has no state to fall back to.
 */
const CANCELLABLE: Record<string, CancelCleanup> = {
  [VISION_TRAIN_JOB]: visionCancelled,
  [VISION_APPLY_JOB]: visionCancelled,
};

export const CANCEL_MESSAGES = {
  missing: 'Задача не найдена',
  notCancellable: 'Эту задачу отменить нельзя: отменяются только обучение и применение моделей',
  finished: 'Задача уже завершена: отменять нечего',
} as const;

/**
 * POST /api/v1/jobs/{id}/cancel: a queued or running job of the organisation becomes 'cancelled'
 * at once. A running handler notices at its next progress or heartbeat write (the store answers that
 * the job is no longer its own), stops its ffmpeg and writes nothing more (finishJob is fenced).
 */
export async function cancelJob(db: Db, storage: ObjectStore, organizationId: number, id: number): Promise<JobView> {
  const row = await organizationJob(db, organizationId, id);
  if (!row) throw notFound(CANCEL_MESSAGES.missing);
  const cleanup = CANCELLABLE[row.kind];
  if (!cleanup) throw conflict(CANCEL_MESSAGES.notCancellable);
  const ended = await endJobs(db, [id], { status: 'cancelled', error: CANCELLED_MESSAGE }, ['queued', 'running']);
  if (ended === 0) throw conflict(CANCEL_MESSAGES.finished);
  await cleanup(db, storage, { organizationId, payload: JSON.parse(row.payload) });
  return (await findJob(db, id, organizationId))!;
}
