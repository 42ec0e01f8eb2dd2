import type { Db } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import { deleteVideo } from '../video/service';
import { segmentsNewestFirst } from './service';

/**
 * Retention of a camera's recording (docs/live-cameras.md «Срок хранения»): removes the videos the
 * recorder made (stream_segments; uploads and synced files of the same camera are never touched) that
 * ended more than `retention_days` ago, and the oldest ones beyond `retention_gb` in all. Each goes
 * as a deleted task does (video/service.ts deleteVideo: the row and its file; its markups stay).
 * Returns how many were removed.
 */
export async function sweepRetention(
  deps: { db: Db; storage: ObjectStore },
  stream: { camera_id: number; retention_days: number | null; retention_gb: number | null },
  now = Date.now(),
): Promise<number> {
  if (stream.retention_days === null && stream.retention_gb === null) return 0;
  const cutoff = stream.retention_days === null ? Number.NEGATIVE_INFINITY : now - stream.retention_days * 86_400_000;
  const budget = stream.retention_gb === null ? Number.POSITIVE_INFINITY : stream.retention_gb * 1024 ** 3;
  let kept = 0;
  let removed = 0;
  for (const segment of await segmentsNewestFirst(deps.db, stream.camera_id)) {
    kept += segment.size_bytes;
    if (segment.end_time >= cutoff && kept <= budget) continue;
    await deleteVideo(deps.db, deps.storage, segment.video_id);
    removed++;
  }
  return removed;
}
