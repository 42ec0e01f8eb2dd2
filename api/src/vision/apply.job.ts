import { applyOperationModel, checkPicture, ModelLoadError, type PictureCheck, type VisionSpec } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import { workplaceEmployee } from '../markup/model-layer.service';
import type { ObjectStore } from '../storage/object-store';
import { modelWatch, sourceFile, videoSource } from './job-support';
import { plural } from '@norma/core-wasm/report';
import { commitApplying, existingOperationIds, modelRow, REJECTED_BEFORE_NOTE, workplacePlace, type ApplyCounts } from './model-jobs.service';

interface ApplyPayload {
  model_id: number;
  video_id: number;
  start_second: number;
  end_second: number;
  /** 0018: who the segments are written for (picked by the analyst or the workplace's employee that day). */
  employee_id?: number;
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
      const loaded = await loadAppliedModel(db, storage, payload.model_id);
      const applied = await applyModelSpan(db, storage, { jobId: job.id, workerId, signal, progress }, loaded, {
        videoId: payload.video_id,
        startSecond: payload.start_second,
        endSecond: payload.end_second,
        employeeId: payload.employee_id ?? null,
      });
      if (applied === null) return null;
      progress(100);
      return applied.result;
    },
  };
}

/** A model an applying runs: its row, its classes and its ONNX file's bytes (read once, however many spans it labels). */
export interface AppliedModel {
  model: NonNullable<Awaited<ReturnType<typeof modelRow>>> & { workplace_id: number };
  spec: VisionSpec;
  bytes: Uint8Array;
}

/** Reads a trained model for applying; a model deleted, untrained or without a workplace is a PermanentJobError. */
export async function loadAppliedModel(db: Db, storage: ObjectStore, modelId: number): Promise<AppliedModel> {
  const model = await modelRow(db, modelId);
  if (!model) throw new PermanentJobError('Модель удалена');
  if (!model.object_storage_key || !model.spec) throw new PermanentJobError('Модель не обучена');
  if (model.workplace_id === null) throw new PermanentJobError('Рабочее место модели удалено');
  if (!(await storage.exists(model.object_storage_key))) throw new PermanentJobError('Файл модели не найден в хранилище');
  const bytes = new Uint8Array(await storage.file(model.object_storage_key).arrayBuffer());
  return { model: { ...model, workplace_id: model.workplace_id }, spec: JSON.parse(model.spec) as VisionSpec, bytes };
}

/** What one applying of a span needs besides the model: the job's claim (its writes are fenced by it). */
interface ApplyingJob {
  jobId: number;
  workerId: string;
  signal: AbortSignal;
  progress: (percent: number) => void;
}

/**
 * Applies a loaded model to a span of a video and commits its layer (commitApplying). `options.picture`:
 * a picture check already made for this view (live labels check a camera's view once a while, not on
 * every segment: it costs 15 ffmpeg seeks); `options.viewLater`: without one, only the aspect ratio is
 * checked now; `options.part`: the commit is a part of a job that goes on.
 * Null when the job was cancelled or aborted (nothing written).
 */
