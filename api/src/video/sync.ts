import type { Db } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import { baseName, isRecordingName } from './recording-name';
import { hashStoredFile, isUniqueViolation, recordingStart } from './registration';
import { cameraContentHashes, inFlightStorageKeys, registerRecording, storageKeysUnder, structureCameras } from './registration.service';

export interface SyncResult {
  /** File names registered by this call. */
  new_videos: string[];
  /** Storage keys of the structure's videos waiting for or in processing (this call's included). */
  queued_processing_videos: string[];
}

export interface SyncOptions {
  /** Files changed more recently than this are skipped as possibly still being written, ms (default 2000). */
  settleMs?: number;
  authorId?: string | null;
  now?: number;
}

export const folderKey = (folder: string) => folder.replace(/^\/+|\/+$/g, '');

/**
 * The subfolder of a camera's folder where its stream recorder (live/recorder.ts) stores segments. The
 * recorder registers each segment itself, so folder sync leaves that subfolder alone: otherwise a sync
 * between the recorder's move and its registration would take the segment first.
 */
export const RECORDER_FOLDER = 'live';

/**
 * Finds recordings in the structure's camera folders that are not videos yet (neither by storage
 * key nor by content), registers them and queues their ingest (GET /api/v1/sync_videos).
 */
export async function syncStructure(db: Db, storage: ObjectStore, structureId: number, options: SyncOptions = {}): Promise<SyncResult> {
  const settleMs = options.settleMs ?? 2000;
  const now = options.now ?? Date.now();
  const cameras = await structureCameras(db, structureId);
  const newVideos: string[] = [];
  for (const camera of cameras) {
    const folder = folderKey(camera.storage_folder);
    if (!folder) continue;
    const recorderPrefix = `${folder}/${RECORDER_FOLDER}/`;
    const files = (await storage.list(folder)).filter((f) => isRecordingName(baseName(f.key)) && f.size > 0 && !f.key.startsWith(recorderPrefix));
    if (files.length === 0) continue;
    const knownKeys = new Set(await storageKeysUnder(db, folder));
    const knownHashes = new Set(await cameraContentHashes(db, camera.id));
    for (const file of files) {
      if (knownKeys.has(file.key)) continue;
      // A file changed a moment ago may still be being written (a future time is clock skew: taken).
      const age = now - file.modifiedAt;
      if (age >= 0 && age < settleMs) continue;
      const contentHash = await hashStoredFile(storage, file.key);
      // The same recording copied again under another name is not a new video.
      if (knownHashes.has(contentHash)) continue;
      const filename = baseName(file.key);
      const start = await recordingStart(await storage.local(file.key), filename, camera.time_zone, file.modifiedAt);
      try {
        await registerRecording(db, {
          camera,
          storageKey: file.key,
          filename,
          contentHash,
          sizeBytes: file.size,
          startTime: start.instant,
          startSource: start.source,
          // The recorders' naming rule is their word on the start; metadata and the file's time wait for a person.
          startConfirmed: start.source === 'file_name',
          authorId: options.authorId ?? null,
          activity: 'Запись найдена при синхронизации',
        });
      } catch (err) {
        // Another sync registered it a moment ago.
        if (isUniqueViolation(err)) continue;
        throw err;
      }
      knownHashes.add(contentHash);
      newVideos.push(filename);
    }
  }
  return { new_videos: newVideos, queued_processing_videos: await inFlightStorageKeys(db, structureId) };
}
