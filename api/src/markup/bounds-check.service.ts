import { sql } from 'kysely';
import type { Db } from '../db/database';
import { MAX_INSTANT, MAX_SEGMENT_MS, MAX_VIDEO_SECONDS, MIN_INSTANT } from '../http/time';

/**
 * The startup check of stored time values (docs/api.md "Границы входных данных"): rows written
 * before the API bounded its input may hold an end of 1e12 s, an infinite end or duration, or an
 * instant outside 2000–2100. Reads already cope with them (ends are taken at most 24 h after the
 * start), but a person should fix them: this finds them, it changes nothing.
 */
export interface OutOfBoundsTable {
  /** Rows out of bounds. */
  count: number;
  /** Up to SAMPLE_SIZE of their ids, smallest first. */
  ids: number[];
}

export interface OutOfBoundsSummary {
  /** Markups whose start or end lies outside the calendar range, is not finite, or that last more than 24 h. */
  markups: OutOfBoundsTable;
  /** Video stamps outside the calendar range. */
  videoStamps: OutOfBoundsTable;
  /** Videos starting outside the calendar range or with a duration that is not a positive number of at most 24 h. */
  videos: OutOfBoundsTable;
  /** Total of the three counts: 0 when everything is in bounds. */
  total: number;
}

const SAMPLE_SIZE = 20;

/** `value` is outside [MIN_INSTANT, MAX_INSTANT); an infinite REAL compares outside too. */
const outsideRange = (column: string) => sql<boolean>`(${sql.ref(column)} < ${MIN_INSTANT} OR ${sql.ref(column)} >= ${MAX_INSTANT})`;

async function summarize(db: Db, table: 'markups' | 'video_stamps' | 'videos', condition: ReturnType<typeof sql<boolean>>): Promise<OutOfBoundsTable> {
  const count = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(condition)
    .executeTakeFirstOrThrow();
  const ids = await db.selectFrom(table).select('id').where(condition).orderBy('id').limit(SAMPLE_SIZE).execute();
  return { count: Number(count.n), ids: ids.map((r) => r.id) };
}

/** Finds the stored rows out of bounds: two scans per table at startup, nothing written. */
export async function findOutOfBoundsRows(db: Db): Promise<OutOfBoundsSummary> {
  const markups = await summarize(
    db,
    'markups',
    sql<boolean>`(${outsideRange('start_time')} OR ${outsideRange('end_time')} OR end_time - start_time > ${MAX_SEGMENT_MS})`,
  );
  const videoStamps = await summarize(db, 'video_stamps', outsideRange('at'));
  const videos = await summarize(
    db,
    'videos',
    sql<boolean>`(${outsideRange('start_time')} OR (duration IS NOT NULL AND NOT (duration > 0 AND duration <= ${MAX_VIDEO_SECONDS})))`,
  );
  return { markups, videoStamps, videos, total: markups.count + videoStamps.count + videos.count };
}

/** One Russian line for the server log, or null when nothing is out of bounds. */
export function describeOutOfBounds(summary: OutOfBoundsSummary): string | null {
  if (summary.total === 0) return null;
  const part = (name: string, t: OutOfBoundsTable) => (t.count ? `${name}: ${t.count} (id ${t.ids.join(', ')}${t.count > t.ids.length ? ', …' : ''})` : null);
  const parts = [part('разметка', summary.markups), part('отметки видео', summary.videoStamps), part('видео', summary.videos)].filter(Boolean);
  return `Найдены строки с временем вне допустимых границ (исправьте их вручную): ${parts.join('; ')}`;
}
