import { sql, type Kysely } from 'kysely';

/**
 * Issue 27: a map project keeps its coordinate reference (docs/map.md «Система координат проекта»)
 * — JSON `{ kind, lon, lat, zone? }`, set with the first drawing or by the analyst; null until then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE map_projects ADD COLUMN crs TEXT').execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
