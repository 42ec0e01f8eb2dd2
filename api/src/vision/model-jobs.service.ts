import type { Db } from '../db/database';
import { finishJob, stillClaimed } from '../jobs/queue';
import { modelRejections, replaceModelLayer, subtractIntervals, UNREVIEWED_SOURCE } from '../markup/model-layer.service';
import { bumpMarkupVersions, logActivities } from '../video/activity.service';

// What the vision jobs (train.job.ts, apply.job.ts) read and write: a model's row (training progress,
// its result or error, the time of the last applying; the row is vision's), and what training and
// applying read — the video, the model's areas and operations, people's markups, the employee.
// The handlers call these and run no SQL themselves.

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

/** A model's row, or undefined when it is gone. */
export async function modelRow(db: Db, modelId: number) {
  return await db.selectFrom('models').selectAll().where('id', '=', modelId).executeTakeFirst();
}

/** Whether the model is still there (inside the transaction that writes an applying's result). */
async function modelExists(db: Db, modelId: number): Promise<boolean> {
  return (await db.selectFrom('models').select('id').where('id', '=', modelId).executeTakeFirst()) !== undefined;
}

/** How a job's result commit ended: written, or nothing written — the job was cancelled (or taken over), or the model deleted. */
type Committed = 'done' | 'cancelled' | 'gone';

/** Thrown inside a result transaction to roll it back with the reason. */
class RolledBack extends Error {
  constructor(readonly reason: Exclude<Committed, 'done'>) {
    super(reason);
  }
}

/** The claimed job a result commit ends (finishJob, jobs/queue.ts): its id, the claim's token, its result. */
interface FinishedJob {
  id: number;
  workerId: string;
  result: unknown;
}

/** Runs `writes` in one transaction; a RolledBack inside it is its answer, anything else is thrown. */
async function commit(db: Db, writes: (trx: Db) => Promise<void>): Promise<Committed> {
  try {
    await db.transaction().execute(writes);
    return 'done';
  } catch (err) {
    if (err instanceof RolledBack) return err.reason;
    throw err;
  }
}

/**
 * A finished training: the job's success and the model's result (recordTraining) in one transaction,
 * so that a job cancelled or a model deleted meanwhile gets neither.
 */
export async function commitTraining(db: Db, job: FinishedJob, modelId: number, trained: { key: string; report: string; spec: string }): Promise<Committed> {
  return await commit(db, async (trx) => {
    if (!(await finishJob(trx, job.id, job.workerId, job.result))) throw new RolledBack('cancelled');
    if (!(await recordTraining(trx, modelId, trained))) throw new RolledBack('gone');
  });
}

/** What an applying wrote, for the job's result and the user's message (issue 43: every count true). */
export interface ApplyCounts {
  /** Operation segments the model found in the span (before anything below). */
  found: number;
  /** Rows of the layer written (a segment cut by people's rows may leave two). */
  written: number;
  /** Segments not written because people's rows of the workplace cover them. */
  underPeople: number;
  /** Earlier unreviewed rows of this model in the span that the new layer replaced. */
  replaced: number;
  /** Segments not written because a person rejected this model's segment there before. */
  rejected: number;
  /** Written segments another (earlier) model had there and a person rejected: marked «отклонён в прошлой версии». */
  rejectedBefore: number;
}

/** The mark of a segment an earlier model had there and a person rejected. */
export const REJECTED_BEFORE_NOTE = 'отклонён в прошлой версии';

/** Length of [start, end) covered by the spans (which may overlap one another). */
function coveredBy(start: number, end: number, spans: { start_time: number; end_time: number }[]): number {
  const gaps = subtractIntervals(
    start,
    end,
    spans.map((s) => ({ start: s.start_time, end: s.end_time })),
  );
  return end - start - gaps.reduce((sum, g) => sum + g.end - g.start, 0);
}

/**
 * A finished applying: the job's success and its markups in one transaction — the model's new layer
 * (markup/model-layer.service.ts), the model's time, the video's version and activity. A segment
 * lying more than half in a span where a person rejected this model's segment is not written; one
 * more than half in a span where another model's segment of the same operation was rejected is
 * written with the mark REJECTED_BEFORE_NOTE. The counts are read back from what was written, and
 * `describe` turns them into the job's result and the activity's text. A cancelled job writes none,
 * and a worker killed before the commit leaves none, so the rerun after a restart starts clean.
 * With `part`, the commit is one part of a job that goes on (live labels): fenced by the claim
 * without finishing the job, and `part.also` (false: roll back as cancelled) writes beside it.
 */
