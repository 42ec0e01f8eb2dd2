/**
 * The kernel wrapper: moves segment columns into the WASM core's memory (zero-copy where it can),
 * runs its loops (`assembly/index.ts`) and reads their results back as aggregates. It computes no
 * report figure itself and calls nothing back: the engine (`engine.ts`) calls it, then turns the
 * aggregates into reports with `assemble.ts`.
 */
import { CATEGORIES, type Interval, type MarkupSpan, type MeasurementStatus, type Segment } from './types.ts';
import type { DayAggregatePart, DayAggregates, OperationAggregate, OperationKey, ResolvedSettings, SegmentRows, SeriesAggregate } from './assemble.ts';
import { core, withArena, type Arena } from './wasm.ts';

const MEASUREMENT_STATUS: readonly MeasurementStatus[] = ['accepted', 'dropped', 'zero_length', 'cut'];
const STATUS_CUT = 3;

// ---------------------------------------------------------------- columns

/**
 * Segments as columns: the input the API can build straight from its SQL rows, without one
 * object per segment. `toSegmentColumns` turns `Segment[]` into this; every `…Columns` function
 * gives exactly what its object counterpart gives for the same segments.
 */
export interface SegmentColumns {
  starts: Float64Array;
  ends: Float64Array;
  /** Category code per segment: its index in `CATEGORIES`. */
  categories: Int32Array;
  /** Operation per segment: an index into `operationTable`. */
  operations: Int32Array;
  operationTable: readonly { operationId: number; operationName: string }[];
  employeeIds: Float64Array | Int32Array;
  /** Markup row id per segment, NaN where it has none; omitted: no ids. */
  ids?: Float64Array;
}

/** Category code by name (a Map: a keyed load on the constant-name object was a hot spot). */
const CATEGORY_CODE = new Map<string, number>(CATEGORIES.map((c, i) => [c, i]));

function categoryCode(category: string): number {
  const code = CATEGORY_CODE.get(category);
  if (code === undefined) throw new RangeError(`Неизвестный тип операции: ${category}`);
  return code;
}

interface ColumnTargets {
  starts: Float64Array;
  ends: Float64Array;
  categories: Int32Array;
  operations: Int32Array;
  employeeIds: Float64Array | Int32Array;
  ids?: Float64Array;
}

/**
 * Dense index of small non-negative integer ids (database ids), with a Map for any other number.
 * Returns the index of `id`, adding it when new.
 */
class IdIndex {
  readonly ids: number[] = [];
  private dense = new Int32Array(256).fill(-1);
  private other: Map<number, number> | null = null;

  indexOf(id: number): number {
    if (id >= 0 && id < 1 << 22 && (id | 0) === id) {
      if (id >= this.dense.length) {
        const grown = new Int32Array(Math.max(id + 1, this.dense.length * 2)).fill(-1);
        grown.set(this.dense);
        this.dense = grown;
      }
      const at = this.dense[id];
      if (at >= 0) return at;
      return (this.dense[id] = this.add(id));
    }
    this.other ??= new Map();
    const at = this.other.get(id);
    if (at !== undefined) return at;
    const added = this.add(id);
    this.other.set(id, added);
    return added;
  }

  private add(id: number): number {
    this.ids.push(id);
    return this.ids.length - 1;
  }
}

/**
 * Writes the segments into the columns; returns the operation id of each `operations` index.
 * Names are not tabled: the object path reads them from the segments themselves.
 */
function fillColumns(segments: readonly Segment[], t: ColumnTargets): number[] {
  const operationIndex = new IdIndex();
  const { starts, ends, categories, operations, employeeIds } = t;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    starts[i] = s.start;
    ends[i] = s.end;
    categories[i] = categoryCode(s.category);
    employeeIds[i] = s.employeeId;
    operations[i] = operationIndex.indexOf(s.operationId);
  }
  return operationIndex.ids;
}

