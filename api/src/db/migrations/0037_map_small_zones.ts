import { sql, type Kysely } from 'kysely';

/**
 * The zone circles under 50 m a map project has held (issue 46, docs/map.md «Наименьшая зона»):
 * `map_projects.small_zones` — JSON `[[lon, lat, radius], …]`, written by the map service only, never
 * taken from a client. A zone saved before the rule may then come back unchanged after it was deleted
 * (undo), while a new or changed small zone is still refused. NULL: not recorded yet — the next save
 * or clear records the small zones of the stored drawing before replacing it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE map_projects ADD COLUMN small_zones TEXT`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
