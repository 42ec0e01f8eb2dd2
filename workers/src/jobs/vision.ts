import { PermanentJobError, type ClaimedJob, type JobHandler } from '@norma/workers/runner';
import { probe } from '@norma/workers/media';
import {
  applyOperationModel,
  DEFAULT_POSE_SAMPLING,
  ModelLoadError,
  reportText,
  trainOperationModel,
  type LabelSpan,
  type TestSpan,
  type VisionSpec,
} from '@norma/workers/vision';
import type { Db } from '../../../api/src/db/database';
import { finishJob } from '../../../api/src/jobs/queue';
import { bumpMarkupVersions, logActivities } from '../../../api/src/video/activity.service';
import { replaceModelLayer, UNREVIEWED_SOURCE, workplaceEmployee } from '../../../api/src/markup/model-layer.service';
import type { ObjectStore } from '../../../api/src/storage/object-store';
import { visionCancelled } from '../../../api/src/vision/cancel';
import { beginTraining, recordApplied, recordTraining, recordTrainingError, touchModel } from '../../../api/src/vision/model-jobs.service';
import { modelKey } from '../../../api/src/vision/service';

interface TrainPayload {
  model_id: number;
  /** Where to evaluate instead of blocks of the marked span (issue 25). */
  test?: { video_id: number; start_second: number; end_second: number } | null;
  /** Keypoints of people as features too (docs/vision.md «Позы как признаки»). */
  poses?: boolean;
}
interface ApplyPayload {
  model_id: number;
  video_id: number;
  start_second: number;
  end_second: number;
  /** 0018: who the segments are written for (picked by the analyst or the workplace's employee that day). */
  employee_id?: number;
}

const modelIdOf = (job: ClaimedJob) => Number((job.payload as TrainPayload | null)?.model_id);

/** Thrown inside a result transaction when the job was cancelled meanwhile: the writes roll back. */
class JobCancelled extends Error {}

/** Video file, its organisation and its picture size (ffprobe). */
async function videoSource(db: Db, storage: ObjectStore, videoId: number | null) {
  const video =
    videoId === null
      ? undefined
      : await db
          .selectFrom('videos')
          .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
          .innerJoin('structures', 'structures.id', 'cameras.structure_id')
          .select([
            'videos.id',
            'videos.filename',
            'videos.storage_key',
            'videos.start_time',
            'videos.duration',
            'cameras.structure_id',
            'structures.organization_id',
          ])
          .where('videos.id', '=', videoId)
          .executeTakeFirst();
  if (!video) throw new PermanentJobError('Видео удалено');
  if (!(await storage.exists(video.storage_key))) throw new PermanentJobError('Файл видео не найден в хранилище');
  const file = await storage.local(video.storage_key);
  const info = await probe(file);
  if (!info.width || !info.height) throw new PermanentJobError('В файле нет видеодорожки');
  return { ...video, file, width: info.width, height: info.height };
}

/**
 * Mirrors job progress into models.completion_percentage (the /models progress bar) and notices a
 * model deleted meanwhile: `signal` then aborts, as it does when the runner stops.
 */
function modelWatch(db: Db, modelId: number, runnerSignal: AbortSignal, report: (percent: number) => void) {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  runnerSignal.addEventListener('abort', onAbort, { once: true });
  let gone = false;
  let lastWrite = 0;
  let writing = false;
  let closed = false;
  let lastTouch: Promise<unknown> = Promise.resolve();
  return {
    signal: controller.signal,
    get gone() {
      return gone;
    },
    progress(percent: number, column: 'completion_percentage' | null) {
      report(percent);
      if (closed || writing || Date.now() - lastWrite < 500) return;
      writing = true;
      lastWrite = Date.now();
      lastTouch = touchModel(db, modelId, column ? Math.round(percent * 10) / 10 : null)
        .then((found) => {
          if (!found) {
            gone = true;
            controller.abort();
          }
        })
        .catch(() => {})
        .finally(() => (writing = false));
    },
    /**
     * Stops mirroring; resolves once the last progress write has landed, so that it cannot overwrite
     * what the job writes next (a trained model's 100 % was once overwritten by a late 98 %).
     */
    async done() {
      closed = true;
      runnerSignal.removeEventListener('abort', onAbort);
      await lastTouch;
    },
  };
}

