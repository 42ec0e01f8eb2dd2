import { checkPicture } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import type { ObjectStore } from '../storage/object-store';
import { loadAppliedModel } from '../vision/apply.job';
import { videoSource } from '../vision/job-support';
import * as labels from './live-labels.service';

/**
 * live.view_check (issue 45, docs/live-cameras.md «Живая разметка»): compares a live camera's view with
 * its model's training view (checkPicture: ~15 ffmpeg seeks) on the last segment labelled — through
 * the job queue, in a slot like any heavy work, not beside it. Queued by the camera's labelling job
 * when no segment waits (at most once per camera per VIEW_CHECK_MS, one alive at a time:
 * `camera_streams.view_job_id`). Its outcome is stored on the camera (0032): the next segments' results
 * carry its warnings, camera health raises «вид камеры изменился», the live board shows it. A segment
 * deleted meanwhile or a model gone is the outcome (stored, checked again next time), not a failure.
 */
export function liveViewCheckHandler(db: Db, storage: ObjectStore): JobHandler {
  return {
    async run({ job, workerId, signal, progress }) {
      const cameraId = (job.payload as { camera_id: number }).camera_id;
      const target = await labels.liveTarget(db, cameraId);
      const state = await labels.viewCheckState(db, cameraId);
      if (!target || !target.labelling || !state || state.lastLabelled === null) {
        await labels.releaseViewJob(db, cameraId, job.id);
        return { camera_id: cameraId, checked: false, message: 'Сверка вида камеры не нужна: живой разметки нет' };
      }
      const modelId = target.model_id!;
      const segment = state.lastLabelled;
      let outcome;
      try {
        const loaded = await loadAppliedModel(db, storage, modelId);
        const video = await videoSource(db, storage, segment.video_id);
        const seconds = (segment.end_time - segment.start_time) / 1000;
        const picture = await checkPicture(loaded.spec, video, { startSecond: 0, endSecond: seconds }, signal);
        // A training view without fixed details is not compared (VIEW_MIN_DETAIL): said as the outcome's reason, no alert.
        outcome = {
          similarity: picture.viewSimilarity,
          aspectChange: picture.aspectChange,
          warnings: picture.warnings,
          error: picture.viewNotCompared ?? null,
        };
      } catch (err) {
        if (signal.aborted) return null;
        // The segment deleted by retention, the model gone: said as the outcome; the next check tries again.
        if (!(err instanceof PermanentJobError)) throw err;
        outcome = { similarity: null, aspectChange: null, warnings: [], error: err.message };
      }
      if (signal.aborted) return null;
      const stored = await labels.storeViewCheck(db, cameraId, { id: job.id, workerId }, { modelId, videoId: segment.video_id, ...outcome });
      if (!stored) return null;
      progress(100);
      const message =
        outcome.error !== null
          ? outcome.error.startsWith('Вид камеры не сверен')
            ? outcome.error
            : `Вид камеры не сверен: ${outcome.error}`
          : outcome.warnings.length > 0
            ? `Вид камеры отличается от вида при обучении модели: ${outcome.warnings.join(' ')}`
            : 'Вид камеры совпадает с видом при обучении модели';
      return {
        camera_id: cameraId,
        checked: true,
        model_id: modelId,
        video_id: segment.video_id,
        view_similarity: outcome.similarity,
        warnings: outcome.warnings,
        error: outcome.error,
        message,
      };
    },
  };
}
