/**
 * The block report of a structure (spec 01 "Block-based report", GET /api/v2/report) assembled
 * from report inputs: per-employee day balances, the structure's sums, charts and tables.
 */
import { daysWord, loadStatus, moneyLost } from '../common-exports.ts';
import { CATEGORIES, USEFUL_CATEGORIES } from '../types.ts';
import type { Category, DayBalance, LoadStatus, TimeStudy } from '../types.ts';
import { engineSettings, partsOutside, reportDays, runDayBalance, runTimeStudy, shiftDayStarts, shiftInstances, shiftsWorked } from './window.ts';
import { manualUnitsMap, PRODUCTION_TYPE_LABELS, stampCounts, toIso, type ReportInputs, type ReportSegment, type StructureContext } from './inputs.ts';
import { breakDurationText, NOTICES, reportNotices, typeInfo } from './statement.ts';
import { formatDuration, formatNumber, formatPercent, formatRoubles, plural, round2 } from './text.ts';
import { localDate, localDateTimeText, localHour, zoneOffsetMs } from './time-zone.ts';

type Cell = string | number | boolean | null;
type TableBlock = {
  type: 'table';
  title: string;
  collapsible: boolean;
  collapsed: boolean;
  columns: { key: string; title: string; unit: string | null }[];
  rows: Record<string, Cell>[];
  total: Record<string, Cell> | null;
};
/** One block of GET /api/v2/report; the API's zod schema (api/src/report/schema.ts) is the exact contract. */
export interface ReportBlock {
  type: string;
  [field: string]: unknown;
}

const HOUR = 3_600_000;
const min = (seconds: number) => round2(seconds / 60);
const share = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);
const pct = (part: number, whole: number) => round2(share(part, whole));

export const STATUS_LABELS: Record<LoadStatus, { name: string; range: string; color: string; one: string }> = {
  overloaded: { name: 'Перегруженные', range: 'загрузка больше 100 %', color: '#c62828', one: 'перегружен' },
  balanced: { name: 'Сбалансированные', range: 'загрузка 85–100 %', color: '#2e7d32', one: 'сбалансирован' },
  underloaded: { name: 'Недогруженные', range: 'загрузка меньше 85 %', color: '#f9a825', one: 'недогружен' },
};

interface EmployeeResult {
  id: number;
  name: string;
  balance: DayBalance;
  status: LoadStatus;
  units: number;
  moneyLost: number;
}

/** Sums of the per-employee day balances: the structure's balance for the period. */
interface Totals {
  observed: number;
  shift: number;
  breaks: number;
  available: number;
  work: number;
  useful: number;
  losses: number;
  idle: number;
  restLoss: number;
  categories: number[];
  normative: number[];
}

function totalsOf(staff: EmployeeResult[]): Totals {
  const sum = (f: (b: DayBalance) => number) => staff.reduce((acc, e) => acc + f(e.balance), 0);
  return {
    observed: sum((b) => b.observedSeconds),
    shift: sum((b) => b.shiftSeconds),
    breaks: sum((b) => b.regulatedBreakSeconds),
    available: sum((b) => b.availableSeconds),
    work: sum((b) => b.workSeconds),
    useful: sum((b) => b.usefulSeconds),
    losses: sum((b) => b.losses.seconds),
    idle: sum((b) => b.losses.idleSeconds),
    restLoss: sum((b) => b.losses.restSeconds),
    categories: CATEGORIES.map((_, i) => sum((b) => b.categories[i]!.seconds)),
    normative: CATEGORIES.map((_, i) => sum((b) => b.normative[i]!.seconds)),
  };
}

function categorySlices(context: StructureContext, seconds: number[], whole: number) {
  return CATEGORIES.map((category, i) => ({
    key: category,
    type: category,
    ...typeInfo(context, category),
    value: min(seconds[i]!),
    percent: pct(seconds[i]!, whole),
  }));
}

