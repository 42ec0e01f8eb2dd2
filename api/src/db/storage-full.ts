// No database driver here: http/errors.ts imports this, and the PWA's typecheck reads http/errors.ts through the API's schemas.

/** A write refused for want of space: SQLite's SQLITE_FULL or the file system's ENOSPC (EDQUOT: over quota). */
export function isStorageFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  // 53100: PostgreSQL's disk_full.
  if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return true;
  return /database or disk is full|no space left on device/i.test(err.message);
}
