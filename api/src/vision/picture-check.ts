import { checkPicture, type VisionSpec } from '@norma/workers/vision';
import { probe } from '@norma/workers/media';
import type { Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import type { SessionUser } from '../http/env';
import type { ObjectStore } from '../storage/object-store';
import { pictureCheckInputs } from './service';

/**
 * GET /api/v1/model/{id}/picture-check (docs/vision.md «Разрешение и вид камеры»): before applying,
 * is the video's picture the one the model was trained on — its aspect ratio, and the camera's view
 * (a few frames of the span against the model's view signature). Warnings in Russian; none — apply.
 */
export async function modelPictureCheck(
  db: Db,
  storage: ObjectStore,
  user: SessionUser,
  modelId: number,
  query: { video_id: number; start_second?: number; end_second?: number },
) {
  const { model, video, start, end } = await pictureCheckInputs(db, user, modelId, query);
  if (!(await storage.exists(video.storage_key))) throw notFound('Файл видео не найден в хранилище');
  const file = await storage.local(video.storage_key);
  const info = await probe(file);
  if (!info.width || !info.height) throw badRequest('В файле нет видеодорожки');
  const spec = JSON.parse(model.spec) as VisionSpec;
  const check = await checkPicture(spec, { file, width: info.width, height: info.height }, { startSecond: start, endSecond: end });
  return {
    model_id: model.id,
    video_id: video.id,
    trained: spec.source,
    video: { width: info.width, height: info.height },
    aspect_change: check.aspectChange,
    view_similarity: check.viewSimilarity,
    warnings: check.warnings,
  };
}
