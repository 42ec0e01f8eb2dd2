import type { Db } from '../db/database';
import { isPostgres } from '../db/postgres';

/**
 * Markup saves of one structure run one at a time. A save reads a version (of the video, or of a
 * period window), compares it with the client's base_version and then writes: two saves on the same
 * version must not both pass the check. SQLite has one writer at a time, so its transaction is
 * enough; on PostgreSQL several API processes save at once under READ COMMITTED, so the save
 * first locks the structure's row (FOR UPDATE) until it commits and reads the version after that.
 * Call it first thing in the save's transaction.
 */
export async function lockStructureForSave(tx: Db, structureId: number): Promise<void> {
  if (!isPostgres(tx)) return;
  await tx.selectFrom('structures').select('id').where('id', '=', structureId).forUpdate().execute();
}