/** Columns of the segments, for the `…Columns` functions (the adapter behind the object API). */
export function toSegmentColumns(segments: readonly Segment[]): SegmentColumns {
  const n = segments.length;
  const t = {
    starts: new Float64Array(n),
    ends: new Float64Array(n),
    categories: new Int32Array(n),
    operations: new Int32Array(n),
    employeeIds: new Float64Array(n),
    ids: new Float64Array(n),
  };
  // One table row per (operation id, name), so that every segment keeps its own name.
  const n2 = segments.length;
  const operationTable: { operationId: number; operationName: string }[] = [];
  const byKey = new Map<string, number>();
  const byId = new Map<number, number>();
  for (let i = 0; i < n2; i++) {
    const s = segments[i];
    t.categories[i] = categoryCode(s.category);
    t.starts[i] = s.start;
    t.ends[i] = s.end;
    t.employeeIds[i] = s.employeeId;
    t.ids[i] = s.id ?? NaN;
    let op = byId.get(s.operationId);
    if (op === undefined || operationTable[op].operationName !== s.operationName) {
      const key = `${s.operationId}\u0000${s.operationName}`;
      op = byKey.get(key);
      if (op === undefined) {
        op = operationTable.length;
        byKey.set(key, op);
        operationTable.push({ operationId: s.operationId, operationName: s.operationName });
      }
      byId.set(s.operationId, op);
    }
    t.operations[i] = op;
  }
  return { ...t, operationTable };
}

/** Rows materialised on demand from columns, for the assembly step (sparse reads only). */
class ColumnRows {
  readonly length: number;
  constructor(private readonly c: SegmentColumns) {
    this.length = c.starts.length;
  }
  row(i: number): Segment {
    const c = this.c;
    const op = c.operationTable[c.operations[i]];
    const id = c.ids ? c.ids[i] : NaN;
    const segment: Segment = {
      start: c.starts[i],
      end: c.ends[i],
      category: CATEGORIES[c.categories[i]],
      operationId: op.operationId,
      operationName: op.operationName,
      employeeId: c.employeeIds[i],
    };
    if (!Number.isNaN(id)) segment.id = id;
    return segment;
  }
}

/** Segment columns in WASM memory (pointers) plus the key tables built while writing them. */
export interface Columns {
  n: number;
  starts: number;
  ends: number;
  categories: number;
  /** Index into `operationIds` per segment. */
  operations: number;
  operationIds: ArrayLike<number>;
  /** The operation name of segment i. */
  nameAt: (i: number) => string;
  /** Dense (operation, category) key per segment; `keys` lists them in first-seen order. */
  opKeys: number;
  keys: OperationKey[];
  /** Employee rank (ascending employee id) per segment. */
  employees: number;
  employeeCount: number;
  rows: SegmentRows;
  /** Chronological order (pointer) once computed; `clean`: no NaN times (see core.timeOrder). */
  time?: { order: number; clean: boolean };
}

function allocColumns(arena: Arena, n: number) {
  return { starts: arena.f64(n), ends: arena.f64(n), categories: arena.i32(n), operations: arena.i32(n), opKeys: arena.i32(n), employees: arena.i32(n) };
}

/**
 * Operation keys and employee ranks over columns already in WASM memory. `employeeIds` is read on
 * the host side; nothing here calls the core, so the views stay valid.
 */
