import type { Db } from '../src/db/database';
import { insertVideo } from './video-fixtures';

/** A stored track point as the tracking job keeps it: [frame, time, x, y, w, h, score] in a 200×200 frame at 25 fps. */
export type StoredTrackPoint = [frame: number, time: number, x: number, y: number, w: number, h: number, score: number];

/**
 * A ready 60 s video of the camera starting at `start`, with a finished tracking holding these tracks,
 * stored as the tracking job's commit stores them (5 fps sampled, a 200×200 frame) — for tests of the
 * figures that must not depend on the detector.
 */
export async function insertTrackedVideo(db: Db, cameraId: number, video: { filename: string; start: number }, tracks: StoredTrackPoint[][]): Promise<number> {
  const videoId = await insertVideo(db, cameraId, { filename: video.filename, start: video.start, duration: 60 });
  const { id } = await db
    .insertInto('event_trackings')
    .values({
      video_id: videoId,
      job_id: null,
      status: 'done',
      settings: JSON.stringify({ fps_sampled: 5, detector: 'movenet', input_width: 768, thresholds: {} }),
      video_fps: 25,
      frame_width: 200,
      frame_height: 200,
      stats: JSON.stringify({ tracks: tracks.length, frames: 300, seconds: 60, work_seconds: 1, x_real_time: 60 }),
      created_at: video.start,
      finished_at: video.start,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('event_tracks')
    .values(
      tracks.map((points, i) => ({
        tracking_id: id,
        track_number: i + 1,
        first_time: points[0]![1],
        last_time: points[points.length - 1]![1],
        points: JSON.stringify(points),
      })),
    )
    .execute();
  return videoId;
}
