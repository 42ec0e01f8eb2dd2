/**
 * Turns aggregates (the output of the heavy loops) into report objects. Both implementations —
 * the WASM wrapper and the plain reference — compute the aggregates their own way and share this
 * step, so property tests compare exactly the part that WASM accelerates, while hand-computed
 * examples pin the formulas here.
 */
import {
  CATEGORIES,
  USEFUL_CATEGORIES,
  WORK_CATEGORIES,
  type BreakRow,
  type Category,
  type CategoryBalance,
  type DayBalance,
  type DayPart,
  type FrvRow,
  type InputError,
  type Losses,
  type Interval,
  type Measurement,
  type MeasurementStatus,
  type NormativeCategory,
  type OperationBalance,
  type OperationStudy,
  type ParetoRow,
  type ReportSettings,
  type SeriesStats,
  type Segment,
  type ShiftObservation,
  type StabilityTable,
  type StructureSettings,
  type TimeStudy,
} from './types.ts';
import { DEFAULT_STABILITY_TABLE, accuracyFor, normativeStability } from './reference-data.ts';
import {
  DEFAULT_REGULAR_BREAK_MINUTES,
  cleaningRuleText,
  PARTIAL_BREAK_SECONDS_PER_HOUR,
  loadText,
  multiDayLoadText,
  NO_OBSERVATIONS_TEXT,
  percentOf,
  requiredMeasurements,
} from './formulas.ts';

// ---------------------------------------------------------------- settings

export interface ResolvedSettings {
  from: number;
  to: number;
  structure: StructureSettings;
  /** Units produced in the window: a count, 0 when there are none (METHODOLOGY §6). */
  unitsProduced: number;
  table: StabilityTable;
  /** Shift-days partitioning [from, to), in time order; one day when none were given. */
  days: { start: number; end: number; units: number | null }[];
}

/** Output is a count (METHODOLOGY §6): the value given, 0 when there is none. */
const unitsCount = (units: number | null | undefined) => (typeof units === 'number' && Number.isFinite(units) && units > 0 ? units : 0);

/**
 * The window cut at the given day starts: each day runs to the next start, the first from `from`,
 * the last to `to`, so the days always partition the window.
 */
function resolveDays(settings: ReportSettings, from: number, to: number, unitsProduced: number): ResolvedSettings['days'] {
  const starts = (settings.days ?? [])
    .filter((d) => Number.isFinite(d.start) && d.start > from && d.start < to)
    .sort((a, b) => a.start - b.start)
    .filter((d, i, list) => i === 0 || d.start !== list[i - 1].start);
  if (starts.length === 0) return [{ start: from, end: to, units: unitsProduced }];
  // A day's count may be 0 (known: nothing made that day); only a missing count is null.
  const count = (units: number | null | undefined) => (typeof units === 'number' && Number.isFinite(units) && units >= 0 ? units : null);
  const first = (settings.days ?? []).find((d) => d.start <= from);
  const cuts = [{ start: from, units: count(first?.units) }, ...starts.map((d) => ({ start: d.start, units: count(d.units) }))];
  return cuts.map((d, i) => ({ start: d.start, end: i + 1 < cuts.length ? cuts[i + 1].start : to, units: d.units }));
}

const DEFAULT_STRUCTURE: StructureSettings = {
  partial: false,
  shifts: [],
  regularBreakDuration: DEFAULT_REGULAR_BREAK_MINUTES,
  timeSeriesStabilityThreshold: null,
  fluctReduction: 0,
  restInIdle: false,
  productionType: 'series',
  machinePaced: false,
  employeeCount: 1,
  employeeSalary: 0,
  cleaningRule: 'one_extreme',
};

