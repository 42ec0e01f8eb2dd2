import { formatTime, fromLocal, localDate } from '../../format/time';

/**
 * Dates and instants of the workspace pickers (spec 02 §9: dd-MM-yyyy HH:mm, hourly steps), on
 * top of the one formatter (format/time.ts). Calendar dates are "yyyy-mm-dd" in the
 * organisation's time zone, as GET /api/v1/report/dates answers them.
 */

/** "2026-11-16" → "16-11-2026". */
export const dmy = (date: string) => date.split('-').reverse().join('-');

/** "16-11-2026" → "2026-11-16", or null when it is not a real date. */
export function parseDmy(text: string): string | null {
  const match = /^\s*(\d{1,2})[-.](\d{1,2})[-.](\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [, d, m, y] = match;
  const iso = `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
  const check = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** The instant of a local date and hour (0–23) in the zone, ms. */
export const atHour = (date: string, hour: number, timeZone: string) => fromLocal(`${date}T${String(hour).padStart(2, '0')}:00`, timeZone);

/** The local date and hour of an instant. */
export function dateAndHour(instant: number, timeZone: string): { date: string; hour: number } {
  return { date: localDate(instant, timeZone), hour: Number(formatTime(instant, timeZone).slice(0, 2)) };
}

/** "16-11-2026 08:00" — how a picker shows its value. */
export const formatPicker = (instant: number, timeZone: string) => `${dmy(localDate(instant, timeZone))} ${formatTime(instant, timeZone).slice(0, 5)}`;

/** "16-11-2026 08:00:05" — a markup's start or end in the period editor (markups are second-precise). */
export const formatPickerSeconds = (instant: number, timeZone: string) => `${dmy(localDate(instant, timeZone))} ${formatTime(instant, timeZone)}`;

/** "16-11-2026 08:00[:05]" in the zone → the instant, or null when it is not a valid date-time. */
export function parsePickerSeconds(text: string, timeZone: string): number | null {
  const match = /^\s*(\d{1,2}[-.]\d{1,2}[-.]\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/.exec(text);
  if (!match) return null;
  const date = parseDmy(match[1]!);
  const [h, m, s = '0'] = [Number(match[2]), Number(match[3]), match[4]];
  if (!date || h > 23 || m > 59 || Number(s) > 59) return null;
  return fromLocal(`${date}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(Number(s)).padStart(2, '0')}`, timeZone);
}

/** The next calendar date: "2026-11-30" → "2026-12-01". */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Dates a window may end on: every date with a report, and the day after each (a window that
 * covers a whole day ends at 00:00 of the next one).
 */
export function endDates(reportDates: readonly string[]): string[] {
  return [...new Set(reportDates.flatMap((d) => [d, nextDate(d)]))].sort();
}

/** An instant as the ISO string the report routes take ("2026-11-16T05:00:00.000Z"), URL-encoded. */
export const routeInstant = (instant: number | string) => encodeURIComponent(new Date(instant).toISOString());

/** A route parameter back to an instant: tolerates both encoded and plain ISO strings. */
export function instantParam(raw: string | undefined): number | null {
  if (!raw) return null;
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return null;
  const value = Date.parse(text);
  return Number.isNaN(value) ? null : value;
}

export interface ReportLinks {
  edit: string;
  statement: string | null;
  report: string;
  interactive: string;
}

/** The edit link and the three report links of spec 02 "Projects page" (hash form). */
export function periodLinks(structureId: number, employeeId: number, from: number, to: number): ReportLinks {
  const f = routeInstant(from);
  const t = routeInstant(to);
  return {
    edit: `#/edit/${structureId}/${f}/${t}`,
    statement: employeeId > 0 ? `#/statement/${structureId}/${employeeId}/${f}/${t}` : null,
    report: `#/report/${structureId}/${f}/${t}`,
    interactive: `#/interactive/${structureId}/${f}/${t}`,
  };
}
