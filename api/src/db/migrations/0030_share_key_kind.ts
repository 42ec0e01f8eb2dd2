import { sql, type Kysely } from 'kysely';

/**
 * What a share key opens (issue 44, docs/event-analytics.md «Ссылка „поделиться“»): `kind` — 'report',
 * the interactive report of its window (every key made before this migration), or 'event', the event
 * analytics figures of its hall and window. A key opens only its own kind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw("ALTER TABLE share_keys ADD COLUMN kind TEXT NOT NULL DEFAULT 'report'").execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