const finiteOr = (value: number | null | undefined, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/** Merges defaults once and sanitises numbers, so the maths never meets NaN or Infinity. */
export function resolveSettings(settings: ReportSettings): ResolvedSettings {
  const s = { ...DEFAULT_STRUCTURE, ...(settings.structure ?? {}) };
  const threshold = s.timeSeriesStabilityThreshold;
  const units = unitsCount(settings.unitsProduced);
  const from = finiteOr(settings.from, 0);
  const to = Math.max(from, finiteOr(settings.to, from));
  return {
    from,
    to,
    days: resolveDays(settings, from, to, units),
    structure: {
      ...s,
      shifts: s.shifts ?? [],
      regularBreakDuration: Math.max(0, finiteOr(s.regularBreakDuration, DEFAULT_REGULAR_BREAK_MINUTES)),
      timeSeriesStabilityThreshold: typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 1 ? threshold : null,
      fluctReduction: Math.min(100, Math.max(0, finiteOr(s.fluctReduction, 0))),
      employeeSalary: Math.max(0, finiteOr(s.employeeSalary, 0)),
      employeeCount: Math.max(0, finiteOr(s.employeeCount, 1)),
      cleaningRule: s.cleaningRule === 'both_extremes' ? 'both_extremes' : 'one_extreme',
    },
    unitsProduced: units,
    table: settings.stabilityTable ?? DEFAULT_STABILITY_TABLE,
  };
}

export const CATEGORY_INDEX: Readonly<Record<Category, number>> = Object.fromEntries(CATEGORIES.map((c, i) => [c, i])) as Record<Category, number>;

// ---------------------------------------------------------------- shifts and breaks

interface ShiftTime {
  basis: 'shifts' | 'observed';
  shiftMs: number;
  breakMs: number;
  regulatedRows: BreakRow[];
  /** The shifts the employee was observed in, with their observed parts. */
  shifts: ShiftObservation[];
}

/**
 * First start and last end of the segments inside one shift (cut to the window): the observed
 * part of the shift (METHODOLOGY §6). `counted` 0: the employee was not observed in it.
 */
export interface ShiftSpan {
  counted: number;
  firstStart: number;
  lastEnd: number;
}

/**
 * T_shift and B_reg of the window. Each shift counts over its observed part (METHODOLOGY §6): from
 * the shift start or the first observation, whichever is later, to the shift end or the last
 * observation, whichever is earlier, within [from, to); a shift without observation counts not
 * at all. Its break is owed pro rata of that part (explicit break intervals: the part of them
 * inside it). With a partial structure, or when no shift was observed, T_shift = T_obs and
 * B_reg = 10 minutes per observed hour. Without `spans` every shift counts whole.
 */
function shiftTime(
  structure: StructureSettings,
  from: number,
  to: number,
  observedMs: number,
  spans: readonly ShiftSpan[] | undefined,
  basis?: ShiftTime['basis'],
): ShiftTime {
  let shiftMs = 0;
  let breakMs = 0;
  const regulatedRows: BreakRow[] = [];
  const shifts: ShiftObservation[] = [];
  if (!structure.partial) {
    structure.shifts.forEach((shift, i) => {
      const length = shift.end - shift.start;
      const rangeStart = Math.max(shift.start, from);
      const rangeEnd = Math.min(shift.end, to);
      const span = spans?.[i];
      if (span && !(span.counted > 0)) return;
      const partStart = span ? Math.max(rangeStart, span.firstStart) : rangeStart;
      const partEnd = span ? Math.min(rangeEnd, span.lastEnd) : rangeEnd;
      const inside = partEnd - partStart;
      if (!(length > 0) || !(inside > 0)) return;
      shiftMs += inside;
      let owed = 0;
      if (shift.breaks && shift.breaks.length > 0) {
        for (const b of shift.breaks) {
          const start = Math.max(b.start, partStart);
          const end = Math.min(b.end, partEnd);
          if (end > start) {
            owed += end - start;
            regulatedRows.push({ type: 'regulated', start, end, seconds: (end - start) / 1000 });
          }
        }
      } else {
        const minutes = Math.max(0, finiteOr(shift.breakMinutes, structure.regularBreakDuration));
        owed = minutes * 60_000 * (inside / length);
      }
      breakMs += owed;
      shifts.push({
        start: rangeStart,
        end: rangeEnd,
        observedStart: partStart,
        observedEnd: partEnd,
        partlyObserved: partStart > rangeStart || partEnd < rangeEnd,
        shiftSeconds: inside / 1000,
        regulatedBreakSeconds: owed / 1000,
      });
    });
  }
  // A shift-day follows the window's basis: a day of a shift-based window without a worked shift
  // has no normative time, rather than an observed-time basis of its own.
  if (basis === 'shifts' || (basis === undefined && shiftMs > 0)) return { basis: 'shifts', shiftMs, breakMs, regulatedRows, shifts };
  return {
    basis: 'observed',
    shiftMs: observedMs,
    breakMs: (observedMs / 3_600_000) * PARTIAL_BREAK_SECONDS_PER_HOUR * 1000,
    regulatedRows: [],
    shifts: [],
  };
}

// ---------------------------------------------------------------- day balance

export interface OperationKey {
  operationId: number;
  operationName: string;
  category: Category;
}

/** What the heavy loops of a day balance produce. Times in ms, clipped to the window. */
export interface DayAggregates {
  /** Per category code. */
  categoryMs: ArrayLike<number>;
  /** Segments with time inside the window. */
  counted: number;
  firstStart: number;
  lastEnd: number;
  keys: OperationKey[];
  keyMs: ArrayLike<number>;
  keyCount: ArrayLike<number>;
  coveredMs: number;
  gaps: Interval[];
  /** Flat pairs (earlier segment index, overlapping segment index). */
  overlapPairs: ArrayLike<number>;
  /** Indices with end < start, when the caller found them already. */
  endBeforeStart?: ArrayLike<number>;
  /**
   * Per shift-day of `settings.days` (when there are several): category sums, counted segments,
   * first start and last end of the segments clipped to that day.
   */
  dayParts?: DayAggregatePart[];
  /** Per shift of `settings.structure.shifts`: the segments inside it (cut to the window). */
  shiftSpans?: ShiftSpan[];
  /**
   * Per operation key (as `keys`), ms of the segments inside the given intervals (disjoint, in
   * time order): the time marked inside the regulated break intervals (METHODOLOGY §2, losses).
   * Absent: nothing is inside.
   */
  keyMsInside?: (intervals: readonly Interval[]) => ArrayLike<number>;
}

export interface DayAggregatePart {
  categoryMs: ArrayLike<number>;
  /** Per operation key (as DayAggregates.keys), ms inside the day. */
  keyMs?: ArrayLike<number>;
  counted: number;
  firstStart: number;
  lastEnd: number;
}

/**
 * Segments as the assembly step reads them: an array of objects, or a table that materialises
 * one row on demand (the columnar entry points of the WASM wrapper).
 */
export type SegmentRows = readonly Segment[] | { readonly length: number; row(i: number): Segment };

export function rowOf(segments: SegmentRows, i: number): Segment {
  return Array.isArray(segments) ? (segments as readonly Segment[])[i] : (segments as { row(i: number): Segment }).row(i);
}

/**
 * `endBeforeStart`, when given, lists the indices with end < start in index order (computed by
 * the caller over its columns); otherwise they are found here.
 */
export function inputErrors(segments: SegmentRows, overlapPairs: ArrayLike<number>, endBeforeStart?: ArrayLike<number>): InputError[] {
  const errors: InputError[] = [];
  const reversed: ArrayLike<number> = endBeforeStart ?? findEndBeforeStart(segments);
  for (let r = 0; r < reversed.length; r++) {
    const i = reversed[r];
    const s = rowOf(segments, i);
    errors.push({
      code: 'end_before_start',
      employeeId: s.employeeId,
      segmentIndex: i,
      otherSegmentIndex: null,
      segmentId: s.id ?? null,
      otherSegmentId: null,
      message: `Операция «${s.operationName}» заканчивается раньше, чем начинается`,
    });
  }
  for (let k = 0; k + 1 < overlapPairs.length; k += 2) {
    const a = rowOf(segments, overlapPairs[k]);
    const b = rowOf(segments, overlapPairs[k + 1]);
    errors.push({
      code: 'overlap',
      employeeId: b.employeeId,
      segmentIndex: overlapPairs[k + 1],
      otherSegmentIndex: overlapPairs[k],
      segmentId: b.id ?? null,
      otherSegmentId: a.id ?? null,
      message: `Операция «${b.operationName}» пересекается с операцией «${a.operationName}» того же сотрудника`,
    });
  }
  return errors;
}

function findEndBeforeStart(segments: SegmentRows): number[] {
  const found: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = rowOf(segments, i);
    if (s.end < s.start) found.push(i);
  }
  return found;
}