/**
 * What vision.train learns from: the marked video, the model's areas and operations, people's markups
 * of those operations over the marked span, and the test span when one was chosen (issue 25).
 */
async function trainingInputs(
  db: Db,
  storage: ObjectStore,
  model: { id: number; marked_video_id: number | null; workplace_id: number | null; start_second: number; end_second: number },
  testPayload: TrainPayload['test'],
) {
  const video = await videoSource(db, storage, model.marked_video_id);
  const areas = await db
    .selectFrom('video_areas')
    .innerJoin('model_video_areas', 'model_video_areas.video_area_id', 'video_areas.id')
    .select(['video_areas.id', 'name', 'x1', 'y1', 'x2', 'y2'])
    .where('model_video_areas.model_id', '=', model.id)
    .orderBy('video_areas.id')
    .execute();
  if (areas.length === 0) throw new PermanentJobError('Области модели удалены: выберите области и обучите заново');
  const operations = await db
    .selectFrom('operations')
    .innerJoin('model_operations', 'model_operations.operation_id', 'operations.id')
    .select(['operations.id', 'operations.name'])
    .where('model_operations.model_id', '=', model.id)
    .orderBy('operations.id')
    .execute();
  if (operations.length === 0 || model.workplace_id === null) throw new PermanentJobError('Операции или рабочее место модели удалены');
  const workplaceId = model.workplace_id;
  /** People's markups of the model's operations at its workplace over a span of a video, as class spans from the video's start. */
  const labelSpans = async (source: { structure_id: number; start_time: number }, startSecond: number, endSecond: number): Promise<LabelSpan[]> => {
    const rows = await db
      .selectFrom('markups')
      .select(['operation_id', 'start_time', 'end_time'])
      .where('structure_id', '=', source.structure_id)
      .where('workplace_id', '=', workplaceId)
      // A model learns and is scored on people's markups only, never on an unreviewed model layer.
      .where('source', '!=', UNREVIEWED_SOURCE)
      .where(
        'operation_id',
        'in',
        operations.map((o) => o.id),
      )
      .where('start_time', '<', source.start_time + endSecond * 1000)
      .where('end_time', '>', source.start_time + startSecond * 1000)
      .orderBy('start_time')
      .execute();
    return rows.map((m) => ({
      classIndex: 1 + operations.findIndex((o) => o.id === m.operation_id),
      startSecond: (m.start_time - source.start_time) / 1000,
      endSecond: (m.end_time - source.start_time) / 1000,
    }));
  };
  const spans = await labelSpans(video, model.start_second, model.end_second);
  let test: TestSpan | undefined;
  if (testPayload) {
    const other = await videoSource(db, storage, testPayload.video_id);
    test = {
      video: { file: other.file, width: other.width, height: other.height },
      startSecond: testPayload.start_second,
      endSecond: testPayload.end_second,
      spans: await labelSpans(other, testPayload.start_second, testPayload.end_second),
      description: `видео «${other.filename}», ${testPayload.start_second}–${testPayload.end_second} с`,
    };
  }
  return { video, areas, operations, spans, test };
}

/** The job's result of vision.train: the report's figures, per class beside the constant answer's. */
function trainResult(modelId: number, key: string, out: Awaited<ReturnType<typeof trainOperationModel>>) {
  const r = out.report;
  // Per class: training and test steps, step scores, segment F1@0.5; the constant answer beside them.
  const heldOut = out.spec.classes.map((c, i) => {
    const m = r.evaluation.perClass[i]!;
    const b = r.baseline.evaluation.perClass[i]!;
    return {
      operation_id: c.operationId,
      name: c.name,
      train_steps: r.trainStepsPerClass[i] ?? 0,
      steps: m.support,
      precision: m.precision,
      recall: m.recall,
      f1: m.f1,
      segment_f1: r.segments.perClass[i]!.f1,
      baseline_f1: b.f1,
    };
  });
  return {
    model_id: modelId,
    object_storage_key: key,
    steps: r.steps,
    train_steps: r.trainSteps,
    validation_steps: r.validationSteps,
    test: { source: r.test.source, steps: r.test.steps, description: r.test.description },
    accuracy: r.evaluation.accuracy,
    edit_score: r.segments.editScore,
    best_epoch: r.bestEpoch,
    baseline: { operation_id: out.spec.classes[r.baseline.classIndex]?.operationId ?? null, accuracy: r.baseline.evaluation.accuracy },
    warnings: r.warnings,
    held_out: heldOut,
  };
}

