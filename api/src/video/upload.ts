import { open, rm } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Db } from '../db/database';
import { ApiError, badRequest, conflict } from '../http/errors';
import type { ObjectStore } from '../storage/object-store';
import { humanBytes } from './body-limit';
import { extensionOf } from './recording-name';
import { freeStorageKey, isUniqueViolation, recordingStart, registerRecording, type CameraContext } from './registration';
import { folderKey } from './sync';

/** The exact text of spec 01 §5 for a file that is not MP4. */
export const ONLY_MP4 = 'Error : Only MP4 format allowed';

export interface UploadInput {
  camera: CameraContext;
  filename: string;
  body: ReadableStream<Uint8Array> | null;
  /** Content-Length, when the client sent one. */
  declaredBytes: number | null;
  maxBytes: number;
  authorId: string;
}

export interface UploadResult {
  video_id: number;
  job_id: number;
  filename: string;
}

export function tooLarge(maxBytes: number) {
  return new ApiError(413, 'payload_too_large', `Файл больше допустимого размера (${humanBytes(maxBytes)})`);
}

/** A plain file name: no folders, no control characters, at most 200 characters. */
export function cleanFilename(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (!name) throw badRequest('Не указан параметр filename');
  if (name.length > 200 || /[/\\\x00-\x1f]/.test(name) || name === '.' || name === '..' || name.startsWith('.')) {
    throw badRequest('filename: недопустимое имя файла');
  }
  if (extensionOf(name) !== 'mp4') throw new ApiError(400, 'bad_request', ONLY_MP4);
  return name;
}

/**
 * Streams a request body into the camera's folder (chunk by chunk, hashing on the way; never whole
 * in memory), refuses it when too large (413) or already uploaded for this camera (409), then
 * registers the video and queues its ingest job (POST /api/v1/upload).
 */
export async function receiveUpload(db: Db, storage: ObjectStore, input: UploadInput): Promise<UploadResult> {
  const filename = cleanFilename(input.filename);
  if (input.declaredBytes !== null && input.declaredBytes > input.maxBytes) throw tooLarge(input.maxBytes);
  if (!input.body) throw badRequest('Пустой запрос: тело запроса должно содержать файл');
  const folder = folderKey(input.camera.storage_folder);
  const partKey = `${folder}/.upload-${crypto.randomUUID()}.part`;
  const partPath = storage.pathOf(partKey);
  await mkdir(dirname(partPath), { recursive: true });
  const hasher = new Bun.CryptoHasher('sha256');
  let bytes = 0;
  let kept = false;
  const handle = await open(partPath, 'w');
  try {
    const reader = input.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > input.maxBytes) throw tooLarge(input.maxBytes);
        hasher.update(value);
        await handle.write(value);
      }
    } catch (err) {
      await reader.cancel().catch(() => {});
      if (err instanceof ApiError) throw err;
      throw new ApiError(400, 'upload_interrupted', 'Передача файла прервалась, загрузите его ещё раз');
    }
    await handle.close();
    if (bytes === 0) throw badRequest('Пустой файл');
    const contentHash = hasher.digest('hex');
    const duplicate = await db
      .selectFrom('videos').select('id').where('camera_id', '=', input.camera.id).where('content_hash', '=', contentHash).executeTakeFirst();
    if (duplicate) throw conflict('Эта запись уже загружена для этой камеры', { video_id: duplicate.id });
    const key = await freeStorageKey(db, storage, folder, filename);
    await storage.move(partKey, key);
    try {
      const start = await recordingStart(storage.pathOf(key), filename, input.camera.time_zone, Date.now());
      const { videoId, jobId } = await registerRecording(db, {
        camera: input.camera, storageKey: key, filename: key.slice(folder.length + 1), contentHash, sizeBytes: bytes,
        startTime: start.instant, authorId: input.authorId, activity: 'Видео загружено',
      });
      kept = true;
      return { video_id: videoId, job_id: jobId, filename: key.slice(folder.length + 1) };
    } catch (err) {
      await storage.remove(key);
      if (isUniqueViolation(err)) throw conflict('Эта запись уже загружена для этой камеры');
      throw err;
    }
  } finally {
    await handle.close().catch(() => {});
    if (!kept) await rm(partPath, { force: true });
  }
}

/** Is this content already a video of the camera? (The loader asks before sending a large file.) */
export async function findByContent(db: Db, cameraId: number, contentHash: string) {
  return db.selectFrom('videos').select(['id', 'filename', 'status']).where('camera_id', '=', cameraId).where('content_hash', '=', contentHash).executeTakeFirst();
}