/** The union of the intervals, disjoint and in time order (two shifts' breaks may overlap). */
function unionOf(intervals: readonly Interval[]): Interval[] {
  const merged: Interval[] = [];
  for (const iv of [...intervals].filter((x) => x.end > x.start).sort((a, b) => a.start - b.start || a.end - b.end)) {
    const last = merged[merged.length - 1];
    if (last && iv.start <= last.end) last.end = Math.max(last.end, iv.end);
    else merged.push({ start: iv.start, end: iv.end });
  }
  return merged;
}

/**
 * Idle and rest marked inside the regulated break intervals (Table 6's «регламентированный
 * перерыв» rows): per shift-day and per operation key. That time is the break the statement already
 * counts, so it is never a loss too (docs/methodology.md, «Потери»).
 */
interface BreakTime {
  /** Per shift-day of `settings.days` (one entry for one day): per key ms inside the breaks. */
  dayKeyMs: ArrayLike<number>[];
  /** Per key ms inside the breaks over the window. */
  keyMs: ArrayLike<number>;
}

function breakTime(agg: DayAggregates, settings: ResolvedSettings, shift: ShiftTime): BreakTime {
  const zeros = new Array<number>(agg.keys.length).fill(0);
  const intervals = shift.basis === 'shifts' ? unionOf(shift.regulatedRows) : [];
  const inside = (from: number, to: number) => {
    const cut = intervals.map((b) => ({ start: Math.max(b.start, from), end: Math.min(b.end, to) })).filter((b) => b.end > b.start);
    return cut.length > 0 && agg.keyMsInside ? agg.keyMsInside(cut) : zeros;
  };
  const keyMs = inside(-Infinity, Infinity);
  return { keyMs, dayKeyMs: settings.days.length === 1 ? [keyMs] : settings.days.map((d) => inside(d.start, d.end)) };
}

