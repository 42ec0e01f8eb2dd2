import { sql, type Kysely } from 'kysely';

/**
 * Live cameras, first step (issue 45, docs/live-cameras.md): a camera's RTSP stream and the recorder
 * that holds it. `camera_streams` — one row per camera: its address (credentials inside, never
 * returned), settings, the recorder holding it (`holder`, lease until `lease_until`, as a job's lock)
 * and its health (`state`, `last_frame_at`, `last_error`). `recording_gaps` — spans with no recording
 * (the stream dropped: from the last frame received to the first after reconnection).
 * `stream_segments` — the videos the recorder made (retention removes only these; the live labels
 * of the next step label them as they close).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE camera_streams (
     id INTEGER PRIMARY KEY,
     camera_id INTEGER NOT NULL UNIQUE REFERENCES cameras(id) ON DELETE CASCADE,
     url TEXT NOT NULL,
     enabled INTEGER NOT NULL DEFAULT 1,
     segment_seconds INTEGER NOT NULL DEFAULT 300,
     retention_days INTEGER,
     retention_gb REAL,
     holder TEXT,
     lease_until INTEGER,
     state TEXT NOT NULL DEFAULT 'offline',
     last_frame_at INTEGER,
     last_error TEXT,
     updated_at INTEGER NOT NULL
   )`.execute(db);
  await sql`CREATE TABLE recording_gaps (
     id INTEGER PRIMARY KEY,
     camera_id INTEGER NOT NULL REFERENCES cameras(id) ON DELETE CASCADE,
     from_time INTEGER NOT NULL,
     to_time INTEGER NOT NULL,
     reason TEXT NOT NULL
   )`.execute(db);
  await sql`CREATE INDEX recording_gaps_by_camera ON recording_gaps(camera_id, from_time)`.execute(db);
  await sql`CREATE TABLE stream_segments (
     id INTEGER PRIMARY KEY,
     camera_id INTEGER NOT NULL REFERENCES cameras(id) ON DELETE CASCADE,
     video_id INTEGER NOT NULL UNIQUE REFERENCES videos(id) ON DELETE CASCADE,
     start_time INTEGER NOT NULL,
     end_time INTEGER NOT NULL,
     size_bytes INTEGER NOT NULL
   )`.execute(db);
  await sql`CREATE INDEX stream_segments_by_camera ON stream_segments(camera_id, start_time)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
