import { sql, type Kysely } from 'kysely';

/**
 * Live cameras, third step (issue 45, docs/live-cameras.md «Живая разметка», «Здоровье и тревоги»).
 * `camera_streams.live_job_id`: the camera's one live-labelling job (`live.label`) while it is queued or
 * running — a closing segment queues a job only when there is none alive; `camera_streams.frame_rate`:
 * the stream's frame rate the recorder measured on its last closed segment (frames / duration; NULL
 * until one closed). `stream_segments.labeled_at`: when the segment's labels were stored (its label
 * job then is the camera's job that labelled it): with `start_time` the lag «frame on camera → label»;
 * `stream_segments.label_error`: why its labels could not be written (it is not tried again). Segments
 * that had their own applying job before this migration count as labelled (that job writes them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE camera_streams ADD COLUMN live_job_id INTEGER`.execute(db);
  await sql`ALTER TABLE camera_streams ADD COLUMN frame_rate REAL`.execute(db);
  await sql`ALTER TABLE stream_segments ADD COLUMN labeled_at INTEGER`.execute(db);
  await sql`ALTER TABLE stream_segments ADD COLUMN label_error TEXT`.execute(db);
  await sql`UPDATE stream_segments SET labeled_at = COALESCE(
    (SELECT jobs.updated_at FROM jobs WHERE jobs.id = stream_segments.label_job_id AND jobs.status = 'success'), closed_at, end_time)
    WHERE label_job_id IS NOT NULL`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
