/**
 * Local wall time ↔ UTC instants in an IANA time zone (the organisation's `time_zone`), with the
 * platform's Intl data only.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant (ms) in a time zone. */
export function localParts(instant: number, timeZone: string): LocalParts {
  const parts = formatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** Offset of the zone from UTC at an instant, ms (Moscow: +3 h). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const wholeSecond = Math.floor(instant / 1000) * 1000;
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - wholeSecond;
}

/** The instant (ms) a local wall time names in a zone; in a DST gap the later offset is used. */
export function localToInstant(local: LocalParts, timeZone: string): number {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  const second = asUtc - zoneOffsetMs(first, timeZone);
  return second;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "2026-11-16 09:00:00" in the zone. */
export function formatLocalDateTime(instant: number, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** [start, end) instants of a local calendar day "YYYY-MM-DD" in the zone. */
export function localDayBounds(date: string, timeZone: string): [number, number] {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const start = localToInstant({ year, month, day, hour: 0, minute: 0, second: 0 }, timeZone);
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  const end = localToInstant({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 }, timeZone);
  return [start, end];
}

/** A real calendar date written as YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
