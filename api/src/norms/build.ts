import { normFigures, type NormFigures } from '@norma/core-wasm/norms';
import {
  assembleStatement,
  engineSettings,
  formatNumber,
  NOTICES,
  plural,
  runTimeStudy,
  toIso,
  UnknownEmployeeError,
  type ReportInputs,
  type ReportSegment,
  type StatementReportData,
} from '@norma/core-wasm/report';
import type { z } from '@hono/zod-openapi';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import { loadReportInputs } from '../report/service';
import type { NormComputed, NormParams } from './schema';

/**
 * A norm card from report windows (METHODOLOGY §7, docs/norms.md). Nothing is re-derived here:
 * each window's statement (the report engine) gives the work-day balance, and the time study
 * gives t_reg, Ку and the required measurements — run once more over the measurements of all
 * windows pooled, so that several days and employees make one series per operation.
 */

export type NormParamsValue = z.output<typeof NormParams>;
export type NormComputedValue = z.output<typeof NormComputed>;
/** The norms' computations that may run on a report thread (threads/report-threads.ts). */
export type NormThreadTask =
  // A norm card reads and balances every shift-day of up to 62 windows; fulfilment balances each shift-day of its window.
  | { task: 'normCard'; structureId: number; windows: NormWindowValue[]; params: NormParamsValue }
  | { task: 'normFulfilment'; structureId: number; from: number; to: number; employeeId?: number };

export interface NormWindowValue {
  employee_id: number;
  from_time: number;
  to_time: number;
}

interface WindowReport {
  window: NormWindowValue;
  inputs: ReportInputs;
  statement: StatementReportData;
}

const MINUTE = 60;

async function windowReports(db: Db, structureId: number, windows: NormWindowValue[]): Promise<WindowReport[]> {
  const reports: WindowReport[] = [];
  // One window at a time: a month of windows must not hold every window's markups at once.
  for (const window of windows) {
    const inputs = await loadReportInputs(db, structureId, window.from_time, window.to_time, { employeeId: window.employee_id, videos: false });
    try {
      reports.push({ window, inputs, statement: assembleStatement(inputs, window.employee_id) });
    } catch (err) {
      if (err instanceof UnknownEmployeeError) throw badRequest(`Сотрудник ${window.employee_id} не найден в этой структурной единице`);
      throw err;
    }
  }
  return reports;
}

/**
 * Main and auxiliary operations are studied as a series each (aux under the main rule, so that
 * an auxiliary step done once per unit gets its t_reg too).
 */
const asStudied = (segments: ReportSegment[]) =>
  segments.filter((s) => s.category === 'main' || s.category === 'aux').map((s) => ({ ...s, category: 'main' as const, auxiliary: s.category === 'aux' }));

/** The measurements of every window (segments the window cuts are not measurements), pooled and studied as one series per operation. */
function pooledStudy(reports: WindowReport[]) {
  const chosen = new Map<number, ReportSegment & { auxiliary: boolean }>();
  for (const { window, inputs } of reports) {
    const studied = asStudied(inputs.segments);
    const study = runTimeStudy(studied, engineSettings(inputs.structure, window.from_time, window.to_time, []), inputs.structure);
    const byId = new Map(studied.map((s) => [s.id, s]));
    for (const op of study.operations) for (const m of op.measurements) if (m.segmentId !== null) chosen.set(m.segmentId, byId.get(m.segmentId)!);
  }
  const segments = [...chosen.values()].sort((a, b) => a.start - b.start || a.id - b.id);
  if (segments.length === 0) return { segments, operations: [] };
  const context = reports[0]!.inputs.structure;
  const from = segments[0]!.start;
  const to = Math.max(...segments.map((s) => s.end)) + 1;
  return { segments, operations: runTimeStudy(segments, engineSettings(context, from, to, []), context).operations };
}

