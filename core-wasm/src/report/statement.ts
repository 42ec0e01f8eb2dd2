/**
 * The statement (spec 01 §3 "Statement report", GET /api/v1/report) assembled from report inputs:
 * the engine's statement mapped onto the API's fields. Where each figure goes is documented in
 * docs/api.md ("Отчёты").
 */
import { CATEGORIES } from '../types.ts';
import type { BreakRow, Category, DayBalance, DayPart, Interval, OperationStudy, SeriesStats, ShiftObservation, Statement, TimeStudy } from '../types.ts';
import { engineSettings, partsOutside, reportDays, runStatement, shiftDayStarts, shiftInstances, shiftsWorked, type ShiftInstance } from './window.ts';
import { toIso, unitsProducedOf, type ReportInputs, type ReportSegment, type StructureContext, type UnitsProduced } from './inputs.ts';
import { formatDuration, plural } from './text.ts';
import { localDate, localDateTimeText } from './time-zone.ts';

const MINUTE = 60;

/** Texts the statement and the block report share. */
export const NOTICES = {
  noMarkups: 'За выбранный период нет разметки: показатели равны нулю.',
  noShifts: 'У структурной единицы не заданы смены: время смены принято равным наблюдаемому, регламентированные перерывы — 10 минут на каждый час.',
  noShiftInWindow:
    'В выбранный период не попала ни одна смена с разметкой: время смены принято равным наблюдаемому, регламентированные перерывы — 10 минут на каждый час.',
  noSettings:
    'Параметры отчёта структурной единицы не заданы: использованы значения по умолчанию (регламентированные перерывы 70 минут на смену, без сокращения колебаний).',
  partial: 'Неполная структура: баланс дня считается по наблюдаемому времени, диаграммы нормативного баланса не показываются.',
  partlyObserved: (shifts: string[]) =>
    `${shifts.length === 1 ? 'Смена наблюдалась' : 'Смены наблюдались'} не целиком: ${shifts.join('; ')}. Баланс такой смены посчитан по наблюдаемой части (от начала смены или первого наблюдения — что позже — до конца смены или последнего наблюдения — что раньше), регламентированные перерывы — пропорционально этой части.`,
  idleInBreaks: (duration: string) =>
    `Простой внутри регламентированных перерывов смены (${duration}) потерями не считается: это время перерыва, оно уже учтено в регламентированных перерывах (таблица 6).`,
  inputErrors: (n: number) =>
    `В разметке ${n} ${plural(n, 'ошибка', 'ошибки', 'ошибок')} ввода (пересечения отрезков одного сотрудника или конец раньше начала): такие отрезки считаются как есть.`,
};

/** Russian notices for a report that is empty or computed on assumptions. */
export function reportNotices(context: StructureContext, segmentCount: number, basis: 'shifts' | 'observed', inputErrors: number): string[] {
  const list: string[] = [];
  if (segmentCount === 0) list.push(NOTICES.noMarkups);
  if (context.partial) list.push(NOTICES.partial);
  else if (context.shifts.length === 0) list.push(NOTICES.noShifts);
  else if (basis === 'observed' && segmentCount > 0) list.push(NOTICES.noShiftInWindow);
  if (!context.settings) list.push(NOTICES.noSettings);
  if (inputErrors > 0) list.push(NOTICES.inputErrors(inputErrors));
  return list;
}

export function typeInfo(context: StructureContext, category: Category) {
  const row = context.operationTypes.find((t) => t.code === category);
  return { name: row?.label ?? category, color: row?.color ?? '#888888' };
}

function seriesFields(stats: SeriesStats) {
  return {
    n: stats.n,
    t_min: stats.tMin,
    t_reg: stats.tReg,
    t_freq_pred: stats.tFreqPred,
    t_freq_fact: stats.tFreqFact,
    t_max: stats.tMax,
    t_average: stats.tAverage,
    par2: stats.par2,
    fluct_max: stats.fluctMax,
    fluct_average: stats.fluctAverage,
    fluct_min: stats.fluctMin,
    time_2min: stats.time2min,
    coef: stats.coef,
    standard_len: stats.standardLen,
    len: stats.len,
  };
}

