/**
 * Plain TypeScript reference of METHODOLOGY §2–§5: the oracle the WASM core is tested against.
 * Written for clarity, not speed — each rule reads as the methodology states it.
 * It exports the same functions as `index.ts`.
 */
import {
  CATEGORIES,
  type AssessorSummary,
  type DayBalance,
  type InputError,
  type Interval,
  type MarkupSpan,
  type MeasurementStatus,
  type ReportSettings,
  type Segment,
  type StaffLoad,
  type Statement,
  type SummaryOptions,
  type TimeStudy,
} from '../src/types.ts';
import {
  CATEGORY_INDEX,
  buildDayBalance,
  buildFrv,
  buildTimeStudy,
  inputErrors,
  normativeFor,
  resolveSettings,
  type DayAggregatePart,
  type DayAggregates,
  type OperationAggregate,
  type OperationKey,
  type ResolvedSettings,
  type SeriesAggregate,
} from '../src/assemble.ts';
import { CLEANING_MIN_REMAINING } from '../src/formulas.ts';
import { buildAssessorSummary, buildStaffLoad } from '../src/summary.ts';

export * from '../src/types.ts';
export * from '../src/common-exports.ts';

function categoryCode(segment: Segment): number {
  const code = CATEGORY_INDEX[segment.category];
  if (code === undefined) throw new RangeError(`Неизвестный тип операции: ${segment.category}`);
  return code;
}

const byTime = (a: Interval & { i: number }, b: Interval & { i: number }) => a.start - b.start || a.end - b.end || a.i - b.i;

// ---------------------------------------------------------------- coverage, gaps, overlaps

/** Merged (union) intervals of positive length, in time order. */
function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = intervals
    .map((iv, i) => ({ start: iv.start, end: iv.end, i }))
    .filter((iv) => iv.end > iv.start)
    .sort(byTime);
  const merged: Interval[] = [];
  for (const iv of sorted) {
    const last = merged[merged.length - 1];
    if (last && iv.start <= last.end) last.end = Math.max(last.end, iv.end);
    else merged.push({ start: iv.start, end: iv.end });
  }
  return merged;
}

/** Seconds covered by the union of the intervals (overlaps counted once). */
export function coveredSeconds(intervals: Interval[]): number {
  return mergeIntervals(intervals).reduce((acc, iv) => acc + (iv.end - iv.start), 0) / 1000;
}

/** Unmarked intervals of the window `[from, to)`. */
export function findGaps(intervals: Interval[], from: number, to: number): Interval[] {
  const clipped = intervals.map((iv) => ({ start: Math.max(iv.start, from), end: Math.min(iv.end, to) }));
  const gaps: Interval[] = [];
  let cursor = from;
  for (const iv of mergeIntervals(clipped)) {
    if (iv.start > cursor) gaps.push({ start: cursor, end: iv.start });
    cursor = Math.max(cursor, iv.end);
  }
  if (cursor < to) gaps.push({ start: cursor, end: to });
  return gaps;
}

/**
 * Pairs of overlapping segments of one employee. Per employee, in time order, a segment that
 * starts before the latest end seen so far overlaps the segment holding that end.
 */
function overlapPairs(segments: Segment[]): number[] {
  const order = segments
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.end > s.start)
    .sort((a, b) => a.s.employeeId - b.s.employeeId || a.s.start - b.s.start || a.s.end - b.s.end || a.i - b.i);
  const pairs: number[] = [];
  let holder = -1;
  for (const { s, i } of order) {
    if (holder >= 0 && segments[holder].employeeId === s.employeeId) {
      if (s.start < segments[holder].end) pairs.push(holder, i);
      if (s.end > segments[holder].end) holder = i;
    } else holder = i;
  }
  return pairs;
}

/** Input errors: overlapping segments of one employee and segments ending before they start. */
export function detectOverlaps(segments: Segment[]): InputError[] {
  return inputErrors(segments, overlapPairs(segments));
}

// ---------------------------------------------------------------- day balance

/** Category and key sums, count, first start and last end of the segments clipped to one shift-day. */
function dayPart(segments: Segment[], keyOf: number[], keyTotal: number, from: number, to: number): DayAggregatePart {
  const categoryMs = CATEGORIES.map(() => 0);
  const keyMs = new Array<number>(keyTotal).fill(0);
  let counted = 0;
  let firstStart = Infinity;
  let lastEnd = -Infinity;
  segments.forEach((s, i) => {
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    if (!(end > start)) return;
    categoryMs[categoryCode(s)] += end - start;
    keyMs[keyOf[i]] += end - start;
    counted += 1;
    firstStart = Math.min(firstStart, start);
    lastEnd = Math.max(lastEnd, end);
  });
  return { categoryMs, keyMs, counted, firstStart: counted > 0 ? firstStart : 0, lastEnd: counted > 0 ? lastEnd : 0 };
}