/** Seconds of one category among per-key ms. */
function categoryOfKeys(agg: DayAggregates, keyMs: ArrayLike<number>, category: Category): number {
  let ms = 0;
  agg.keys.forEach((key, k) => {
    if (key.category === category) ms += keyMs[k] ?? 0;
  });
  return ms / 1000;
}

function byTimeThenType(a: BreakRow, b: BreakRow): number {
  return a.start - b.start || a.end - b.end || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);
}

export function buildDayBalance(segments: SegmentRows, agg: DayAggregates, settings: ResolvedSettings): DayBalance {
  const { structure } = settings;
  const sec = (code: number) => agg.categoryMs[code] / 1000;
  const observedMs = Array.from({ length: CATEGORIES.length }, (_, c) => agg.categoryMs[c]).reduce((a, b) => a + b, 0);
  const observed = observedMs / 1000;
  const shift = shiftTime(structure, settings.from, settings.to, observedMs, agg.shiftSpans);
  const shiftSeconds = shift.shiftMs / 1000;
  const breakSeconds = shift.breakMs / 1000;
  const available = Math.max(0, shiftSeconds - breakSeconds);
  const sumOf = (cats: readonly Category[]) => cats.reduce((acc, c) => acc + sec(CATEGORY_INDEX[c]), 0);
  const work = sumOf(WORK_CATEGORIES);
  const useful = sumOf(USEFUL_CATEGORIES);

  const categories: CategoryBalance[] = CATEGORIES.map((category, index) => ({
    category,
    index,
    seconds: sec(index),
    minutes: sec(index) / 60,
    percentVideo: percentOf(sec(index), observed),
    percentDay: percentOf(sec(index), shiftSeconds),
    percentWDay: percentOf(sec(index), available),
  }));

  const operations: OperationBalance[] = agg.keys
    .map((key, k) => {
      const seconds = agg.keyMs[k] / 1000;
      const count = agg.keyCount[k];
      return {
        operationId: key.operationId,
        operationName: key.operationName,
        category: key.category,
        index: CATEGORY_INDEX[key.category],
        count,
        seconds,
        averageSeconds: count > 0 ? seconds / count : 0,
        percentVideo: percentOf(seconds, observed),
        percentDay: percentOf(seconds, shiftSeconds),
        percentWDay: percentOf(seconds, available),
      };
    })
    .filter((row) => row.count > 0)
    .sort((a, b) => a.index - b.index || a.operationId - b.operationId);

  const percentage = percentOf(work, available);
  const overload = percentage > 100;
  const underloaded = available > 0 && work < available;
  const load = {
    percentage,
    overload,
    overworking: overload ? (work - available) / 60 : 0,
    overworkingPer: overload ? percentOf(work - available, available) : 0,
    underload: underloaded ? (available - work) / 60 : 0,
    underloadPer: underloaded ? percentOf(available - work, available) : 0,
    text: '',
  };

  // Normative balance: idle → 0, rest → B_reg, the freed (or missing) time goes to main work.
  const main = sec(CATEGORY_INDEX.main);
  const rest = sec(CATEGORY_INDEX.rest);
  const idle = sec(CATEGORY_INDEX.idle);
  const pool = main + rest + idle;
  const restNorm = Math.min(breakSeconds, pool);
  const normSeconds = (c: Category) => (c === 'idle' ? 0 : c === 'rest' ? restNorm : c === 'main' ? pool - restNorm : sec(CATEGORY_INDEX[c]));
  const normative: NormativeCategory[] = CATEGORIES.map((category) => {
    const seconds = normSeconds(category);
    return { category, seconds, minutes: seconds / 60, percent: percentOf(seconds, observed) };
  });
  const productivityRise = main > 0 ? ((normSeconds('main') - main) / main) * 100 : null;

  // Rest above the regulated breaks, per shift-day and summed: never netted across days (§6).
  const { days, losses } = lossesOf(agg, settings, shift, observed);

  // The actual working day of each shift-day, summed: the nights between days are not working time.
  const actualDaySeconds = days.reduce((acc, d) => acc + d.actualDaySeconds, 0);
  const units = settings.unitsProduced;
  const takt = {
    actualDaySeconds,
    breakSeconds: 0,
    units,
    seconds: units > 0 && actualDaySeconds > 0 ? actualDaySeconds / units : null,
  };
  const activeDays = days.filter((d) => d.firstStart !== null).length;
  if (activeDays > 1) load.text = multiDayLoadText(activeDays, work, available);
  else load.text = loadText(work, available, observed);

  const gapRows: BreakRow[] = agg.gaps.map((g) => ({ type: 'gap', start: g.start, end: g.end, seconds: (g.end - g.start) / 1000 }));

  return {
    basis: shift.basis,
    observedSeconds: observed,
    shiftSeconds,
    regulatedBreakSeconds: breakSeconds,
    availableSeconds: available,
    workSeconds: work,
    categories,
    operations,
    load,
    usefulSeconds: useful,
    usefulPercent: percentOf(useful, observed),
    normative,
    productivityRise,
    losses,
    takt,
    coveredSeconds: agg.coveredMs / 1000,
    breaks: [...shift.regulatedRows, ...gapRows].sort(byTimeThenType),
    inputErrors: inputErrors(segments, agg.overlapPairs, agg.endBeforeStart),
    days,
    shifts: shift.shifts,
  };
}