function shiftBalance(reports: WindowReport[]) {
  let shiftDays = 0;
  const total = { shift: 0, pz: 0, service: 0, move: 0, breaks: 0, rest: 0, idle: 0 };
  for (const { statement: s } of reports) {
    shiftDays += s.days.filter((d) => d.observed_time > 0).length;
    total.shift += s.loading.shift_time;
    total.pz += s.loading.pz_time;
    total.service += s.loading.controltime;
    total.move += s.loading.movetime;
    total.breaks += s.loading.regulated_break_time;
    total.rest += s.loading.rest_time;
    total.idle += s.loading.idle_time;
  }
  const per = (x: number) => (shiftDays > 0 ? x / shiftDays : 0);
  return {
    days: shiftDays,
    shift_minutes: per(total.shift),
    pz_minutes: per(total.pz),
    service_minutes: per(total.service),
    move_minutes: per(total.move),
    regulated_break_minutes: per(total.breaks),
    rest_minutes: per(total.rest),
    idle_minutes: per(total.idle),
    source: `фотография рабочего времени: ${shiftDays} ${plural(shiftDays, 'смена', 'смены', 'смен')} в ${reports.length} ${plural(reports.length, 'окне', 'окнах', 'окнах')}, среднее на смену`,
  };
}

const n = (x: number, digits = 2) => formatNumber(x, digits);

/** The card's figures in display order, each with its label, unit and source. */
function figureRows(f: NormFigures, balanceSource: string, allowanceSource: string, operativeSource: string) {
  const row = (key: string, label: string, value: number | null, unit: string, source: string) => ({ key, label, value, unit, source });
  return [
    row('operative', 'Топ — оперативное время на единицу', f.operative, 'мин', operativeSource),
    row('shift', 'Тсм — время смены', f.shiftMinutes, 'мин', balanceSource),
    row('pz', 'Тпз.н — подготовительно-заключительное время', f.pz, 'мин/смену', allowanceSource),
    row('service', 'Тобс.н — обслуживание рабочего места (с перемещениями)', f.service, 'мин/смену', allowanceSource),
    row('rest', 'Тотл.н — отдых и личные надобности', f.rest, 'мин/смену', allowanceSource),
    row('operative_shift', 'Топ.н — оперативное время за смену', f.operativeShift, 'мин/смену', 'Тсм − Тпз.н − Тобс.н − Тотл.н'),
    row('allowance_pz', 'а_пз — на подготовительно-заключительную работу', f.allowances.pz, '% Топ', allowanceSource),
    row('allowance_service', 'а_обс — на обслуживание', f.allowances.service, '% Топ', allowanceSource),
    row('allowance_rest', 'а_отл — на отдых', f.allowances.rest, '% Топ', allowanceSource),
    row('piece', 'Тшт — штучное время', f.piece, 'мин', 'Топ × (1 + (а_обс + а_отл) / 100)'),
    row('piece_batch', 'Тшт-к — штучно-калькуляционное время на партию', f.pieceBatch, 'мин', 'Тшт + Тпз.партии / n'),
    row('norm_time', 'Нвр — норма времени на единицу', f.normTime, 'мин', f.pieceBatch !== null ? 'Тшт-к (задана партия)' : 'Тшт + Тпз.н / Нвыр'),
    row('output', 'Нвыр — норма выработки за смену', f.output, 'шт.', 'Топ.н / Топ'),
    row('output_whole', 'Нвыр на карточке (целых единиц)', f.outputWhole, 'шт.', 'Нвыр, округлено вниз'),
    row('headcount_exact', 'Нч — расчётная численность', f.headcountExact, 'чел.', 'план × Нвр / (смен × Тсм × K_вн)'),
    row('headcount', 'Нч — норматив численности', f.headcount, 'чел.', 'Нч, округлено вверх'),
  ];
}

/** The statement's own notice of a shift observed only in part (METHODOLOGY §6), in its singular and plural wording. */
const partlyObservedNotice = [NOTICES.partlyObserved(['']), NOTICES.partlyObserved(['', ''])].map((text) => text.slice(0, text.indexOf(':') + 1));
const hasPartlyObservedShift = (reports: WindowReport[]) =>
  reports.some((r) => r.statement.notices.some((notice) => partlyObservedNotice.some((start) => notice.startsWith(start))));

