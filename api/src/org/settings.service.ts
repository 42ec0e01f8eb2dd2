import type { Db } from '../db/database';
import type { ProductionType } from '../db/schema';
import { notFound } from '../http/errors';
import { setStructureReportFields } from './service';

/** Regulated breaks of a structure without settings: 70 minutes (METHODOLOGY §2), in seconds. */
export const DEFAULT_REGULAR_BREAK_SECONDS = 4200;

export interface BreakInterval {
  start_time: string;
  end_time: string;
}

export interface ShiftInput {
  name: string;
  start_time: string;
  end_time: string;
  regular_break_duration_min: number;
  /** The unpaid meal break, minutes (METHODOLOGY §7: not rest, not in Тсм); 0 when left out. */
  meal_break_min?: number;
  /** Regulated break intervals, local times inside the shift; when given, their sum is the shift's break. */
  breaks?: BreakInterval[];
}

const DAY_SECONDS = 86_400;
const clockSeconds = (time: string) => {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

/** A break's offsets from its shift's start, seconds (a night shift runs past midnight). */
function breakOffsets(shift: ShiftInput, b: BreakInterval): { from: number; to: number; length: number } {
  const start = clockSeconds(shift.start_time);
  const offset = (time: string) => (clockSeconds(time) - start + DAY_SECONDS) % DAY_SECONDS;
  const length = offset(shift.end_time) || DAY_SECONDS;
  return { from: offset(b.start_time), to: offset(b.end_time) || (b.end_time === shift.end_time ? length : 0), length };
}

/** Length of a shift by its clock times, seconds (a night shift runs past midnight; equal times: a whole day). */
function shiftSeconds(shift: ShiftInput): number {
  return (clockSeconds(shift.end_time) - clockSeconds(shift.start_time) + DAY_SECONDS) % DAY_SECONDS || DAY_SECONDS;
}

/** Seconds of a shift's break intervals. */
export function breakIntervalsSeconds(shift: ShiftInput): number {
  return (shift.breaks ?? []).reduce((acc, b) => {
    const o = breakOffsets(shift, b);
    return acc + Math.max(0, o.to - o.from);
  }, 0);
}

/** The stored JSON list of a shift's break intervals ('[]' or bad JSON: none). */
export function parseBreakIntervals(json: string | null | undefined): BreakInterval[] {
  try {
    const list = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((b): b is BreakInterval => typeof b?.start_time === 'string' && typeof b?.end_time === 'string') : [];
  } catch {
    return [];
  }
}

export interface StructureSettingsInput {
  employee_count?: number | null;
  employee_salary?: number | null;
  fluct_reduction?: number | null;
  regular_break_duration?: number;
  time_series_stability_threshold?: number | null;
  rest_in_idle?: boolean;
  cleaning_rule?: 'one_extreme' | 'both_extremes';
  shifts?: ShiftInput[];
  partial?: boolean;
  production_type?: ProductionType;
}

/**
 * The report parameters of a structure (spec 02 "Structure settings card"): settings, shifts,
 * and the two structure fields the reports read (partial, production type). A structure that
 * never saved settings answers with the defaults.
 */
export async function readStructureSettings(db: Db, structureId: number) {
  const structure = await db
    .selectFrom('structures')
    .select(['id', 'name', 'parent_id', 'partial', 'production_type'])
    .where('id', '=', structureId)
    .executeTakeFirst();
  if (!structure) throw notFound('Структурная единица не найдена');
  const settings = await db.selectFrom('structure_settings').selectAll().where('structure_id', '=', structureId).executeTakeFirst();
  const shifts = await db
    .selectFrom('shifts')
    .select(['id', 'name', 'start_time', 'end_time', 'regular_break_duration_min', 'meal_break_min', 'break_intervals'])
    .where('structure_id', '=', structureId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return {
    id: structure.id,
    name: structure.name,
    parent_id: structure.parent_id,
    partial: structure.partial === 1,
    production_type: structure.production_type,
    employee_count: settings?.employee_count ?? null,
    employee_salary: settings?.employee_salary ?? null,
    // Read as `flucts_reduction`, written as `fluct_reduction` (spec 02 §3).
    flucts_reduction: settings?.fluct_reduction ?? null,
    regular_break_duration: settings?.regular_break_duration ?? DEFAULT_REGULAR_BREAK_SECONDS,
    time_series_stability_threshold: settings?.time_series_stability_threshold ?? null,
    rest_in_idle: (settings?.rest_in_idle ?? 0) === 1,
    cleaning_rule: settings?.cleaning_rule ?? 'one_extreme',
    shifts: shifts.map(({ break_intervals, ...shift }) => ({ ...shift, breaks: parseBreakIntervals(break_intervals) })),
  };
}

/**
 * Saves the card in one transaction. A field left out keeps its value; `null` clears a nullable
 * one; `shifts`, when given, replaces the whole list in the given order.
 */
export async function saveStructureSettings(db: Db, structureId: number, input: StructureSettingsInput) {
  await db.transaction().execute(async (trx) => {
    const current = await readStructureSettings(trx, structureId);
    const pick = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
    const values = {
      employee_count: pick(input.employee_count, current.employee_count),
      employee_salary: pick(input.employee_salary, current.employee_salary),
      fluct_reduction: pick(input.fluct_reduction, current.flucts_reduction),
      regular_break_duration: pick(input.regular_break_duration, current.regular_break_duration),
      time_series_stability_threshold: pick(input.time_series_stability_threshold, current.time_series_stability_threshold),
      rest_in_idle: pick(input.rest_in_idle, current.rest_in_idle) ? 1 : 0,
      cleaning_rule: pick(input.cleaning_rule, current.cleaning_rule),
    };
    await trx
      .insertInto('structure_settings')
      .values({ structure_id: structureId, ...values })
      .onConflict((oc) => oc.column('structure_id').doUpdateSet(values))
      .execute();
    if (input.partial !== undefined || input.production_type !== undefined) {
      await setStructureReportFields(trx, structureId, {
        partial: pick(input.partial, current.partial),
        production_type: pick(input.production_type, current.production_type),
      });
    }
    if (input.shifts) {
      await trx.deleteFrom('shifts').where('structure_id', '=', structureId).execute();
      if (input.shifts.length) {
        await trx
          .insertInto('shifts')
          .values(
            input.shifts.map((shift, position) => {
              const breaks = shift.breaks ?? [];
              return {
                structure_id: structureId,
                position,
                name: shift.name,
                start_time: shift.start_time,
                end_time: shift.end_time,
                // With intervals, the shift's break minutes are their sum.
                regular_break_duration_min: breaks.length > 0 ? Math.round(breakIntervalsSeconds(shift) / 60) : shift.regular_break_duration_min,
                meal_break_min: shift.meal_break_min ?? 0,
                break_intervals: JSON.stringify(breaks.map((b) => ({ start_time: b.start_time, end_time: b.end_time }))),
              };
            }),
          )
          .execute();
      }
    }
  });
  return readStructureSettings(db, structureId);
}

/** Why a list of shifts cannot be saved, or null. Names the shift by its number in the list. */
export function shiftProblem(shifts: ShiftInput[]): string | null {
  for (const [index, shift] of shifts.entries()) {
    const name = `Смена ${index + 1} («${shift.name}»)`;
    if (shift.start_time === shift.end_time) return `${name}: начало и конец совпадают`;
    const meal = shift.meal_break_min ?? 0;
    if (meal * 60 >= shiftSeconds(shift)) return `${name}: обед (${meal} мин) должен быть короче смены`;
    const breaks = (shift.breaks ?? []).map((b, j) => ({ ...breakOffsets(shift, b), j, b }));
    for (const { from, to, length, j, b } of breaks) {
      if (!(from < to && to <= length))
        return `${name}: перерыв ${j + 1} (${b.start_time.slice(0, 5)}–${b.end_time.slice(0, 5)}) должен лежать внутри смены и кончаться позже начала`;
    }
    const sorted = [...breaks].sort((x, y) => x.from - y.from);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k]!.from < sorted[k - 1]!.to) return `${name}: перерывы ${sorted[k - 1]!.j + 1} и ${sorted[k]!.j + 1} пересекаются`;
    }
    const seconds = breakIntervalsSeconds(shift);
    if (breaks.length > 0 && shift.regular_break_duration_min > 0 && Math.abs(shift.regular_break_duration_min * 60 - seconds) >= 60) {
      return `${name}: интервалы перерывов дают ${Math.round(seconds / 60)} мин, а перерывы смены — ${shift.regular_break_duration_min} мин (оставьте 0, чтобы взять сумму интервалов)`;
    }
  }
  const names = shifts.map((s) => s.name.toLocaleLowerCase('ru'));
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) return `Две смены называются одинаково: «${shifts[names.indexOf(repeated)]!.name}»`;
  return null;
}