/**
 * The shift-days and the losses with their Pareto: idle, and rest above the regulated breaks of each
 * shift-day (never netted across days, §6). Idle inside a regulated break interval is that break,
 * not a loss (docs/methodology.md, «Потери»).
 */
function lossesOf(agg: DayAggregates, settings: ResolvedSettings, shift: ShiftTime, observed: number): { days: DayPart[]; losses: Losses } {
  const inBreaks = breakTime(agg, settings, shift);
  const days = dayParts(agg, settings, shift, inBreaks);
  const restLoss = days.reduce((acc, d) => acc + d.restLossSeconds, 0);
  const idleLossOfKey = (k: number) => Math.max(0, agg.keyMs[k] - (inBreaks.keyMs[k] ?? 0)) / 1000;
  const idle = agg.categoryMs[CATEGORY_INDEX.idle] / 1000;
  const idleLoss = agg.keys.reduce((acc, key, k) => acc + (key.category === 'idle' ? idleLossOfKey(k) : 0), 0);
  const lossSeconds = idleLoss + restLoss;
  const restLossOfKey = restLossByKey(agg, days, inBreaks, settings.structure.restInIdle);
  const paretoBase = agg.keys
    .map((key, k) => ({
      operationId: key.operationId,
      operationName: key.operationName,
      category: key.category,
      seconds: key.category === 'idle' ? idleLossOfKey(k) : key.category === 'rest' ? restLossOfKey(k) : 0,
    }))
    .filter((row) => row.seconds > 0)
    .sort((a, b) => b.seconds - a.seconds || a.operationId - b.operationId || CATEGORY_INDEX[a.category] - CATEGORY_INDEX[b.category]);
  let running = 0;
  const pareto: ParetoRow[] = paretoBase.map((row) => {
    running += row.seconds;
    return { ...row, percent: percentOf(row.seconds, lossSeconds), cumulativePercent: percentOf(running, lossSeconds) };
  });
  return {
    days,
    losses: {
      seconds: lossSeconds,
      idleSeconds: idleLoss,
      restSeconds: restLoss,
      idleInBreakSeconds: Math.max(0, idle - idleLoss),
      percent: percentOf(lossSeconds, observed),
      pareto,
    },
  };
}