export const PARTLY_OBSERVED_WARNING =
  'Часть смен наблюдалась не целиком: Тсм карточки — средняя наблюдавшаяся часть смены, а не вся смена; Нвыр и Нч считаются по этой части.';

function basisWarnings(operations: NormComputedValue['operations'], dates: number, employees: number, partlyObserved: boolean): string[] {
  const warnings: string[] = [];
  const unit = operations.filter((o) => o.times_per_unit > 0);
  if (unit.length === 0) warnings.push('В выбранных окнах нет замеров операций единицы продукции: Топ и нормы не определены.');
  for (const o of unit) {
    if (!o.enough) warnings.push(`«${o.name}»: принято ${o.accepted} ${plural(o.accepted, 'замер', 'замера', 'замеров')}, нужно не меньше ${o.required}.`);
    if (o.normative_coef > 0 && o.coef > o.normative_coef)
      warnings.push(`«${o.name}»: Ку ${n(o.coef)} выше нормативного ${n(o.normative_coef)} и после очистки ряда.`);
  }
  if (dates <= 1) warnings.push('Основание — один день наблюдений.');
  if (employees <= 1) warnings.push('Основание — один сотрудник.');
  if (partlyObserved) warnings.push(PARTLY_OBSERVED_WARNING);
  return warnings;
}