function dayAggregates(segments: Segment[], st: ResolvedSettings): DayAggregates {
  const categoryMs = CATEGORIES.map(() => 0);
  const keyIndex = new Map<string, number>();
  const keys: OperationKey[] = [];
  const keyMs: number[] = [];
  const keyCount: number[] = [];
  let counted = 0;
  let firstStart = Infinity;
  let lastEnd = -Infinity;
  const clipped: Interval[] = [];
  const keyOf: number[] = [];
  for (const s of segments) {
    const code = categoryCode(s);
    const name = `${s.operationId}|${s.category}`;
    let k = keyIndex.get(name);
    if (k === undefined) {
      k = keys.length;
      keyIndex.set(name, k);
      keys.push({ operationId: s.operationId, operationName: s.operationName, category: s.category });
      keyMs.push(0);
      keyCount.push(0);
    }
    keyOf.push(k);
    const start = Math.max(s.start, st.from);
    const end = Math.min(s.end, st.to);
    if (!(end > start)) continue;
    categoryMs[code] += end - start;
    keyMs[k] += end - start;
    keyCount[k] += 1;
    counted += 1;
    firstStart = Math.min(firstStart, start);
    lastEnd = Math.max(lastEnd, end);
    clipped.push({ start, end });
  }
  return {
    dayParts: st.days.length > 1 ? st.days.map((day) => dayPart(segments, keyOf, keys.length, day.start, day.end)) : undefined,
    shiftSpans: st.structure.shifts.map((shift) => dayPart(segments, keyOf, keys.length, Math.max(shift.start, st.from), Math.min(shift.end, st.to))),
    categoryMs,
    counted,
    firstStart: counted > 0 ? firstStart : 0,
    lastEnd: counted > 0 ? lastEnd : 0,
    keys,
    keyMs,
    keyCount,
    coveredMs: coveredSeconds(clipped) * 1000,
    gaps: findGaps(clipped, st.from, st.to),
    overlapPairs: overlapPairs(segments),
    // Time marked inside the regulated breaks: each key's segments clipped to each interval, summed.
    keyMsInside: (intervals) => {
      const total = new Array<number>(keys.length).fill(0);
      for (const iv of intervals) {
        const part = dayPart(segments, keyOf, keys.length, iv.start, iv.end).keyMs!;
        for (let k = 0; k < keys.length; k++) total[k] += part[k]!;
      }
      return total;
    },
  };
}

/**
 * Day balance (фотография рабочего дня) of one employee's segments over `[from, to)`.
 * @example dayBalance(segments, { from, to, structure: { shifts }, unitsProduced: 20 })
 */
export function dayBalance(segments: Segment[], settings: ReportSettings): DayBalance {
  const st = resolveSettings(settings);
  return buildDayBalance(segments, dayAggregates(segments, st), st);
}

// ---------------------------------------------------------------- time study

const EMPTY_SERIES: SeriesAggregate = {
  n: 0,
  len: 0,
  tMin: 0,
  tMax: 0,
  tAverage: 0,
  time2min: 0,
  coef: 0,
  tReg: 0,
  tFreqFact: 0,
  tFreqPred: 0,
  fluctMax: 0,
  fluctMin: 0,
  fluctAverage: 0,
  par2: 0,
};

function seriesStats(values: number[], fluctReduction: number): SeriesAggregate {
  const n = values.length;
  if (n === 0) return { ...EMPTY_SERIES };
  const sorted = [...values].sort((a, b) => a - b);
  const tMin = sorted[0];
  const tMax = sorted[n - 1];
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let fluctMax = -Infinity;
  let fluctMin = Infinity;
  let fluctAbs = 0;
  let squares = 0;
  for (const v of values) {
    const f = ((v - mean) / mean) * 100;
    fluctMax = Math.max(fluctMax, f);
    fluctMin = Math.min(fluctMin, f);
    fluctAbs += Math.abs(f);
    squares += (v - mean) * (v - mean);
  }
  const tFreqFact = ((tMax - tMin) / mean) * 100;
  return {
    n,
    len: sum,
    tMin,
    tMax,
    tAverage: mean,
    time2min: n >= 2 ? sorted[1] : tMin,
    coef: tMax / tMin,
    tReg: mean,
    tFreqFact,
    tFreqPred: tFreqFact * (1 - fluctReduction / 100),
    fluctMax,
    fluctMin,
    fluctAverage: fluctAbs / n,
    par2: n >= 2 ? (Math.sqrt(squares / (n - 1)) / mean) * 100 : 0,
  };
}

/**
 * Cleaning (§3): while Ку exceeds the normative value and more than 5 measurements remain, drop
 * the extreme farther from the median in ratio terms (max if t_max/median ≥ median/t_min). Among
 * equal values the earliest minimum or the latest maximum goes first.
 * @returns accepted flag per value (all values positive)
 */