/** Operations of all employees merged by (operation, type), ordered as the inner ring. */
function operationSlices(context: StructureContext, staff: EmployeeResult[], whole: number) {
  const merged = new Map<string, { id: number; name: string; category: Category; seconds: number }>();
  for (const e of staff) {
    for (const op of e.balance.operations) {
      const key = `${op.operationId}/${op.category}`;
      const row = merged.get(key) ?? { id: op.operationId, name: op.operationName, category: op.category, seconds: 0 };
      row.seconds += op.seconds;
      merged.set(key, row);
    }
  }
  return [...merged.values()]
    .filter((r) => r.seconds > 0)
    .sort((a, b) => CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) || a.id - b.id)
    .map((r) => ({
      key: String(r.id),
      type: r.category,
      name: r.name,
      color: typeInfo(context, r.category).color,
      value: min(r.seconds),
      percent: pct(r.seconds, whole),
    }));
}

/** Pareto of the structure: each employee's losses by operation (engine), merged and re-ranked. */
function paretoBars(
  staff: EmployeeResult[],
  total: number,
): { key: string; name: string; type: Category; value: number; percent: number; cumulative_percent: number }[] {
  const merged = new Map<string, { id: number; name: string; category: Category; seconds: number }>();
  for (const e of staff) {
    for (const row of e.balance.losses.pareto) {
      const key = `${row.operationId}/${row.category}`;
      const item = merged.get(key) ?? { id: row.operationId, name: row.operationName, category: row.category, seconds: 0 };
      item.seconds += row.seconds;
      merged.set(key, item);
    }
  }
  let running = 0;
  return [...merged.values()]
    .sort((a, b) => b.seconds - a.seconds || a.id - b.id)
    .map((row) => {
      running += row.seconds;
      return {
        key: String(row.id),
        name: row.name,
        type: row.category,
        value: min(row.seconds),
        percent: pct(row.seconds, total),
        cumulative_percent: pct(running, total),
      };
    });
}

/**
 * Losses by local hour of day (the rose chart, METHODOLOGY §6): idle time where it was, and each
 * employee's rest above his regulated breaks of each shift-day placed in the hours where that
 * day's rest of his was (his day's excess share of each rest minute), never spread over the
 * structure. Idle inside a regulated break interval is the break, not a loss (nor is rest there
 * with rest_in_idle). So the sectors add up to the structure's losses.
 */
function lossesByHour(
  staff: EmployeeResult[],
  segmentsOf: Map<number, ReportSegment[]>,
  window: { from: number; to: number; restInIdle: boolean },
  timeZone: string,
): { hour: number; label: string; value: number; idle: number; rest: number }[] {
  const { from, to, restInIdle } = window;
  const idle = new Array<number>(24).fill(0);
  const rest = new Array<number>(24).fill(0);
  const hourStart = (t: number) => t - ((((t + zoneOffsetMs(t, timeZone)) % HOUR) + HOUR) % HOUR);
  for (const e of staff) {
    const days = e.balance.days;
    const breaks = e.balance.breaks.filter((b) => b.type === 'regulated');
    for (const s of segmentsOf.get(e.id) ?? []) {
      if (s.category !== 'idle' && s.category !== 'rest') continue;
      // Rest counts everywhere (its excess share), idle and rest_in_idle rest only outside the breaks.
      const outsideOnly = s.category === 'idle' || restInIdle;
      for (const day of days) {
        const base = day.restSeconds - (restInIdle ? day.restInBreakSeconds : 0);
        const share = s.category === 'idle' ? 1 : base > 0 ? day.restLossSeconds / base : 0;
        const clippedStart = Math.max(s.start, day.start, from);
        const clippedEnd = Math.min(s.end, day.end, to);
        if (!(clippedEnd > clippedStart) || share === 0) continue;
        for (const { start, end } of outsideOnly
          ? partsOutside([{ start: clippedStart, end: clippedEnd }], breaks)
          : [{ start: clippedStart, end: clippedEnd }])
          for (let t = hourStart(start); t < end; t += HOUR) {
            const inside = Math.min(end, t + HOUR) - Math.max(start, t);
            if (!(inside > 0)) continue;
            const hour = localHour(Math.max(start, t), timeZone);
            const target = s.category === 'idle' ? idle : rest;
            target[hour] = target[hour]! + (inside / 1000) * share;
          }
      }
    }
  }
  return idle.map((idleSeconds, hour) => ({
    hour,
    label: `${String(hour).padStart(2, '0')}:00`,
    value: min(idleSeconds + rest[hour]!),
    idle: min(idleSeconds),
    rest: min(rest[hour]!),
  }));
}

