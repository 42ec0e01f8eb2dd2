import { sql, type Kysely } from 'kysely';

/**
 * Live cameras: the camera-view check through the job queue (issue 45, docs/live-cameras.md «Живая
 * разметка», «Здоровье и тревоги»). `camera_streams.view_job_id`: the camera's one view-check job
 * (`live.view_check`) while it is queued or running; `view_checked_at` … `view_error`: its last
 * outcome — when, which model, on which segment's video, the similarity with the model's training view
 * (NULL: the model keeps no view signature), the aspect-ratio change, the warnings (a JSON array of
 * Russian texts) or why the check could not be made. Camera health and the live board read them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE camera_streams ADD COLUMN view_job_id INTEGER`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN view_checked_at INTEGER`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN view_model_id INTEGER`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN view_video_id INTEGER`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN view_similarity REAL`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN view_aspect_change REAL`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN view_warnings TEXT`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN view_error TEXT`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
