import type { Db } from '../db/database';

// What the vision jobs (workers/src/jobs/vision.ts) write into a model's row: training progress,
// its result or error, the time of the last applying. The handlers call these; the row is vision's.

/**
 * Touches the model's row while a job runs: with a percentage, the training progress bar of
 * /models; without, nothing changes. False when the model is gone (deleted meanwhile).
 */
export async function touchModel(db: Db, modelId: number, completionPercentage: number | null): Promise<boolean> {
  const update = db.updateTable('models').where('id', '=', modelId);
  const result = await (
    completionPercentage === null ? update.set({ id: modelId }) : update.set({ completion_percentage: completionPercentage })
  ).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A training (re)starts: no progress, no error. */
export async function beginTraining(db: Db, modelId: number) {
  await db.updateTable('models').set({ completion_percentage: 0, error: null }).where('id', '=', modelId).execute();
}

/** A finished training: the ONNX file's key, the report and the classes. False when the model is gone. */
export async function recordTraining(db: Db, modelId: number, trained: { key: string; report: string; spec: string }): Promise<boolean> {
  const updated = await db
    .updateTable('models')
    .set({ object_storage_key: trained.key, completion_percentage: 100, trained_at: Date.now(), report: trained.report, spec: trained.spec, error: null })
    .where('id', '=', modelId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** A training that failed for good: its message, shown on /models. */
export async function recordTrainingError(db: Db, modelId: number, message: string) {
  await db.updateTable('models').set({ error: message }).where('id', '=', modelId).execute();
}

/** When the model's segments were last written (vision.apply). */
export async function recordApplied(db: Db, modelId: number, at: number) {
  await db.updateTable('models').set({ applied_at: at }).where('id', '=', modelId).execute();
}