function summaryText(
  context: StructureContext,
  period: string,
  staff: EmployeeResult[],
  totals: Totals,
  units: number,
  money: number,
  rise: number | null,
): string {
  const parts = [`${context.name}, ${period}.`];
  if (staff.length === 0) {
    parts.push('Разметки за этот период нет: показатели равны нулю.');
    return parts.join(' ');
  }
  const count = (status: LoadStatus) => staff.filter((e) => e.status === status).length;
  parts.push(
    `Размечено ${staff.length} ${plural(staff.length, 'сотрудник', 'сотрудника', 'сотрудников')}, наблюдаемое время — ${formatDuration(totals.observed)}.`,
  );
  const load = share(totals.work, totals.available);
  const diff = totals.work - totals.available;
  const loadWords =
    totals.available > 0
      ? diff > 0
        ? `, переработка ${formatDuration(diff)}`
        : diff < 0
          ? `, недогрузка ${formatDuration(-diff)}`
          : ', переработки и недогрузки нет'
      : '';
  parts.push(
    `Загрузка ${formatPercent(load)}${loadWords}: перегружены — ${count('overloaded')}, сбалансированы — ${count('balanced')}, недогружены — ${count('underloaded')}.`,
  );
  parts.push(`Полезное время — ${formatPercent(share(totals.useful, totals.observed))} наблюдаемого.`);
  const salary = context.settings?.employee_salary ?? 0;
  parts.push(
    `Потери — ${formatDuration(totals.losses)} (${formatPercent(share(totals.losses, totals.observed))} наблюдаемого времени)` +
      (money > 0 ? `, это ${formatRoubles(money)} при окладе ${formatRoubles(salary)} в месяц.` : '.'),
  );
  if (rise !== null && rise > 0) {
    parts.push(`Если убрать простои и свести отдых к регламентированным перерывам, основная работа может вырасти на ${formatPercent(rise)}.`);
  } else if (rise !== null && rise < 0) {
    // Rest and idle fall short of the owed breaks: the norm takes that time from main work.
    parts.push(
      `Резерва роста производительности нет (ΔП = ${formatPercent(rise)}): отдыха и простоев меньше регламентированных перерывов, по нормативу недостающий отдых берётся из основной работы.`,
    );
  }
  parts.push(`Выпуск — ${formatNumber(units, 0)} шт.`);
  const days = staff[0]?.balance.days.length ?? 0;
  if (days > 1) {
    parts.push(
      `Окно длиннее дня — ${days} ${daysWord(days)}: перерывы, нормативное время и загрузка считаются по каждому дню отдельно (таблица «Загрузка по сменам-дням»), ночь между днями рабочим временем не считается.`,
    );
  }
  return parts.join(' ');
}

