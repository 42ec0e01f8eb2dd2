import { Database } from 'bun:sqlite';
import { join } from 'node:path';

/** The demo's clips: 640 × 360. */
export const DEMO_FRAME = { width: 640, height: 360 };

/**
 * Two people of a finished tracking at 5 frames a second of a 25 fps clip: [frame, time, x, y, w, h, score],
 * foot = (x + w/2, y + h). One stands 12 s with feet at (320, 180); the other walks along y = 60 from x = 90 for 10 s.
 */
export const DEMO_TRACKS = {
  standing: Array.from({ length: 61 }, (_, i) => [i * 5, i * 0.2, 310, 140, 20, 40, 0.9]),
  walking: Array.from({ length: 51 }, (_, i) => [i * 5, i * 0.2, 80 + i * 8, 20, 20, 40, 0.8]),
};

/**
 * A finished tracking of a demo video with the two tracks, written straight into a test server's
 * SQLite database as the tracking job's last transaction writes it: the demo's videos show a drawn
 * figure, not people, so the detector would find nobody.
 */
export function insertDemoTracking(dataDir: string, videoId: number): void {
  insertTracking(dataDir, videoId, [DEMO_TRACKS.standing, DEMO_TRACKS.walking]);
}

/**
 * A finished tracking of a demo video holding these tracks (points [frame, time, x, y, w, h, score] in
 * the demo's 640 × 360 frame), written as the tracking job's last transaction writes it.
 */
export function insertTracking(dataDir: string, videoId: number, tracks: number[][][]): void {
  const db = new Database(join(dataDir, 'norma.sqlite'));
  try {
    db.exec('PRAGMA busy_timeout = 60000');
    const now = Date.now();
    const last = Math.max(...tracks.map((t) => t[t.length - 1]![1]!));
    const settings = JSON.stringify({ fps_sampled: 5, detector: 'movenet-multipose', input_width: DEMO_FRAME.width, thresholds: {} });
    const stats = JSON.stringify({ tracks: tracks.length, frames: Math.round(last * 5) + 1, seconds: last, work_seconds: 3, x_real_time: 4 });
    const { id } = db
      .query(
        `INSERT INTO event_trackings (video_id, job_id, status, settings, video_fps, frame_width, frame_height, stats, created_at, finished_at)
         VALUES (?, NULL, 'done', ?, 25, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(videoId, settings, DEMO_FRAME.width, DEMO_FRAME.height, stats, now, now) as { id: number };
    const insert = db.query('INSERT INTO event_tracks (tracking_id, track_number, first_time, last_time, points) VALUES (?, ?, ?, ?, ?)');
    tracks.forEach((points, i) => insert.run(id, i + 1, points[0]![1]!, points[points.length - 1]![1]!, JSON.stringify(points)));
  } finally {
    db.close();
  }
}
