import { zonedInstant, zonedParts } from '@norma/core-wasm/report/time-zone';

/**
 * The one date and time formatter of the PWA. Everything is shown in the organisation's time
 * zone (login.timeZone), whatever the device's zone is. Instants are taken apart by core-wasm's
 * `zonedParts` (the same function the reports use, its formatters built once per zone); a zone the
 * platform does not know is refused (RangeError), not shown as another zone's time.
 */
function parts(instant: string | number | Date, timeZone: string) {
  return zonedParts(new Date(instant).getTime(), timeZone);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 16.11.2026 09:00 */
export function formatDateTime(instant: string | number | Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${pad(p.day)}.${pad(p.month)}.${p.year} ${pad(p.hour)}:${pad(p.minute)}`;
}

/** 16.11.2026 09:00:05 */
export function formatDateTimeSeconds(instant: string | number | Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${pad(p.day)}.${pad(p.month)}.${p.year} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** 09:00:05 */
export function formatTime(instant: string | number | Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** 2026-11-16: the local calendar date, as date inputs and the API's `date` parameters use it. */
export function localDate(instant: string | number | Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** A local "YYYY-MM-DDTHH:mm[:ss]" in the zone → the UTC instant, ms (daylight-saving changes included). */
export function fromLocal(local: string, timeZone: string): number {
  parts(0, timeZone); // refuses an unknown zone, as the formatters do
  const [date = '', time = '00:00'] = local.split('T');
  return zonedInstant(date, time, timeZone);
}

/** Seconds as h:mm:ss (for video positions and durations). */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
