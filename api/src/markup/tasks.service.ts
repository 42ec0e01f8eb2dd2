import { coveredSeconds } from '@norma/core-wasm';
import { sql } from 'kysely';
import { saveTransaction } from './save-lock.service';
import type { Db } from '../db/database';
import { isPostgres } from '../db/postgres';
import { conflict } from '../http/errors';
import { logActivities, markTaskFinished } from '../video/activity.service';

export type TaskOption = 'all' | 'finished' | 'unfinished';

export interface TaskQuery {
  option: TaskOption;
  offset: number;
  limit: number;
  filenamePattern?: string;
}

/** Completion of a task: covered seconds / duration, percent with one decimal (DESIGN.md). */
export function completionPercentage(markups: { start_time: number; end_time: number }[], videoStart: number, durationSeconds: number | null): number {
  if (!durationSeconds || durationSeconds <= 0) return 0;
  const videoEnd = videoStart + durationSeconds * 1000;
  const covered = coveredSeconds(markups.map((m) => ({ start: Math.max(m.start_time, videoStart), end: Math.min(m.end_time, videoEnd) })));
  return Math.min(100, Math.round((covered / durationSeconds) * 1000) / 10);
}

const isAscii = (text: string) => /^\p{ASCII}*$/u.test(text);

/**
 * The task list of a structure (spec 01 "Task list"): its ready videos, newest recordings first,
 * filtered by finished state and a case-insensitive substring of the file name, one page at a time.
 */
export async function listTasks(db: Db, structureId: number, query: TaskQuery) {
  let base = db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .where('cameras.structure_id', '=', structureId)
    .where('videos.status', '=', 'ready')
    // A recording whose start nothing told is offered for markup once a person gives it (video/recording-start.service.ts).
    .where('videos.start_source', '!=', 'unknown');
  if (query.option === 'finished') base = base.where('videos.finished', '=', 1);
  if (query.option === 'unfinished') base = base.where('videos.finished', '=', 0);
  const pattern = query.filenamePattern?.trim() ?? '';

  let total: number;
  let pageIds: number[];
  if (pattern === '' || isAscii(pattern)) {
    // SQLite's LIKE ignores case for ASCII letters, which is exact here; PostgreSQL's ILIKE does the same.
    const like = sql.raw(isPostgres(db) ? 'ILIKE' : 'LIKE');
    if (pattern) base = base.where(sql<boolean>`videos.filename ${like} ${`%${pattern.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`} ESCAPE '\\'`);
    total = Number((await base.select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    pageIds = (
      await base.select('videos.id').orderBy('videos.start_time', 'desc').orderBy('videos.id', 'desc').offset(query.offset).limit(query.limit).execute()
    ).map((r) => r.id);
  } else {
    // Cyrillic and other letters: SQLite folds only ASCII case, so the names are matched here.
    const needle = pattern.toLocaleLowerCase('ru');
    const all = await base.select(['videos.id', 'videos.filename']).orderBy('videos.start_time', 'desc').orderBy('videos.id', 'desc').execute();
    const matching = all.filter((row) => row.filename.toLocaleLowerCase('ru').includes(needle));
    total = matching.length;
    pageIds = matching.slice(query.offset, query.offset + query.limit).map((r) => r.id);
  }
  if (pageIds.length === 0) return { elements: [], total };

  const videos = await db
    .selectFrom('videos')
    .leftJoin('user', 'user.id', 'videos.author_id')
    .select([
      'videos.id',
      'videos.filename',
      'videos.comment',
      'videos.damage',
      'videos.start_time',
      'videos.start_source',
      'videos.start_confirmed',
      'videos.duration',
      'videos.finished',
      'videos.finished_at',
      'user.firstName',
      'user.lastName',
    ])
    .where('videos.id', 'in', pageIds)
    .execute();
  const markups = await db.selectFrom('markups').select(['video_id', 'start_time', 'end_time']).where('video_id', 'in', pageIds).execute();
  const latest = await db
    .selectFrom('activities')
    .select(['video_id', db.fn.max('happened_at').as('at')])
    .where('video_id', 'in', pageIds)
    .groupBy('video_id')
    .execute();
  const byId = new Map(videos.map((v) => [v.id, v]));
  const elements = pageIds.map((id) => {
    const video = byId.get(id)!;
    const finished = video.finished === 1;
    const lastActivity = latest.find((a) => a.video_id === id)?.at ?? null;
    const happenedAt = finished && video.finished_at !== null ? video.finished_at : lastActivity;
    return {
      video: {
        id: video.id,
        filename: video.filename,
        comment: video.comment,
        damage: video.damage,
        start_time: new Date(Number(video.start_time)).toISOString(),
        start_source: video.start_source,
        start_confirmed: video.start_confirmed === 1,
      },
      status: {
        finished,
        completion_percentage: completionPercentage(
          markups.filter((m) => m.video_id === id),
          video.start_time,
          video.duration,
        ),
        happened_at: happenedAt === null ? null : new Date(Number(happenedAt)).toISOString(),
      },
      author: video.firstName ? { first_name: video.firstName, last_name: video.lastName ?? '' } : null,
    };
  });
  return { elements, total };
}

/** Marks a task finished (once): finished flag and time, the finisher as author if none, an activity. */
export async function finishTask(db: Db, videoId: number, userId: string): Promise<void> {
  const video = await db.selectFrom('videos').select(['status', 'finished']).where('id', '=', videoId).executeTakeFirstOrThrow();
  if (video.status !== 'ready') throw conflict('Видео ещё не обработано: завершить задачу можно после обработки');
  if (video.finished === 1) return;
  const now = Date.now();
  await saveTransaction(db, async (trx) => {
    await markTaskFinished(trx, videoId, userId, now);
    await logActivities(trx, [{ videoId, authorId: userId, at: now, comment: 'Задача завершена' }]);
  });
}