export async function commitApplying<R>(
  db: Db,
  job: Omit<FinishedJob, 'result'>,
  applied: {
    model: { id: number; name: string; workplace_id: number | null };
    video: { id: number; structure_id: number; start_time: number };
    segments: { operationId: number; startSecond: number; endSecond: number; confidence: number }[];
    target: { startInstant: number; endInstant: number; employeeId: number };
  },
  describe: (counts: ApplyCounts) => { result: R; message: string },
  part?: { also: (trx: Db) => Promise<boolean> },
): Promise<{ committed: Committed; result?: R }> {
  const { model, video, target } = applied;
  const workplaceId = model.workplace_id!;
  let result: R | undefined;
  const committed = await commit(db, async (trx) => {
    if (!(await modelExists(trx, model.id))) throw new RolledBack('gone');
    const now = Date.now();
    const instant = (second: number) => video.start_time + Math.round(second * 1000);
    const rejections = await modelRejections(trx, { videoId: video.id, workplaceId, from: target.startInstant, to: target.endInstant });
    const segments = [];
    let rejected = 0;
    for (const s of applied.segments) {
      const [from, to] = [instant(s.startSecond), instant(s.endSecond)];
      const half = (to - from) / 2;
      if (
        coveredBy(
          from,
          to,
          rejections.filter((r) => r.model_id === model.id),
        ) > half
      ) {
        rejected++;
        continue;
      }
      const before = rejections.filter((r) => r.model_id !== model.id && r.operation_id === s.operationId);
      segments.push(coveredBy(from, to, before) > half ? { ...s, note: REJECTED_BEFORE_NOTE } : s);
    }
    const layerIn = () =>
      trx
        .selectFrom('markups')
        .select(['start_time', 'end_time'])
        .where('model_id', '=', model.id)
        .where('source', '=', UNREVIEWED_SOURCE)
        .where('video_id', '=', video.id)
        .where('start_time', '<', target.endInstant)
        .where('end_time', '>', target.startInstant)
        .execute();
    const replaced = (await layerIn()).length;
    await replaceModelLayer(trx, { id: model.id, workplaceId }, video, segments, { ...target, now });
    // Rows of the new layer lie inside the span (earlier rows' parts outside it were cut at its edges).
    const written = (await layerIn()).filter((r) => r.start_time >= target.startInstant && r.end_time <= target.endInstant);
    const underPeople = segments.filter((s) => !written.some((r) => r.start_time >= instant(s.startSecond) && r.end_time <= instant(s.endSecond))).length;
    const counts: ApplyCounts = {
      found: applied.segments.length,
      written: written.length,
      underPeople,
      replaced,
      rejected,
      rejectedBefore: segments.filter((s) => 'note' in s).length,
    };
    const described = describe(counts);
    // A part of a longer job (live labels, one segment of the camera's run) keeps the job running; `also` writes the part's own mark.
    const fenced = part
      ? (await stillClaimed(trx, job.id, job.workerId)) && (await part.also(trx))
      : await finishJob(trx, job.id, job.workerId, described.result);
    if (!fenced) throw new RolledBack('cancelled');
    result = described.result;
    await recordApplied(trx, model.id, now);
    await bumpMarkupVersions(trx, [video.id]);
    await logActivities(trx, [{ videoId: video.id, authorId: null, at: now, comment: described.message }]);
  });
  return committed === 'done' ? { committed, result } : { committed };
}

/** A video a job reads, with its camera's structure and organisation; undefined when it is gone. */
export async function jobVideo(db: Db, videoId: number) {
  return await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .select([
      'videos.id',
      'videos.filename',
      'videos.storage_key',
      'videos.start_time',
      'videos.duration',
      'videos.reference_step',
      'cameras.structure_id',
      'structures.organization_id',
    ])
    .where('videos.id', '=', videoId)
    .executeTakeFirst();
}

/** The model's areas of the picture, by id. */
export async function modelAreas(db: Db, modelId: number) {
  return await db
    .selectFrom('video_areas')
    .innerJoin('model_video_areas', 'model_video_areas.video_area_id', 'video_areas.id')
    .select(['video_areas.id', 'name', 'x1', 'y1', 'x2', 'y2', 'frame_width', 'frame_height'])
    .where('model_video_areas.model_id', '=', modelId)
    .orderBy('video_areas.id')
    .execute();
}

/** The model's operations (its classes besides the background), by id. */
export async function modelOperations(db: Db, modelId: number) {
  return await db
    .selectFrom('operations')
    .innerJoin('model_operations', 'model_operations.operation_id', 'operations.id')
    .select(['operations.id', 'operations.name'])
    .where('model_operations.model_id', '=', modelId)
    .orderBy('operations.id')
    .execute();
}

/**
 * People's markups of `operationIds` at a workplace of a structure that overlap the instants
 * [from, to) (ms), by start: what a model learns from and is scored on — never an unreviewed model layer.
 */
export async function peopleMarkups(db: Db, scope: { structureId: number; workplaceId: number; operationIds: number[]; from: number; to: number }) {
  return await db
    .selectFrom('markups')
    .select(['operation_id', 'start_time', 'end_time'])
    .where('structure_id', '=', scope.structureId)
    .where('workplace_id', '=', scope.workplaceId)
    .where('source', '!=', UNREVIEWED_SOURCE)
    .where('operation_id', 'in', scope.operationIds)
    .where('start_time', '<', scope.to)
    .where('end_time', '>', scope.from)
    .orderBy('start_time')
    .execute();
}

/** Which of `operationIds` the structure still has (an applying writes no segment of a deleted operation). */
export async function existingOperationIds(db: Db, structureId: number, operationIds: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('operations').select('id').where('structure_id', '=', structureId).where('id', 'in', operationIds).execute();
  return new Set(rows.map((o) => o.id));
}

/** A workplace's name and its organisation's time zone. */
export async function workplacePlace(db: Db, workplaceId: number) {
  return await db
    .selectFrom('workplaces')
    .innerJoin('structures', 'structures.id', 'workplaces.structure_id')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select(['workplaces.name', 'organizations.time_zone'])
    .where('workplaces.id', '=', workplaceId)
    .executeTakeFirstOrThrow();
}