function staffTable(staff: EmployeeResult[], totals: Totals, units: number, money: number): TableBlock {
  return {
    type: 'table',
    title: 'Загрузка сотрудников',
    collapsible: true,
    collapsed: false,
    columns: [
      { key: 'name', title: 'Сотрудник', unit: null },
      { key: 'observed', title: 'Наблюдаемое время', unit: 'мин' },
      { key: 'work', title: 'Рабочее время W', unit: 'мин' },
      { key: 'available', title: 'Нормативное время T_дост', unit: 'мин' },
      { key: 'useful_percent', title: 'Полезное время', unit: '%' },
      { key: 'losses', title: 'Потери', unit: 'мин' },
      { key: 'load', title: 'Загрузка', unit: '%' },
      { key: 'status', title: 'Состояние', unit: null },
      { key: 'units', title: 'Выпуск', unit: 'шт.' },
      { key: 'money_lost', title: 'Потерянные деньги', unit: '₽' },
    ],
    rows: staff.map((e) => ({
      employee_id: e.id,
      name: e.name,
      observed: min(e.balance.observedSeconds),
      work: min(e.balance.workSeconds),
      available: min(e.balance.availableSeconds),
      useful_percent: round2(e.balance.usefulPercent),
      losses: min(e.balance.losses.seconds),
      load: round2(e.balance.load.percentage),
      status: STATUS_LABELS[e.status].one,
      units: e.units,
      money_lost: round2(e.moneyLost),
    })),
    total:
      staff.length === 0
        ? null
        : {
            name: 'Итого',
            observed: min(totals.observed),
            work: min(totals.work),
            available: min(totals.available),
            useful_percent: pct(totals.useful, totals.observed),
            losses: min(totals.losses),
            load: pct(totals.work, totals.available),
            status: null,
            units,
            money_lost: round2(money),
          },
  };
}

/**
 * The structure by shift-day (a window longer than a day): each day's sums over the employees.
 * Every employee's balance has the same days, so day k is the same span for all of them.
 */
function daysTable(context: StructureContext, staff: EmployeeResult[], totals: Totals): TableBlock {
  const spans = staff[0]?.balance.days ?? [];
  const rows = spans.map((span, k) => {
    const sum = (f: (d: DayBalance['days'][number]) => number) => staff.reduce((acc, e) => acc + (e.balance.days[k] ? f(e.balance.days[k]!) : 0), 0);
    const work = sum((d) => d.workSeconds);
    const available = sum((d) => d.availableSeconds);
    const units = staff.every((e) => e.balance.days[k]?.units !== null) ? sum((d) => d.units ?? 0) : null;
    const length = sum((d) => d.actualDaySeconds);
    return {
      date: localDate(span.start, context.timeZone),
      employees: staff.filter((e) => e.balance.days[k]?.firstStart !== null && e.balance.days[k] !== undefined).length,
      observed: min(sum((d) => d.observedSeconds)),
      breaks: min(sum((d) => d.regulatedBreakSeconds)),
      available: min(available),
      work: min(work),
      load: pct(work, available),
      day_length: min(length),
      units,
    };
  });
  const total = (key: 'observed' | 'breaks' | 'available' | 'work' | 'day_length') => round2(rows.reduce((a, r) => a + r[key], 0));
  return {
    type: 'table',
    title: 'Загрузка по сменам-дням',
    collapsible: true,
    collapsed: false,
    columns: [
      { key: 'date', title: 'День', unit: null },
      { key: 'employees', title: 'Сотрудников с разметкой', unit: null },
      { key: 'observed', title: 'Наблюдаемое время', unit: 'мин' },
      { key: 'breaks', title: 'Регламентированные перерывы', unit: 'мин' },
      { key: 'available', title: 'Нормативное время T_дост', unit: 'мин' },
      { key: 'work', title: 'Рабочее время W', unit: 'мин' },
      { key: 'load', title: 'Загрузка', unit: '%' },
      { key: 'day_length', title: 'Фактические дни сотрудников (сумма)', unit: 'мин' },
      { key: 'units', title: 'Выпуск по отметкам', unit: 'шт.' },
    ],
    rows,
    total:
      rows.length === 0
        ? null
        : {
            date: 'Итого',
            employees: null,
            observed: total('observed'),
            breaks: total('breaks'),
            available: total('available'),
            work: total('work'),
            load: pct(totals.work, totals.available),
            day_length: total('day_length'),
            units: null,
          },
  };
}

