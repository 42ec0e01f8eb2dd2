import { stat } from 'node:fs/promises';
import { probe } from '@norma/workers/media';
import {
  type PosedHuman,
  BACKGROUND_DETECTOR,
  detectByBackground,
  detectByMoveNet,
  detectByOnnx,
  ModelLoadError,
  MOVENET_DETECTOR,
  ONNX_DETECTOR,
} from '@norma/workers/vision';
import type { SessionUser } from '../http/env';
import type { Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import type { ObjectStore } from '../storage/object-store';
import type { MoveNetThread } from '../threads/movenet-threads';
import { HUMAN_DETECTORS } from './schema';
import { HUMAN_DETECTOR_KEY, unusableModel, videoOf } from './service';

/** MoveNet's answers of recent calls per (video file, second): the stands screen asks the same frame again as it steps and replays. */
const CACHE_SIZE = 256;
const recent = new Map<string, Promise<PosedHuman[]>>();

/** The cached answer for `key`, else `detect`'s (a call already under way is shared; a failure is not kept). */
function cached(key: string, detect: () => Promise<PosedHuman[]>): Promise<PosedHuman[]> {
  const hit = recent.get(key);
  if (hit) {
    // Most recently used last: the oldest is the first evicted.
    recent.delete(key);
    recent.set(key, hit);
    return hit;
  }
  const pending = detect();
  recent.set(key, pending);
  pending.catch(() => recent.delete(key));
  while (recent.size > CACHE_SIZE) recent.delete(recent.keys().next().value!);
  return pending;
}

/**
 * GET /api/v1/humans: people on the frame at `second` (docs/vision.md «Люди на кадре», «Детектор
 * людей»). An ONNX person detector in the model store (HUMAN_DETECTOR_KEY) when one is placed
 * there; else the pretrained MoveNet multipose (people with their poses) — or, when asked for or
 * when MoveNet cannot run, background subtraction with blobs. The reply names which one answered
 * and, for the fallback, why. MoveNet runs on `movenet`, its thread, when the server has one (main.ts).
 */
export async function humansAt(
  db: Db,
  storage: ObjectStore,
  user: SessionUser,
  videoId: number,
  second: number,
  detector: (typeof HUMAN_DETECTORS)[number],
  movenet?: MoveNetThread,
) {
  const video = await videoOf(db, user, videoId);
  if (!(await storage.exists(video.storage_key))) throw notFound('Файл видео не найден в хранилище');
  const file = await storage.local(video.storage_key);
  const info = await probe(file);
  if (!info.width || !info.height) throw badRequest('В файле нет видеодорожки');
  const duration = video.duration ?? info.durationSeconds;
  if (second > duration) throw badRequest(`Секунда за концом видео (${duration.toFixed(1)} с)`);
  const source = { file, width: info.width, height: info.height, duration };
  const size = { width: info.width, height: info.height };
  if (await storage.exists(HUMAN_DETECTOR_KEY)) {
    const bytes = new Uint8Array(await storage.file(HUMAN_DETECTOR_KEY).arrayBuffer());
    try {
      return { humans: await detectByOnnx(bytes, source, second), detector: ONNX_DETECTOR, ...size } as const;
    } catch (err) {
      if (err instanceof ModelLoadError) throw unusableModel(err.message);
      throw err;
    }
  }
  let fallback: string | undefined;
  if (detector === MOVENET_DETECTOR) {
    try {
      // The file itself names the entry (path, size, time of change): a key reused for another file after a restore never answers for it.
      const { size: bytes, mtimeMs } = await stat(file);
      const key = `${file}\n${bytes}\n${mtimeMs}\n${second}`;
      const humans = await cached(key, () => (movenet ? movenet.detect(source, second) : detectByMoveNet(source, second)));
      return { humans, detector: MOVENET_DETECTOR, ...size } as const;
    } catch (err) {
      // MoveNet's files or its wasm could not be loaded: the old detector answers, and the reply says why.
      fallback = `MoveNet не запустился: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
      console.error(`GET /api/v1/humans: ${fallback}`);
    }
  }
  return { humans: await detectByBackground(source, second), detector: BACKGROUND_DETECTOR, ...size, ...(fallback ? { fallback } : {}) } as const;
}
