import { checkIntegrity, convertForBrowser, inspectRecording, MediaRefusedError, NotAVideoError, referenceStepFor } from '@norma/workers/ingest';
import type { Db } from '../db/database';
import { PermanentJobError, type ClaimedJob, type JobHandler } from '../jobs/runner';
import { fitFileName } from '../storage/file-names';
import type { ObjectStore } from '../storage/object-store';
import { markVideoReady, moveVideoFile, setVideoStatus, videoExists, videoToIngest, wasUploaded } from './processing.service';
import { extensionOf } from './recording-name';
import { freeStorageKey } from './registration';

interface IngestPayload {
  video_id: number;
}

const videoIdOf = (job: ClaimedJob) => Number((job.payload as IngestPayload | null)?.video_id);

/** A recording outside the bounds or a process stopped at its cap fails at once: the same file would fail again. */
const permanentIfRefused = (err: unknown): never => {
  throw err instanceof MediaRefusedError ? new PermanentJobError(err.message) : err;
};

/**
 * The `ingest_video` job: probes the recording; when the browser cannot play it at once (not
 * H.264/AAC in MP4, or the index at the end) rewrites it — remux with faststart, or transcode to
 * H.264 — in an ffmpeg child process with progress; records the duration; marks the video ready.
 * A file that is not a video fails at once with a clear message (no retries). A damaged one (cut
 * short, unreadable packets: workers/src/media/integrity.ts) becomes ready with what can be played,
 * its duration the readable one, and `damage` saying why — never silently shortened (issue 24).
 */
export function ingestVideoHandler(db: Db, storage: ObjectStore): JobHandler {
  const setStatus = (videoId: number, status: 'queued' | 'processing' | 'failed', error: string | null) => setVideoStatus(db, videoId, status, error);

  return {
    async run({ job, signal, progress }) {
      const videoId = videoIdOf(job);
      const video = await videoToIngest(db, videoId);
      if (!video) throw new PermanentJobError('Видео удалено до обработки');
      await setStatus(video.id, 'processing', null);
      if (!(await storage.exists(video.storage_key))) throw new PermanentJobError('Файл записи не найден в хранилище');
      const path = await storage.local(video.storage_key);
      let inspected;
      try {
        inspected = await inspectRecording(path);
      } catch (err) {
        if (err instanceof NotAVideoError) {
          // An uploaded file that is no video is of no use: its bytes go at once, the failed row stays
          // (with its error, until deleted in the task list). A file found in a camera folder is the
          // recorder's and may still be being written, so it stays.
          if (await wasUploaded(db, video.id)) {
            await storage.remove(video.storage_key);
            throw new PermanentJobError(`${err.message}. Файл удалён с сервера`);
          }
          throw new PermanentJobError(err.message);
        }
        // Outside the bounds (limits.ts): a real recording, kept for an administrator who may raise them.
        if (err instanceof MediaRefusedError) throw new PermanentJobError(err.message);
        throw err;
      }
      const integrity = await checkIntegrity(path, inspected.info.durationSeconds).catch(permanentIfRefused);
      if (integrity.damage && integrity.readableSeconds <= 0) throw new PermanentJobError(integrity.damage);
      let damage = integrity.damage;
      progress(2);
      const { plan } = inspected;
      let info = inspected.info;
      let storageKey = video.storage_key;
      let referenceStep: number | null = null;
      if (plan.action !== 'none') {
        const folder = video.storage_key.slice(0, video.storage_key.lastIndexOf('/'));
        const workKey = `${folder}/.ingest-${video.id}.mp4`;
        const encoded = await convertForBrowser(inspected, path, storage.pathOf(workKey), {
          signal,
          onProgress: (percent) => progress(2 + percent * 0.96),
        }).catch(permanentIfRefused);
        if (signal.aborted) {
          await storage.remove(workKey);
          return null;
        }
        const converted = await inspectRecording(storage.pathOf(workKey)).catch(async (err) => {
          await storage.remove(workKey);
          throw err;
        });
        if (converted.plan.action !== 'none') {
          await storage.remove(workKey);
          throw new Error(`После обработки файл всё ещё не готов для браузера: ${converted.plan.reasons.join('; ')}`);
        }
        // The rewrite keeps what could be read: shorter than declared is damage, even if reading it raised no error.
        const lost = info.durationSeconds - converted.info.durationSeconds;
        if (!damage && lost > Math.max(1, info.durationSeconds * 0.01))
          damage = `Запись повреждена: после обработки ${converted.info.durationSeconds.toFixed(1)} с вместо заявленных ${info.durationSeconds.toFixed(1)} с`;
        info = converted.info;
        // Kept only when the written file's rate is the one the step was chosen for (a variable-rate source may differ).
        if (encoded && encoded.referenceStep === referenceStepFor(info.frameRate)) referenceStep = encoded.referenceStep;
        if (!(await videoExists(db, video.id))) {
          await storage.remove(workKey);
          throw new PermanentJobError('Видео удалено во время обработки');
        }
        if (extensionOf(video.storage_key) === 'mp4') {
          await storage.move(workKey, video.storage_key);
        } else {
          // Another container (.mkv, .avi…): the result is an .mp4 beside it, the original goes.
          const stem = video.filename.replace(/\.[^.]+$/, '');
          storageKey = await freeStorageKey(db, storage, folder, fitFileName(`${stem}.mp4`, 8));
          await moveVideoFile(db, video.id, storageKey, storageKey.slice(folder.length + 1));
          await storage.move(workKey, storageKey);
          await storage.remove(video.storage_key);
        }
      }
      // Served as is, a cut file plays only its readable part: that is its duration.
      const playable = plan.action === 'none' ? Math.min(info.durationSeconds, integrity.readableSeconds) : info.durationSeconds;
      const duration = Math.round(playable * 1000) / 1000;
      const size = await storage.size(storageKey);
      await markVideoReady(db, video.id, { duration, sizeBytes: size, damage, referenceStep });
      progress(100);
      return {
        video_id: video.id,
        action: plan.action,
        reasons: plan.reasons,
        duration,
        damage,
        storage_key: storageKey,
        video_codec: info.videoCodec,
        audio_codec: info.audioCodec,
        width: info.width,
        height: info.height,
        reference_step: referenceStep,
      };
    },
    async failed(job, message) {
      await setStatus(videoIdOf(job), 'failed', message);
    },
    async retrying(job, message) {
      await setStatus(videoIdOf(job), 'queued', `Повторная попытка после ошибки: ${message}`);
    },
  };
}