/** The cleaning rule in words, as the statement names it above its «Правило хронометража». */
export function cleaningRuleName(mode: TimeStudy['cleaningMode']): string {
  return mode === 'both_extremes' ? 'минимальный и максимальный замеры вместе' : 'по одному крайнему замеру';
}

/** The time-study rule of the block report (METHODOLOGY §3): the cleaning rule the series were cleaned by. */
function studyRuleParagraph(study: TimeStudy): ReportBlock {
  return {
    type: 'paragraph',
    title: 'Правило хронометража',
    text: `Очистка хроноряда — ${cleaningRuleName(study.cleaningMode)} (выбрано в настройках структуры). ${study.cleaningRule} Нормативный Ку каждой операции и его источник — в таблице «Хронометраж основных операций».`,
    tone: 'normal',
  };
}

/**
 * Where an operation's normative Ку came from, in the statement's words: the structure's
 * stability threshold, or the reference table (source, edition, production type, kind of work).
 */
export function normativeSourceText(context: StructureContext, source: 'threshold' | 'reference', machine: boolean): string {
  if (source === 'threshold') return 'порог устойчивости структуры';
  const production = PRODUCTION_TYPE_LABELS[context.productionType] ?? context.productionType;
  return `справочник (${context.reference.source}, ${context.reference.edition}): ${production} производство, ${machine ? 'машинная работа' : 'ручная работа'}`;
}

function operationTable(context: StructureContext, study: TimeStudy, machineIds: Set<number>): TableBlock {
  return {
    type: 'table',
    title: 'Хронометраж основных операций',
    collapsible: true,
    collapsed: true,
    columns: [
      { key: 'name', title: 'Операция', unit: null },
      { key: 'n', title: 'Замеров', unit: 'шт.' },
      { key: 'dropped', title: 'Исключено при очистке', unit: 'шт.' },
      { key: 't_min', title: 't min', unit: 'с' },
      { key: 't_max', title: 't max', unit: 'с' },
      { key: 'time_2min', title: 'Второе наименьшее', unit: 'с' },
      { key: 't_reg', title: 't рег (норма)', unit: 'с' },
      { key: 'coef', title: 'Ку', unit: null },
      { key: 'normative_coef', title: 'Нормативный Ку', unit: null },
      { key: 'normative_source', title: 'Источник Ку', unit: null },
      { key: 'par2', title: 'Показатель 2 (CV)', unit: '%' },
      { key: 't_freq_fact', title: 'Колебание факт.', unit: '%' },
      { key: 'required_measurements', title: 'Нужно замеров', unit: 'шт.' },
      { key: 'enough_measurements', title: 'Замеров достаточно', unit: null },
    ],
    rows: study.operations.map((op) => ({
      operation_id: op.operationId,
      name: op.operationName,
      n: op.all.n,
      dropped: op.measurements.filter((m) => m.status === 'dropped').length,
      t_min: round2(op.accepted.tMin),
      t_max: round2(op.accepted.tMax),
      time_2min: round2(op.accepted.time2min),
      t_reg: round2(op.accepted.tReg),
      coef: round2(op.accepted.coef),
      normative_coef: round2(op.normativeCoef),
      normative_source: normativeSourceText(context, op.normativeSource, machineIds.has(op.operationId)),
      par2: round2(op.accepted.par2),
      t_freq_fact: round2(op.accepted.tFreqFact),
      required_measurements: op.requiredMeasurements,
      enough_measurements: op.enoughMeasurements ? 'да' : 'нет',
    })),
    total: null,
  };
}

/** Units of one employee in the window: entered by hand for it (in his statement), else his stamps. */
function employeeUnits(employeeId: number, stamps: Map<number, number>, manual: Map<number, number>): number {
  return manual.get(employeeId) ?? stamps.get(employeeId) ?? 0;
}

