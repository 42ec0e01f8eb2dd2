/** Russian wording of report texts: plurals, numbers, durations, money. */

/** plural(3, 'сотрудник', 'сотрудника', 'сотрудников') → 'сотрудника'. */
export function plural(n: number, one: string, few: string, many: string): string {
  const mod10 = Math.abs(n) % 10;
  const mod100 = Math.abs(n) % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}

const numberFormats = new Map<number, Intl.NumberFormat>();

/** 12345.67 → "12 345,7" (Russian separators). */
export function formatNumber(value: number, fractionDigits = 1): string {
  let format = numberFormats.get(fractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: fractionDigits });
    numberFormats.set(fractionDigits, format);
  }
  return format.format(value);
}

export const formatPercent = (value: number) => `${formatNumber(value, 1)} %`;

/** 2652 s → "44 мин", 159_120 s → "44 ч 12 мин". */
export function formatDuration(seconds: number): string {
  const totalMinutes = Math.round(seconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `${minutes} мин`;
  return minutes === 0 ? `${hours} ч` : `${hours} ч ${minutes} мин`;
}

export const formatRoubles = (value: number) => `${formatNumber(Math.round(value), 0)} ₽`;

/** Rounds a figure for display blocks (two decimals), keeping exact zeros and integers. */
export const round2 = (value: number) => Math.round(value * 100) / 100;