/**
 * The window's shift-days (METHODOLOGY §2): each day's balance on the window's basis, so the days
 * add up to the window. One day: the window's own figures.
 */
function dayParts(agg: DayAggregates, settings: ResolvedSettings, whole: ShiftTime, inBreaks: BreakTime): DayPart[] {
  const single = settings.days.length === 1;
  const parts: DayAggregatePart[] =
    single || !agg.dayParts ? [{ categoryMs: agg.categoryMs, counted: agg.counted, firstStart: agg.firstStart, lastEnd: agg.lastEnd }] : agg.dayParts;
  return settings.days.map((day, k) => {
    const part = parts[k] ?? { categoryMs: CATEGORIES.map(() => 0), counted: 0, firstStart: 0, lastEnd: 0 };
    let observedMs = 0;
    for (let c = 0; c < CATEGORIES.length; c++) observedMs += part.categoryMs[c];
    const work = WORK_CATEGORIES.reduce((acc, c) => acc + part.categoryMs[CATEGORY_INDEX[c]] / 1000, 0);
    const shift = single ? whole : shiftTime(settings.structure, day.start, day.end, observedMs, agg.shiftSpans, whole.basis);
    const shiftSeconds = shift.shiftMs / 1000;
    const breakSeconds = shift.breakMs / 1000;
    const available = Math.max(0, shiftSeconds - breakSeconds);
    const loadPercent = percentOf(work, available);
    const actual = part.counted > 0 ? (part.lastEnd - part.firstStart) / 1000 : 0;
    const rest = part.categoryMs[CATEGORY_INDEX.rest] / 1000;
    const idleInBreaks = Math.min(part.categoryMs[CATEGORY_INDEX.idle] / 1000, categoryOfKeys(agg, inBreaks.dayKeyMs[k] ?? [], 'idle'));
    const restInBreaks = Math.min(rest, categoryOfKeys(agg, inBreaks.dayKeyMs[k] ?? [], 'rest'));
    const units = single ? settings.unitsProduced : day.units;
    return {
      start: day.start,
      end: day.end,
      observedSeconds: observedMs / 1000,
      workSeconds: work,
      shiftSeconds,
      regulatedBreakSeconds: breakSeconds,
      availableSeconds: available,
      loadPercent,
      overload: loadPercent > 100,
      // A day without observation is not part of his window (§6): said as such, not as «нет смен».
      text: part.counted > 0 ? loadText(work, available, observedMs / 1000) : NO_OBSERVATIONS_TEXT,
      observed: part.counted > 0,
      partlyObserved: shift.shifts.some((x) => x.partlyObserved),
      restSeconds: rest,
      idleInBreakSeconds: idleInBreaks,
      restInBreakSeconds: restInBreaks,
      // Idle inside a break interval is that break: it takes its share of B_reg as rest would.
      // With rest_in_idle every rest is a loss, except the rest inside a break interval.
      restLossSeconds: settings.structure.restInIdle ? rest - restInBreaks : Math.max(0, rest - Math.max(0, breakSeconds - idleInBreaks)),
      firstStart: part.counted > 0 ? part.firstStart : null,
      lastEnd: part.counted > 0 ? part.lastEnd : null,
      actualDaySeconds: actual,
      units,
      taktSeconds: units !== null && units > 0 && actual > 0 ? actual / units : null,
    };
  });
}

