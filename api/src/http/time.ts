import { z } from '@hono/zod-openapi';

/**
 * The calendar range every instant the API accepts must fall in: 2000-01-01 … 2100-12-31 (UTC).
 * Outside it a date is a typing mistake, and an unbounded instant would let one request make the
 * server walk unbounded time.
 */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;
export const MIN_INSTANT = Date.UTC(MIN_YEAR, 0, 1);
/** Exclusive: the first instant after the range. */
export const MAX_INSTANT = Date.UTC(MAX_YEAR + 1, 0, 1);

export const isInstantInRange = (ms: number) => Number.isFinite(ms) && ms >= MIN_INSTANT && ms < MAX_INSTANT;

/** Whether year-month-day is a real date of the calendar range ("2026-02-30" is not). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (year < MIN_YEAR || year > MAX_YEAR) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d)(\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

/** ms since epoch of a strict ISO 8601 instant with a zone, or null (bad form, unreal date, out of range). */
export function parseInstant(value: string): number | null {
  const match = ISO_INSTANT.exec(value);
  if (!match || !isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) return null;
  const ms = Date.parse(value);
  return isInstantInRange(ms) ? ms : null;
}

/** An ISO 8601 instant in a query or body ("2026-11-16T05:00:00Z"), as ms since epoch. */
export const instant = z
  .string()
  .max(40, { message: 'ожидается дата-время ISO 8601 с часовым поясом, например 2026-11-16T08:00:00Z' })
  .refine((value) => parseInstant(value) !== null, {
    message: `ожидается существующая дата-время ISO 8601 с часовым поясом между ${MIN_YEAR} и ${MAX_YEAR} годами, например 2026-11-16T08:00:00Z`,
  })
  .transform((value) => parseInstant(value)!)
  .openapi({ type: 'string', format: 'date-time', maxLength: 40, example: '2026-11-16T05:00:00Z' });

/** A real calendar date "YYYY-MM-DD" of the calendar range. */
export function isCalendarDateInRange(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** ISO text of an instant; one outside the calendar range (only rows stored before the bounds) is shown at its edge, never a 500. */
export const toIso = (ms: number) => new Date(Math.min(Math.max(Number.isNaN(ms) ? MIN_INSTANT : ms, MIN_INSTANT), MAX_INSTANT - 1)).toISOString();

/** The longest markup segment: 24 h. A longer one is a date typed wrong (or, in old data, a value the API once let through). */
export const MAX_SEGMENT_SECONDS = 24 * 3600;
export const MAX_SEGMENT_MS = MAX_SEGMENT_SECONDS * 1000;
/** The longest video file the API accepts a duration or a second of: 24 h (camera files are minutes to hours long). */
export const MAX_VIDEO_SECONDS = 24 * 3600;
/** The longest window of the period editor (GET/POST operation_markups). */
export const MAX_PERIOD_DAYS = 366;

/** A stored segment's end as reads use it: at most 24 h after its start (old rows may hold more, even infinity). */
export const boundedEnd = (start: number, end: number) => (end - start > MAX_SEGMENT_MS || !Number.isFinite(end) ? start + MAX_SEGMENT_MS : end);
