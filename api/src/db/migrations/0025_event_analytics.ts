import { sql, type Kysely } from 'kysely';

/**
 * Event analytics (issue 44, docs/event-analytics.md):
 *   - event_trackings: one run of the tracker over one video (job `event_tracking`); settings and
 *     stats are JSON; status 'queued' until the job commits its tracks ('done'), the job's own
 *     status says the rest. A finished run replaces the video's earlier ones (and their tracks).
 *   - event_tracks: the tracks of a run; points JSON [[frame, time, x, y, w, h, score], …] in the
 *     video's frames (from 0), seconds and source pixels.
 *   - event_calibrations: a camera's floor — four points on the frame (at frame_width×frame_height)
 *     and the same four on the hall's plan in metres.
 *   - event_zones: zones, stands' zones and safe zones of a hall (a structure) on its plan, metres;
 *     shape JSON {"type":"polygon","points":[[x,y],…]} or {"type":"circle","center":[x,y],"radius":r}.
 */
const statements = [
  `CREATE TABLE event_trackings (
     id INTEGER PRIMARY KEY,
     video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
     job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
     status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done')),
     settings TEXT NOT NULL CHECK (json_valid(settings)),
     video_fps REAL,
     frame_width INTEGER,
     frame_height INTEGER,
     stats TEXT CHECK (stats IS NULL OR json_valid(stats)),
     created_at INTEGER NOT NULL,
     finished_at INTEGER
   )`,
  `CREATE INDEX event_trackings_by_video ON event_trackings(video_id, id)`,
  `CREATE TABLE event_tracks (
     id INTEGER PRIMARY KEY,
     tracking_id INTEGER NOT NULL REFERENCES event_trackings(id) ON DELETE CASCADE,
     track_number INTEGER NOT NULL,
     first_time REAL NOT NULL,
     last_time REAL NOT NULL,
     points TEXT NOT NULL CHECK (json_valid(points)),
     UNIQUE (tracking_id, track_number)
   )`,
  `CREATE TABLE event_calibrations (
     id INTEGER PRIMARY KEY,
     camera_id INTEGER NOT NULL UNIQUE REFERENCES cameras(id) ON DELETE CASCADE,
     frame_width INTEGER NOT NULL,
     frame_height INTEGER NOT NULL,
     image_points TEXT NOT NULL CHECK (json_valid(image_points)),
     plan_points TEXT NOT NULL CHECK (json_valid(plan_points)),
     updated_at INTEGER NOT NULL
   )`,
  `CREATE TABLE event_zones (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('zone', 'stand', 'safe')),
     stand_id INTEGER REFERENCES stands(id) ON DELETE SET NULL,
     shape TEXT NOT NULL CHECK (json_valid(shape)),
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  `CREATE INDEX event_zones_by_structure ON event_zones(structure_id, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
