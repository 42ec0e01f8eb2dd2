import { sql } from 'kysely';
import type { Db } from '../db/database';

/** One entry of a video's history (table `activities`, the task list's last action). */
export interface Activity {
  videoId: number;
  /** null: the system (a model's layer). */
  authorId: string | null;
  comment: string;
  at: number;
}

/**
 * The one writer of `activities` (the video's history): the video domain's own writes (a comment, a
 * registration), the markup domain's saves and the vision jobs (a model's layer) through it.
 */
export async function logActivities(db: Db, entries: readonly Activity[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('activities')
    .values(entries.map((entry) => ({ video_id: entry.videoId, author_id: entry.authorId, happened_at: entry.at, comment: entry.comment })))
    .execute();
}

/**
 * The markup of these videos changed other than by their own save (a period edit, a person's rows
 * pushing the model's layer aside, a model's new layer): each video's markup version moves on, so an
 * editor open on it reloads instead of saving over the change.
 */
export async function bumpMarkupVersions(db: Db, videoIds: readonly number[]): Promise<void> {
  if (videoIds.length === 0) return;
  await db
    .updateTable('videos')
    .set((eb) => ({ markup_version: eb('markup_version', '+', 1) }))
    .where('id', 'in', [...videoIds])
    .execute();
}

/**
 * A save of the video's own markup: its markup version becomes `version`, and the saver its author
 * if it had none.
 */
export async function recordMarkupSave(db: Db, videoId: number, version: number, authorId: string): Promise<void> {
  await db.updateTable('videos').set({ markup_version: version }).where('id', '=', videoId).execute();
  await db.updateTable('videos').set({ author_id: authorId }).where('id', '=', videoId).where('author_id', 'is', null).execute();
}

/** The video's markup task is finished: the flag and the time, the finisher its author if it had none. */
export async function markTaskFinished(db: Db, videoId: number, userId: string, at: number): Promise<void> {
  await db
    .updateTable('videos')
    .set({ finished: 1, finished_at: at, author_id: sql`coalesce(author_id, ${userId})` })
    .where('id', '=', videoId)
    .execute();
}
