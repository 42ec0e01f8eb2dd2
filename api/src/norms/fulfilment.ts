import { fulfilmentPercent } from '@norma/core-wasm/norms';
import { addDays, assembleStatement, localDate, toIso, type ReportInputs, type StructureContext } from '@norma/core-wasm/report';
import type { Db } from '../db/database';
import { loadReportInputs, loadStructureContext } from '../report/service';
import { shiftDayWindow, type NormComputedValue } from './build';
import { manualOutputsWithin, type ManualOutput } from './fulfilment.service';
import { approvedNormRows } from './service';

/**
 * Norm fulfilment of a report window (METHODOLOGY §7, docs/norms.md «Выполнение норм»), per
 * employee and whole shift-day (a night shift is one shift-day, dated by its start):
 * Нвр of the norm in force that day × output / (Тсм of that norm − idle observed that shift-day)
 * × 100, and over the window Σ Нвр × output / Σ (Тсм − idle) over the shift-days with output.
 * The output of a shift-day is the number entered by hand for it (or for windows inside it), else
 * its product stamps; a shift-day without output has no fulfilment (null, «нет выпуска»).
 */

/** A measurement this far (percent) from the norm's t_reg is marked: twice the allowed fluctuation of 15 %. */
export const FAR_FROM_NORM_PERCENT = 30;

interface ApprovedNorm {
  id: number;
  version: number;
  effective_from: string;
  card: NormComputedValue;
}

async function approvedNorms(db: Db, structureId: number): Promise<ApprovedNorm[]> {
  const rows = await approvedNormRows(db, structureId);
  return rows
    .map((r) => ({ id: r.id, version: r.version, effective_from: r.effective_from!, card: JSON.parse(r.card) as NormComputedValue }))
    .sort((a, b) => (a.effective_from < b.effective_from ? 1 : a.effective_from > b.effective_from ? -1 : b.version - a.version));
}

/** The norm in force on a local date: the approved one with the latest start not after it. */
const inForceOn = (norms: ApprovedNorm[], date: string) => norms.find((n) => n.effective_from <= date) ?? null;

const figureOf = (norm: ApprovedNorm | null, key: string) => norm?.card.figures.find((f) => f.key === key)?.value ?? null;

export interface ShiftDay {
  date: string;
  from: number;
  to: number;
}

/**
 * The whole shift-days of a window (build.ts shiftDayWindow): each one at least half of which lies
 * in the window — a window from midnight to midnight holds the night shift that starts that day,
 * not the tail of the one before — or which holds more than half of the window (a few hours inside
 * one shift-day read that shift-day whole).
 */
export function shiftDaysOf(context: StructureContext, from: number, to: number): ShiftDay[] {
  const days: ShiftDay[] = [];
  const last = localDate(to, context.timeZone);
  for (let date = addDays(localDate(from, context.timeZone), -1); date <= addDays(last, 1); date = addDays(date, 1)) {
    const day = shiftDayWindow(context, date);
    const overlap = Math.min(day.to, to) - Math.max(day.from, from);
    if (overlap > 0 && (overlap * 2 >= day.to - day.from || overlap * 2 > to - from)) days.push({ date, ...day });
  }
  return days;
}

/**
 * The units entered by hand for a shift-day: the entry for the whole shift-day, else the entries
 * for windows inside it, longest first, each kept when it overlaps none kept before (a part of a
 * day entered beside the whole day is not counted twice). Null: nothing entered.
 */
export function manualOutputOf(entries: ManualOutput[], day: { from: number; to: number }): number | null {
  const inside = entries.filter((e) => e.from >= day.from && e.to <= day.to).sort((a, b) => b.to - b.from - (a.to - a.from) || a.from - b.from);
  if (inside.length === 0) return null;
  const kept: ManualOutput[] = [];
  for (const e of inside) if (kept.every((k) => e.to <= k.from || e.from >= k.to)) kept.push(e);
  return kept.reduce((sum, e) => sum + e.units, 0);
}

/** The inputs of one shift-day: its segments and stamps (the output is counted here, not by the statement). */
function dayInputs(inputs: ReportInputs, from: number, to: number): ReportInputs {
  return {
    ...inputs,
    from,
    to,
    segments: inputs.segments.filter((s) => s.start < to && (s.end > from || s.start >= from)),
    stamps: inputs.stamps.filter((s) => s.at >= from && s.at < to),
    manualUnits: [],
  };
}

type OutputSource = 'manual' | 'stamps' | 'none';

interface Row {
  employee_id: number;
  employee_name: string;
  date: string;
  from_time: string;
  to_time: string;
  norm_id: number | null;
  norm_version: number | null;
  norm_time_minutes: number | null;
  units: number;
  output_source: OutputSource;
  shift_minutes: number | null;
  idle_minutes: number;
  actual_minutes_per_unit: number | null;
  fulfilment_percent: number | null;
}

