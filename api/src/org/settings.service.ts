import type { Db } from '../db/database';
import type { ProductionType } from '../db/schema';
import { notFound } from '../http/errors';

/** Regulated breaks of a structure without settings: 70 minutes (METHODOLOGY §2), in seconds. */
export const DEFAULT_REGULAR_BREAK_SECONDS = 4200;

export interface ShiftInput {
  name: string;
  start_time: string;
  end_time: string;
  regular_break_duration_min: number;
}

export interface StructureSettingsInput {
  employee_count?: number | null;
  employee_salary?: number | null;
  fluct_reduction?: number | null;
  regular_break_duration?: number;
  time_series_stability_threshold?: number | null;
  rest_in_idle?: boolean;
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
    .select(['id', 'name', 'start_time', 'end_time', 'regular_break_duration_min'])
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
    shifts,
  };
}

/**
 * Saves the card in one transaction. A field left out keeps its value; `null` clears a nullable
 * one; `shifts`, when given, replaces the whole list in the given order.
 */
export async function saveStructureSettings(db: Db, structureId: number, input: StructureSettingsInput) {
  await db.transaction().execute(async (trx) => {
    const current = await readStructureSettings(trx as unknown as Db, structureId);
    const pick = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
    const values = {
      employee_count: pick(input.employee_count, current.employee_count),
      employee_salary: pick(input.employee_salary, current.employee_salary),
      fluct_reduction: pick(input.fluct_reduction, current.flucts_reduction),
      regular_break_duration: pick(input.regular_break_duration, current.regular_break_duration),
      time_series_stability_threshold: pick(input.time_series_stability_threshold, current.time_series_stability_threshold),
      rest_in_idle: pick(input.rest_in_idle, current.rest_in_idle) ? 1 : 0,
    };
    await trx
      .insertInto('structure_settings')
      .values({ structure_id: structureId, ...values })
      .onConflict((oc) => oc.column('structure_id').doUpdateSet(values))
      .execute();
    if (input.partial !== undefined || input.production_type !== undefined) {
      await trx
        .updateTable('structures')
        .set({
          partial: pick(input.partial, current.partial) ? 1 : 0,
          production_type: pick(input.production_type, current.production_type),
        })
        .where('id', '=', structureId)
        .execute();
    }
    if (input.shifts) {
      await trx.deleteFrom('shifts').where('structure_id', '=', structureId).execute();
      if (input.shifts.length) {
        await trx
          .insertInto('shifts')
          .values(input.shifts.map((shift, position) => ({
            structure_id: structureId, position, name: shift.name, start_time: shift.start_time, end_time: shift.end_time,
            regular_break_duration_min: shift.regular_break_duration_min,
          })))
          .execute();
      }
    }
  });
  return readStructureSettings(db, structureId);
}

/** Why a list of shifts cannot be saved, or null. Names the shift by its number in the list. */
export function shiftProblem(shifts: ShiftInput[]): string | null {
  for (const [index, shift] of shifts.entries()) {
    if (shift.start_time === shift.end_time) return `Смена ${index + 1} («${shift.name}»): начало и конец совпадают`;
  }
  const names = shifts.map((s) => s.name.toLocaleLowerCase('ru'));
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) return `Две смены называются одинаково: «${shifts[names.indexOf(repeated)]!.name}»`;
  return null;
}
