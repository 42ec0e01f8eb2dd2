import type { Db } from '../db/database';
import { isStorageFull } from '../db/storage-full';
import { ApiError, badRequest, conflict, diskFull } from '../http/errors';
import { fitFileName } from '../storage/file-names';
import type { ObjectStore } from '../storage/object-store';
import { humanBytes } from './body-limit';
import { extensionOf, UPLOAD_EXTENSIONS } from './recording-name';
import { EARLIEST_START, recordingStartOf, START_FUTURE_SLACK_MS, type StartSource } from './recording-start.service';
import { toIso } from '../http/time';
import { freeStorageKey, hashStoredFile, isUniqueViolation, recordingStart } from './registration';
import { cameraWithContext, registerRecording, requeueFailedRecording, videoByContent, type CameraContext } from './registration.service';
import { folderKey } from './sync';

/** The activity of an uploaded video (ingest removes the bytes of an upload that is no video). */
export const UPLOADED_ACTIVITY = 'Видео загружено';

/** The answer (409) to a recording the camera has, ready or being processed; a failed one may be uploaded again. */
export const ALREADY_UPLOADED = 'Эта запись уже загружена для этой камеры';

/**
 * A file of another kind (spec 01 §5 said «only MP4»; issue 41 widened it to the cameras' and phones'
 * formats, which are converted to MP4 for browsers — docs/video-storage.md «Загрузка»).
 */
export const UNSUPPORTED_FORMAT = `Ошибка: допускаются видеофайлы MP4, MOV, AVI, MKV, WebM, MPEG-TS (${UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(', ')})`;

export interface UploadInput {
  cameraId: number;
  filename: string;
  body: ReadableStream<Uint8Array> | null;
  /** Content-Length, when the client sent one. */
  declaredBytes: number | null;
  maxBytes: number;
  authorId: string;
  /** The file's time on the sender's device (ms): a suggestion for an unknown start, never taken by itself. */
  clientFileTime?: number | null;
}

export interface UploadResult {
  video_id: number;
  job_id: number;
  filename: string;
  /** The start found (null when nothing told it), where from, whether a person confirmed it. */
  start_time: string | null;
  start_source: StartSource;
  start_confirmed: boolean;
  /** The sender's file time, offered to the person when the start is unknown; null when none or implausible. */
  suggested_start_time: string | null;
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
  if (!UPLOAD_EXTENSIONS.includes(extensionOf(name))) throw new ApiError(400, 'bad_request', UNSUPPORTED_FORMAT);
  return fitFileName(name, SUFFIX_RESERVE_BYTES);
}

/**
 * Streams a request body into the camera's folder (chunk by chunk, hashing on the way; never whole
 * in memory), refuses it when too large (413) or already uploaded for this camera (409; a recording
 * whose processing failed is taken again instead), then registers the video and queues its ingest job
 * (POST /api/v1/upload).
 */
export async function receiveUpload(db: Db, storage: ObjectStore, input: UploadInput): Promise<UploadResult> {
  const camera = await cameraWithContext(db, input.cameraId);
  const filename = cleanFilename(input.filename);
  const now = Date.now();
  const clientTime = input.clientFileTime ?? null;
  const suggested = clientTime !== null && clientTime >= EARLIEST_START && clientTime <= now + START_FUTURE_SLACK_MS ? toIso(clientTime) : null;
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
    const duplicate = await videoByContent(db, camera.id, contentHash);
    if (duplicate && duplicate.status !== 'failed') throw conflict(ALREADY_UPLOADED, { video_id: duplicate.id });
    if (duplicate) {
      const { kept: moved, ...again } = await uploadFailedAgain(db, storage, {
        failed: duplicate,
        partKey,
        folder,
        filename,
        contentHash,
        sizeBytes: bytes,
        camera,
        authorId: input.authorId,
      });
      kept = moved;
      const { video_id: _id, ...start } = await recordingStartOf(db, again.video_id);
      return { ...again, ...start, suggested_start_time: suggested };
    }
    const key = await freeStorageKey(db, storage, folder, filename);
    await storage.move(partKey, key);
    try {
      // The file's time on the server is this upload's moment: it tells nothing of the recording.
      const start = await recordingStart(await storage.local(key), filename, camera.time_zone, null, now);
      const { videoId, jobId } = await registerRecording(db, {
        camera,
        storageKey: key,
        filename: key.slice(folder.length + 1),
        contentHash,
        sizeBytes: bytes,
        startTime: start.instant,
        startSource: start.source,
        // Confirmed by the person on the upload screen (PUT /api/v1/videos/{videoId}/start).
        startConfirmed: false,
        authorId: input.authorId,
        activity: UPLOADED_ACTIVITY,
      });
      kept = true;
      return {
        video_id: videoId,
        job_id: jobId,
        filename: key.slice(folder.length + 1),
        start_time: start.source === 'unknown' ? null : toIso(start.instant),
        start_source: start.source,
        start_confirmed: false,
        suggested_start_time: suggested,
      };
    } catch (err) {
      await storage.remove(key);
      if (isUniqueViolation(err)) throw conflict(ALREADY_UPLOADED);
      throw err;
    }
  } finally {
    await part.close().catch(() => {});
    // A failed upload leaves nothing behind (a stop of the server mid-upload: see removeOrphanUploads).
    if (!kept) await storage.remove(partKey).catch(() => {});
  }
}