/**
 * Rest loss of each operation key: its rest in each shift-day (with rest_in_idle: its rest outside
 * the break intervals) times that day's share of rest above the day's breaks, so the Pareto's rest
 * rows add up to the per-day excesses.
 */
function restLossByKey(agg: DayAggregates, days: DayPart[], inBreaks: BreakTime, restInIdle: boolean): (k: number) => number {
  const parts = agg.dayParts;
  const lossable = (keyMs: ArrayLike<number>, breakMs: ArrayLike<number>, k: number) => Math.max(0, keyMs[k] - (restInIdle ? (breakMs[k] ?? 0) : 0)) / 1000;
  const shareOf = (d: DayPart) => {
    const base = d.restSeconds - (restInIdle ? d.restInBreakSeconds : 0);
    return base > 0 ? d.restLossSeconds / base : 0;
  };
  if (days.length === 1 || !parts || parts.some((p) => !p.keyMs)) {
    const restLoss = days.reduce((acc, d) => acc + d.restLossSeconds, 0);
    const base = agg.keys.reduce((acc, key, k) => acc + (key.category === 'rest' ? lossable(agg.keyMs, inBreaks.keyMs, k) : 0), 0);
    const share = days.length === 1 ? shareOf(days[0]!) : base > 0 ? restLoss / base : 0;
    return (k) => lossable(agg.keyMs, inBreaks.keyMs, k) * share;
  }
  return (k) => days.reduce((acc, d, i) => acc + lossable(parts[i]!.keyMs!, inBreaks.dayKeyMs[i] ?? [], k) * shareOf(d), 0);
}

// ---------------------------------------------------------------- time study

/** Series statistics as the loops produce them (everything but standard_len). */
export type SeriesAggregate = Omit<SeriesStats, 'standardLen'>;