function indexColumns(
  arena: Arena,
  ptrs: ReturnType<typeof allocColumns>,
  n: number,
  operationIds: ArrayLike<number>,
  nameAt: (i: number) => string,
  employeeIds: ArrayLike<number>,
  rows: SegmentRows,
): Columns {
  const categories = arena.viewI32(ptrs.categories, n);
  const operations = arena.viewI32(ptrs.operations, n);
  const opKeys = arena.viewI32(ptrs.opKeys, n);
  const employees = arena.viewI32(ptrs.employees, n);
  const C = CATEGORIES.length;
  const tableSize = operationIds.length;
  // (table row, category) slot → key; the key itself is (operation id, category), first seen.
  const slotKey = new Int32Array(tableSize * C).fill(-1);
  const keyIndex = new Map<number, number>();
  const keys: OperationKey[] = [];
  const employeeIndex = new Map<number, number>();
  const employeeList: number[] = [];
  let lastEmployee = NaN;
  let lastRank = -1;
  for (let i = 0; i < n; i++) {
    const code = categories[i];
    const op = operations[i];
    if (!(code >= 0 && code < C)) throw new RangeError(`Неизвестный тип операции: ${code}`);
    if (!(op >= 0 && op < tableSize)) throw new RangeError(`Нет операции с номером ${op} в таблице операций`);
    const slot = op * C + code;
    let k = slotKey[slot];
    if (k < 0) {
      const operationId = operationIds[op];
      const keyId = operationId * C + code;
      let found = keyIndex.get(keyId);
      if (found === undefined) {
        found = keys.length;
        keyIndex.set(keyId, found);
        keys.push({ operationId, operationName: nameAt(i), category: CATEGORIES[code] });
      }
      k = slotKey[slot] = found;
    }
    opKeys[i] = k;
    const id = employeeIds[i];
    if (id !== lastEmployee) {
      let e = employeeIndex.get(id);
      if (e === undefined) {
        e = employeeList.length;
        employeeIndex.set(id, e);
        employeeList.push(id);
      }
      lastEmployee = id;
      lastRank = e;
    }
    employees[i] = lastRank;
  }
  // Overlap pairs come out in (employee id, time) order, as in the reference.
  const employeeCount = employeeList.length;
  if (employeeCount > 1) {
    const rank = new Int32Array(employeeCount);
    employeeList
      .map((id, e) => ({ id, e }))
      .sort((a, b) => a.id - b.id)
      .forEach(({ e }, r) => (rank[e] = r));
    for (let i = 0; i < n; i++) employees[i] = rank[employees[i]];
  }
  return { n, ...ptrs, operationIds, nameAt, keys, employees: ptrs.employees, employeeCount, rows };
}

/** The object path: segments written straight into WASM memory (no intermediate columns). */
export function writeColumns(arena: Arena, segments: Segment[]): Columns {
  const n = segments.length;
  const ptrs = allocColumns(arena, n);
  const employeeIds = new Float64Array(n);
  const operationIds = fillColumns(segments, {
    starts: arena.viewF64(ptrs.starts, n),
    ends: arena.viewF64(ptrs.ends, n),
    categories: arena.viewI32(ptrs.categories, n),
    operations: arena.viewI32(ptrs.operations, n),
    employeeIds,
  });
  return indexColumns(arena, ptrs, n, operationIds, (i) => segments[i].operationName, employeeIds, segments);
}

/** The columnar path: one copy of each column into WASM memory. */
export function loadColumns(arena: Arena, c: SegmentColumns): Columns {
  const n = c.starts.length;
  for (const [name, column] of [
    ['ends', c.ends],
    ['categories', c.categories],
    ['operations', c.operations],
    ['employeeIds', c.employeeIds],
    ['ids', c.ids ?? c.starts],
  ] as const) {
    if (column.length !== n) throw new RangeError(`Столбец ${name}: ${column.length} значений вместо ${n}`);
  }
  const ptrs = allocColumns(arena, n);
  arena.viewF64(ptrs.starts, n).set(c.starts);
  arena.viewF64(ptrs.ends, n).set(c.ends);
  arena.viewI32(ptrs.categories, n).set(c.categories);
  arena.viewI32(ptrs.operations, n).set(c.operations);
  const { operations, operationTable } = c;
  const operationIds = operationTable.map((op) => op.operationId);
  return indexColumns(arena, ptrs, n, operationIds, (i) => operationTable[operations[i]].operationName, c.employeeIds, new ColumnRows(c));
}

/** Chronological order of the columns, computed once per call. */
function timeOf(arena: Arena, cols: Columns): { order: number; clean: boolean } {
  if (!cols.time) {
    const order = arena.i32(cols.n);
    const clean = core.timeOrder(cols.starts, cols.ends, cols.n, order) === 1;
    cols.time = { order, clean };
  }
  return cols.time;
}

/** Order by (key, start, end, index): a counting sort of the chronological order when it is total. */
function keyedOrder(arena: Arena, cols: Columns, keys: number, keyTotal: number): number {
  const time = timeOf(arena, cols);
  const order = arena.i32(cols.n);
  if (time.clean) core.keyOrder(keys, keyTotal, cols.n, time.order, order);
  else core.sortByKeyTime(cols.starts, cols.ends, keys, cols.n, order);
  return order;
}

