/**
 * Local calendar time of the organisation (organizations.time_zone, an IANA name) for reports:
 * shifts are stored as local "HH:MM:SS", report dates are local days. Instants stay UTC ms.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-CA', {
        timeZone, year: 'numeric', month: '2-digit', day: '2-digit',
        hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
      });
    } catch {
      // An unknown zone name must not break a report: fall back to UTC.
      formatter = formatterFor('UTC');
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(instant: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/** Offset of the zone from UTC at an instant, ms (Moscow: +3 h). */
export function utcOffsetMs(instant: number, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-16": the local date of an instant. */
export function localDate(instant: number, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
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

/** The next calendar date: "2026-11-30" → "2026-12-01". */
export function addDays(date: string, days: number): string {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The UTC instant of a local date and wall-clock time ("HH:MM" or "HH:MM:SS") in the zone.
 * Two passes settle the offset, so days when clocks change land on the right side.
 */
export function zonedInstant(date: string, time: string, timeZone: string): number {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  const wall = Date.parse(`${date}T00:00:00Z`) + ((h * 60 + m) * 60 + s) * 1000;
  let instant = wall - utcOffsetMs(wall, timeZone);
  instant = wall - utcOffsetMs(instant, timeZone);
  return instant;
}