/** One shift-day's row: its output, the norm in force, and the fulfilment when both are there. */
function dayRow(
  employee: { id: number; name: string },
  day: ShiftDay,
  norm: ApprovedNorm | null,
  output: { units: number; source: OutputSource },
  idle: number,
): Row {
  const normTime = figureOf(norm, 'norm_time');
  const shift = norm ? figureOf(norm, 'shift') : null;
  const counted = normTime !== null && shift !== null && output.units > 0;
  return {
    employee_id: employee.id,
    employee_name: employee.name,
    date: day.date,
    from_time: toIso(day.from),
    to_time: toIso(day.to),
    norm_id: norm?.id ?? null,
    norm_version: norm?.version ?? null,
    norm_time_minutes: normTime,
    units: output.units,
    output_source: output.source,
    shift_minutes: shift,
    idle_minutes: idle,
    actual_minutes_per_unit: shift !== null && output.units > 0 ? (shift - idle) / output.units : null,
    fulfilment_percent: counted ? fulfilmentPercent(normTime, output.units, shift, idle) : null,
  };
}

/** The window's total of some rows: its output, and Σ Нвр × output / Σ (Тсм − idle) over the shift-days with output and a norm. */
function totalOf(rows: Row[], employee: { id: number; name: string } | null) {
  const counted = rows.filter((r) => r.units > 0 && r.norm_time_minutes !== null && r.shift_minutes !== null);
  const normMinutes = counted.reduce((sum, r) => sum + r.norm_time_minutes! * r.units, 0);
  const workingMinutes = counted.reduce((sum, r) => sum + r.shift_minutes! - r.idle_minutes, 0);
  return {
    employee_id: employee?.id ?? null,
    employee_name: employee?.name ?? null,
    days: rows.length,
    days_with_output: rows.filter((r) => r.units > 0).length,
    days_counted: counted.length,
    units: rows.reduce((sum, r) => sum + r.units, 0),
    units_counted: counted.reduce((sum, r) => sum + r.units, 0),
    norm_minutes: normMinutes,
    working_minutes: workingMinutes,
    actual_minutes_per_unit: counted.length > 0 ? workingMinutes / counted.reduce((sum, r) => sum + r.units, 0) : null,
    fulfilment_percent: counted.length > 0 && workingMinutes > 0 ? (normMinutes / workingMinutes) * 100 : null,
  };
}

/** Cycles of a shift-day more than FAR_FROM_NORM_PERCENT from the norm's t_reg. */
function farCyclesOf(norm: ApprovedNorm, employeeId: number, own: ReturnType<typeof assembleStatement>) {
  const tReg = new Map(norm.card.operations.map((o) => [o.operation_id, (o.t_reg_minutes ?? 0) * 60]));
  const far = [];
  for (const op of own.all_measurements.rows) {
    const normSeconds = tReg.get(op.id);
    if (!normSeconds) continue;
    for (const m of op.measurements) {
      const deviation = ((m.len - normSeconds) / normSeconds) * 100;
      if (m.id !== null && Math.abs(deviation) > FAR_FROM_NORM_PERCENT)
        far.push({
          markup_id: m.id,
          employee_id: employeeId,
          operation_id: op.id,
          operation_name: op.operation.name,
          seconds: m.len,
          norm_seconds: normSeconds,
          deviation_percent: deviation,
        });
    }
  }
  return far;
}

export async function normFulfilment(db: Db, structureId: number, from: number, to: number, employeeId?: number) {
  const days = shiftDaysOf(await loadStructureContext(db, structureId), from, to);
  const span = { from: days[0]?.from ?? from, to: days.at(-1)?.to ?? to };
  const [inputs, norms, manual] = await Promise.all([
    loadReportInputs(db, structureId, span.from, span.to, { employeeId, videos: false }),
    approvedNorms(db, structureId),
    manualOutputsWithin(db, structureId, span.from, span.to, employeeId),
  ]);
  // An employee counts with a shift-day observed or with output in it.
  const present = new Set([...inputs.segments.map((s) => s.employeeId), ...inputs.stamps.map((s) => s.employeeId), ...manual.map((m) => m.employeeId)]);
  const rows: Row[] = [];
  const totals = [];
  const farCycles = [];
  const perDay = days.map((day) => ({ day, dayIn: dayInputs(inputs, day.from, day.to) }));
  for (const employee of inputs.employees.filter((e) => present.has(e.id))) {
    const own: Row[] = [];
    for (const { day, dayIn } of perDay) {
      const observed = dayIn.segments.some((s) => s.employeeId === employee.id);
      const entered = manualOutputOf(
        manual.filter((m) => m.employeeId === employee.id),
        day,
      );
      const stamps = dayIn.stamps.filter((s) => s.employeeId === employee.id).length;
      const output =
        entered !== null ? { units: entered, source: 'manual' as const } : { units: stamps, source: stamps > 0 ? ('stamps' as const) : ('none' as const) };
      if (!observed && output.source === 'none') continue;
      const norm = inForceOn(norms, day.date);
      const statement = observed ? assembleStatement(dayIn, employee.id) : null;
      own.push(dayRow(employee, day, norm, output, statement?.loading.idle_time ?? 0));
      if (norm && statement) farCycles.push(...farCyclesOf(norm, employee.id, statement));
    }
    rows.push(...own);
    if (own.length > 0) totals.push(totalOf(own, employee));
  }
  const current = inForceOn(norms, rows.at(-1)?.date ?? '9999-12-31');
  return {
    norm: current ? { id: current.id, version: current.version, effective_from: current.effective_from } : null,
    far_threshold_percent: FAR_FROM_NORM_PERCENT,
    from_time: toIso(span.from),
    to_time: toIso(span.to),
    rows,
    totals,
    total: totalOf(rows, null),
    far_cycles: farCycles,
  };
}
