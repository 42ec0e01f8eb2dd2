import { DEFAULT_POSE_SAMPLING, reportText, trainOperationModel, type LabelSpan, type TestSpan } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { jobOrganizationId } from '../jobs/queue';
import { PermanentJobError, type ClaimedJob, type JobHandler } from '../jobs/runner';
import type { ObjectStore } from '../storage/object-store';
import { visionCancelled } from './cancel';
import { modelWatch, sourceFile, videoSource } from './job-support';
import { beginTraining, commitTraining, modelAreas, modelOperations, modelRow, peopleMarkups, recordTrainingError } from './model-jobs.service';
import { modelKey } from './service';

interface TrainPayload {
  model_id: number;
  /** Where to evaluate instead of blocks of the marked span (issue 25). */
  test?: { video_id: number; start_second: number; end_second: number } | null;
  /** Keypoints of people as features too (docs/vision.md «Позы как признаки»). */
  poses?: boolean;
}

const modelIdOf = (job: ClaimedJob) => Number((job.payload as TrainPayload | null)?.model_id);

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
  const areas = await modelAreas(db, model.id);
  if (areas.length === 0) throw new PermanentJobError('Области модели удалены: выберите области и обучите заново');
  const operations = await modelOperations(db, model.id);
  if (operations.length === 0 || model.workplace_id === null) throw new PermanentJobError('Операции или рабочее место модели удалены');
  const workplaceId = model.workplace_id;
  /** People's markups of the model's operations at its workplace over a span of a video, as class spans from the video's start. */
  const labelSpans = async (source: { structure_id: number; start_time: number }, startSecond: number, endSecond: number): Promise<LabelSpan[]> => {
    // A model learns and is scored on people's markups only, never on an unreviewed model layer.
    const rows = await peopleMarkups(db, {
      structureId: source.structure_id,
      workplaceId,
      operationIds: operations.map((o) => o.id),
      from: source.start_time + startSecond * 1000,
      to: source.start_time + endSecond * 1000,
    });
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
      video: sourceFile(other),
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
    // Share of the test steps the model is «не уверена» about (issue 43).
    uncertain_share: r.uncertainShare,
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
      const model = await modelRow(db, modelId);
      if (!model) throw new PermanentJobError('Модель удалена до обучения');
      await beginTraining(db, modelId);
      const { video, areas, operations, spans, test } = await trainingInputs(db, storage, model, (job.payload as TrainPayload).test);
      const watch = modelWatch(db, modelId, signal, progress);
      let out;
      try {
        out = await trainOperationModel({
          video: sourceFile(video),
          startSecond: model.start_second,
          endSecond: model.end_second,
          areas: areas.map((a) => ({
            id: a.id,
            name: a.name,
            rect: { x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2 },
            // The frame it was drawn on (0023): the pipeline scales it to the training picture.
            ...(a.frame_width && a.frame_height ? { frame: { width: a.frame_width, height: a.frame_height } } : {}),
          })),
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
        if (err instanceof Error && /нет разметки|Слишком мало|ни одного кадра|не на чем узнать прочую работу/.test(err.message))
          throw new PermanentJobError(err.message);
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
      const committed = await commitTraining(db, { id: job.id, workerId, result }, modelId, { key, report, spec: JSON.stringify(out.spec) }).catch(
        async (err: unknown) => {
          await storage.remove(key);
          throw err;
        },
      );
      if (committed !== 'done') {
        await storage.remove(key);
        if (committed === 'cancelled') return null;
        throw new PermanentJobError('Модель удалена: обучение остановлено');
      }
      progress(100);
      return result;
    },
    async failed(job, message) {
      const modelId = modelIdOf(job);
      await recordTrainingError(db, modelId, message);
      // Attempts spent after a worker died between writing the file and recording it: no orphan file.
      const organizationId = await jobOrganizationId(db, job.id);
      if (organizationId != null) await visionCancelled(db, storage, { organizationId, payload: job.payload });
    },
  };
}
