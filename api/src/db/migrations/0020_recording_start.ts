import { sql, type Kysely } from 'kysely';

/**
 * Where a recording's start came from and whether a person confirmed it (issue 41, items 1–2;
 * docs/video-storage.md «Имя файла и момент начала»). `start_source`: 'file_name', 'creation_time',
 * 'file_time', 'manual' (given by a person) or 'unknown' — an upload whose start nothing told: such
 * a video is offered for markup and counted in reports only once its start is given.
 * Rows before this migration: a name that carries the start is 'file_name' (confirmed, the recorders'
 * rule); any other was taken from metadata or the file's time — 'file_time', not confirmed. The
 * defaults are those of a named row: registration always writes both columns itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw("ALTER TABLE videos ADD COLUMN start_source TEXT NOT NULL DEFAULT 'file_name'").execute(db);
  await sql.raw('ALTER TABLE videos ADD COLUMN start_confirmed INTEGER NOT NULL DEFAULT 1').execute(db);
  const rows = await sql<{ id: number; filename: string }>`SELECT id, filename FROM videos`.execute(db);
  const unnamed = rows.rows.filter((r) => !/^cam\d+_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}[^/]*\.[A-Za-z0-9]+$/i.test(r.filename)).map((r) => r.id);
  for (let at = 0; at < unnamed.length; at += 500) {
    const ids = unnamed.slice(at, at + 500);
    await sql`UPDATE videos SET start_source = 'file_time', start_confirmed = 0 WHERE id IN (${sql.join(ids)})`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