function employeeOrder(arena: Arena, cols: Columns): number {
  // One employee: the (employee, time) order is the chronological one.
  return cols.employeeCount <= 1 ? timeOf(arena, cols).order : keyedOrder(arena, cols, cols.employees, cols.employeeCount);
}

// ---------------------------------------------------------------- day balance

export interface DayPass {
  agg: DayAggregates;
  /** Segment indices in time order (start, end, index), as a pointer into the arena. */
  chronological: number;
}

export function dayPass(arena: Arena, cols: Columns, st: ResolvedSettings): DayPass {
  const { n } = cols;
  const keyTotal = cols.keys.length;
  const out = arena.f64(10);
  const keyMs = arena.f64(keyTotal);
  const keyCount = arena.f64(keyTotal);
  const gaps = arena.f64(2 * (n + 1));
  const covered = arena.f64(1);
  const pairs = arena.i32(2 * n);
  const reversed = arena.i32(n);

  core.categorySums(cols.starts, cols.ends, cols.categories, cols.opKeys, n, st.from, st.to, keyTotal, out, keyMs, keyCount);
  const time = timeOf(arena, cols);
  const gapCount = core.coverageGaps(cols.starts, cols.ends, n, st.from, st.to, time.order, gaps, covered);
  const byEmployee = employeeOrder(arena, cols);
  const pairCount = core.findOverlaps(cols.starts, cols.ends, cols.employees, n, byEmployee, pairs);
  const reversedCount = core.endBeforeStart(cols.starts, cols.ends, n, reversed);

  // Shift-days: the same sums per day (the nights between days are no working time).
  let dayParts: DayAggregatePart[] | undefined;
  if (st.days.length > 1) {
    const dayOut = arena.f64(10);
    dayParts = st.days.map((day) => {
      core.categorySums(cols.starts, cols.ends, cols.categories, cols.opKeys, n, day.start, day.end, keyTotal, dayOut, keyMs, keyCount);
      const v = arena.viewF64(dayOut, 10);
      return {
        categoryMs: v.slice(0, CATEGORIES.length),
        keyMs: arena.viewF64(keyMs, keyTotal).slice(),
        counted: v[9],
        firstStart: v[7],
        lastEnd: v[8],
      };
    });
    // keyMs / keyCount hold the last day now: take the window's sums again.
    core.categorySums(cols.starts, cols.ends, cols.categories, cols.opKeys, n, st.from, st.to, keyTotal, out, keyMs, keyCount);
  }
  // Shifts: the segments inside each (cut to the window) give its observed part (METHODOLOGY §6).
  const shiftOut = arena.f64(10);
  const shiftKeyMs = arena.f64(keyTotal);
  const shiftKeyCount = arena.f64(keyTotal);
  const shiftSpans = st.structure.shifts.map((shift) => {
    const from = Math.max(shift.start, st.from);
    const to = Math.min(shift.end, st.to);
    core.categorySums(cols.starts, cols.ends, cols.categories, cols.opKeys, n, from, to, keyTotal, shiftOut, shiftKeyMs, shiftKeyCount);
    const v = arena.viewF64(shiftOut, 10);
    return { counted: v[9], firstStart: v[7], lastEnd: v[8] };
  });
  const sums = arena.viewF64(out, 10);
  const gapView = arena.viewF64(gaps, 2 * gapCount);
  const gapList: Interval[] = new Array(gapCount);
  for (let g = 0; g < gapCount; g++) gapList[g] = { start: gapView[2 * g], end: gapView[2 * g + 1] };
  const counted = sums[9];
  // Per key ms inside intervals (the regulated breaks): one pass of the same sums per interval.
  const keyMsInside = (intervals: readonly Interval[]) => {
    const total = new Float64Array(keyTotal);
    const insideOut = arena.f64(10);
    const insideKeyMs = arena.f64(keyTotal);
    const insideKeyCount = arena.f64(keyTotal);
    for (const iv of intervals) {
      core.categorySums(cols.starts, cols.ends, cols.categories, cols.opKeys, n, iv.start, iv.end, keyTotal, insideOut, insideKeyMs, insideKeyCount);
      const v = arena.viewF64(insideKeyMs, keyTotal);
      for (let k = 0; k < keyTotal; k++) total[k] += v[k];
    }
    return total;
  };
  return {
    agg: {
      dayParts,
      shiftSpans,
      keyMsInside,
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
      endBeforeStart: arena.viewI32(reversed, reversedCount).slice(),
    },
    chronological: time.order,
  };
}

