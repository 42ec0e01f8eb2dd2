/**
 * @norma/core-wasm — the report engine used by the API (Bun) and the PWA (browser).
 *
 * Same functions and types as `./reference` (the plain TypeScript oracle), but the heavy loops —
 * per-category sums, union/coverage and gaps, overlap detection, sorting, series statistics and
 * cleaning — run in WebAssembly over columns written straight into its memory.
 *
 * @example
 * import { loadCore, statement } from '@norma/core-wasm';
 * await loadCore();
 * const report = statement(segments, { from, to, structure, unitsProduced: 20 });
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
} from './types.ts';
import {
  CATEGORY_INDEX,
  SERIES_FIELDS,
  buildDayBalance,
  buildFrv,
  buildTimeStudy,
  inputErrors,
  normativeFor,
  resolveSettings,
  type DayAggregates,
  type OperationAggregate,
  type OperationKey,
  type ResolvedSettings,
  type SeriesAggregate,
} from './assemble.ts';
import { buildAssessorSummary, buildStaffLoad } from './summary.ts';
import { core, withArena, type Arena } from './wasm.ts';

export * from './types.ts';
export * from './common-exports.ts';
export { loadCore } from './wasm.ts';

const MEASUREMENT_STATUS: readonly MeasurementStatus[] = ['accepted', 'dropped', 'zero_length'];

// ---------------------------------------------------------------- columns

/** Segment columns in WASM memory (pointers) plus the key tables built while writing them. */
interface Columns {
  n: number;
  starts: number;
  ends: number;
  categories: number;
  /** Dense (operation, category) key per segment; `keys` lists them in first-seen order. */
  opKeys: number;
  keys: OperationKey[];
  /** Employee rank (ascending employee id) per segment. */
  employees: number;
}

function categoryCode(segment: Segment): number {
  const code = CATEGORY_INDEX[segment.category];
  if (code === undefined) throw new RangeError(`Неизвестный тип операции: ${segment.category}`);
  return code;
}

function writeColumns(arena: Arena, segments: Segment[]): Columns {
  const n = segments.length;
  const cols: Columns = {
    n,
    starts: arena.f64(n),
    ends: arena.f64(n),
    categories: arena.i32(n),
    opKeys: arena.i32(n),
    keys: [],
    employees: arena.i32(n),
  };
  const starts = arena.viewF64(cols.starts, n);
  const ends = arena.viewF64(cols.ends, n);
  const categories = arena.viewI32(cols.categories, n);
  const opKeys = arena.viewI32(cols.opKeys, n);
  const employees = arena.viewI32(cols.employees, n);
  const keyIndex = new Map<number, number>();
  const employeeIndex = new Map<number, number>();
  const employeeIds: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = segments[i];
    const code = categoryCode(s);
    starts[i] = s.start;
    ends[i] = s.end;
    categories[i] = code;
    // A number key avoids building a string per segment on the hot path.
    const keyId = s.operationId * CATEGORIES.length + code;
    let k = keyIndex.get(keyId);
    if (k === undefined) {
      k = cols.keys.length;
      keyIndex.set(keyId, k);
      cols.keys.push({ operationId: s.operationId, operationName: s.operationName, category: s.category });
    }
    opKeys[i] = k;
    let e = employeeIndex.get(s.employeeId);
    if (e === undefined) {
      e = employeeIds.length;
      employeeIndex.set(s.employeeId, e);
      employeeIds.push(s.employeeId);
    }
    employees[i] = e;
  }
  // Overlap pairs come out in (employee id, time) order, as in the reference.
  const rank = new Int32Array(employeeIds.length);
  employeeIds
    .map((id, e) => ({ id, e }))
    .sort((a, b) => a.id - b.id)
    .forEach(({ e }, r) => (rank[e] = r));
  for (let i = 0; i < n; i++) employees[i] = rank[employees[i]];
  return cols;
}

// ---------------------------------------------------------------- day balance

