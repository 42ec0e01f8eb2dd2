import { nominalShiftMinutes, normFigures, operativeTime, unstableSeries, type NormFigures } from '@norma/core-wasm/norms';
import {
  addDays,
  assembleStatement,
  engineSettings,
  formatNumber,
  localDate,
  plural,
  runTimeStudy,
  shiftInstances,
  shiftsWorked,
  toIso,
  UnknownEmployeeError,
  zonedInstant,
  type ReportInputs,
  type ReportSegment,
  type StatementReportData,
  type StructureContext,
} from '@norma/core-wasm/report';
import type { z } from '@hono/zod-openapi';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import { readOperations } from '../org/operations.service';
import { readStructureSettings } from '../org/settings.service';
import { loadReportInputs, loadStructureContext } from '../report/service';
import { MANUAL_TIME_SOURCE_LABELS, type NormComputed, type NormCreateBody, type NormParams } from './schema';

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
  /** The shift-day the window was chosen as, when it was (METHODOLOGY §7). */
  date?: string | null;
}

type NormWindowInputValue = z.output<typeof NormCreateBody>['windows'][number];

/**
 * The whole shift-day of `date` (METHODOLOGY §6–§7): from local midnight to the next, each edge
 * moved to the end of a shift that runs across it, so a night shift 22:00–06:00 belongs whole to
 * the day it starts.
 */
export function shiftDayWindow(context: StructureContext, date: string): { from: number; to: number } {
  const edge = (day: string) => {
    let cut = zonedInstant(day, '00:00:00', context.timeZone);
    const instances = shiftInstances(
      context,
      zonedInstant(addDays(day, -1), '00:00:00', context.timeZone),
      zonedInstant(addDays(day, 1), '00:00:00', context.timeZone),
    );
    for (const shift of instances) if (shift.start < cut && shift.end > cut) cut = Math.max(cut, shift.end);
    return cut;
  };
  return { from: edge(date), to: edge(addDays(date, 1)) };
}

