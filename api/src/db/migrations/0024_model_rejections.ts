import { sql, type Kysely } from 'kysely';

/**
 * Rejections of a model's segments are remembered (issue 43, docs/vision.md «Отклонённые отрезки»):
 * when a person rejects (deletes) an unreviewed segment of the model layer, its model, video,
 * workplace, operation and span stay here. Applying the same model again does not write a segment
 * lying more than half in a span it had rejected there; another model (a new version) may, and its
 * segment is marked «отклонён в прошлой версии». A deleted model leaves its rejections (model_id
 * NULL): they still mark what a newer model writes there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE model_rejections (
     id INTEGER PRIMARY KEY,
     model_id INTEGER REFERENCES models(id) ON DELETE SET NULL,
     video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
     workplace_id INTEGER NOT NULL,
     operation_id INTEGER NOT NULL,
     start_time INTEGER NOT NULL,
     end_time INTEGER NOT NULL,
     rejected_by TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     rejected_at INTEGER NOT NULL
   )`.execute(db);
  await sql`CREATE INDEX model_rejections_by_video ON model_rejections(video_id, workplace_id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