interface DayPass {
  agg: DayAggregates;
  /** Segment indices in time order (start, end, index). */
  chronological: Int32Array;
}

function dayPass(arena: Arena, cols: Columns, st: ResolvedSettings): DayPass {
  const { n } = cols;
  const keyTotal = cols.keys.length;
  const out = arena.f64(10);
  const keyMs = arena.f64(keyTotal);
  const keyCount = arena.f64(keyTotal);
  const order = arena.i32(n);
  const gaps = arena.f64(2 * (n + 1));
  const covered = arena.f64(1);
  const pairs = arena.i32(2 * n);

  core.categorySums(cols.starts, cols.ends, cols.categories, cols.opKeys, n, st.from, st.to, keyTotal, out, keyMs, keyCount);
  core.sortByKeyTime(cols.starts, cols.ends, 0, n, order);
  const gapCount = core.coverageGaps(cols.starts, cols.ends, n, st.from, st.to, order, gaps, covered);
  const chronological = arena.viewI32(order, n).slice();
  core.sortByKeyTime(cols.starts, cols.ends, cols.employees, n, order);
  const pairCount = core.findOverlaps(cols.starts, cols.ends, cols.employees, n, order, pairs);

  const sums = arena.viewF64(out, 10);
  const gapView = arena.viewF64(gaps, 2 * gapCount);
  const gapList: Interval[] = new Array(gapCount);
  for (let g = 0; g < gapCount; g++) gapList[g] = { start: gapView[2 * g], end: gapView[2 * g + 1] };
  const counted = sums[9];
  return {
    agg: {
      categoryMs: sums.slice(0, CATEGORIES.length),
      counted,
      firstStart: sums[7],
      lastEnd: sums[8],
      keys: cols.keys,
      keyMs: arena.viewF64(keyMs, keyTotal).slice(),
      keyCount: arena.viewF64(keyCount, keyTotal).slice(),
      coveredMs: arena.viewF64(covered, 1)[0],
      gaps: gapList,
      overlapPairs: arena.viewI32(pairs, 2 * pairCount).slice(),
    },
    chronological,
  };
}

/**
 * Day balance (фотография рабочего дня) of one employee's segments over `[from, to)`:
 * categories with percent_video/percent_day/percent_w_day, load, useful time, normative balance
 * and ΔП, losses with Pareto, takt, gaps and regulated breaks, input errors.
 */
export function dayBalance(segments: Segment[], settings: ReportSettings): DayBalance {
  const st = resolveSettings(settings);
  return withArena((arena) => buildDayBalance(segments, dayPass(arena, writeColumns(arena, segments), st).agg, st));
}

// ---------------------------------------------------------------- time study

/** Measurements of main operations in the window: overlapping it, or starting inside it. */
function inStudyWindow(start: number, end: number, from: number, to: number): boolean {
  return (start < to && end > from) || (start >= from && start < to);
}

function readSeries(stats: Float64Array, offset: number): SeriesAggregate {
  const series = {} as Record<(typeof SERIES_FIELDS)[number], number>;
  SERIES_FIELDS.forEach((field, f) => (series[field] = stats[offset + f]));
  return series;
}

