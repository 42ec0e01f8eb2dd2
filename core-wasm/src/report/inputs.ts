/**
 * The report inputs of one structure and window: everything the statement, the block report and
 * the interactive report read from the database, as plain JSON. The API loads them
 * (api/src/report/service.ts, GET /api/v1/report/inputs) and both the API and the PWA assemble
 * the reports from them with the functions of this folder, so the numbers are the same code's.
 */
import { DEFAULT_STABILITY_TABLE } from '../reference-data.ts';
import type { Category, ProductionType, Segment, StabilityTable } from '../types.ts';

export const PRODUCTION_TYPES = ['mass', 'large_series', 'series', 'small_series'] as const satisfies readonly ProductionType[];
export const WORK_KINDS = ['manual', 'machine'] as const;
export type WorkKind = (typeof WORK_KINDS)[number];

export const PRODUCTION_TYPE_LABELS: Record<ProductionType, string> = Object.fromEntries(
  DEFAULT_STABILITY_TABLE.rows.map((row) => [row.productionType, row.label]),
) as Record<ProductionType, string>;

export const WORK_KIND_LABELS: Record<WorkKind, string> = { manual: 'ручная', machine: 'машинная (машинно-ручная)' };

export interface ReferenceRow {
  production_type: ProductionType;
  production_type_label: string;
  work_kind: WorkKind;
  work_kind_label: string;
  coef_short: number;
  coef_long: number;
  accuracy_percent: number;
}

/** Reference data of METHODOLOGY §4 as an organisation's reports use it (its edition or the defaults). */
export interface ReferenceTable {
  /** True while the organisation uses the product defaults. */
  is_default: boolean;
  source: string;
  edition: string;
  short_element_max_seconds: number;
  updated_at: string | null;
  updated_by: string | null;
  rows: ReferenceRow[];
}

/**
 * The engine's table for one kind of work. Manual work: Ку and ε of the manual rows. Machine-paced
 * work: Ку of the machine row of the structure's production type, ε of the machine rows.
 */
export function stabilityTableFor(table: ReferenceTable, productionType: ProductionType, workKind: WorkKind): StabilityTable {
  const find = (type: ProductionType, kind: WorkKind) =>
    table.rows.find((r) => r.production_type === type && r.work_kind === kind) ??
    table.rows.find((r) => r.production_type === type && r.work_kind === 'manual');
  const machine = find(productionType, 'machine');
  return {
    source: table.source,
    edition: table.edition,
    shortElementMaxSeconds: table.short_element_max_seconds,
    machinePacedShort: machine?.coef_short ?? DEFAULT_STABILITY_TABLE.machinePacedShort,
    machinePacedLong: machine?.coef_long ?? DEFAULT_STABILITY_TABLE.machinePacedLong,
    rows: PRODUCTION_TYPES.map((type) => {
      const row = find(type, workKind);
      const fallback = DEFAULT_STABILITY_TABLE.rows.find((r) => r.productionType === type)!;
      return {
        productionType: type,
        label: PRODUCTION_TYPE_LABELS[type],
        manualShort: row?.coef_short ?? fallback.manualShort,
        manualLong: row?.coef_long ?? fallback.manualLong,
        accuracyPercent: row?.accuracy_percent ?? fallback.accuracyPercent,
      };
    }),
  };
}

export type OperationTypeCode = Category;

export interface OperationType {
  code: OperationTypeCode;
  label: string;
  color: string;
}

/** A regulated break of a shift, local wall times ("12:00:00"). */
export interface BreakInterval {
  start_time: string;
  end_time: string;
}

export interface ShiftRow {
  name: string;
  start_time: string;
  end_time: string;
  regular_break_duration_min: number;
  /** Break intervals of the shift (shifts.break_intervals, parsed), local times. */
  breaks: BreakInterval[];
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
    cleaning_rule: 'one_extreme' | 'both_extremes';
  } | null;
  shifts: ShiftRow[];
  reference: ReferenceTable;
  operationTypes: OperationType[];
}

export interface ReportSegment extends Segment {
  id: number;
  machinePaced: boolean;
  workplaceId: number;
  videoId: number | null;
}

/** A ready video file of one of the structure's cameras, in absolute time (ms). */
export interface VideoSpan {
  id: number;
  cameraId: number;
  cameraKey: number;
  filename: string;
  start: number;
  end: number;
}

/** A product stamp: its instant and employee (0: none). */
export interface ProductStamp {
  at: number;
  employeeId: number;
}

/** Units entered by hand for exactly the window (report_products); employeeId 0: the whole structure. */
export interface ManualUnits {
  employeeId: number;
  productNum: number;
  productsDescription: string;
}

export interface ReportInputs {
  /** The window [from, to), ms. */
  from: number;
  to: number;
  /** Set when the inputs were loaded for one employee only (his markups and stamps). */
  employeeId: number | null;
  structure: StructureContext;
  /** Markups overlapping the window (and zero-length ones inside it), by start then id. */
  segments: ReportSegment[];
  /** Employees of the structure, by name then id. */
  employees: { id: number; name: string }[];
  workplaces: { id: number; name: string }[];
  /** Product stamps in [from, to), by instant. */
  stamps: ProductStamp[];
  manualUnits: ManualUnits[];
  /** Video files overlapping the window (the interactive report), by start then camera. */
  videos: VideoSpan[];
}

/** Product stamps in the window per employee id (0: stamps without an employee). */
export function stampCounts(inputs: ReportInputs): Map<number, number> {
  const counts = new Map<number, number>();
  for (const s of inputs.stamps) counts.set(s.employeeId, (counts.get(s.employeeId) ?? 0) + 1);
  return counts;
}

/** Hand-entered units of exactly this window, per employee id (0: the whole structure). */
export function manualUnitsMap(inputs: ReportInputs): Map<number, number> {
  return new Map(inputs.manualUnits.map((m) => [m.employeeId, m.productNum]));
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
 * employee (0: the whole structure) and exact window, else the product stamps.
 */
export function unitsProducedOf(inputs: ReportInputs, employeeId: number): UnitsProduced {
  const stamps = stampCounts(inputs);
  const stampCount = employeeId === 0 ? [...stamps.values()].reduce((a, b) => a + b, 0) : (stamps.get(employeeId) ?? 0);
  const manual = inputs.manualUnits.find((m) => m.employeeId === employeeId);
  if (manual) return { product_num: manual.productNum, products_description: manual.productsDescription, source: 'manual', stamp_count: stampCount };
  return { product_num: stampCount, products_description: '', source: 'stamps', stamp_count: stampCount };
}

const MIN_INSTANT = Date.UTC(2000, 0, 1);
const MAX_INSTANT = Date.UTC(2101, 0, 1);

/** An instant as ISO 8601, clamped to the API's calendar range (as api/src/http/time.ts toIso). */
export const toIso = (ms: number) => new Date(Math.min(Math.max(Number.isNaN(ms) ? MIN_INSTANT : ms, MIN_INSTANT), MAX_INSTANT - 1)).toISOString();
