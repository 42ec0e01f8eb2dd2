/**
 * Number and duration formats of the reports (spec 01 §9). Dates and times of day go through the
 * one date formatter, format/time.ts, in the organisation's time zone.
 */

const two = (n: number) => String(n).padStart(2, '0');

/** Seconds as hh:mm:ss (hours keep two digits, more when needed). */
export function hms(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/**
 * Seconds as minutes and seconds with an apostrophe (the minutes column): 07'05, 123'09,
 * 1234'00 — minutes padded to 2 digits, 3 from 100 minutes, 4 from 1000.
 */
export function minutesApostrophe(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(s / 60);
  const width = minutes >= 1000 ? 4 : minutes >= 100 ? 3 : 2;
  return `${String(minutes).padStart(width, '0')}'${two(s % 60)}`;
}

const formatters = new Map<number, Intl.NumberFormat>();

/** A number the Russian way (1 234,5), with `digits` decimals at most. */
export function num(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  let f = formatters.get(digits);
  if (!f) {
    f = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: digits, minimumFractionDigits: 0, useGrouping: true });
    formatters.set(digits, f);
  }
  // Intl writes a narrow no-break space between thousands; a plain no-break space reads the same and survives PDF fonts.
  return f.format(value).replace(/\u202f/g, '\u00a0');
}

/** 94,3 % */
export function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? '—' : `${num(value, digits)}\u00a0%`;
}

/**
 * A route's instant parameter: raw (2026-11-16T05:00:00.000Z) or URL-encoded
 * (2026-11-16T05%3A00%3A00.000Z), as the projects page builds them. Null when it is no instant.
 */
export function instantParam(raw: string | undefined): string | null {
  if (!raw) return null;
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // Not encoded (a lone % would fail): use it as it is.
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * A Table 4 row on a whole-second grid: start and end rounded to the nearest second, and the
 * duration taken between the rounded instants — so that the shown start, end and duration agree
 * (rounding each on its own left them 1 s apart on many rows).
 */
export function wholeSecondSpan(startIso: string, endIso: string): { start: number; end: number; seconds: number } {
  const start = Math.round(Date.parse(startIso) / 1000) * 1000;
  const end = Math.round(Date.parse(endIso) / 1000) * 1000;
  return { start, end, seconds: (end - start) / 1000 };
}

/**
 * The sentence about ΔП. A negative ΔП means rest and idle time together fall short of the
 * regulated breaks: the norm takes the missing rest from main work, so main work shrinks.
 */
export function productivityRiseText(rise: number | null): string {
  if (rise === null) return 'Возможный рост производительности не считается: нет основной работы.';
  const value = pct(rise, 1);
  if (rise > 0) {
    return `Возможный рост производительности ΔП = ${value}: простои убраны, отдых сведён к регламентированным перерывам, освобождённое время отдано основной работе.`;
  }
  if (rise < 0) {
    return `ΔП = ${value}: резерва роста нет. Отдыха и простоев вместе меньше регламентированных перерывов, поэтому по нормативу недостающий отдых берётся из основной работы — основная работа уменьшается: сотрудник работает в счёт положенных перерывов.`;
  }
  return `ΔП = ${value}: резерва роста нет — нет ни простоев, ни отдыха сверх регламентированных перерывов.`;
}