/**
 * vision.train: features of the marked span, labels from the markups of the chosen operations at
 * the model's workplace (other time is the background), classifier, ONNX into the object store
 * (models/<organisation>/<model>.onnx, overwritten by a rerun: restart-safe), report into the row.
 */
export function visionTrainHandler(db: Db, storage: ObjectStore): JobHandler {
  return {
    async run({ job, workerId, signal, progress }) {
      const modelId = modelIdOf(job);
      const model = await db.selectFrom('models').selectAll().where('id', '=', modelId).executeTakeFirst();
      if (!model) throw new PermanentJobError('Модель удалена до обучения');
      await beginTraining(db, modelId);
      const { video, areas, operations, spans, test } = await trainingInputs(db, storage, model, (job.payload as TrainPayload).test);
      const watch = modelWatch(db, modelId, signal, progress);
      let out;
      try {
        out = await trainOperationModel({
          video: { file: video.file, width: video.width, height: video.height },
          startSecond: model.start_second,
          endSecond: model.end_second,
          areas: areas.map((a) => ({ id: a.id, name: a.name, rect: { x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2 } })),
          classes: [{ operationId: null, name: 'Фон (прочее)' }, ...operations.map((o) => ({ operationId: o.id, name: o.name }))],
          spans,
          test,
          ...((job.payload as TrainPayload).poses ? { pose: DEFAULT_POSE_SAMPLING } : {}),
          signal: watch.signal,
          progress: (p) => watch.progress(p * 0.98, 'completion_percentage'),
        });
      } catch (err) {
        if (watch.gone) throw new PermanentJobError('Модель удалена: обучение остановлено');
        if (signal.aborted) return null;
        if (err instanceof Error && /нет разметки|Слишком мало|ни одного кадра/.test(err.message)) throw new PermanentJobError(err.message);
        throw err;
      } finally {
        await watch.done();
      }
      if (signal.aborted) return null;
      const key = modelKey(video.organization_id, modelId);
      const report = reportText(out.report, out.spec, { videoName: video.filename, startSecond: model.start_second, endSecond: model.end_second });
      const result = trainResult(modelId, key, out);
      // The file first (a rerun overwrites the same key), then the model row and the job's success
      // in one transaction: a job cancelled or a model deleted meanwhile gets neither, and no file.
      await storage.put(key, out.onnx);
      try {
        await db.transaction().execute(async (trx) => {
          if (!(await finishJob(trx, job.id, workerId, result))) throw new JobCancelled();
          if (!(await recordTraining(trx, modelId, { key, report, spec: JSON.stringify(out.spec) })))
            throw new PermanentJobError('Модель удалена: обучение остановлено');
        });
      } catch (err) {
        await storage.remove(key);
        if (err instanceof JobCancelled) return null;
        throw err;
      }
      progress(100);
      return result;
    },
    async failed(job, message) {
      const modelId = modelIdOf(job);
      await recordTrainingError(db, modelId, message);
      // Attempts spent after a worker died between writing the file and recording it: no orphan file.
      const organizationId = (await db.selectFrom('jobs').select('organization_id').where('id', '=', job.id).executeTakeFirst())?.organization_id;
      if (organizationId != null) await visionCancelled(db, storage, { organizationId, payload: job.payload });
    },
  };
}

/**
 * vision.apply: runs the stored ONNX model over the span, smooths, and writes the segments as
 * markups of the model (source 'model', no human author). The model's own earlier markups in
 * that span are replaced, so a rerun after a restart leaves the same result.
 */
