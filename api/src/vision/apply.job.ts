import { applyOperationModel, ModelLoadError, type VisionSpec } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import { workplaceEmployee } from '../markup/model-layer.service';
import type { ObjectStore } from '../storage/object-store';
import { modelWatch, videoSource } from './job-support';
import { commitApplying, existingOperationIds, modelRow, workplacePlace } from './model-jobs.service';

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
      const model = await modelRow(db, payload.model_id);
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
      const existing = await existingOperationIds(
        db,
        video.structure_id,
        spec.classes.map((c) => c.operationId ?? 0),
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
      const committed = await commitApplying(
        db,
        { id: job.id, workerId, result },
        { model, video, segments, target: { startInstant, endInstant, employeeId } },
      );
      if (committed === 'gone') throw new PermanentJobError('Модель удалена: применение остановлено');
      if (committed === 'cancelled') return null;
      progress(100);
      return result;
    },
  };
}

/** The workplace's employee that day for a job queued before the analyst could pick one (0018). */
async function applyingEmployee(db: Db, workplaceId: number, structureId: number, at: number): Promise<number> {
  const place = await workplacePlace(db, workplaceId);
  try {
    return await workplaceEmployee(db, { structureId, workplaceId, workplaceName: place.name, at, timeZone: place.time_zone });
  } catch (err) {
    throw new PermanentJobError(err instanceof Error ? err.message : String(err));
  }
}
