import { probe } from '@norma/workers/media';
import type { SourceVideoFile } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { PermanentJobError } from '../jobs/runner';
import type { ObjectStore } from '../storage/object-store';
import { jobVideo, touchModel } from './model-jobs.service';

// What the vision jobs (train.job.ts, apply.job.ts) share.

/** Video file, its organisation and its picture size (ffprobe). */
export async function videoSource(db: Db, storage: ObjectStore, videoId: number | null) {
  const video = videoId === null ? undefined : await jobVideo(db, videoId);
  if (!video) throw new PermanentJobError('Видео удалено');
  if (!(await storage.exists(video.storage_key))) throw new PermanentJobError('Файл видео не найден в хранилище');
  const file = await storage.local(video.storage_key);
  const info = await probe(file);
  if (!info.width || !info.height) throw new PermanentJobError('В файле нет видеодорожки');
  return { ...video, file, width: info.width, height: info.height, frameRate: info.frameRate };
}

/** What the vision pipeline reads of a job's video: with its rate and reference step the decoder skips frames no model samples (workers/src/media/reference-frames.ts). */
export function sourceFile(video: Awaited<ReturnType<typeof videoSource>>): SourceVideoFile {
  return { file: video.file, width: video.width, height: video.height, frameRate: video.frameRate, referenceStep: video.reference_step };
}

/**
 * Mirrors job progress into models.completion_percentage (the /models progress bar) and notices a
 * model deleted meanwhile: `signal` then aborts, as it does when the runner stops.
 */
export function modelWatch(db: Db, modelId: number, runnerSignal: AbortSignal, report: (percent: number) => void) {
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
