import type { Category, ProductionType, Segment, Shift, StructureSettings } from '@norma/core-wasm';
import type { Db } from '../db/database';
import type { OperationTypeCode } from '../db/schema';
import { notFound } from '../http/errors';
import { referenceTable, type ReferenceTable } from './reference';
import { addDays, localDate, zonedInstant } from '../time-zone';

/**
 * What every report reads from the database, in one place: the structure with its settings,
 * shifts and reference table, the markups of a window as engine segments, product stamps and
 * hand-entered units. The report builders (statement.ts, blocks.ts, frv.ts) only assemble.
 */

export interface OperationType {
  code: OperationTypeCode;
  label: string;
  color: string;
}

export interface ShiftRow {
  name: string;
  start_time: string;
  end_time: string;
  regular_break_duration_min: number;
}

export interface StructureContext {
  id: number;
  name: string;
  organizationId: number;
  timeZone: string;
  partial: boolean;
  productionType: ProductionType;
  /** structure_settings row; null when the structure has none yet. */
  settings: {
    employee_count: number | null;
    employee_salary: number | null;
    fluct_reduction: number | null;
    regular_break_duration: number;
    time_series_stability_threshold: number | null;
    rest_in_idle: number;
  } | null;
  shifts: ShiftRow[];
  reference: ReferenceTable;
  operationTypes: OperationType[];
}

export async function loadStructureContext(db: Db, structureId: number): Promise<StructureContext> {
  const structure = await db
    .selectFrom('structures')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select(['structures.id', 'structures.name', 'structures.organization_id', 'structures.partial', 'structures.production_type', 'organizations.time_zone'])
    .where('structures.id', '=', structureId)
    .executeTakeFirst();
  if (!structure) throw notFound('Структурная единица не найдена');
  const [settings, shifts, reference, operationTypes] = await Promise.all([
    db.selectFrom('structure_settings')
      .select(['employee_count', 'employee_salary', 'fluct_reduction', 'regular_break_duration', 'time_series_stability_threshold', 'rest_in_idle'])
      .where('structure_id', '=', structureId)
      .executeTakeFirst(),
    db.selectFrom('shifts')
      .select(['name', 'start_time', 'end_time', 'regular_break_duration_min'])
      .where('structure_id', '=', structureId)
      .orderBy('position').orderBy('id')
      .execute(),
    referenceTable(db, structure.organization_id),
    db.selectFrom('operation_types').select(['code', 'label', 'color']).orderBy('position').execute(),
  ]);
  return {
    id: structure.id,
    name: structure.name,
    organizationId: structure.organization_id,
    timeZone: structure.time_zone,
    partial: structure.partial === 1,
    productionType: structure.production_type,
    settings: settings ?? null,
    shifts,
    reference,
    operationTypes,
  };
}

/** Minutes of regulated break of one shift: its own when entered (> 0), else the structure's. */
function shiftBreakMinutes(shift: ShiftRow, context: StructureContext): number {
  if (shift.regular_break_duration_min > 0) return shift.regular_break_duration_min;
  return (context.settings?.regular_break_duration ?? 4200) / 60;
}

export interface ShiftInstance extends Shift {
  name: string;
  /** Local start and end as stored ("08:00:00"). */
  startText: string;
  endText: string;
}

/**
 * Every occurrence of the structure's shifts that overlaps [from, to), in absolute time: each
 * local day of the window (and the day before, for night shifts) gets each shift; a shift whose
 * end is not after its start ends the next day.
 */
export function shiftInstances(context: StructureContext, from: number, to: number): ShiftInstance[] {
  const instances: ShiftInstance[] = [];
  if (context.shifts.length === 0) return instances;
  const last = localDate(to, context.timeZone);
  for (let date = addDays(localDate(from, context.timeZone), -1); date <= last; date = addDays(date, 1)) {
    for (const shift of context.shifts) {
      const start = zonedInstant(date, shift.start_time, context.timeZone);
      let end = zonedInstant(date, shift.end_time, context.timeZone);
      if (end <= start) end = zonedInstant(addDays(date, 1), shift.end_time, context.timeZone);
      if (start < to && end > from) {
        instances.push({ start, end, breakMinutes: shiftBreakMinutes(shift, context), name: shift.name, startText: shift.start_time, endText: shift.end_time });
      }
    }
  }
  return instances.sort((a, b) => a.start - b.start);
}

