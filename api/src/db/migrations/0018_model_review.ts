import { sql, type Kysely } from 'kysely';

/**
 * Model markups as a reviewed layer (issue 25, docs/vision.md «Слой модели»): a model's segment
 * keeps the mean probability of its class (0…1) so the markup screen can show how sure the model
 * was. Rows written by people have none. Whether a row counts is its `source`: 'model' is the
 * unreviewed layer (left out of every report), a person's accept turns it into 'manual'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE markups ADD COLUMN confidence REAL').execute(db);
  await sql.raw('CREATE INDEX markups_by_video_source ON markups(video_id, source)').execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