// ---------------------------------------------------------------- time study

const MAIN = CATEGORIES.indexOf('main');

/** The series statistics `core.studySeries` writes per group, in its order. */
export const SERIES_FIELDS = [
  'n',
  'len',
  'tMin',
  'tMax',
  'tAverage',
  'time2min',
  'coef',
  'tReg',
  'tFreqFact',
  'tFreqPred',
  'fluctMax',
  'fluctMin',
  'fluctAverage',
  'par2',
] as const satisfies readonly (keyof SeriesAggregate)[];

function readSeries(stats: Float64Array, offset: number): SeriesAggregate {
  const series = {} as Record<(typeof SERIES_FIELDS)[number], number>;
  SERIES_FIELDS.forEach((field, f) => (series[field] = stats[offset + f]));
  return series;
}

/**
 * Operations measured in `[from, to)`: those of main segments overlapping the window, or starting
 * inside it, by id with the first-seen name.
 */
function measuredOperations(arena: Arena, cols: Columns, from: number, to: number): Map<number, string> {
  const { n, operationIds: opIds } = cols;
  const ids = new Map<number, string>();
  const starts = arena.viewF64(cols.starts, n);
  const ends = arena.viewF64(cols.ends, n);
  const categories = arena.viewI32(cols.categories, n);
  const operations = arena.viewI32(cols.operations, n);
  for (let i = 0; i < n; i++) {
    if (categories[i] !== MAIN) continue;
    const start = starts[i];
    const end = ends[i];
    if (!((start < to && end > from) || (start >= from && start < to))) continue;
    const operationId = opIds[operations[i]];
    if (!ids.has(operationId)) ids.set(operationId, cols.nameAt(i));
  }
  return ids;
}

/**
 * The normative Ку of an operation from its typical duration (mean of its non-zero measurements,
 * seconds): the engine's rule (`normativeFor`), handed in so that the wrapper computes no figure.
 */
export type NormativeOf = (elementSeconds: number) => { coef: number; source: 'threshold' | 'reference' };