/**
 * Shifts that count for a set of segments: those holding at least one of them. An employee is
 * not held to a shift in which nobody observed him (a day not marked up yet, a day off).
 */
export function shiftsWorked(instances: ShiftInstance[], segments: Segment[]): ShiftInstance[] {
  return instances.filter((shift) => segments.some((s) => s.start < shift.end && s.end > shift.start));
}

/** The engine's structure settings (METHODOLOGY §1) from the database rows. */
export function engineStructure(context: StructureContext, shifts: Shift[]): Partial<StructureSettings> {
  const s = context.settings;
  return {
    partial: context.partial,
    shifts,
    regularBreakDuration: (s?.regular_break_duration ?? 4200) / 60,
    timeSeriesStabilityThreshold: s?.time_series_stability_threshold ?? null,
    fluctReduction: s?.fluct_reduction ?? 0,
    restInIdle: (s?.rest_in_idle ?? 0) === 1,
    productionType: context.productionType,
    machinePaced: false,
    employeeCount: s?.employee_count ?? 1,
    employeeSalary: s?.employee_salary ?? 0,
  };
}

export interface ReportSegment extends Segment {
  id: number;
  machinePaced: boolean;
  workplaceId: number;
  videoId: number | null;
}

/**
 * Markups of the structure in [from, to) as engine segments, in time order: those overlapping
 * the window, plus zero-length ones inside it (they are measurements too). A markup without an
 * employee gets employee id 0.
 */
export async function loadSegments(db: Db, structureId: number, from: number, to: number, employeeId?: number): Promise<ReportSegment[]> {
  let query = db
    .selectFrom('markups')
    .innerJoin('operations', 'operations.id', 'markups.operation_id')
    .select([
      'markups.id', 'markups.start_time', 'markups.end_time', 'markups.employee_id', 'markups.workplace_id', 'markups.video_id',
      'markups.operation_id', 'operations.name as operation_name', 'operations.type', 'operations.machine_paced',
    ])
    .where('markups.structure_id', '=', structureId)
    .where('markups.start_time', '<', to)
    .where((eb) => eb.or([eb('markups.end_time', '>', from), eb('markups.start_time', '>=', from)]));
  if (employeeId !== undefined) query = query.where('markups.employee_id', '=', employeeId);
  const rows = await query.orderBy('markups.start_time').orderBy('markups.id').execute();
  return rows.map((row) => ({
    id: row.id,
    start: row.start_time,
    end: row.end_time,
    category: row.type as Category,
    operationId: row.operation_id,
    operationName: row.operation_name,
    employeeId: row.employee_id ?? 0,
    machinePaced: row.machine_paced === 1,
    workplaceId: row.workplace_id,
    videoId: row.video_id,
  }));
}

/** Product stamps in [from, to) per employee id (0: stamps without an employee). */
export async function countProductStamps(db: Db, structureId: number, from: number, to: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('video_stamps')
    .select(['employee_id', db.fn.countAll<number>().as('n')])
    .where('structure_id', '=', structureId)
    .where('type', '=', 'product')
    .where('at', '>=', from)
    .where('at', '<', to)
    .groupBy('employee_id')
    .execute();
  return new Map(rows.map((r) => [r.employee_id ?? 0, Number(r.n)]));
}

export interface UnitsProduced {
  product_num: number;
  products_description: string;
  /** 'manual': entered for exactly this window; 'stamps': counted from product stamps. */
  source: 'manual' | 'stamps';
  stamp_count: number;
}

/**
 * Units produced in a report window (METHODOLOGY §1): the value entered by hand for this
 * structure, employee (0: the whole structure) and exact window, else the product stamps.
 */