function studyPass(arena: Arena, cols: Columns, segments: Segment[], st: ResolvedSettings): OperationAggregate[] {
  const { n } = cols;
  // Group key per segment: the operation's rank by id for main measurements, last otherwise.
  const ids = new Map<number, string>();
  for (const s of segments) {
    if (s.category === 'main' && !ids.has(s.operationId) && inStudyWindow(s.start, s.end, st.from, st.to)) {
      ids.set(s.operationId, s.operationName);
    }
  }
  const operationIds = [...ids.keys()].sort((a, b) => a - b);
  const groups = operationIds.length;
  if (groups === 0) return [];
  const rank = new Map(operationIds.map((id, r) => [id, r]));
  const groupKeys = arena.i32(n);
  const order = arena.i32(n);
  {
    const keys = arena.viewI32(groupKeys, n);
    for (let i = 0; i < n; i++) {
      const s = segments[i];
      keys[i] = s.category === 'main' && inStudyWindow(s.start, s.end, st.from, st.to) ? rank.get(s.operationId)! : groups;
    }
  }
  core.sortByKeyTime(cols.starts, cols.ends, groupKeys, n, order);

  const sortedOrder = arena.viewI32(order, n);
  const keys = arena.viewI32(groupKeys, n);
  let total = 0;
  while (total < n && keys[sortedOrder[total]] < groups) total++;
  const measured = sortedOrder.slice(0, total);

  const values = arena.f64(total);
  const offsets = arena.i32(groups + 1);
  const normatives = arena.f64(groups);
  const status = arena.i32(total);
  const fluct = arena.f64(total);
  const stats = arena.f64(groups * 2 * SERIES_FIELDS.length);
  const segmentKeys = arena.viewI32(groupKeys, n).slice();
  {
    const valueView = arena.viewF64(values, total);
    const offsetView = arena.viewI32(offsets, groups + 1);
    const normView = arena.viewF64(normatives, groups);
    let g = -1;
    let positiveSum = 0;
    let positiveCount = 0;
    const closeGroup = () => {
      if (g >= 0) normView[g] = normativeFor(positiveCount > 0 ? positiveSum / positiveCount : 0, st).coef;
    };
    for (let j = 0; j < total; j++) {
      const i = measured[j];
      const key = segmentKeys[i];
      if (key !== g) {
        closeGroup();
        g = key;
        offsetView[g] = j;
        positiveSum = 0;
        positiveCount = 0;
      }
      const s = segments[i];
      const seconds = Math.max(0, Math.min(s.end, st.to) - Math.max(s.start, st.from)) / 1000;
      valueView[j] = seconds;
      if (seconds > 0) {
        positiveSum += seconds;
        positiveCount++;
      }
    }
    closeGroup();
    offsetView[groups] = total;
  }
  core.studySeries(values, offsets, groups, normatives, st.structure.fluctReduction, status, fluct, stats);

  const valueView = arena.viewF64(values, total);
  const offsetView = arena.viewI32(offsets, groups + 1);
  const statusView = arena.viewI32(status, total);
  const fluctView = arena.viewF64(fluct, total);
  const statsView = arena.viewF64(stats, groups * 2 * SERIES_FIELDS.length);
  const normView = arena.viewF64(normatives, groups);
  const source = normativeFor(0, st).source;
  return operationIds.map((operationId, g) => {
    const lo = offsetView[g];
    const hi = offsetView[g + 1];
    const status: MeasurementStatus[] = [];
    for (let j = lo; j < hi; j++) status.push(MEASUREMENT_STATUS[statusView[j]]);
    return {
      operationId,
      operationName: ids.get(operationId)!,
      normativeCoef: normView[g],
      normativeSource: source,
      segmentIndices: measured.slice(lo, hi),
      seconds: valueView.slice(lo, hi),
      status,
      fluctPerc: fluctView.slice(lo, hi),
      accepted: readSeries(statsView, g * 2 * SERIES_FIELDS.length),
      all: readSeries(statsView, (g * 2 + 1) * SERIES_FIELDS.length),
    };
  });
}

/** Time study (хронометраж) of the main operations in `[from, to)`, by operation id. */
export function timeStudy(segments: Segment[], settings: ReportSettings): TimeStudy {
  const st = resolveSettings(settings);
  segments.forEach(categoryCode);
  return withArena((arena) => buildTimeStudy(segments, studyPass(arena, writeColumns(arena, segments), segments, st), st));
}

// ---------------------------------------------------------------- statement