function clean(values: number[], normative: number, bothExtremes: boolean): boolean[] {
  const accepted = values.map(() => true);
  for (;;) {
    const kept = values
      .map((v, i) => ({ v, i }))
      .filter(({ i }) => accepted[i])
      .sort((a, b) => a.v - b.v || a.i - b.i);
    const n = kept.length;
    if (n <= CLEANING_MIN_REMAINING) break;
    const min = kept[0].v;
    const max = kept[n - 1].v;
    if (!(max / min > normative)) break;
    if (bothExtremes) {
      // Min and max go together, as long as at least 5 measurements stay.
      if (n - 2 < CLEANING_MIN_REMAINING) break;
      accepted[kept[0].i] = false;
      accepted[kept[n - 1].i] = false;
      continue;
    }
    const median = n % 2 === 1 ? kept[(n - 1) / 2].v : (kept[n / 2 - 1].v + kept[n / 2].v) / 2;
    accepted[max / median >= median / min ? kept[n - 1].i : kept[0].i] = false;
  }
  return accepted;
}

/** Measurements of main operations in the window: overlapping it, or starting inside it. */
function inStudyWindow(s: Segment, from: number, to: number): boolean {
  return (s.start < to && s.end > from) || (s.start >= from && s.start < to);
}

/** Time study (хронометраж) of the main operations in `[from, to)`, by operation id. */
export function timeStudy(segments: Segment[], settings: ReportSettings): TimeStudy {
  const st = resolveSettings(settings);
  const groups = new Map<number, { name: string; items: { s: Segment; i: number }[] }>();
  segments.forEach((s, i) => {
    categoryCode(s);
    if (s.category !== 'main' || !inStudyWindow(s, st.from, st.to)) return;
    const g = groups.get(s.operationId);
    if (g) g.items.push({ s, i });
    else groups.set(s.operationId, { name: s.operationName, items: [{ s, i }] });
  });
  const ops: OperationAggregate[] = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([operationId, { name, items }]) => {
      items.sort((a, b) => a.s.start - b.s.start || a.s.end - b.s.end || a.i - b.i);
      const seconds = items.map(({ s }) => Math.max(0, Math.min(s.end, st.to) - Math.max(s.start, st.from)) / 1000);
      // A segment cut by the window counts in the balance, but a cut piece is not a cycle (§3).
      const cut = items.map(({ s }) => s.start < st.from || s.end > st.to);
      const positive = seconds.filter((v, j) => v > 0 && !cut[j]);
      const elementSeconds = positive.length > 0 ? positive.reduce((a, b) => a + b, 0) / positive.length : 0;
      const norm = normativeFor(elementSeconds, st);
      const keep = clean(positive, norm.coef, st.structure.cleaningRule === 'both_extremes');
      const status: MeasurementStatus[] = [];
      let p = 0;
      seconds.forEach((v, j) => status.push(cut[j] ? 'cut' : v > 0 ? (keep[p++] ? 'accepted' : 'dropped') : 'zero_length'));
      const accepted = seriesStats(
        positive.filter((_, j) => keep[j]),
        st.structure.fluctReduction,
      );
      return {
        operationId,
        operationName: name,
        normativeCoef: norm.coef,
        normativeSource: norm.source,
        segmentIndices: items.map(({ i }) => i),
        seconds,
        status,
        fluctPerc: seconds.map((v, j) => (v > 0 && !cut[j] && accepted.tReg > 0 ? ((v - accepted.tReg) / accepted.tReg) * 100 : 0)),
        accepted,
        all: seriesStats(positive, st.structure.fluctReduction),
      };
    });
  return buildTimeStudy(segments, ops, st);
}

// ---------------------------------------------------------------- statement and summaries

/** The statement report of one employee: day balance, time study and Table 4. */
export function statement(segments: Segment[], settings: ReportSettings): Statement {
  const st = resolveSettings(settings);
  const chronological = segments
    .map((s, i) => ({ start: s.start, end: s.end, i }))
    .sort(byTime)
    .map(({ i }) => i);
  return {
    balance: dayBalance(segments, settings),
    study: timeStudy(segments, settings),
    frv: buildFrv(segments, chronological, st),
  };
}

function groupedCoverage(spans: MarkupSpan[], groupOf: Int32Array, groupCount: number): number[] {
  const groups: Interval[][] = Array.from({ length: groupCount }, () => []);
  spans.forEach((span, i) => groups[groupOf[i]].push(span));
  return groups.map((g) => coveredSeconds(g) * 1000);
}

/** Assessor summary: marked hours (union of covered time) and salary per assessor and per day. */
export function assessorSummary(spans: MarkupSpan[], options: SummaryOptions = {}): AssessorSummary {
  return buildAssessorSummary(spans, options, groupedCoverage);
}

/** Staff view: load per employee, human_proportion shares, money lost. */
export function staffLoad(segments: Segment[], settings: ReportSettings, hoursFund?: number): StaffLoad {
  return buildStaffLoad(segments, settings, dayBalance, hoursFund);
}
