import { sql, type Kysely } from 'kysely';

/**
 * Who made a markup save and a digest of what it sent: a client_save_id may only be replayed by
 * the same user with the same payload; another payload or user under the same key is refused.
 * Rows stored before this migration have neither (NULL) and replay as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE markup_saves ADD COLUMN user_id TEXT').execute(db);
  await sql.raw('ALTER TABLE markup_saves ADD COLUMN payload_hash TEXT').execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