/** The card's windows in instants: a window given as a shift-day becomes that shift-day's interval. */
export async function resolveWindows(db: Db, structureId: number, windows: NormWindowInputValue[]): Promise<NormWindowValue[]> {
  const context = windows.some((w) => w.date !== undefined) ? await loadStructureContext(db, structureId) : null;
  return windows.map((w) => {
    if (w.date !== undefined) {
      const day = shiftDayWindow(context!, w.date);
      return { employee_id: w.employee_id, from_time: day.from, to_time: day.to, date: w.date };
    }
    return { employee_id: w.employee_id, from_time: w.from_time!, to_time: w.to_time! };
  });
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

type StudiedSegment = ReportSegment & { auxiliary: boolean };

/** The measurements of every window (segments the window cuts are not measurements), pooled and studied as one series per operation. */
function pooledStudy(reports: WindowReport[]) {
  const chosen = new Map<number, StudiedSegment>();
  for (const { window, inputs } of reports) {
    const studied = asStudied(inputs.segments);
    const study = runTimeStudy(studied, engineSettings(inputs.structure, window.from_time, window.to_time, []), inputs.structure);
    const byId = new Map(studied.map((s) => [s.id, s]));
    // A segment the window cuts is not a measurement (METHODOLOGY §3): only whole cycles are pooled.
    for (const op of study.operations)
      for (const m of op.measurements) if (m.segmentId !== null && m.status !== 'cut') chosen.set(m.segmentId, byId.get(m.segmentId)!);
  }
  const segments = [...chosen.values()].sort((a, b) => a.start - b.start || a.id - b.id);
  return { segments, operations: studyOf(segments, reports[0]!.inputs.structure) };
}

/**
 * The time study of chosen measurements (METHODOLOGY §3: each operation's series cleaned, t_reg of
 * the accepted ones): of the whole basis for the card, of one workplace's for its bench.
 */
function studyOf(segments: StudiedSegment[], context: StructureContext) {
  if (segments.length === 0) return [];
  const from = segments[0]!.start;
  const to = Math.max(...segments.map((s) => s.end)) + 1;
  return runTimeStudy(segments, engineSettings(context, from, to, []), context).operations;
}

/** The chosen shift (METHODOLOGY §7): its Тсм from the settings, and the basis's shift-days of it whose real length differs (DST). */
interface ChosenShift {
  name: string | null;
  startTime: string;
  endTime: string;
  mealMinutes: number;
  minutes: number;
  /** Observed shift-days of this shift whose real length is not Тсм, local dates. */
  otherLength: string[];
}

type SettingsShift = Awaited<ReturnType<typeof readStructureSettings>>['shifts'][number];

/** The observed shift instances of every window (shifts holding at least one of the employee's segments). */
function observedShifts(reports: WindowReport[]) {
  return reports.flatMap(({ window, inputs }) => {
    const own = inputs.segments.filter((s) => s.employeeId === window.employee_id && s.start < window.to_time && s.end > window.from_time);
    return shiftsWorked(shiftInstances(inputs.structure, window.from_time, window.to_time), own);
  });
}

/** The shift named on the card, else the basis's most common one (ties: the first in the settings); null without shifts. */
function chooseShift(shifts: SettingsShift[], reports: WindowReport[], named: string | null): ChosenShift | null {
  const observed = observedShifts(reports);
  let shift: SettingsShift | undefined;
  if (named !== null) {
    shift = shifts.find((s) => s.name.toLocaleLowerCase('ru') === named.toLocaleLowerCase('ru'));
    if (!shift) throw badRequest(`shift_name: смены «${named}» нет в настройках структурной единицы`);
  } else {
    const count = (name: string) => observed.filter((i) => i.name === name).length;
    shift = [...shifts].sort((a, b) => count(b.name) - count(a.name))[0];
  }
  if (!shift) return null;
  const minutes = nominalShiftMinutes(shift.start_time, shift.end_time, shift.meal_break_min);
  const timeZone = reports[0]!.inputs.structure.timeZone;
  const otherLength = observed
    .filter((i) => i.name === shift.name && Math.abs((i.end - i.start) / 60_000 - shift.meal_break_min - minutes) > 1e-6)
    .map((i) => localDate(i.start, timeZone));
  return {
    name: shift.name,
    startTime: shift.start_time,
    endTime: shift.end_time,
    mealMinutes: shift.meal_break_min,
    minutes,
    otherLength: [...new Set(otherLength)].sort(),
  };
}

/**
 * The basis's observed normative balance (METHODOLOGY §2: idle → 0, rest → the regulated rest),
 * summed over the windows' statements and shown per shift-day; its shares give the allowances, so
 * how much of a shift was observed does not change them.
 */
function shiftBalance(reports: WindowReport[], shift: ChosenShift | null) {
  let shiftDays = 0;
  const total = { observed: 0, main: 0, aux: 0, pz: 0, service: 0, move: 0, breaks: 0, rest: 0, idle: 0 };
  for (const { statement: s } of reports) {
    shiftDays += s.days.filter((d) => d.observed_time > 0).length;
    const norm = (type: string) => (s.normative.rows.find((r) => r.type === type)?.len_norm ?? 0) / MINUTE;
    total.observed += s.loading.shift_time;
    total.main += norm('main');
    total.aux += norm('aux');
    total.pz += norm('pz');
    total.service += norm('service');
    total.move += norm('move');
    total.breaks += norm('rest');
    total.rest += s.loading.rest_time;
    total.idle += s.loading.idle_time;
  }
  const per = (x: number) => (shiftDays > 0 ? x / shiftDays : 0);
  return {
    total,
    row: {
      days: shiftDays,
      shift_minutes: shift?.minutes ?? 0,
      shift_name: shift?.name ?? null,
      meal_break_minutes: shift?.mealMinutes ?? 0,
      observed_shift_minutes: per(total.observed),
      observed_operative_minutes: per(total.main + total.aux),
      pz_minutes: per(total.pz),
      service_minutes: per(total.service),
      move_minutes: per(total.move),
      regulated_break_minutes: per(total.breaks),
      rest_minutes: per(total.rest),
      idle_minutes: per(total.idle),
      source: `нормативный баланс фотографии рабочего времени: ${shiftDays} ${plural(shiftDays, 'смена', 'смены', 'смен')} в ${reports.length} ${plural(reports.length, 'окне', 'окнах', 'окнах')}, доли от Топ_набл`,
    },
  };
}

/** «смена «Дневная» 08:00–17:00 − обед 60 мин»: where Тсм comes from. */
const shiftSource = (shift: ChosenShift | null) =>
  shift === null
    ? 'у структурной единицы не заданы смены'
    : `смена «${shift.name}» ${shift.startTime.slice(0, 5)}–${shift.endTime.slice(0, 5)}${shift.mealMinutes > 0 ? ` − обед ${shift.mealMinutes} мин` : ''} (настройки структурной единицы)`;

const n = (x: number, digits = 2) => formatNumber(x, digits);

/** The card's figures in display order, each with its label, unit and source. */
function figureRows(f: NormFigures, sources: { shift: string; balance: string; allowance: string; operative: string; rating: string }, ratingPercent: number) {
  const row = (key: string, label: string, value: number | null, unit: string, source: string) => ({ key, label, value, unit, source });
  return [
    row('rating', 'Оценка темпа (общая)', ratingPercent, '%', sources.rating),
    row('operative', 'Топ — оперативное время на единицу', f.operative, 'мин', sources.operative),
    row('shift', 'Тсм — нормативная продолжительность смены', f.shiftMinutes, 'мин', sources.shift),
    row('observed_operative', 'Топ_набл — основная и вспомогательная работа нормативного баланса', f.observedOperative, 'мин', sources.balance),
    row('allowance_pz', 'а_пз — на подготовительно-заключительную работу', f.allowances.pz, '% Топ', sources.allowance),
    row('allowance_service', 'а_обс — на обслуживание (с перемещениями)', f.allowances.service, '% Топ', sources.allowance),
    row('allowance_rest', 'а_отл — на отдых (регламентированные перерывы, без обеда)', f.allowances.rest, '% Топ', sources.allowance),
    row('operative_shift', 'Топ.н — оперативное время за смену', f.operativeShift, 'мин/смену', 'Тсм / (1 + (а_пз + а_обс + а_отл) / 100)'),
    row('pz', 'Тпз.н — подготовительно-заключительное время', f.pz, 'мин/смену', 'Топ.н × а_пз / 100'),
    row('service', 'Тобс.н — обслуживание рабочего места (с перемещениями)', f.service, 'мин/смену', 'Топ.н × а_обс / 100'),
    row('rest', 'Тотл.н — отдых и личные надобности', f.rest, 'мин/смену', 'Топ.н × а_отл / 100'),
    row('piece', 'Тшт — штучное время', f.piece, 'мин', 'Топ × (1 + (а_обс + а_отл) / 100)'),
    row('piece_batch', 'Тшт-к — штучно-калькуляционное время на партию', f.pieceBatch, 'мин', 'Тшт + Тпз.партии / n'),
    row('norm_time', 'Нвр — норма времени на единицу', f.normTime, 'мин', f.pieceBatch !== null ? 'Тшт-к (задана партия)' : 'Тсм / Нвыр'),
    row('output', 'Нвыр — норма выработки за смену', f.output, 'шт.', f.pieceBatch !== null ? 'Тсм / Нвр' : 'Топ.н / Топ'),
    row('output_whole', 'Нвыр на карточке (целых единиц)', f.outputWhole, 'шт.', 'Нвыр, округлено вниз'),
    row('headcount_exact', 'Нч — расчётная численность', f.headcountExact, 'чел.', 'план × Нвр / (смен × Тсм × K_вн)'),
    row('headcount', 'Нч — норматив численности', f.headcount, 'чел.', 'Нч, округлено вверх'),
  ];
}

/** The card's message when an operation of the unit has no time (METHODOLOGY §7); null when every one has. */
export const notCalculatedText = (names: string[]) => `не рассчитано: нет замеров ${names.map((name) => `«${name}»`).join(', ')}`;
export const UNSTABLE_TEXT = 'ряд неустойчив: повторите наблюдения';
export const NO_SHIFT_TEXT = 'не рассчитано: у структурной единицы не заданы смены (Тсм)';

type CardOperation = NormComputedValue['operations'][number];

function basisWarnings(
  operations: CardOperation[],
  basis: { dates: number; employees: number; otherLength: string[]; notCalculated: string | null },
): string[] {
  const warnings: string[] = [];
  const unit = operations.filter((o) => o.times_per_unit > 0);
  if (unit.length === 0) warnings.push('В выбранных окнах нет замеров операций единицы продукции: Топ и нормы не определены.');
  if (basis.notCalculated !== null)
    warnings.push(`${basis.notCalculated[0]!.toUpperCase()}${basis.notCalculated.slice(1)}: введите их время вручную с источником.`);
  for (const o of unit) {
    if (o.time_source === 'manual')
      warnings.push(`«${o.name}»: время введено вручную (${o.manual!.source_label}${o.manual!.note ? `: ${o.manual!.note}` : ''}).`);
    if (o.time_source !== 'measured') continue;
    if (!o.enough) warnings.push(`«${o.name}»: принято ${o.accepted} ${plural(o.accepted, 'замер', 'замера', 'замеров')}, нужно не меньше ${o.required}.`);
    if (o.normative_coef > 0 && o.coef > o.normative_coef)
      warnings.push(`«${o.name}»: Ку ${n(o.coef)} выше нормативного ${n(o.normative_coef)} и после очистки ряда.`);
    if (o.unstable) warnings.push(`«${o.name}»: ${UNSTABLE_TEXT} (очистка отбросила ${o.dropped} из ${o.measurements}).`);
  }
  if (basis.dates <= 1) warnings.push('Основание — один день наблюдений.');
  if (basis.employees <= 1) warnings.push('Основание — один сотрудник.');
  if (basis.otherLength.length > 0)
    warnings.push(`Смена-день другой длины, чем Тсм (переход на летнее или зимнее время): ${basis.otherLength.join(', ')}; Тсм — по настройкам смены.`);
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
 * workplace where it was mostly done, with its t_norm × times per unit. Losses (idle) are not work
 * and never occupy a station, so they are not among them.
 */
function lineData(reports: WindowReport[], study: ReturnType<typeof pooledStudy>, operations: NormComputedValue['operations']) {
  const workplaces = reports[0]!.inputs.workplaces.map((w) => ({ id: w.id, name: w.name }));
  const unit = operations
    .filter((o) => o.times_per_unit > 0)
    .map((o) => ({
      operation_id: o.operation_id,
      name: o.name,
      category: o.category,
      workplace_id: mainWorkplace(study.segments.filter((s) => s.operationId === o.operation_id)),
      minutes: (o.t_norm_minutes ?? 0) * o.times_per_unit,
    }));
  return { workplaces, operations: unit };
}

/** Rounds down, forgiving the last binary digits (39.99999999999 units are 40), as the card's Нвыр. */
const floorSafe = (x: number) => Math.floor(x + 1e-9);

/**
 * Each bench's own Нвыр (METHODOLOGY §7: workplaces that each make the whole unit side by side):
 * t_reg of each operation of the unit from the measurements done at that workplace, cleaned as the
 * card's (the same study over the bench's share of the pooled measurements), t_norm with the
 * card's ratings, Топ_места = Σ t_norm × times per unit, Нвыр_места = Топ.н / Топ_места. An
 * operation never measured at the bench takes the card's t_norm and is named as borrowed.
 */
function benchData(
  workplaces: { id: number; name: string }[],
  study: ReturnType<typeof pooledStudy>,
  operations: NormComputedValue['operations'],
  context: StructureContext,
  rated: (op: StudyOperation) => number,
  operativeShift: number,
) {
  const unit = operations.filter((o) => o.times_per_unit > 0);
  return workplaces.map((w) => {
    const own = new Map(
      studyOf(
        study.segments.filter((s) => s.workplaceId === w.id),
        context,
      ).map((op) => [op.operationId, op]),
    );
    const borrowed: number[] = [];
    const times = unit.map((o) => {
      const op = own.get(o.operation_id);
      if (op && op.accepted.n > 0) return { tRegMinutes: (op.accepted.tReg / MINUTE) * (rated(op) / 100), timesPerUnit: o.times_per_unit };
      borrowed.push(o.operation_id);
      return { tRegMinutes: o.t_norm_minutes, timesPerUnit: o.times_per_unit };
    });
    const top = unit.length > 0 ? operativeTime(times) : null;
    const exact = top !== null && top > 0 && operativeShift > 0 ? operativeShift / top : null;
    return {
      workplace_id: w.id,
      name: w.name,
      top_minutes: top,
      output_exact: exact,
      output: exact === null ? null : floorSafe(exact),
      measured_operations: unit.length - borrowed.length,
      borrowed_operation_ids: borrowed,
    };
  });
}

type StudyOperation = ReturnType<typeof pooledStudy>['operations'][number];

/** The rating of each employee of the basis (his own, else the card's), and the rating text of the card. */
function ratingsOf(params: NormParamsValue, reports: WindowReport[]) {
  const names = new Map(reports.flatMap((r) => r.inputs.employees.map((e) => [e.id, e.name] as const)));
  const inBasis = new Set(reports.map((r) => r.window.employee_id));
  const own = new Map<number, number>();
  for (const e of params.employee_ratings) {
    if (!inBasis.has(e.employee_id)) throw badRequest(`employee_ratings: сотрудника ${e.employee_id} нет в окнах карточки`);
    own.set(e.employee_id, e.rating_percent);
  }
  const employees = [...own.entries()].map(([id, percent]) => ({ employee_id: id, name: names.get(id) ?? '', percent }));
  const text =
    `${params.rating_percent === 100 ? 'без оценки темпа (100 %)' : `общая ${n(params.rating_percent, 1)} %`}` +
    (employees.length > 0 ? `; по сотрудникам: ${employees.map((e) => `${e.name} ${n(e.percent, 1)} %`).join(', ')}` : '');
  return { of: (employeeId: number) => own.get(employeeId) ?? params.rating_percent, row: { percent: params.rating_percent, employees, text } };
}

/** The rating of an operation's accepted measurements, weighted by their time: t_reg × it / 100 = the mean of t_i × rating_i / 100. */
function operationRating(op: StudyOperation, employeeOf: Map<number, number>, ratingOf: (employeeId: number) => number): number {
  let time = 0;
  let rated = 0;
  for (const m of op.measurements) {
    if (m.status !== 'accepted' || m.segmentId === null) continue;
    time += m.seconds;
    rated += m.seconds * ratingOf(employeeOf.get(m.segmentId) ?? 0);
  }
  return time > 0 ? rated / time : 100;
}

/**
 * The operations of the card: every studied one, and every operation of the unit named on the card
 * that has no measurement (METHODOLOGY §7: never dropped) — with its time entered by hand, or none.
 */
async function cardOperations(db: Db, structureId: number, reports: WindowReport[], study: ReturnType<typeof pooledStudy>, params: NormParamsValue) {
  const known = new Map((await readOperations(db, structureId)).operations.map((o) => [o.id, o]));
  for (const u of params.unit_operations ?? [])
    if (!known.has(u.operation_id)) throw badRequest(`unit_operations: операции ${u.operation_id} нет в этой структурной единице`);
  for (const m of params.manual_times)
    if (!known.has(m.operation_id)) throw badRequest(`manual_times: операции ${m.operation_id} нет в этой структурной единице`);
  const auxiliary = new Set(study.segments.filter((s) => s.auxiliary).map((s) => s.operationId));
  const composition = params.unit_operations ? new Map(params.unit_operations.map((u) => [u.operation_id, u.times_per_unit])) : null;
  const manual = new Map(params.manual_times.map((m) => [m.operation_id, m]));
  const ratings = ratingsOf(params, reports);
  const employeeOf = new Map(study.segments.map((s) => [s.id, s.employeeId]));
  const observed = reports.filter((r) => r.statement.days.some((d) => d.observed_time > 0));
  const dates = new Set(observed.flatMap((r) => r.statement.days.filter((d) => d.observed_time > 0).map((d) => `${r.window.employee_id} ${d.date}`)));
  const days = new Set([...dates].map((d) => d.split(' ')[1])).size;
  const employees = new Set(observed.map((r) => r.window.employee_id)).size;
  const measurementSource = (count: number) =>
    `хронометраж: ${count} ${plural(count, 'замер', 'замера', 'замеров')}, ${days} ${plural(days, 'день', 'дня', 'дней')}, ${employees} ${plural(employees, 'сотрудник', 'сотрудника', 'сотрудников')}`;
  const timesOf = (id: number, category: 'main' | 'aux') => (composition ? (composition.get(id) ?? 0) : category === 'main' ? 1 : 0);
  const withTime = (row: Omit<CardOperation, 't_reg_minutes' | 't_norm_minutes' | 'time_source' | 'manual'>, tReg: number | null): CardOperation => {
    const hand = manual.get(row.operation_id);
    const handRow = hand ? { minutes: hand.minutes, source: hand.source, source_label: MANUAL_TIME_SOURCE_LABELS[hand.source], note: hand.note } : null;
    if (tReg !== null) return { ...row, t_reg_minutes: tReg, t_norm_minutes: (tReg * row.rating_percent) / 100, time_source: 'measured', manual: null };
    if (handRow)
      return {
        ...row,
        rating_percent: 100,
        t_reg_minutes: hand!.minutes,
        t_norm_minutes: hand!.minutes,
        time_source: 'manual',
        manual: handRow,
        source: `введено вручную: ${handRow.source_label}`,
      };
    return { ...row, t_reg_minutes: null, t_norm_minutes: null, time_source: 'none', manual: null, source: 'нет замеров' };
  };
  const operations: CardOperation[] = study.operations.map((op) => {
    const category = auxiliary.has(op.operationId) ? ('aux' as const) : ('main' as const);
    const measured = op.measurements.filter((m) => m.status !== 'zero_length' && m.status !== 'cut').length;
    const row = {
      operation_id: op.operationId,
      name: op.operationName,
      category,
      rating_percent: operationRating(op, employeeOf, ratings.of),
      coef: op.accepted.coef,
      normative_coef: op.normativeCoef,
      measurements: measured,
      accepted: op.accepted.n,
      dropped: measured - op.accepted.n,
      unstable: unstableSeries(measured, op.accepted.n),
      required: op.requiredMeasurements,
      enough: op.enoughMeasurements,
      times_per_unit: timesOf(op.operationId, category),
      source: measurementSource(measured),
    };
    return withTime(row, op.accepted.n > 0 ? op.accepted.tReg / MINUTE : null);
  });
  const studied = new Set(operations.map((o) => o.operation_id));
  for (const [id, times] of composition ?? []) {
    if (studied.has(id) || times <= 0) continue;
    const op = known.get(id)!;
    const category = op.type === 'aux' ? ('aux' as const) : ('main' as const);
    const row = { operation_id: id, name: op.name, category, rating_percent: 100, coef: 0, normative_coef: 0, measurements: 0, accepted: 0, dropped: 0 };
    operations.push(withTime({ ...row, unstable: false, required: 0, enough: false, times_per_unit: times, source: '' }, null));
  }
  // The rating of a study's operation (the card's, or one bench's) as the card rates its measurements.
  const rated = (op: StudyOperation) => operationRating(op, employeeOf, ratings.of);
  return { operations, rating: ratings.row, rated, days, employees, measurementSource };
}

/** Computes the card of a structure from its windows and parameters. */
export async function computeCard(db: Db, structureId: number, windows: NormWindowValue[], params: NormParamsValue): Promise<NormComputedValue> {
  const reports = await windowReports(db, structureId, windows);
  const study = pooledStudy(reports);
  const context = reports[0]!.inputs.structure;
  const { operations, rating, rated, days, employees, measurementSource } = await cardOperations(db, structureId, reports, study, params);
  const shift = chooseShift((await readStructureSettings(db, structureId)).shifts, reports, params.shift_name);
  const { total, row: balance } = shiftBalance(reports, shift);
  const figures = normFigures({
    operations: operations.map((o) => ({ tRegMinutes: o.t_norm_minutes, timesPerUnit: o.times_per_unit })),
    shiftMinutes: shift?.minutes ?? 0,
    balance: {
      mainMinutes: total.main,
      auxMinutes: total.aux,
      pzMinutes: total.pz,
      serviceMinutes: total.service,
      moveMinutes: total.move,
      regulatedRestMinutes: total.breaks,
    },
    normativeAllowances: params.normative_allowances,
    batch: params.batch_size !== null && params.batch_prep_minutes !== null ? { size: params.batch_size, prepMinutes: params.batch_prep_minutes } : null,
    plan:
      params.plan_units !== null && params.plan_shifts !== null
        ? { units: params.plan_units, shifts: params.plan_shifts, fulfilment: params.plan_fulfilment }
        : null,
  });
  const unit = operations.filter((o) => o.times_per_unit > 0);
  const missing = unit.filter((o) => o.time_source === 'none').map((o) => o.name);
  const notCalculated = missing.length > 0 ? notCalculatedText(missing) : shift === null ? NO_SHIFT_TEXT : null;
  const unitMeasurements = unit.reduce((a, o) => a + o.measurements, 0);
  const allowanceSource = params.normative_allowances ? 'нормативы организации, заданные на карточке' : balance.source;
  const measurements = operations.reduce((a, o) => a + o.measurements, 0);
  const line = lineData(reports, study, operations);
  const sources = {
    shift: shiftSource(shift),
    balance: balance.source,
    allowance: allowanceSource,
    operative: `Σ t_reg × темп / 100 × раз на единицу; ${measurementSource(unitMeasurements)}`,
    rating: rating.text,
  };
  return {
    basis: {
      windows: reports.length,
      employees,
      days,
      measurements,
      text: `${context.name}: ${reports.length} ${plural(reports.length, 'окно', 'окна', 'окон')}, ${measurementSource(measurements)}, ${balance.days} ${plural(balance.days, 'смена', 'смены', 'смен')}`,
    },
    operations,
    balance,
    allowances: { actual: figures.actualAllowances, normative: params.normative_allowances, used: figures.allowanceSource },
    figures: figureRows(figures, sources, params.rating_percent),
    rating,
    not_calculated: notCalculated,
    unstable: unit.filter((o) => o.unstable).map((o) => o.name),
    warnings: basisWarnings(operations, { dates: days, employees, otherLength: shift?.otherLength ?? [], notCalculated }),
    line: {
      ...line,
      benches: benchData(line.workplaces, study, operations, context, rated, figures.operativeShift),
      available_minutes: figures.shiftMinutes - figures.rest,
    },
  };
}

/** The windows as stored on the card: instants as ISO strings, with the employee's name. */
export function windowRows(windows: NormWindowValue[], names: Map<number, string>) {
  return windows.map((w) => ({
    employee_id: w.employee_id,
    employee_name: names.get(w.employee_id) ?? '',
    date: w.date ?? null,
    from_time: toIso(w.from_time),
    to_time: toIso(w.to_time),
  }));
}