export interface OperationAggregate {
  operationId: number;
  operationName: string;
  normativeCoef: number;
  normativeSource: 'threshold' | 'reference';
  /** Chronological measurements. */
  segmentIndices: ArrayLike<number>;
  seconds: ArrayLike<number>;
  status: MeasurementStatus[];
  fluctPerc: ArrayLike<number>;
  accepted: SeriesAggregate;
  all: SeriesAggregate;
}

/**
 * Normative Ку of an operation: the structure's threshold when set, else the reference table for
 * the element's typical duration (mean of its non-zero measurements, seconds).
 */
export function normativeFor(elementSeconds: number, settings: ResolvedSettings): { coef: number; source: 'threshold' | 'reference' } {
  const threshold = settings.structure.timeSeriesStabilityThreshold;
  if (threshold !== null) return { coef: threshold, source: 'threshold' };
  const { productionType, machinePaced } = settings.structure;
  return { coef: normativeStability(productionType, elementSeconds, machinePaced, settings.table), source: 'reference' };
}

export function buildTimeStudy(segments: SegmentRows, ops: OperationAggregate[], settings: ResolvedSettings): TimeStudy {
  const accuracyPercent = accuracyFor(settings.structure.productionType, settings.table);
  const operations: OperationStudy[] = ops.map((op) => {
    const nAll = op.all.n;
    const accepted: SeriesStats = { ...op.accepted, standardLen: op.accepted.tReg * nAll };
    const all: SeriesStats = { ...op.all, standardLen: op.all.tReg * nAll };
    const required = requiredMeasurements(accepted.par2, accuracyPercent);
    const requiredAll = requiredMeasurements(all.par2, accuracyPercent);
    const measurements: Measurement[] = Array.from({ length: op.seconds.length }, (_, i) => {
      const segmentIndex = op.segmentIndices[i];
      const s = rowOf(segments, segmentIndex);
      return {
        number: i + 1,
        segmentIndex,
        segmentId: s.id ?? null,
        start: Math.max(s.start, settings.from),
        seconds: op.seconds[i],
        status: op.status[i],
        fluctPerc: op.fluctPerc[i],
        fluctPercAll: op.seconds[i] > 0 && op.status[i] !== 'cut' && all.tReg > 0 ? ((op.seconds[i] - all.tReg) / all.tReg) * 100 : 0,
      };
    });
    return {
      operationId: op.operationId,
      operationName: op.operationName,
      normativeCoef: op.normativeCoef,
      normativeSource: op.normativeSource,
      accuracyPercent,
      accepted,
      all,
      fluctAve: accepted.fluctAverage,
      requiredMeasurements: required,
      enoughMeasurements: accepted.n >= required,
      fluctAveAll: all.fluctAverage,
      requiredMeasurementsAll: requiredAll,
      enoughMeasurementsAll: all.n >= requiredAll,
      measurements,
    };
  });
  return {
    operations,
    maxOperationCount: operations.reduce((m, o) => Math.max(m, o.measurements.length), 0),
    cleaningRule: cleaningRuleText(settings.structure.cleaningRule),
    cleaningMode: settings.structure.cleaningRule,
  };
}

// ---------------------------------------------------------------- work-day photography

/** Table 4 rows from segment indices already in time order (segments with time in the window). */
export function buildFrv(segments: SegmentRows, chronological: ArrayLike<number>, settings: ResolvedSettings): FrvRow[] {
  const rows: FrvRow[] = [];
  for (let k = 0; k < chronological.length; k++) {
    const i = chronological[k];
    const s = rowOf(segments, i);
    const start = Math.max(s.start, settings.from);
    const end = Math.min(s.end, settings.to);
    if (!(end > start)) continue;
    rows.push({
      number: rows.length + 1,
      segmentIndex: i,
      segmentId: s.id ?? null,
      name: s.operationName,
      start,
      end,
      lenInterval: (end - start) / 1000,
      index: CATEGORY_INDEX[s.category],
      category: s.category,
    });
  }
  return rows;
}
