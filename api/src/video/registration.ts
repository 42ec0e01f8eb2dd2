import { probe } from '@norma/workers/media';
import type { Db } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import { plausibleCreationTime, startFromName } from './recording-name';
import { videoWithStorageKey } from './registration.service';
import { localToInstant } from '../time-zone';

// The ingest job's kind lives with the queries that queue it; its importers (job registry, tests) name it here.
export { INGEST_JOB } from './registration.service';

/**
 * When a recording began: the local time in its name (`cam1_2026-11-16_09-00-00.mp4`, in the
 * organisation's zone), else the container's creation time (ffprobe), else the file's time — a
 * camera folder's file keeps the recorder's time; an upload's file time is the upload moment and
 * tells nothing, so an upload passes null and gets 'unknown' (its instant is then `placeholder`).
 */
export async function recordingStart(
  path: string,
  name: string,
  timeZone: string,
  fileTime: number | null,
  placeholder = Date.now(),
): Promise<{ instant: number; source: 'file_name' | 'creation_time' | 'file_time' | 'unknown' }> {
  const local = startFromName(name);
  if (local) return { instant: localToInstant(local, timeZone), source: 'file_name' };
  try {
    const created = plausibleCreationTime((await probe(path)).creationTime);
    if (created !== null) return { instant: created, source: 'creation_time' };
  } catch {
    // Not readable as video (no accepted container, say): the ingest job reports that.
  }
  return fileTime === null ? { instant: Math.floor(placeholder), source: 'unknown' } : { instant: Math.floor(fileTime), source: 'file_time' };
}

/** SHA-256 of a stored file, read in chunks (never whole in memory). */
export async function hashStoredFile(storage: ObjectStore, key: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256');
  for await (const chunk of storage.file(key).stream()) hasher.update(chunk);
  return hasher.digest('hex');
}

/** A free storage key in `folder` for `filename`: the name itself, else `name~2.ext`, `name~3.ext`… */
export async function freeStorageKey(db: Db, storage: ObjectStore, folder: string, filename: string): Promise<string> {
  const dot = filename.lastIndexOf('.');
  const stem = dot > 0 ? filename.slice(0, dot) : filename;
  const extension = dot > 0 ? filename.slice(dot) : '';
  for (let n = 1; ; n++) {
    const key = `${folder}/${n === 1 ? filename : `${stem}~${n}${extension}`}`;
    const taken = (await storage.exists(key)) || (await videoWithStorageKey(db, key));
    if (!taken) return key;
  }
}

/** A unique index refused the row: SQLite's message, PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && ((err as { code?: unknown }).code === '23505' || /UNIQUE constraint failed/i.test(err.message));
}