/**
 * Table 2 (accepted series) or Table 3 (all measurements) of the observation sheet. Each table
 * is computed over its own series: Table 3's fluctuations, required count and its sufficiency
 * come from all measurements, not from the cleaned series.
 */
function measurementTable(operations: OperationStudy[], which: 'accepted' | 'all', machineIds: Set<number>) {
  const rows = operations.map((op) => {
    const accepted = which === 'accepted';
    const kept = accepted ? op.measurements.filter((m) => m.status === 'accepted') : op.measurements;
    return {
      id: op.operationId,
      operation_type: 'op' as const,
      operation: { type: 'main' as const, name: op.operationName },
      measurements: kept.map((m, i) => ({
        index: which === 'accepted' ? i + 1 : m.number,
        id: m.segmentId,
        start_datetime: toIso(m.start),
        len: m.seconds,
        status: m.status,
        fluct_perc: accepted ? m.fluctPerc : m.fluctPercAll,
      })),
      ...seriesFields(accepted ? op.accepted : op.all),
      fluct_ave: accepted ? op.fluctAve : op.fluctAveAll,
      normative_coef: op.normativeCoef,
      normative_source: op.normativeSource,
      accuracy_percent: op.accuracyPercent,
      required_measurements: accepted ? op.requiredMeasurements : op.requiredMeasurementsAll,
      enough_measurements: accepted ? op.enoughMeasurements : op.enoughMeasurementsAll,
      dropped: op.measurements.filter((m) => m.status === 'dropped').length,
      work_kind: machineIds.has(op.operationId) ? ('machine' as const) : ('manual' as const),
    };
  });
  return { max_operation_count: rows.reduce((m, r) => Math.max(m, r.measurements.length), 0), rows };
}

/** "02.03.2026 08:00–12:00, наблюдение 08:00–11:55": a partly observed shift in the statement's words. */
export function partlyObservedText(shift: ShiftObservation, timeZone: string): string {
  const time = (t: number) => localDateTimeText(t, timeZone).slice(11);
  return `${localDateTimeText(shift.start, timeZone)}–${time(shift.end)}, наблюдение ${time(shift.observedStart)}–${time(shift.observedEnd)}`;
}

/** The shift shown in the title: the first worked shift of the window, else the first one that overlaps it, else the first. */
function titleShift(context: StructureContext, worked: ShiftInstance[], all: ShiftInstance[]) {
  const chosen = worked[0] ?? all[0];
  if (chosen) return { name: chosen.name, start: chosen.startText, end: chosen.endText };
  const first = context.shifts[0];
  return first ? { name: first.name, start: first.start_time, end: first.end_time } : null;
}

/**
 * Where Table 6 looks for unmarked time (METHODOLOGY §2, §6): inside the shifts he was observed in,
 * over their observed parts (a shift without observation, or the unobserved ends of a shift, are
 * not his window), or, for a partial structure or a window without shifts,
 * from the first segment to the last of each shift-day. So the night between shift-days is never a
 * gap. Overlapping ranges are merged, so no gap is listed twice.
 */
