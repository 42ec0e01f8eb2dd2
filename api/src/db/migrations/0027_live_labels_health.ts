import { sql, type Kysely } from 'kysely';

/**
 * Live cameras, second step (issue 45, docs/live-cameras.md «Живая разметка», «Здоровье и тревоги»).
 * `camera_streams`: the camera's active model (`live_model_id`, its segments are labelled as they
 * close; NULL when none or the model was deleted), since when (`live_model_since`: segments closed
 * earlier are not labelled by it) and for whom (`live_employee_id`; NULL: the workplace's employee
 * of the day, as «Применить» picks him), after how long without frames the camera counts as offline
 * (`offline_alert_seconds`), and when the current connection began (`connected_at`: a recorder that
 * has just reconnected is not «behind»). `stream_segments`: when the recorder saw the segment closed
 * (`closed_at`) and the live-label job queued for it (`label_job_id`, at most one per segment), which
 * with the job's end give the lag «frame on camera → label stored».
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE camera_streams ADD COLUMN live_model_id INTEGER REFERENCES models(id) ON DELETE SET NULL`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN live_model_since INTEGER`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN live_employee_id INTEGER REFERENCES employees(id) ON DELETE SET NULL`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN offline_alert_seconds INTEGER NOT NULL DEFAULT 60`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN connected_at INTEGER`.execute(db);
  await sql`ALTER TABLE stream_segments ADD COLUMN closed_at INTEGER`.execute(db);
  await sql`ALTER TABLE stream_segments ADD COLUMN label_job_id INTEGER`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