export async function unitsProduced(db: Db, structureId: number, employeeId: number, from: number, to: number): Promise<UnitsProduced> {
  const [manual, stamps] = await Promise.all([
    db.selectFrom('report_products')
      .select(['product_num', 'products_description'])
      .where('structure_id', '=', structureId)
      .where('employee_id', '=', employeeId)
      .where('from_time', '=', from)
      .where('to_time', '=', to)
      .executeTakeFirst(),
    countProductStamps(db, structureId, from, to),
  ]);
  const stampCount = employeeId === 0 ? [...stamps.values()].reduce((a, b) => a + b, 0) : stamps.get(employeeId) ?? 0;
  if (manual) return { product_num: manual.product_num, products_description: manual.products_description, source: 'manual', stamp_count: stampCount };
  return { product_num: stampCount, products_description: '', source: 'stamps', stamp_count: stampCount };
}

/** Stores (or, with null, removes) the hand-entered units of a window. */
export async function saveUnitsProduced(
  db: Db, structureId: number, employeeId: number, from: number, to: number,
  value: { product_num: number | null; products_description: string },
): Promise<void> {
  if (value.product_num === null) {
    await db.deleteFrom('report_products')
      .where('structure_id', '=', structureId).where('employee_id', '=', employeeId)
      .where('from_time', '=', from).where('to_time', '=', to)
      .execute();
    return;
  }
  await db
    .insertInto('report_products')
    .values({ structure_id: structureId, employee_id: employeeId, from_time: from, to_time: to, product_num: value.product_num, products_description: value.products_description })
    .onConflict((oc) => oc.columns(['structure_id', 'employee_id', 'from_time', 'to_time']).doUpdateSet({
      product_num: value.product_num!,
      products_description: value.products_description,
    }))
    .execute();
}

/** The employee, if it belongs to the structure (404 otherwise). */
export async function requireEmployee(db: Db, structureId: number, employeeId: number): Promise<{ id: number; name: string }> {
  const row = await db.selectFrom('employees').select(['id', 'name']).where('id', '=', employeeId).where('structure_id', '=', structureId).executeTakeFirst();
  if (!row) throw notFound('Сотрудник не найден в этой структурной единице');
  return row;
}

export function listEmployees(db: Db, structureId: number) {
  return db.selectFrom('employees').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('name').orderBy('id').execute();
}

/**
 * Local dates (organisation time zone) that have markups, ascending, with the employees marked
 * on each. Markups are grouped by quarter-hour in SQL (every zone offset is a multiple of 15
 * minutes), so a month of markups is a few thousand rows, not all of them.
 */
export async function reportDates(db: Db, structureId: number, timeZone: string): Promise<{ dates: string[]; employees: Record<string, number[]> }> {
  const quarter = 900_000;
  const rows = await db
    .selectFrom('markups')
    .select((eb) => [
      'employee_id',
      eb(eb.ref('start_time'), '/', quarter).as('first_quarter'),
      eb(eb.fn.max(eb(eb.ref('end_time'), '-', 1)), '/', quarter).as('last_quarter'),
    ])
    .where('structure_id', '=', structureId)
    .groupBy(['employee_id', (eb) => eb(eb.ref('start_time'), '/', quarter)])
    .execute();
  const byDate = new Map<string, Set<number>>();
  const add = (instant: number, employeeId: number | null) => {
    const date = localDate(instant, timeZone);
    let set = byDate.get(date);
    if (!set) byDate.set(date, (set = new Set()));
    if (employeeId !== null) set.add(employeeId);
  };
  for (const row of rows) {
    const first = Number(row.first_quarter) * quarter;
    const last = Math.max(first, Math.floor(Number(row.last_quarter)) * quarter);
    // A markup across midnight counts for every local day it touches.
    for (let t = first; t <= last; t += quarter) add(t, row.employee_id);
  }
  const dates = [...byDate.keys()].sort();
  return { dates, employees: Object.fromEntries(dates.map((d) => [d, [...byDate.get(d)!].sort((a, b) => a - b)])) };
}