export function studyPass(arena: Arena, cols: Columns, st: ResolvedSettings, normativeOf: NormativeOf): OperationAggregate[] {
  const { n, operationIds: opIds } = cols;
  const { from, to } = st;
  // Measurements: the operations measured in the window, ranked by id; the group key per segment
  // is that rank, else `groups`.
  const ids = measuredOperations(arena, cols, from, to);
  const operationIds = [...ids.keys()].sort((a, b) => a - b);
  const groups = operationIds.length;
  if (groups === 0) return [];
  const rank = new Map(operationIds.map((id, r) => [id, r]));
  const tableRank = Int32Array.from(opIds, (id) => rank.get(id) ?? groups);
  const groupKeys = arena.i32(n);
  {
    const starts = arena.viewF64(cols.starts, n);
    const ends = arena.viewF64(cols.ends, n);
    const categories = arena.viewI32(cols.categories, n);
    const operations = arena.viewI32(cols.operations, n);
    const keys = arena.viewI32(groupKeys, n);
    for (let i = 0; i < n; i++) {
      const start = starts[i];
      const end = ends[i];
      keys[i] = categories[i] === MAIN && ((start < to && end > from) || (start >= from && start < to)) ? tableRank[operations[i]] : groups;
    }
  }
  const order = keyedOrder(arena, cols, groupKeys, groups + 1);

  const sortedOrder = arena.viewI32(order, n);
  const segmentKeys = arena.viewI32(groupKeys, n);
  let total = 0;
  while (total < n && segmentKeys[sortedOrder[total]] < groups) total++;
  const measured = sortedOrder.slice(0, total);

  const values = arena.f64(total);
  const offsets = arena.i32(groups + 1);
  const normatives = arena.f64(groups);
  const status = arena.i32(total);
  const fluct = arena.f64(total);
  const stats = arena.f64(groups * 2 * SERIES_FIELDS.length);
  {
    const keys = arena.viewI32(groupKeys, n);
    const starts = arena.viewF64(cols.starts, n);
    const ends = arena.viewF64(cols.ends, n);
    const valueView = arena.viewF64(values, total);
    const statusView = arena.viewI32(status, total);
    const offsetView = arena.viewI32(offsets, groups + 1);
    const normView = arena.viewF64(normatives, groups);
    let g = -1;
    let positiveSum = 0;
    let positiveCount = 0;
    const closeGroup = () => {
      if (g >= 0) normView[g] = normativeOf(positiveCount > 0 ? positiveSum / positiveCount : 0).coef;
    };
    for (let j = 0; j < total; j++) {
      const i = measured[j];
      const key = keys[i];
      if (key !== g) {
        closeGroup();
        g = key;
        offsetView[g] = j;
        positiveSum = 0;
        positiveCount = 0;
      }
      const seconds = Math.max(0, Math.min(ends[i], to) - Math.max(starts[i], from)) / 1000;
      valueView[j] = seconds;
      // A segment cut by the window is listed with its inside part but is not a measurement.
      const cut = starts[i] < from || ends[i] > to;
      statusView[j] = cut ? STATUS_CUT : 0;
      if (seconds > 0 && !cut) {
        positiveSum += seconds;
        positiveCount++;
      }
    }
    closeGroup();
    offsetView[groups] = total;
  }
  core.studySeries(
    values,
    offsets,
    groups,
    normatives,
    st.structure.fluctReduction,
    status,
    fluct,
    stats,
    st.structure.cleaningRule === 'both_extremes' ? 1 : 0,
  );

  const valueView = arena.viewF64(values, total);
  const offsetView = arena.viewI32(offsets, groups + 1);
  const statusView = arena.viewI32(status, total);
  const fluctView = arena.viewF64(fluct, total);
  const statsView = arena.viewF64(stats, groups * 2 * SERIES_FIELDS.length);
  const normView = arena.viewF64(normatives, groups);
  const source = normativeOf(0).source;
  return operationIds.map((operationId, g) => {
    const lo = offsetView[g];
    const hi = offsetView[g + 1];
    const status: MeasurementStatus[] = new Array(hi - lo);
    for (let j = lo; j < hi; j++) status[j - lo] = MEASUREMENT_STATUS[statusView[j]];
    return {
      operationId,
      operationName: ids.get(operationId)!,
      normativeCoef: normView[g],
      normativeSource: source,
      segmentIndices: measured.subarray(lo, hi),
      seconds: valueView.slice(lo, hi),
      status,
      fluctPerc: fluctView.slice(lo, hi),
      accepted: readSeries(statsView, g * 2 * SERIES_FIELDS.length),
      all: readSeries(statsView, (g * 2 + 1) * SERIES_FIELDS.length),
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
    core.timeOrder(starts, ends, n, order);
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
    core.timeOrder(starts, ends, n, order);
    const count = core.coverageGaps(starts, ends, n, from, to, order, gaps, out);
    const view = arena.viewF64(gaps, 2 * count);
    return Array.from({ length: count }, (_, g) => ({ start: view[2 * g], end: view[2 * g + 1] }));
  });
}

/** Covered milliseconds per group (the assessor summary's marked hours). */
export function groupedCoverage(spans: MarkupSpan[], groupOf: Int32Array, groupCount: number): Float64Array {
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

/** Overlapping pairs of one employee's segments, in (employee id, time) order, and segments ending before they start. */
export function overlapPass(arena: Arena, cols: Columns): { overlapPairs: Int32Array; endBeforeStart: Int32Array } {
  const { n } = cols;
  const pairs = arena.i32(2 * n);
  const reversed = arena.i32(n);
  const order = employeeOrder(arena, cols);
  const count = core.findOverlaps(cols.starts, cols.ends, cols.employees, n, order, pairs);
  const reversedCount = core.endBeforeStart(cols.starts, cols.ends, n, reversed);
  return { overlapPairs: arena.viewI32(pairs, 2 * count).slice(), endBeforeStart: arena.viewI32(reversed, reversedCount).slice() };
}
