import { sql, type Kysely } from 'kysely';

/** Idempotency keys of markup saves: an offline outbox may send the same save twice. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE TABLE markup_saves (
     client_save_id TEXT PRIMARY KEY,
     video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
     version INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   )`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