/** The statement report of one employee: day balance, time study and Table 4 (frv). */
export function statement(segments: Segment[], settings: ReportSettings): Statement {
  const st = resolveSettings(settings);
  return withArena((arena) => {
    const cols = writeColumns(arena, segments);
    const day = dayPass(arena, cols, st);
    return {
      balance: buildDayBalance(segments, day.agg, st),
      study: buildTimeStudy(segments, studyPass(arena, cols, segments, st), st),
      frv: buildFrv(segments, day.chronological, st),
    };
  });
}

// ---------------------------------------------------------------- coverage, gaps, overlaps

function writeIntervals(arena: Arena, intervals: Interval[]): { starts: number; ends: number } {
  const n = intervals.length;
  const cols = { starts: arena.f64(n), ends: arena.f64(n) };
  const starts = arena.viewF64(cols.starts, n);
  const ends = arena.viewF64(cols.ends, n);
  for (let i = 0; i < n; i++) {
    starts[i] = intervals[i].start;
    ends[i] = intervals[i].end;
  }
  return cols;
}

/** Seconds covered by the union of the intervals (overlaps counted once). */
export function coveredSeconds(intervals: Interval[]): number {
  return withArena((arena) => {
    const n = intervals.length;
    const { starts, ends } = writeIntervals(arena, intervals);
    const order = arena.i32(n);
    const out = arena.f64(1);
    core.sortByKeyTime(starts, ends, 0, n, order);
    core.coverageGaps(starts, ends, n, -Infinity, Infinity, order, 0, out);
    return arena.viewF64(out, 1)[0] / 1000;
  });
}

/** Unmarked intervals of the window `[from, to)`. */
export function findGaps(intervals: Interval[], from: number, to: number): Interval[] {
  return withArena((arena) => {
    const n = intervals.length;
    const { starts, ends } = writeIntervals(arena, intervals);
    const order = arena.i32(n);
    const gaps = arena.f64(2 * (n + 1));
    const out = arena.f64(1);
    core.sortByKeyTime(starts, ends, 0, n, order);
    const count = core.coverageGaps(starts, ends, n, from, to, order, gaps, out);
    const view = arena.viewF64(gaps, 2 * count);
    return Array.from({ length: count }, (_, g) => ({ start: view[2 * g], end: view[2 * g + 1] }));
  });
}

/** Input errors: overlapping segments of one employee and segments ending before they start. */
export function detectOverlaps(segments: Segment[]): InputError[] {
  return withArena((arena) => {
    const cols = writeColumns(arena, segments);
    const { n } = cols;
    const order = arena.i32(n);
    const pairs = arena.i32(2 * n);
    core.sortByKeyTime(cols.starts, cols.ends, cols.employees, n, order);
    const count = core.findOverlaps(cols.starts, cols.ends, cols.employees, n, order, pairs);
    return inputErrors(segments, arena.viewI32(pairs, 2 * count).slice());
  });
}

// ---------------------------------------------------------------- summaries

function groupedCoverage(spans: MarkupSpan[], groupOf: Int32Array, groupCount: number): Float64Array {
  return withArena((arena) => {
    const n = spans.length;
    const { starts, ends } = writeIntervals(arena, spans);
    const groups = arena.i32(n);
    const order = arena.i32(n);
    const out = arena.f64(groupCount);
    arena.viewI32(groups, n).set(groupOf);
    core.sortByKeyTime(starts, ends, groups, n, order);
    core.groupedCoverage(starts, ends, groups, n, order, groupCount, out);
    return arena.viewF64(out, groupCount).slice();
  });
}

/** Assessor summary: marked hours (union of covered time) and salary per assessor and per day. */
export function assessorSummary(spans: MarkupSpan[], options: SummaryOptions = {}): AssessorSummary {
  return buildAssessorSummary(spans, options, groupedCoverage);
}

/** Staff view: load per employee, human_proportion shares, money lost. */
export function staffLoad(segments: Segment[], settings: ReportSettings, hoursFund?: number): StaffLoad {
  return buildStaffLoad(segments, settings, dayBalance, hoursFund);
}
