import { fulfilmentPercent } from '@norma/core-wasm/norms';
import { assembleStatement, type ReportInputs } from '@norma/core-wasm/report';
import type { Db } from '../db/database';
import { loadReportInputs } from '../report/service';
import type { NormComputedValue } from './build';
import { approvedNormRows } from './service';

/**
 * Norm fulfilment of a report window (METHODOLOGY §7, docs/norms.md «Выполнение норм»): per
 * employee and shift-day, Нвр of the norm in force that day × units / (T_shift − idle) × 100, and
 * the cycles far from the norm. Every figure is read from the statements of the window: the whole
 * window's for the days and units, each day's own for its shift time and idle time.
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

/** The inputs of one shift-day of the window: its segments and stamps; hand-entered units belong to the whole window only. */
function dayInputs(inputs: ReportInputs, from: number, to: number): ReportInputs {
  const whole = from === inputs.from && to === inputs.to;
  return {
    ...inputs,
    from,
    to,
    segments: inputs.segments.filter((s) => s.start < to && (s.end > from || s.start >= from)),
    stamps: inputs.stamps.filter((s) => s.at >= from && s.at < to),
    manualUnits: whole ? inputs.manualUnits : [],
  };
}

const normTimeOf = (norm: ApprovedNorm | null) => norm?.card.figures.find((f) => f.key === 'norm_time')?.value ?? null;

export async function normFulfilment(db: Db, structureId: number, from: number, to: number, employeeId?: number) {
  const [inputs, norms] = await Promise.all([loadReportInputs(db, structureId, from, to, { employeeId, videos: false }), approvedNorms(db, structureId)]);
  const observed = new Set(inputs.segments.map((s) => s.employeeId));
  const rows = [];
  const farCycles = [];
  for (const employee of inputs.employees.filter((e) => observed.has(e.id))) {
    const statement = assembleStatement(inputs, employee.id);
    for (const day of statement.days.filter((d) => d.observed_time > 0)) {
      const norm = inForceOn(norms, day.date);
      const normTime = normTimeOf(norm);
      const own = assembleStatement(dayInputs(inputs, Date.parse(day.start_datetime), Date.parse(day.end_datetime)), employee.id);
      const units = own.rep_param.product_num;
      const working = own.loading.shift_time - own.loading.idle_time;
      rows.push({
        employee_id: employee.id,
        employee_name: employee.name,
        date: day.date,
        norm_id: norm?.id ?? null,
        norm_version: norm?.version ?? null,
        norm_time_minutes: normTime,
        units,
        shift_minutes: own.loading.shift_time,
        idle_minutes: own.loading.idle_time,
        actual_minutes_per_unit: units > 0 ? working / units : null,
        fulfilment_percent: normTime !== null ? fulfilmentPercent(normTime, units, own.loading.shift_time, own.loading.idle_time) : null,
      });
      if (!norm) continue;
      const tReg = new Map(norm.card.operations.map((o) => [o.operation_id, (o.t_reg_minutes ?? 0) * 60]));
      for (const op of own.all_measurements.rows) {
        const normSeconds = tReg.get(op.id);
        if (!normSeconds) continue;
        for (const m of op.measurements) {
          const deviation = ((m.len - normSeconds) / normSeconds) * 100;
          if (m.id !== null && Math.abs(deviation) > FAR_FROM_NORM_PERCENT)
            farCycles.push({
              markup_id: m.id,
              employee_id: employee.id,
              operation_id: op.id,
              operation_name: op.operation.name,
              seconds: m.len,
              norm_seconds: normSeconds,
              deviation_percent: deviation,
            });
        }
      }
    }
  }
  const current = inForceOn(norms, rows.at(-1)?.date ?? '9999-12-31');
  return {
    norm: current ? { id: current.id, version: current.version, effective_from: current.effective_from } : null,
    far_threshold_percent: FAR_FROM_NORM_PERCENT,
    rows,
    far_cycles: farCycles,
  };
}
