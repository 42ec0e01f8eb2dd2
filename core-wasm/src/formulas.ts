/**
 * Scalar formulas of METHODOLOGY shared by the WASM wrapper and the reference. They hold no loops
 * over segments, so there is nothing to gain from WASM here; hand-computed tests pin them.
 */
import { plural } from './report/text.ts';
import type { CleaningRule, LoadStatus } from './types.ts';

/** Regulated breaks of a full shift when the structure does not say (minutes). */
export const DEFAULT_REGULAR_BREAK_MINUTES = 70;
/** Partial structures owe 10 minutes of regulated break per observed hour. */
export const PARTIAL_BREAK_SECONDS_PER_HOUR = 600;
/** Monthly working-hours fund of a 40-hour week: 40 h × 52 weeks / 12 months. */
export const MONTHLY_HOURS_FUND = (40 * 52) / 12;
/** Minimum number of measurements of an element. */
export const MIN_MEASUREMENTS = 5;
/** Measurements that must remain for cleaning to drop another one (more than this). */
export const CLEANING_MIN_REMAINING = 5;
/** z for a 95 % confidence level. */
export const Z_95 = 1.96;
/** Allowed fluctuation shown as the chart reference line, percent. */
export const ALLOWED_FLUCTUATION_PERCENT = 15;
/** Load bands of the staff view (percent). */
export const BALANCED_LOAD_MIN = 85;
export const BALANCED_LOAD_MAX = 100;

export const CLEANING_RULE =
  'Пока коэффициент устойчивости Ку = t_max / t_min больше нормативного и замеров больше 5, ' +
  'исключается крайний замер, который дальше отстоит от медианы: максимальный, если ' +
  't_max / медиана ≥ медиана / t_min, иначе минимальный. Исключённые замеры остаются в листе наблюдений с отметкой.';

export const CLEANING_RULE_BOTH =
  'Пока коэффициент устойчивости Ку = t_max / t_min больше нормативного и после исключения останется не меньше 5 замеров, ' +
  'исключаются одновременно минимальный и максимальный замеры. Исключённые замеры остаются в листе наблюдений с отметкой.';

/** The sentence a report states for a cleaning rule. */
export function cleaningRuleText(rule: CleaningRule): string {
  return rule === 'both_extremes' ? CLEANING_RULE_BOTH : CLEANING_RULE;
}

/** part / whole × 100, and 0 for an empty whole (never NaN or Infinity). */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/**
 * Required number of measurements n = ⌈(1.96 · CV / ε)²⌉, at least 5.
 * @param cvPercent coefficient of variation of the series, percent
 * @param accuracyPercent accuracy ε of the mean, percent (> 0)
 */
export function requiredMeasurements(cvPercent: number, accuracyPercent: number): number {
  if (!(accuracyPercent > 0)) throw new RangeError('Точность ε должна быть больше 0');
  const n = Math.ceil(((Z_95 * Math.max(0, cvPercent)) / accuracyPercent) ** 2);
  return Math.max(MIN_MEASUREMENTS, n);
}

/**
 * CV (percent) of values spread evenly between t_min and Ку·t_min, used by the calculator before
 * any measurement: CV = (Ку − 1) / ((Ку + 1)·√3).
 */
export function cvFromStability(stabilityCoef: number): number {
  if (!(stabilityCoef >= 1)) throw new RangeError('Коэффициент устойчивости должен быть не меньше 1');
  return ((stabilityCoef - 1) / ((stabilityCoef + 1) * Math.sqrt(3))) * 100;
}

/** Calculator form: required measurements from a normative Ку and accuracy. */
export function requiredMeasurementsForStability(stabilityCoef: number, accuracyPercent: number): { cvPercent: number; requiredMeasurements: number } {
  const cvPercent = cvFromStability(stabilityCoef);
  return { cvPercent, requiredMeasurements: requiredMeasurements(cvPercent, accuracyPercent) };
}

/** Money lost = losses in hours × monthly salary / monthly hours fund. */
export function moneyLost(lossSeconds: number, employeeSalary: number, hoursFund = MONTHLY_HOURS_FUND): number {
  if (!(hoursFund > 0) || !(employeeSalary > 0) || !(lossSeconds > 0)) return 0;
  return ((lossSeconds / 3600) * employeeSalary) / hoursFund;
}

export function loadStatus(loadPercent: number): LoadStatus {
  if (loadPercent > BALANCED_LOAD_MAX) return 'overloaded';
  if (loadPercent >= BALANCED_LOAD_MIN) return 'balanced';
  return 'underloaded';
}

/** Russian plural of "минута" for a whole number. */
export function minutesWord(n: number): string {
  return plural(n, 'минута', 'минуты', 'минут');
}

/** Statement sentence about load, e.g. "461-минутный день, переработка 11 минут". */
/** What a report says of a shift-day without any observation of the employee (METHODOLOGY §6). */
export const NO_OBSERVATIONS_TEXT = 'нет наблюдений';

export function loadText(workSeconds: number, availableSeconds: number, observedSeconds = workSeconds): string {
  // No observation: the day is not part of his window — «нет наблюдений», never «нет смен».
  if (!(observedSeconds > 0) && !(availableSeconds > 0)) return `Нормативное время не определено: ${NO_OBSERVATIONS_TEXT}.`;
  if (!(availableSeconds > 0)) return 'Нормативное время не определено: наблюдения вне смен.';
  const day = Math.round(workSeconds / 60);
  const diff = Math.round(Math.abs(workSeconds - availableSeconds) / 60);
  if (workSeconds === availableSeconds) return `${day}-минутный день, переработки и недогрузки нет`;
  const kind = workSeconds > availableSeconds ? 'переработка' : 'недогрузка';
  // Keep the sentence consistent with the overload flag even when the difference rounds to 0.
  if (diff === 0) return `${day}-минутный день, ${kind} менее минуты`;
  return `${day}-минутный день, ${kind} ${diff} ${minutesWord(diff)}`;
}

/** Russian plural of "день" for a whole number. */
export function daysWord(n: number): string {
  return plural(n, 'день', 'дня', 'дней');
}

/**
 * Load sentence of a window of several shift-days, e.g. "2 дня: 899 минут работы при нормативных
 * 920 минутах, недогрузка 21 минута" — never one "899-минутный день".
 */
export function multiDayLoadText(dayCount: number, workSeconds: number, availableSeconds: number): string {
  const head = `${dayCount} ${daysWord(dayCount)}`;
  if (!(availableSeconds > 0)) return `${head}: нормативное время не определено — нет смен с разметкой.`;
  const work = Math.round(workSeconds / 60);
  const available = Math.round(availableSeconds / 60);
  const diff = Math.round(Math.abs(workSeconds - availableSeconds) / 60);
  const base = `${head}: ${work} ${minutesWord(work)} работы при нормативных ${available} ${plural(available, 'минуте', 'минутах', 'минутах')}`;
  if (workSeconds === availableSeconds) return `${base}, переработки и недогрузки нет`;
  const kind = workSeconds > availableSeconds ? 'переработка' : 'недогрузка';
  if (diff === 0) return `${base}, ${kind} менее минуты`;
  return `${base}, ${kind} ${diff} ${minutesWord(diff)}`;
}