/**
 * Units of the structure in the window: entered by hand for the whole structure, else every
 * stamp with each employee's stamps replaced by the value entered for him.
 */
function structureUnits(stamps: Map<number, number>, manual: Map<number, number>): number {
  const whole = manual.get(0);
  if (whole !== undefined) return whole;
  let total = [...stamps.values()].reduce((a, b) => a + b, 0);
  for (const [employeeId, value] of manual) total += value - (stamps.get(employeeId) ?? 0);
  return total;
}

/** Segments grouped by employee in order of first appearance, as Map.groupBy (not in the PWA's ES2023 lib) does. */
function segmentsByEmployee(segments: ReportSegment[]): Map<number, ReportSegment[]> {
  const byEmployee = new Map<number, ReportSegment[]>();
  for (const s of segments) {
    const own = byEmployee.get(s.employeeId);
    if (own) own.push(s);
    else byEmployee.set(s.employeeId, [s]);
  }
  return byEmployee;
}

/** Russian notices of the block report: the statement's, and the employees whose shifts were observed in part. */
function blockNotices(context: StructureContext, segmentCount: number, staff: EmployeeResult[]): string[] {
  const errors = staff.reduce((n, e) => n + e.balance.inputErrors.length, 0);
  const notices = reportNotices(context, segmentCount, staff.some((e) => e.balance.basis === 'shifts') || staff.length === 0 ? 'shifts' : 'observed', errors);
  const partly = staff.filter((e) => e.balance.shifts.some((x) => x.partlyObserved));
  if (partly.length > 0) {
    notices.push(
      `Смены наблюдались не целиком у ${partly.length} ${plural(partly.length, 'сотрудника', 'сотрудников', 'сотрудников')} (${partly.map((e) => e.name).join(', ')}): баланс такой смены посчитан по наблюдаемой части, регламентированные перерывы — пропорционально этой части.`,
    );
  }
  const idleInBreaks = staff.reduce((acc, e) => acc + e.balance.losses.idleInBreakSeconds, 0);
  if (idleInBreaks > 0) notices.push(NOTICES.idleInBreaks(breakDurationText(idleInBreaks)));
  return notices;
}

