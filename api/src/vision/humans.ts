import { stat } from 'node:fs/promises';
import { probe, type ProbeResult } from '@norma/workers/media';
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

/**
 * Answers of recent calls, per video file (path, size, time of change: a key reused for another
 * file after a restore never answers for it): ffprobe's size and length of the file — every call on
 * a video needs them, and ffprobe is a process start (docs/performance.md) — and MoveNet's people
 * per (file, second), since the stands screen asks the same frame again as it steps and replays.
 */
const CACHE_SIZE = 256;
const probes = new Map<string, Promise<ProbeResult>>();
const recent = new Map<string, Promise<PosedHuman[]>>();

/** The remembered answer for `key` in `store`, else `compute`'s (a call already under way is shared; a failure is not kept). */
function remembered<T>(store: Map<string, Promise<T>>, key: string, compute: () => Promise<T>): Promise<T> {
  const hit = store.get(key);
  if (hit) {
    // Most recently used last: the oldest is the first evicted.
    store.delete(key);
    store.set(key, hit);
    return hit;
  }
  const pending = compute();
  store.set(key, pending);
  pending.catch(() => store.delete(key));
  while (store.size > CACHE_SIZE) store.delete(store.keys().next().value!);
  return pending;
}

/**
 * GET /api/v1/humans: people on the frame at `second` (docs/vision.md «Люди на кадре», «Детектор
 * людей»). An ONNX person detector in the model store (HUMAN_DETECTOR_KEY) when one is placed
 * there; else the pretrained MoveNet multipose (people with their poses) — or, when asked for or
 * when MoveNet cannot run, background subtraction with blobs. The reply names which one answered
 * and, for the fallback, why. MoveNet runs on `movenet`, its threads, when the server has them (main.ts).
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
  const { size: bytes, mtimeMs } = await stat(file);
  const identity = `${file}\n${bytes}\n${mtimeMs}`;
  const info = await remembered(probes, identity, () => probe(file));
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
      const humans = await remembered(recent, `${identity}\n${second}`, () => (movenet ? movenet.detect(source, second) : detectByMoveNet(source, second)));
      return { humans, detector: MOVENET_DETECTOR, ...size } as const;
    } catch (err) {
      // MoveNet's files or its wasm could not be loaded: the old detector answers, and the reply says why.
      fallback = `MoveNet не запустился: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
      console.error(`GET /api/v1/humans: ${fallback}`);
    }
  }
  return { humans: await detectByBackground(source, second), detector: BACKGROUND_DETECTOR, ...size, ...(fallback ? { fallback } : {}) } as const;
}