/** The workplace where most of the given segments were done (ties: the lower id); null without segments. */
function mainWorkplace(segments: { workplaceId: number; start: number; end: number }[]): number | null {
  const time = new Map<number, number>();
  for (const s of segments) time.set(s.workplaceId, (time.get(s.workplaceId) ?? 0) + (s.end - s.start));
  return [...time.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? null;
}

/**
 * The line balance's data (docs/norms.md, «Баланс линии»): each operation of the unit at the
 * workplace where it was mostly done, with its t_reg × times per unit; idle time (losses) per unit
 * = its minutes per shift-day (the statements' operation table) spread over Нвыр.
 */
function lineData(
  reports: WindowReport[],
  study: ReturnType<typeof pooledStudy>,
  operations: NormComputedValue['operations'],
  output: number | null,
  shiftDays: number,
) {
  const workplaces = reports[0]!.inputs.workplaces.map((w) => ({ id: w.id, name: w.name }));
  const unit = operations
    .filter((o) => o.times_per_unit > 0)
    .map((o) => ({
      operation_id: o.operation_id,
      name: o.name,
      category: o.category,
      workplace_id: mainWorkplace(study.segments.filter((s) => s.operationId === o.operation_id)),
      minutes: o.t_reg_minutes * o.times_per_unit,
    }));
  const idle = new Map<number, { name: string; seconds: number }>();
  for (const { statement } of reports)
    for (const op of statement.operations.filter((x) => x.operation_type === 'idle')) {
      const entry = idle.get(op.id) ?? { name: op.name, seconds: 0 };
      entry.seconds += op.len;
      idle.set(op.id, entry);
    }
  const losses =
    output !== null && output > 0 && shiftDays > 0
      ? [...idle.entries()].map(([id, entry]) => ({
          operation_id: id,
          name: entry.name,
          category: 'loss' as const,
          workplace_id: mainWorkplace(reports.flatMap((r) => r.inputs.segments.filter((s) => s.operationId === id))),
          minutes: entry.seconds / MINUTE / shiftDays / output,
        }))
      : [];
  return { workplaces, operations: [...unit, ...losses] };
}

/** Computes the card of a structure from its windows and parameters. */
export async function computeCard(db: Db, structureId: number, windows: NormWindowValue[], params: NormParamsValue): Promise<NormComputedValue> {
  const reports = await windowReports(db, structureId, windows);
  const study = pooledStudy(reports);
  const auxiliary = new Set(study.segments.filter((s) => s.auxiliary).map((s) => s.operationId));
  const composition = params.unit_operations ? new Map(params.unit_operations.map((u) => [u.operation_id, u.times_per_unit])) : null;
  const context = reports[0]!.inputs.structure;
  const observed = reports.filter((r) => r.statement.days.some((d) => d.observed_time > 0));
  const dates = new Set(observed.flatMap((r) => r.statement.days.filter((d) => d.observed_time > 0).map((d) => d.date))).size;
  const employees = new Set(observed.map((r) => r.window.employee_id)).size;
  const measurementSource = (count: number) =>
    `хронометраж: ${count} ${plural(count, 'замер', 'замера', 'замеров')}, ${dates} ${plural(dates, 'день', 'дня', 'дней')}, ${employees} ${plural(employees, 'сотрудник', 'сотрудника', 'сотрудников')}`;

  const operations = study.operations.map((op) => {
    const category = auxiliary.has(op.operationId) ? ('aux' as const) : ('main' as const);
    const measured = op.measurements.filter((m) => m.status !== 'zero_length').length;
    return {
      operation_id: op.operationId,
      name: op.operationName,
      category,
      t_reg_minutes: op.accepted.tReg / MINUTE,
      coef: op.accepted.coef,
      normative_coef: op.normativeCoef,
      measurements: measured,
      accepted: op.accepted.n,
      required: op.requiredMeasurements,
      enough: op.enoughMeasurements,
      times_per_unit: composition ? (composition.get(op.operationId) ?? 0) : category === 'main' ? 1 : 0,
      source: measurementSource(measured),
    };
  });
  const balance = shiftBalance(reports);
  const figures = normFigures({
    operations: operations.map((o) => ({ tRegMinutes: o.t_reg_minutes, timesPerUnit: o.times_per_unit })),
    balance: {
      shiftMinutes: balance.shift_minutes,
      pzMinutes: balance.pz_minutes,
      serviceMinutes: balance.service_minutes,
      moveMinutes: balance.move_minutes,
      regulatedBreakMinutes: balance.regulated_break_minutes,
    },
    normativeAllowances: params.normative_allowances,
    batch: params.batch_size !== null && params.batch_prep_minutes !== null ? { size: params.batch_size, prepMinutes: params.batch_prep_minutes } : null,
    plan:
      params.plan_units !== null && params.plan_shifts !== null
        ? { units: params.plan_units, shifts: params.plan_shifts, fulfilment: params.plan_fulfilment }
        : null,
  });
  const unitMeasurements = operations.filter((o) => o.times_per_unit > 0).reduce((a, o) => a + o.measurements, 0);
  const allowanceSource = params.normative_allowances ? 'нормативы организации, заданные на карточке' : balance.source;
  const measurements = operations.reduce((a, o) => a + o.measurements, 0);
  return {
    basis: {
      windows: reports.length,
      employees,
      days: dates,
      measurements,
      text: `${context.name}: ${reports.length} ${plural(reports.length, 'окно', 'окна', 'окон')}, ${measurementSource(measurements)}, ${balance.days} ${plural(balance.days, 'смена', 'смены', 'смен')}`,
    },
    operations,
    balance,
    allowances: { actual: figures.actualAllowances, normative: params.normative_allowances, used: figures.allowanceSource },
    figures: figureRows(figures, balance.source, allowanceSource, `Σ t_reg × раз на единицу; ${measurementSource(unitMeasurements)}`),
    warnings: basisWarnings(operations, dates, employees, hasPartlyObservedShift(reports)),
    line: { ...lineData(reports, study, operations, figures.output, balance.days), available_minutes: balance.shift_minutes - balance.regulated_break_minutes },
  };
}

/** The windows as stored on the card: instants as ISO strings, with the employee's name. */
export function windowRows(windows: NormWindowValue[], names: Map<number, string>) {
  return windows.map((w) => ({
    employee_id: w.employee_id,
    employee_name: names.get(w.employee_id) ?? '',
    from_time: toIso(w.from_time),
    to_time: toIso(w.to_time),
  }));
}