export function visionApplyHandler(db: Db, storage: ObjectStore): JobHandler {
  return {
    async run({ job, workerId, signal, progress }) {
      const payload = job.payload as ApplyPayload;
      const model = await db.selectFrom('models').selectAll().where('id', '=', payload.model_id).executeTakeFirst();
      if (!model) throw new PermanentJobError('Модель удалена');
      if (!model.object_storage_key || !model.spec) throw new PermanentJobError('Модель не обучена');
      if (model.workplace_id === null) throw new PermanentJobError('Рабочее место модели удалено');
      if (!(await storage.exists(model.object_storage_key))) throw new PermanentJobError('Файл модели не найден в хранилище');
      const spec = JSON.parse(model.spec) as VisionSpec;
      const video = await videoSource(db, storage, payload.video_id);
      const bytes = new Uint8Array(await storage.file(model.object_storage_key).arrayBuffer());
      const watch = modelWatch(db, model.id, signal, progress);
      let out;
      try {
        out = await applyOperationModel({
          video: { file: video.file, width: video.width, height: video.height },
          startSecond: payload.start_second,
          endSecond: payload.end_second,
          onnx: bytes,
          spec,
          signal: watch.signal,
          progress: (p) => watch.progress(p * 0.97, null),
        });
      } catch (err) {
        if (err instanceof ModelLoadError) throw new PermanentJobError(err.message);
        if (watch.gone) throw new PermanentJobError('Модель удалена: применение остановлено');
        if (signal.aborted) return null;
        throw err;
      } finally {
        await watch.done();
      }
      const startInstant = video.start_time + Math.round(payload.start_second * 1000);
      const endInstant = video.start_time + Math.round(payload.end_second * 1000);
      const existing = new Set(
        (
          await db
            .selectFrom('operations')
            .select('id')
            .where('structure_id', '=', video.structure_id)
            .where(
              'id',
              'in',
              spec.classes.map((c) => c.operationId ?? 0),
            )
            .execute()
        ).map((o) => o.id),
      );
      const segments = out.segments.filter((s) => existing.has(s.operationId));
      const employeeId = payload.employee_id ?? (await applyingEmployee(db, model.workplace_id, video.structure_id, startInstant));
      const result = {
        model_id: model.id,
        video_id: video.id,
        steps: out.steps,
        markups: segments.length,
        start_second: payload.start_second,
        end_second: payload.end_second,
      };
      if (signal.aborted) return null;
      // The markups and the job's success commit together: a cancelled job writes none, and a
      // worker killed before the commit leaves none, so the rerun after a restart starts clean.
      const done = await db
        .transaction()
        .execute(async (trx) => {
          const still = await trx.selectFrom('models').select('id').where('id', '=', model.id).executeTakeFirst();
          if (!still) throw new PermanentJobError('Модель удалена: применение остановлено');
          if (!(await finishJob(trx, job.id, workerId, result))) throw new JobCancelled();
          await writeModelMarkups(trx, model, video, segments, { startInstant, endInstant, employeeId });
          return true;
        })
        .catch((err) => {
          if (err instanceof JobCancelled) return false;
          throw err;
        });
      if (!done) return null;
      progress(100);
      return result;
    },
  };
}

/** The workplace's employee that day for a job queued before the analyst could pick one (0018). */
async function applyingEmployee(db: Db, workplaceId: number, structureId: number, at: number): Promise<number> {
  const place = await db
    .selectFrom('workplaces')
    .innerJoin('structures', 'structures.id', 'workplaces.structure_id')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select(['workplaces.name', 'organizations.time_zone'])
    .where('workplaces.id', '=', workplaceId)
    .executeTakeFirstOrThrow();
  try {
    return await workplaceEmployee(db, { structureId, workplaceId, workplaceName: place.name, at, timeZone: place.time_zone });
  } catch (err) {
    throw new PermanentJobError(err instanceof Error ? err.message : String(err));
  }
}

/** Writes an applying's result: the model's new layer (markup/model-layer.service.ts), the model's time, the video's version and activity. */
async function writeModelMarkups(
  trx: Db,
  model: { id: number; name: string; workplace_id: number | null },
  video: { id: number; structure_id: number; start_time: number },
  segments: { operationId: number; startSecond: number; endSecond: number; confidence: number }[],
  target: { startInstant: number; endInstant: number; employeeId: number },
) {
  const now = Date.now();
  await replaceModelLayer(trx, { id: model.id, workplaceId: model.workplace_id! }, video, segments, { ...target, now });
  await recordApplied(trx, model.id, now);
  await bumpMarkupVersions(trx, [video.id]);
  await logActivities(trx, [{ videoId: video.id, authorId: null, at: now, comment: `Разметка моделью «${model.name}»: ${segments.length} отрезков` }]);
}
