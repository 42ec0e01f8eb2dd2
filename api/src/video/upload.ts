import type { Db } from '../db/database';
import { isStorageFull } from '../db/storage-full';
import { ApiError, badRequest, conflict, diskFull } from '../http/errors';
import { fitFileName } from '../storage/file-names';
import type { ObjectStore } from '../storage/object-store';
import { humanBytes } from './body-limit';
import { extensionOf } from './recording-name';
import { cameraContext, freeStorageKey, isUniqueViolation, recordingStart, registerRecording } from './registration';
import { folderKey } from './sync';

/** The activity of an uploaded video (ingest removes the bytes of an upload that is no video). */
export const UPLOADED_ACTIVITY = 'Видео загружено';

/** The exact text of spec 01 §5 for a file that is not MP4. */
export const ONLY_MP4 = 'Ошибка: допускается только формат MP4';

export interface UploadInput {
  cameraId: number;
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

/** Bytes kept free in a stored name for the `~2` that freeStorageKey adds to a taken one. */
const SUFFIX_RESERVE_BYTES = 8;

/**
 * A plain file name: no folders, no control characters, at most 200 characters; cut (keeping the
 * extension) to fit the file system's 255 bytes — 200 Cyrillic letters are 400 bytes.
 */
export function cleanFilename(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (!name) throw badRequest('Не указан параметр filename');
  if (name.length > 200 || /[/\\\p{Cc}]/u.test(name) || name === '.' || name === '..' || name.startsWith('.')) {
    throw badRequest('filename: недопустимое имя файла');
  }
  if (extensionOf(name) !== 'mp4') throw new ApiError(400, 'bad_request', ONLY_MP4);
  return fitFileName(name, SUFFIX_RESERVE_BYTES);
}

/**
 * Streams a request body into the camera's folder (chunk by chunk, hashing on the way; never whole
 * in memory), refuses it when too large (413) or already uploaded for this camera (409), then
 * registers the video and queues its ingest job (POST /api/v1/upload).
 */
export async function receiveUpload(db: Db, storage: ObjectStore, input: UploadInput): Promise<UploadResult> {
  const camera = await cameraContext(db).where('cameras.id', '=', input.cameraId).executeTakeFirstOrThrow();
  const filename = cleanFilename(input.filename);
  if (input.declaredBytes !== null && input.declaredBytes > input.maxBytes) throw tooLarge(input.maxBytes);
  if (!input.body) throw badRequest('Пустой запрос: тело запроса должно содержать файл');
  const folder = folderKey(camera.storage_folder);
  const partKey = `${folder}/.upload-${crypto.randomUUID()}.part`;
  const hasher = new Bun.CryptoHasher('sha256');
  let bytes = 0;
  let kept = false;
  const part = await storage.create(partKey).catch((err: unknown) => {
    throw isStorageFull(err) ? diskFull() : err;
  });
  try {
    const reader = input.body.getReader();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        throw new ApiError(400, 'upload_interrupted', 'Передача файла прервалась, загрузите его ещё раз');
      }
      if (chunk.done) break;
      const value = chunk.value;
      bytes += value.byteLength;
      if (bytes > input.maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge(input.maxBytes);
      }
      hasher.update(value);
      try {
        await part.write(value);
      } catch (err) {
        // The server's fault, not the transfer's: a full disk says so (507), anything else is a 500.
        await reader.cancel().catch(() => {});
        throw isStorageFull(err) ? diskFull() : err;
      }
    }
    await part.close().catch((err: unknown) => {
      throw isStorageFull(err) ? diskFull() : err;
    });
    if (bytes === 0) throw badRequest('Пустой файл');
    const contentHash = hasher.digest('hex');
    const duplicate = await db.selectFrom('videos').select('id').where('camera_id', '=', camera.id).where('content_hash', '=', contentHash).executeTakeFirst();
    if (duplicate) throw conflict('Эта запись уже загружена для этой камеры', { video_id: duplicate.id });
    const key = await freeStorageKey(db, storage, folder, filename);
    await storage.move(partKey, key);
    try {
      const start = await recordingStart(await storage.local(key), filename, camera.time_zone, Date.now());
      const { videoId, jobId } = await registerRecording(db, {
        camera,
        storageKey: key,
        filename: key.slice(folder.length + 1),
        contentHash,
        sizeBytes: bytes,
        startTime: start.instant,
        authorId: input.authorId,
        activity: UPLOADED_ACTIVITY,
      });
      kept = true;
      return { video_id: videoId, job_id: jobId, filename: key.slice(folder.length + 1) };
    } catch (err) {
      await storage.remove(key);
      if (isUniqueViolation(err)) throw conflict('Эта запись уже загружена для этой камеры');
      throw err;
    }
  } finally {
    await part.close().catch(() => {});
    // A failed upload leaves nothing behind (a stop of the server mid-upload: see removeOrphanUploads).
    if (!kept) await storage.remove(partKey).catch(() => {});
  }
}

/** Is this content already a video of the camera? (The loader asks before sending a large file.) */
async function findByContent(db: Db, cameraId: number, contentHash: string) {
  return db
    .selectFrom('videos')
    .select(['id', 'filename', 'status'])
    .where('camera_id', '=', cameraId)
    .where('content_hash', '=', contentHash)
    .executeTakeFirst();
}

/** The loader's question before it sends a file (GET /api/v1/upload_check): the camera's video with this content, if any. */
export async function uploadCheck(db: Db, cameraId: number, contentHash: string) {
  const found = await findByContent(db, cameraId, contentHash.toLowerCase());
  return { exists: Boolean(found), video_id: found?.id ?? null, status: found?.status ?? null };
}