/** GET /api/v2/report and /api/v3/compute-report: the whole analysis of a structure for a period. */
export function assembleBlockReport(inputs: ReportInputs): { blocks: ReportBlock[] } {
  const { structure: context, from, to, segments, employees } = inputs;
  const all = shiftInstances(context, from, to);
  const dayStarts = shiftDayStarts(context, from, to, all);
  const stamps = stampCounts(inputs);
  const manual = manualUnitsMap(inputs);
  const stampTimes = dayStarts.length > 0 ? inputs.stamps : [];
  const units = structureUnits(stamps, manual);
  const names = new Map(employees.map((e) => [e.id, e.name]));
  const salary = context.settings?.employee_salary ?? 0;

  const byEmployee = segmentsByEmployee(segments);
  const staff: EmployeeResult[] = [...byEmployee.entries()]
    .map(([id, own]) => {
      const units = employeeUnits(id, stamps, manual);
      // Shift-days: his stamps per day, unless his units were entered by hand for the whole window.
      const days = reportDays(from, dayStarts, manual.has(id) ? null : stampTimes.filter((st) => st.employeeId === id).map((st) => st.at));
      const balance = runDayBalance(own, engineSettings(context, from, to, shiftsWorked(all, own), units, days));
      return {
        id,
        name: names.get(id) ?? 'Сотрудник не указан',
        balance,
        status: loadStatus(balance.load.percentage),
        units,
        moneyLost: moneyLost(balance.losses.seconds, salary),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'ru') || a.id - b.id);
  const totals = totalsOf(staff);
  const study = runTimeStudy(segments, engineSettings(context, from, to, all), context);
  const money = moneyLost(totals.losses, salary);
  const main = totals.categories[CATEGORIES.indexOf('main')]!;
  const rise = main > 0 ? ((totals.normative[CATEGORIES.indexOf('main')]! - main) / main) * 100 : null;
  const period = `${localDateTimeText(from, context.timeZone)} — ${localDateTimeText(to, context.timeZone)}`;
  const notices = blockNotices(context, segments.length, staff);
  const blocks: ReportBlock[] = [
    {
      type: 'header',
      title: 'Анализ использования рабочего времени',
      subtitle: `${context.name} · ${period}`,
      structure: { id: context.id, name: context.name, partial: context.partial },
      from_time: toIso(from),
      to_time: toIso(to),
      period,
      time_zone: context.timeZone,
    },
    { type: 'paragraph', title: 'Итоги', text: summaryText(context, period, staff, totals, units, money, rise), tone: 'normal' },
  ];
  if (notices.length > 0) blocks.push({ type: 'paragraph', title: 'Обратите внимание', text: notices.join(' '), tone: 'notice' });
  blocks.push(
    {
      type: 'diagram',
      title: 'Использование рабочего времени',
      unit: 'мин',
      inner: categorySlices(context, totals.categories, totals.observed),
      outer: operationSlices(context, staff, totals.observed),
      label_min_percent: 4,
      total: min(totals.observed),
    },
    {
      type: 'human',
      title: 'Полезное время',
      percent: pct(totals.useful, totals.observed),
      rows: USEFUL_CATEGORIES.map((category) => {
        const seconds = totals.categories[CATEGORIES.indexOf(category)]!;
        return { key: category, ...typeInfo(context, category), value: min(seconds), percent: pct(seconds, totals.observed) };
      }),
      total: { value: min(totals.useful), percent: pct(totals.useful, totals.observed) },
    },
    { type: 'pareto', title: 'Парето потерь', unit: 'мин', bars: paretoBars(staff, totals.losses), total: min(totals.losses) },
    staffTable(staff, totals, units, money),
    ...(dayStarts.length > 0 ? [daysTable(context, staff, totals)] : []),
    {
      type: 'grouped_bar',
      title: 'Баланс времени по сотрудникам',
      unit: 'мин',
      stacked: true,
      categories: staff.map((e) => e.name),
      series: CATEGORIES.map((category, i) => ({
        key: category,
        ...typeInfo(context, category),
        values: staff.map((e) => min(e.balance.categories[i]!.seconds)),
      })),
      reference_line: { name: 'Нормативное рабочее время', values: staff.map((e) => min(e.balance.availableSeconds)) },
    },
    {
      type: 'double_diagram',
      title: 'Фактический и нормативный баланс',
      unit: 'мин',
      left: { title: 'Фактически', slices: categorySlices(context, totals.categories, totals.observed) },
      right: { title: 'По нормативу', slices: categorySlices(context, totals.normative, totals.observed) },
      productivity_rise: rise === null ? null : round2(rise),
    },
    {
      type: 'human_proportion',
      title: 'Загрузка персонала',
      groups: (['overloaded', 'balanced', 'underloaded'] as const).map((status) => {
        const count = staff.filter((e) => e.status === status).length;
        const label = STATUS_LABELS[status];
        return { status, name: label.name, range: label.range, count, percent: pct(count, staff.length), color: label.color };
      }),
      total: staff.length,
    },
    {
      type: 'black_diagram',
      title: 'Потери по часам суток',
      unit: 'мин',
      sectors: lossesByHour(staff, byEmployee, { from, to, restInIdle: (context.settings?.rest_in_idle ?? 0) === 1 }, context.timeZone),
      total: min(totals.losses),
    },
    studyRuleParagraph(study),
    operationTable(context, study, new Set(segments.filter((s) => s.machinePaced && s.category === 'main').map((s) => s.operationId))),
  );
  return { blocks };
}
