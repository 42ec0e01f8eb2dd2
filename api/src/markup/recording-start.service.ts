import type { Db } from '../db/database';
import { forbidden } from '../http/errors';
import { formatLocalDateTime } from '../time-zone';
import { logActivities } from '../video/activity.service';
import {
  checkNoOverlap,
  checkStartBounds,
  START_NEEDS_ANALYST,
  startReply,
  videoForStart,
  writeVideoStart,
  type StartSource,
} from '../video/recording-start.service';

export interface MoveStart {
  videoId: number;
  /** The caller's organisation: a video of another one is not found (404). */
  organizationId: number;
  /** The new start, ms UTC. */
  startTime: number;
  authorId: string | null;
  /**
   * Whether the caller may change a start that is confirmed or already has markups (analyst, admin).
   * Without it only the upload's confirmation is allowed: an unconfirmed start of a video with no markups.
   */
  mayMoveMarked: boolean;
  now?: number;
}

/**
 * Sets (confirms or moves) a recording's start, in one transaction (docs/video-storage.md «Начало
 * записи»): the video's start becomes `startTime` (source 'manual' when it changed, confirmed), every
 * markup and stamp of the video — a model's unreviewed layer included, it is rows of `markups` —
 * moves by the same delta, the video's markup version rises when markups moved (an open editor sees
 * a conflict rather than saving over it), and an activity notes old → new. Refused: a start before
 * 2000 or more than a day ahead (400), a span overlapping another recording of the camera (409).
 * Reusable by other callers (an organisation's time zone change).
 */
export async function moveRecordingStart(db: Db, move: MoveStart) {
  const now = move.now ?? Date.now();
  checkStartBounds(move.startTime, now);
  return db.transaction().execute(async (trx) => {
    const video = await videoForStart(trx, move.videoId, move.organizationId);
    const marked = await trx.selectFrom('markups').select('id').where('video_id', '=', video.id).limit(1).executeTakeFirst();
    if (!move.mayMoveMarked && (video.start_confirmed === 1 || marked)) throw forbidden(START_NEEDS_ANALYST);
    await checkNoOverlap(trx, video, move.startTime);
    const delta = move.startTime - video.start_time;
    const wasKnown = video.start_source !== 'unknown';
    const source: StartSource = delta === 0 && wasKnown ? video.start_source : 'manual';
    await writeVideoStart(trx, video.id, { startTime: move.startTime, source, bumpVersion: delta !== 0 && Boolean(marked) });
    if (delta !== 0) {
      await trx
        .updateTable('markups')
        .set((eb) => ({ start_time: eb('start_time', '+', delta), end_time: eb('end_time', '+', delta), updated_at: now }))
        .where('video_id', '=', video.id)
        .execute();
      await trx
        .updateTable('video_stamps')
        .set((eb) => ({ at: eb('at', '+', delta) }))
        .where('video_id', '=', video.id)
        .execute();
    }
    const text = (instant: number) => formatLocalDateTime(instant, video.time_zone);
    const comment =
      delta === 0 && wasKnown
        ? `Начало записи подтверждено: ${text(move.startTime)}`
        : wasKnown
          ? `Начало записи изменено: ${text(video.start_time)} → ${text(move.startTime)}`
          : `Начало записи указано: ${text(move.startTime)}`;
    await logActivities(trx, [{ videoId: video.id, authorId: move.authorId, at: now, comment }]);
    return startReply({ id: video.id, start_time: move.startTime, start_source: source, start_confirmed: 1 });
  });
}
