// No database driver here: http/errors.ts imports this, and the PWA's typecheck reads http/errors.ts through the API's schemas.

/** How a refusal for want of space reads in a message: SQLite, the file system (also as ffmpeg prints it), PostgreSQL. */
const STORAGE_FULL_TEXT = /database or disk is full|no space left on device|disk quota exceeded|\bENOSPC\b|\bEDQUOT\b/i;

/** A write refused for want of space: SQLite's SQLITE_FULL or the file system's ENOSPC (EDQUOT: over quota). */
export function isStorageFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  // 53100: PostgreSQL's disk_full.
  if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return true;
  return isStorageFullText(err.message);
}

/** Does an error's text (all a failed job leaves: its message) say the disk was full? */
export function isStorageFullText(text: string): boolean {
  return STORAGE_FULL_TEXT.test(text);
}