export async function applyModelSpan(
  db: Db,
  storage: ObjectStore,
  job: ApplyingJob,
  loaded: AppliedModel,
  span: { videoId: number; startSecond: number; endSecond: number; employeeId: number | null },
  options: { picture?: PictureCheck; viewLater?: boolean; part?: { also: (trx: Db) => Promise<boolean> } } = {},
): Promise<{ result: ApplyResult; picture: PictureCheck } | null> {
  const { model, spec, bytes } = loaded;
  const { signal } = job;
  const video = await videoSource(db, storage, span.videoId);
  const watch = modelWatch(db, model.id, signal, job.progress);
  let out;
  let picture;
  try {
    // Another aspect ratio or a moved camera: applied anyway, and the result says so (docs/vision.md «Разрешение и вид камеры»).
    // `viewLater`: the aspect ratio only (no frame decoded); the view is compared by the caller another time.
    const against = options.viewLater ? { source: spec.source } : spec;
    picture = options.picture ?? (await checkPicture(against, video, { startSecond: span.startSecond, endSecond: span.endSecond }, watch.signal));
    out = await applyOperationModel({
      video: sourceFile(video),
      startSecond: span.startSecond,
      endSecond: span.endSecond,
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
  const startInstant = video.start_time + Math.round(span.startSecond * 1000);
  const endInstant = video.start_time + Math.round(span.endSecond * 1000);
  const existing = await existingOperationIds(
    db,
    video.structure_id,
    spec.classes.map((c) => c.operationId ?? 0),
  );
  const segments = out.segments.filter((s) => existing.has(s.operationId));
  const employeeId = span.employeeId ?? (await applyingEmployee(db, model.workplace_id, video.structure_id, startInstant));
  const uncertainSeconds = out.uncertain.reduce((sum, u) => sum + u.endSecond - u.startSecond, 0);
  if (signal.aborted) return null;
  const checked = picture;
  // The markups and the job's success commit together: a cancelled job writes none, and a
  // worker killed before the commit leaves none, so the rerun after a restart starts clean.
  const { committed, result } = await commitApplying(
    db,
    { id: job.jobId, workerId: job.workerId },
    { model, video, segments, target: { startInstant, endInstant, employeeId } },
    (counts) => {
      const message = applyMessage(model.name, counts, { seconds: uncertainSeconds, spans: out.uncertain.length });
      return {
        result: {
          model_id: model.id,
          video_id: video.id,
          steps: out.steps,
          start_second: span.startSecond,
          end_second: span.endSecond,
          picture_warnings: checked.warnings,
          view_similarity: checked.viewSimilarity,
          // Every count true (issue 43): rows written, segments under people's rows, earlier rows replaced, rejections.
          markups: counts.written,
          found: counts.found,
          under_people: counts.underPeople,
          replaced: counts.replaced,
          rejected: counts.rejected,
          rejected_before: counts.rejectedBefore,
          // «Не уверена»: steps unlike what the model was trained on, never written as an operation.
          uncertain_steps: out.uncertainSteps,
          uncertain_seconds: Math.round(uncertainSeconds * 10) / 10,
          uncertain: out.uncertain.slice(0, MAX_UNCERTAIN_SPANS).map((u) => ({ start_second: u.startSecond, end_second: u.endSecond })),
          message,
        },
        message,
      };
    },
    options.part,
  );
  if (committed === 'gone') throw new PermanentJobError('Модель удалена: применение остановлено');
  if (committed === 'cancelled') return null;
  return { result: result!, picture };
}

/** An applying's result (the job's, or one segment's of a live run). */
interface ApplyResult {
  model_id: number;
  video_id: number;
  markups: number;
  message: string;
  [more: string]: unknown;
}

/** At most this many «не уверена» spans are listed in the job's result (their total is always there). */
const MAX_UNCERTAIN_SPANS = 500;

const segmentsText = (n: number) => `${n} ${plural(n, 'отрезок', 'отрезка', 'отрезков')}`;

/**
 * The applying's result in words (job result, the video's history, the PWA's message): what was
 * written and what was not, and why — each count true, each noun in its Russian plural.
 */
export function applyMessage(modelName: string, counts: ApplyCounts, uncertain: { seconds: number; spans: number }): string {
  const parts = [
    counts.written > 0 ? `Модель «${modelName}» записала ${segmentsText(counts.written)} на проверку` : `Модель «${modelName}» не записала ни одного отрезка`,
  ];
  if (counts.replaced > 0) parts.push(`${plural(counts.replaced, 'заменён', 'заменены', 'заменено')} ${segmentsText(counts.replaced)} её прежнего применения`);
  if (counts.underPeople > 0)
    parts.push(`${segmentsText(counts.underPeople)} не ${plural(counts.underPeople, 'записан', 'записаны', 'записано')}: там уже есть разметка людей`);
  if (counts.rejected > 0)
    parts.push(`${segmentsText(counts.rejected)} не ${plural(counts.rejected, 'записан', 'записаны', 'записано')}: там отрезок этой модели уже отклонили`);
  if (counts.rejectedBefore > 0) parts.push(`${segmentsText(counts.rejectedBefore)} с отметкой «${REJECTED_BEFORE_NOTE}»`);
  if (uncertain.spans > 0)
    parts.push(
      `модель не уверена на ${secondsText(uncertain.seconds)} с (${segmentsText(uncertain.spans)}): такая работа не похожа на то, чему её учили, и операцией не записана`,
    );
  return `${parts.join('; ')}.`;
}

const secondsText = (v: number) => (Math.round(v * 10) / 10).toString().replace('.', ',');

/** The workplace's employee that day for a job queued before the analyst could pick one (0018). */
async function applyingEmployee(db: Db, workplaceId: number, structureId: number, at: number): Promise<number> {
  const place = await workplacePlace(db, workplaceId);
  try {
    return await workplaceEmployee(db, { structureId, workplaceId, workplaceName: place.name, at, timeZone: place.time_zone });
  } catch (err) {
    throw new PermanentJobError(err instanceof Error ? err.message : String(err));
  }
}
