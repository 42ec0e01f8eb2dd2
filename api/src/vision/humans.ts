import { probe } from '@norma/workers/media';
import { BACKGROUND_DETECTOR, detectByBackground, detectByOnnx, ModelLoadError, ONNX_DETECTOR } from '@norma/workers/vision';
import type { SessionUser } from '../auth/service';
import type { Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import type { ObjectStore } from '../storage/object-store';
import { HUMAN_DETECTOR_KEY, unusableModel, videoOf } from './service';

/**
 * GET /api/v1/humans: people on the frame at `second`. An ONNX person detector in the model store
 * (HUMAN_DETECTOR_KEY) when one is placed there, else background subtraction with blobs — the
 * reply names which one answered (docs/vision.md «Люди на кадре»).
 */
export async function humansAt(db: Db, storage: ObjectStore, user: SessionUser, videoId: number, second: number) {
  const video = await videoOf(db, user, videoId);
  if (!(await storage.exists(video.storage_key))) throw notFound('Файл видео не найден в хранилище');
  const file = await storage.local(video.storage_key);
  const info = await probe(file);
  if (!info.width || !info.height) throw badRequest('В файле нет видеодорожки');
  const duration = video.duration ?? info.durationSeconds;
  if (second > duration) throw badRequest(`Секунда за концом видео (${duration.toFixed(1)} с)`);
  const source = { file, width: info.width, height: info.height, duration };
  if (await storage.exists(HUMAN_DETECTOR_KEY)) {
    const bytes = new Uint8Array(await storage.file(HUMAN_DETECTOR_KEY).arrayBuffer());
    try {
      return { humans: await detectByOnnx(bytes, source, second), detector: ONNX_DETECTOR, width: info.width, height: info.height } as const;
    } catch (err) {
      if (err instanceof ModelLoadError) throw unusableModel(err.message);
      throw err;
    }
  }
  return { humans: await detectByBackground(source, second), detector: BACKGROUND_DETECTOR, width: info.width, height: info.height } as const;
}
