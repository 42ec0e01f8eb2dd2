import { cachedDateTimeFormat } from '@norma/core-wasm/report/time-zone';

/**
 * The one date and time formatter of the PWA. Everything is shown in the organisation's time
 * zone (login.timeZone), whatever the device's zone is.
 */
function parts(instant: string | number | Date, timeZone: string) {
  const date = new Date(instant);
  // Built once per zone and reused (core-wasm's cache): building one costs more than a format.
  const formatted = cachedDateTimeFormat('ru-RU', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => formatted.find((p) => p.type === type)?.value ?? '';
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** 16.11.2026 09:00 */
export function formatDateTime(instant: string | number | Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
}

/** 09:00:05 */
export function formatTime(instant: string | number | Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${p.hour}:${p.minute}:${p.second}`;
}

/** 2026-11-16: the local calendar date, as date inputs and the API's `date` parameters use it. */
export function localDate(instant: string | number | Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** Offset of the zone from UTC at an instant, in minutes (Moscow: 180). */
export function zoneOffsetMinutes(instant: number, timeZone: string): number {
  const p = parts(instant, timeZone);
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60000);
}

/** A local "YYYY-MM-DDTHH:mm[:ss]" in the zone → the UTC instant, ms. */
export function fromLocal(local: string, timeZone: string): number {
  const [date = '', time = '00:00'] = local.split('T');
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm, ss = 0] = time.split(':').map(Number);
  const guess = Date.UTC(y!, m! - 1, d!, hh!, mm!, ss);
  // Two passes settle the offset also next to a daylight-saving change.
  const first = guess - zoneOffsetMinutes(guess, timeZone) * 60000;
  return guess - zoneOffsetMinutes(first, timeZone) * 60000;
}

/** Seconds as h:mm:ss (for video positions and durations). */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