export function gapRanges(context: StructureContext, shifts: Interval[], days: DayPart[], from: number, to: number): Interval[] {
  const ranges: Interval[] =
    !context.partial && shifts.length > 0
      ? shifts.map((s) => ({ start: Math.max(s.start, from), end: Math.min(s.end, to) }))
      : days.flatMap((d) => (d.firstStart !== null && d.lastEnd !== null ? [{ start: d.firstStart, end: d.lastEnd }] : []));
  const merged: Interval[] = [];
  for (const r of ranges.filter((x) => x.end > x.start).sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

/** "1 ч", "45 мин", "30 с": a short duration of a notice, never "0 мин". */
export function breakDurationText(seconds: number): string {
  return seconds >= 30 ? formatDuration(seconds) : `${Math.max(1, Math.round(seconds))} с`;
}

/**
 * Table 6: regulated breaks as they are, unmarked gaps of the window cut to the gap ranges. An
 * unmarked stretch inside a regulated break is that break, listed once as the break, not as a gap.
 */
export function tableSixRows(rows: BreakRow[], ranges: Interval[]): BreakRow[] {
  const regulated = rows
    .filter((row) => row.type === 'regulated')
    .map((row) => ({ start: row.start, end: row.end }))
    .sort((a, b) => a.start - b.start);
  return rows
    .flatMap((row) => {
      if (row.type !== 'gap') return [row];
      return ranges.flatMap((r) => {
        const start = Math.max(row.start, r.start);
        const end = Math.min(row.end, r.end);
        if (!(end > start)) return [];
        return partsOutside([{ start, end }], regulated).map((part) => ({
          type: 'gap' as const,
          start: part.start,
          end: part.end,
          seconds: (part.end - part.start) / 1000,
        }));
      });
    })
    .sort((a, b) => a.start - b.start || a.end - b.end || a.type.localeCompare(b.type));
}

export interface StatementInput {
  context: StructureContext;
  employee: { id: number; name: string };
  from: number;
  to: number;
  result: Statement;
  units: UnitsProduced;
  segments: ReportSegment[];
  shifts: { worked: ShiftInstance[]; all: ShiftInstance[] };
  /** Add the engine's whole result under `details`. */
  withDetails?: boolean;
}

/** The statement's operation parameters: each operation of the balance with its study figures (main ones only). */
function parameterRows(balance: DayBalance, study: TimeStudy) {
  const studyById = new Map(study.operations.map((op) => [op.operationId, op]));
  return balance.operations.map((op) => {
    const studied = op.category === 'main' ? studyById.get(op.operationId) : undefined;
    return {
      id: op.operationId,
      index: op.index,
      name: op.operationName,
      operation_type: op.category,
      percent_video: op.percentVideo,
      len: op.seconds,
      ave_len: op.averageSeconds,
      standard_len: studied ? studied.accepted.standardLen : null,
      coef: studied ? studied.accepted.coef : null,
      percent_day: op.percentDay,
      percent_w_day: op.percentWDay,
      time_2min: studied ? studied.accepted.time2min : null,
      fluct_ave: studied ? studied.fluctAve : null,
      t_min: studied ? studied.accepted.tMin : null,
      count: op.count,
    };
  });
}

/** The statement's `loading`: the load and the time of each category, in minutes. */
function loadingFields(balance: DayBalance) {
  const category = (c: Category) => balance.categories[CATEGORIES.indexOf(c)]!;
  const minutes = (c: Category) => category(c).seconds / MINUTE;
  return {
    overload: balance.load.overload,
    percentage: balance.load.percentage,
    overworking: balance.load.overworking,
    overworking_per: balance.load.overworkingPer,
    all_time: balance.observedSeconds / MINUTE,
    main_work_time: { value: minutes('main'), percent: category('main').percentVideo },
    add_work_time: minutes('aux'),
    controltime: minutes('service'),
    pz_time: minutes('pz'),
    rest_time: minutes('rest'),
    movetime: minutes('move'),
    behind_machine: { percent: balance.usefulPercent, value: balance.usefulSeconds / MINUTE },
    idle_time: minutes('idle'),
    work_time: balance.workSeconds / MINUTE,
    shift_time: balance.shiftSeconds / MINUTE,
    regulated_break_time: balance.regulatedBreakSeconds / MINUTE,
    available_time: balance.availableSeconds / MINUTE,
    underload: balance.load.underload,
    underload_per: balance.load.underloadPer,
    text: balance.load.text,
    basis: balance.basis,
  };
}

/** The statement's title (`rep_param`): who, when, where, and the units produced. */
function reportParameters(
  context: StructureContext,
  employee: { id: number; name: string },
  from: number,
  to: number,
  units: UnitsProduced,
  shift: ReturnType<typeof titleShift>,
) {
  return {
    from_time: toIso(from),
    to_time: toIso(to),
    worker_name: employee.name,
    date: localDate(from, context.timeZone),
    product_num: units.product_num,
    products_description: units.products_description,
    structure: {
      name: context.name,
      shift_start_time: shift?.start ?? null,
      shift_end_time: shift?.end ?? null,
      partial: context.partial,
      id: context.id,
      production_type: context.productionType,
      shift_name: shift?.name ?? null,
    },
    employee_id: employee.id,
    time_zone: context.timeZone,
    products_source: units.source,
    stamp_count: units.stamp_count,
  };
}

/** The statement's `losses`: the loss totals and their Pareto. */
function lossFields(loss: DayBalance['losses']) {
  return {
    len: loss.seconds,
    idle_len: loss.idleSeconds,
    rest_len: loss.restSeconds,
    percent: loss.percent,
    pareto: loss.pareto.map((p) => ({
      id: p.operationId,
      name: p.operationName,
      operation_type: p.category,
      len: p.seconds,
      percent: p.percent,
      cumulative_percent: p.cumulativePercent,
    })),
  };
}

/** One row of the statement's `days`: a shift-day's balance. */
function dayRow(d: DayPart, timeZone: string) {
  return {
    date: localDate(d.start, timeZone),
    start_datetime: toIso(d.start),
    end_datetime: toIso(d.end),
    first_start: d.firstStart === null ? null : toIso(d.firstStart),
    last_end: d.lastEnd === null ? null : toIso(d.lastEnd),
    actual_day_len: d.actualDaySeconds,
    observed_time: d.observedSeconds,
    work_time: d.workSeconds,
    shift_time: d.shiftSeconds,
    regulated_break_time: d.regulatedBreakSeconds,
    available_time: d.availableSeconds,
    percentage: d.loadPercent,
    overload: d.overload,
    text: d.text,
    product_num: d.units,
    takt: d.taktSeconds,
  };
}

/**
 * Maps the engine's statement onto spec 01 §3 "Statement report". Where each figure goes is
 * documented in docs/api.md ("Отчёты").
 */
export function statementBody({ context, employee, from, to, result, units, segments, shifts, withDetails = false }: StatementInput) {
  const { balance, study, frv } = result;
  const machineIds = new Set(segments.filter((s) => s.machinePaced && s.category === 'main').map((s) => s.operationId));
  const parameters = parameterRows(balance, study);

  const notices = reportNotices(context, segments.length, balance.basis, balance.inputErrors.length);
  const partly = balance.shifts.filter((x) => x.partlyObserved);
  if (partly.length > 0) notices.push(NOTICES.partlyObserved(partly.map((x) => partlyObservedText(x, context.timeZone))));
  if (balance.losses.idleInBreakSeconds > 0) notices.push(NOTICES.idleInBreaks(breakDurationText(balance.losses.idleInBreakSeconds)));

  return {
    operations: balance.operations.map((op) => ({
      id: op.operationId,
      len: op.seconds,
      ave_len: op.averageSeconds,
      name: op.operationName,
      operation_type: op.category,
      index: op.index,
      count: op.count,
      percent_video: op.percentVideo,
    })),
    parameters,
    loading: loadingFields(balance),
    frv: frv.map((row) => {
      return {
        id: row.segmentId ?? 0,
        name: row.name,
        start_datetime: toIso(row.start),
        finish_datetime: toIso(row.end),
        len_interval: row.lenInterval,
        index: row.index,
        number: row.number,
        operation_id: segments[row.segmentIndex]?.operationId ?? 0,
        operation_type: row.category,
      };
    }),
    measurements: measurementTable(study.operations, 'accepted', machineIds),
    all_measurements: measurementTable(study.operations, 'all', machineIds),
    rep_param: reportParameters(context, employee, from, to, units, titleShift(context, shifts.worked, shifts.all)),
    // Gaps only inside the observed parts of his shifts: what was not observed is not his window (§6).
    breaks: tableSixRows(
      balance.breaks,
      gapRanges(
        context,
        balance.shifts.map((x) => ({ start: x.observedStart, end: x.observedEnd })),
        balance.days,
        from,
        to,
      ),
    ).map((b) => ({
      type: b.type,
      start_datetime: toIso(b.start),
      end_datetime: toIso(b.end),
      len: b.seconds,
    })),
    slices: balance.categories.map((c) => ({
      index: c.index,
      type: c.category,
      ...typeInfo(context, c.category),
      len: c.seconds,
      percent: c.percentVideo,
      percent_w_day: c.percentWDay,
    })),
    parameters_total: {
      len: parameters.reduce((a, p) => a + p.len, 0),
      percent_video: parameters.reduce((a, p) => a + p.percent_video, 0),
      standard_len: parameters.reduce((a, p) => a + (p.standard_len ?? 0), 0),
      count: parameters.reduce((a, p) => a + p.count, 0),
    },
    normative: {
      hidden: context.partial,
      productivity_rise: balance.productivityRise,
      rows: balance.normative.map((n, index) => ({
        index,
        type: n.category,
        ...typeInfo(context, n.category),
        len_fact: balance.categories[index]!.seconds,
        len_norm: n.seconds,
        percent_fact: balance.categories[index]!.percentVideo,
        percent_norm: n.percent,
      })),
    },
    losses: lossFields(balance.losses),
    takt: {
      actual_day_len: balance.takt.actualDaySeconds,
      break_len: balance.takt.breakSeconds,
      product_num: balance.takt.units,
      takt: balance.takt.seconds,
    },
    balance: {
      basis: balance.basis,
      observed_time: balance.observedSeconds,
      shift_time: balance.shiftSeconds,
      regulated_break_time: balance.regulatedBreakSeconds,
      available_time: balance.availableSeconds,
      work_time: balance.workSeconds,
      useful_time: balance.usefulSeconds,
      useful_percent: balance.usefulPercent,
      covered_time: balance.coveredSeconds,
    },
    days: balance.days.map((d) => dayRow(d, context.timeZone)),
    input_errors: balance.inputErrors.map((e) => ({
      code: e.code,
      message: e.message,
      markup_id: e.segmentId,
      other_markup_id: e.otherSegmentId,
      employee_id: e.employeeId,
    })),
    cleaning_rule: study.cleaningRule,
    cleaning_mode: study.cleaningMode,
    reference: { source: context.reference.source, edition: context.reference.edition, is_default: context.reference.is_default },
    notice: notices.length ? notices.join(' ') : null,
    notices,
    ...(withDetails ? { details: result as unknown as Record<string, unknown> } : {}),
  };
}

/** Thrown when the statement's employee is not among the inputs' employees. */
export class UnknownEmployeeError extends Error {
  constructor() {
    super('Сотрудник не найден в этой структурной единице');
  }
}

/** The statement of one employee over the inputs' window (GET /api/v1/report). */
export function assembleStatement(inputs: ReportInputs, employeeId: number, withDetails = false) {
  const { structure: context, from, to } = inputs;
  const employee = inputs.employees.find((e) => e.id === employeeId);
  if (!employee) throw new UnknownEmployeeError();
  const segments = inputs.segments.filter((s) => s.employeeId === employeeId);
  const units = unitsProducedOf(inputs, employeeId);
  const all = shiftInstances(context, from, to);
  const worked = shiftsWorked(all, segments);
  const dayStarts = shiftDayStarts(context, from, to, all);
  const stamps = dayStarts.length > 0 && units.source === 'stamps' ? inputs.stamps.filter((s) => s.employeeId === employeeId).map((s) => s.at) : null;
  const days = reportDays(from, dayStarts, stamps);
  const result = runStatement(segments, engineSettings(context, from, to, worked, units.product_num, days), context);
  return statementBody({
    context,
    employee: { id: employee.id, name: employee.name },
    from,
    to,
    result,
    units,
    segments,
    shifts: { worked, all },
    withDetails,
  });
}

export type StatementReportData = ReturnType<typeof assembleStatement>;
