/**
 * The organisation's local calendar time (organizations.time_zone, an IANA name) ↔ UTC instants,
 * with the platform's Intl data only. Instants stay UTC ms everywhere; this is the one place that
 * turns them into local dates and wall times (report days, shift times, recording file names, TSV).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The one cache of Intl.DateTimeFormat objects (this module and the PWA's format/time.ts): building
 * one costs far more than formatting with it (a report of 1,500 rows built hundreds), so each
 * (locale, options) pair is built once and reused. A zone the platform does not know throws, as
 * `new Intl.DateTimeFormat` does, and is not cached.
 */
export function cachedDateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

const PARTS_OPTIONS: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};

/** zonedParts' formatters by zone (each also in the general cache). */
const partsFormatters = new Map<string, Intl.DateTimeFormat>();

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The wall-clock reading of an instant (ms) in a time zone — the one place that takes an instant
 * apart into local date parts (reports here, the PWA's format/time.ts). A zone the platform does
 * not know throws RangeError.
 */
export function zonedParts(instant: number, timeZone: string): LocalParts {
  // By zone straight away: a report asks this thousands of times, and the general cache's key (the options as JSON) would cost more than the formatting.
  let format = partsFormatters.get(timeZone);
  if (!format) {
    format = cachedDateTimeFormat('en-US', { timeZone, ...PARTS_OPTIONS });
    partsFormatters.set(timeZone, format);
  }
  const local: LocalParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of format.formatToParts(new Date(instant))) if (part.type in local) local[part.type as keyof LocalParts] = Number(part.value);
  local.hour %= 24;
  return local;
}

/** The wall-clock reading of an instant (ms) in a time zone; an unknown zone reads as UTC. */
export function localParts(instant: number, timeZone: string): LocalParts {
  try {
    return zonedParts(instant, timeZone);
  } catch {
    // An unknown zone name must not break a report or a sync: fall back to UTC.
    return zonedParts(instant, 'UTC');
  }
}

/** Offset of the zone from UTC at an instant, ms (Moscow: +3 h). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const p = localParts(instant, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant (ms) a local wall time names in a zone. Two passes settle the offset, so days when
 * clocks change land on the right side; in a gap the later offset is used.
 */
export function localToInstant(local: LocalParts, timeZone: string): number {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  return asUtc - zoneOffsetMs(first, timeZone);
}

/** The instant of a local date "YYYY-MM-DD" and wall time "HH:MM" or "HH:MM:SS" in the zone. */
export function zonedInstant(date: string, time: string, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour = 0, minute = 0, second = 0] = time.split(':').map(Number);
  return localToInstant({ year, month, day, hour, minute, second }, timeZone);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "2026-11-16": the local date of an instant. */
export function localDate(instant: number, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** Local hour of day, 0–23. */
export function localHour(instant: number, timeZone: string): number {
  return localParts(instant, timeZone).hour;
}

/** "16.11.2026 08:00": how reports show an instant to people. */
export function localDateTimeText(instant: number, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${pad(p.day)}.${pad(p.month)}.${p.year} ${pad(p.hour)}:${pad(p.minute)}`;
}

/** "2026-11-16 09:00:00": sortable local date-time for files (TSV). */
export function formatLocalDateTime(instant: number, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** A calendar date moved by whole days: "2026-11-30" + 1 → "2026-12-01". */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** [start, end) instants of a local calendar day "YYYY-MM-DD" in the zone. */
export function localDayBounds(date: string, timeZone: string): [number, number] {
  return [zonedInstant(date, '00:00:00', timeZone), zonedInstant(addDays(date, 1), '00:00:00', timeZone)];
}

/** A real calendar date written as YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
