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

/**
 * Runs a save's transaction so that its own error is the one thrown. A write refused for want of
 * space may end the transaction by itself (SQLite rolls the whole transaction back on SQLITE_FULL
 * outside a statement journal); the ROLLBACK after it then fails («cannot rollback - no transaction is
 * active»), and Kysely threw that instead — a full disk answered 500, not 507 (issue 39). Here a
 * failed ROLLBACK is passed over: the database holds nothing of the save either way, and the user
 * gets the save's error — 507 «Недостаточно места на сервере» for a full disk (http/errors.ts).
 */
export async function saveTransaction<T>(db: Db, save: (tx: Db) => Promise<T>): Promise<T> {
  const trx = await db.startTransaction().execute();
  try {
    const result = await save(trx);
    await trx.commit().execute();
    return result;
  } catch (err) {
    await trx
      .rollback()
      .execute()
      .catch(() => {});
    throw err;
  }
}