/**
 * The same recording uploaded again after its processing failed (a full disk, an unreadable file…):
 * not a duplicate — it takes the failed video's place and is processed once more, under the same
 * video id. The failed video's file, when still there with this very content, stays and the upload's
 * bytes go; when gone, the upload takes its place; when changed since, the upload goes beside it and
 * it goes. Another retry or upload that took the video a moment ago makes this a 409. `kept`: the
 * upload's work file was moved into place (not to be removed).
 */
async function uploadFailedAgain(
  db: Db,
  storage: ObjectStore,
  upload: {
    failed: { id: number; storage_key: string; filename: string };
    partKey: string;
    folder: string;
    filename: string;
    contentHash: string;
    sizeBytes: number;
    camera: CameraContext;
    authorId: string;
  },
): Promise<{ video_id: number; job_id: number; filename: string; kept: boolean }> {
  const { failed, folder } = upload;
  const there = (await storage.exists(failed.storage_key)) ? await hashStoredFile(storage, failed.storage_key) : null;
  const place = there === upload.contentHash ? 'intact' : there === null ? 'gone' : 'changed';
  const key = place === 'changed' ? await freeStorageKey(db, storage, folder, upload.filename) : failed.storage_key;
  const filename = place === 'changed' ? key.slice(folder.length + 1) : failed.filename;
  if (place !== 'intact') await storage.move(upload.partKey, key);
  // The upload's activity: an upload that is no video loses its bytes (video/ingest.job.ts).
  const activity = { authorId: upload.authorId, comment: UPLOADED_ACTIVITY };
  const file = { storage_key: key, filename, size_bytes: upload.sizeBytes, content_hash: upload.contentHash };
  const jobId = await requeueFailedRecording(db, { id: failed.id, organizationId: upload.camera.organization_id, file }, activity).catch(
    async (err: unknown) => {
      if (place === 'changed') await storage.remove(key);
      throw err;
    },
  );
  if (jobId === null) {
    // Taken a moment ago by a retry or another upload: only a file of our own beside it goes.
    if (place === 'changed') await storage.remove(key);
    throw conflict(ALREADY_UPLOADED, { video_id: failed.id });
  }
  if (place === 'changed') await storage.remove(failed.storage_key).catch(() => {});
  return { video_id: failed.id, job_id: jobId, filename, kept: place !== 'intact' };
}

/**
 * The loader's question before it sends a file (GET /api/v1/upload_check): the camera's video with
 * this content, if any. A video whose processing failed does not count as there (`exists` false,
 * its id and status given): the loader sends the file again, and the upload takes its place.
 */
export async function uploadCheck(db: Db, cameraId: number, contentHash: string) {
  const found = await videoByContent(db, cameraId, contentHash.toLowerCase());
  return { exists: Boolean(found) && found?.status !== 'failed', video_id: found?.id ?? null, status: found?.status ?? null };
}
