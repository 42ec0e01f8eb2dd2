/**
 * The report-engine cases, shared by the Bun run (report-engine.bench.ts) and the Chromium run
 * (report-engine-browser.bench.ts), so both time exactly the same data and calls:
 * (i) one employee-month statement (~20,000 segments), (ii) day balance of the same month,
 * (iii) day balance over 1,000,000 segments. Each timing is the median of several repetitions
 * after warm-up; the ratio is wasm_ms / ts_ms (below 1: WASM is faster), reported whichever wins.
 * Each case runs twice on the WASM side: with `Segment[]` objects (what the API passes today) and
 * with `SegmentColumns` (built once, outside the timing, as a caller building them from SQL rows
 * would); the TypeScript reference always takes the same segments as objects.
 */
import { CATEGORIES, type Category, type DayBalance, type ReportSettings, type Segment, type Statement } from '../core-wasm/src/types.ts';
import type { SegmentColumns } from '../core-wasm/src/index.ts';
import { seededRandom } from '../workers/src/random';

export interface Engine {
  statement(segments: Segment[], settings: ReportSettings): Statement;
  dayBalance(segments: Segment[], settings: ReportSettings): DayBalance;
}

/** The WASM wrapper: the object API plus its columnar entry points. */
export interface ColumnarEngine extends Engine {
  toSegmentColumns(segments: Segment[]): SegmentColumns;
  statementColumns(columns: SegmentColumns, settings: ReportSettings): Statement;
  dayBalanceColumns(columns: SegmentColumns, settings: ReportSettings): DayBalance;
}

export interface Case {
  case: string;
  /** What the WASM side is given: `Segment[]` objects or `SegmentColumns`. */
  input: 'objects' | 'columns';
  wasm_ms: number;
  ts_ms: number;
  ratio: number;
}

const WEIGHTED: Category[] = ['main', 'main', 'main', 'main', 'main', 'aux', 'aux', 'pz', 'service', 'move', 'rest', 'idle'];
const HOUR = 3_600_000;

/** Back-to-back segments of one employee, from 08:00 each day, `perDay` segments a day. */
export function makeSegments(count: number, perDay: number, seed: number): Segment[] {
  const rnd = seededRandom(seed);
  const segments: Segment[] = new Array(count);
  const dayStart = Date.UTC(2024, 3, 1, 8);
  let t = dayStart;
  for (let i = 0; i < count; i++) {
    if (i % perDay === 0) t = dayStart + Math.floor(i / perDay) * 24 * HOUR;
    const category = WEIGHTED[Math.floor(rnd() * WEIGHTED.length)];
    const operationId = CATEGORIES.indexOf(category) * 100 + 1 + Math.floor(rnd() * 6);
    const length = Math.round((5 + rnd() * 55) * 1000);
    segments[i] = { id: i + 1, start: t, end: t + length, category, operationId, operationName: `Операция ${operationId}`, employeeId: 1 };
    t += length;
  }
  return segments;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function time(fn: () => unknown, warmup: number, reps: number): number {
  for (let i = 0; i < warmup; i++) fn();
  const runs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

export function monthSettings(segments: Segment[]): ReportSettings {
  const from = Date.UTC(2024, 3, 1);
  const to = segments[segments.length - 1].end + HOUR;
  const shifts = [];
  for (let d = from; d < to; d += 24 * HOUR) shifts.push({ start: d + 8 * HOUR, end: d + 17 * HOUR });
  return { from, to, structure: { shifts, productionType: 'series' }, unitsProduced: 4000 };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** One case: the reference once, the WASM side with objects and with columns, in one run. */
function measure(
  name: string,
  wasmObjects: () => unknown,
  wasmColumns: () => unknown,
  tsFn: () => unknown,
  warmup: number,
  reps: number,
  log: (line: string) => void,
): Case[] {
  const ts_ms = time(tsFn, warmup, reps);
  return (
    [
      ['objects', wasmObjects],
      ['columns', wasmColumns],
    ] as const
  ).map(([input, fn]) => {
    const wasm_ms = time(fn, warmup, reps);
    const result = { case: name, input, wasm_ms: round(wasm_ms), ts_ms: round(ts_ms), ratio: round(wasm_ms / ts_ms) };
    log(`${name} [wasm: ${input}]: wasm ${result.wasm_ms} ms, ts ${result.ts_ms} ms, wasm/ts ${result.ratio}`);
    return result;
  });
}

/** Runs the three cases with the given WASM wrapper and TypeScript reference. */
export function runCases(wasm: ColumnarEngine, reference: Engine, log: (line: string) => void = console.log): Case[] {
  const month = makeSegments(20_000, 900, 1);
  const monthArgs = monthSettings(month);
  const monthColumns = wasm.toSegmentColumns(month);
  const big = makeSegments(1_000_000, 1_000_000, 2);
  const bigArgs: ReportSettings = { from: big[0].start, to: big[big.length - 1].end, structure: { partial: true } };
  const bigColumns = wasm.toSegmentColumns(big);
  return [
    ...measure(
      'statement, one employee-month (20,000 segments)',
      () => wasm.statement(month, monthArgs),
      () => wasm.statementColumns(monthColumns, monthArgs),
      () => reference.statement(month, monthArgs),
      3,
      15,
      log,
    ),
    // Same algorithms on both sides (the reference's cleaning re-sorts the series per dropped
    // measurement, which dominates the statement case above), so this one compares like for like.
    ...measure(
      'day balance, one employee-month (20,000 segments)',
      () => wasm.dayBalance(month, monthArgs),
      () => wasm.dayBalanceColumns(monthColumns, monthArgs),
      () => reference.dayBalance(month, monthArgs),
      3,
      15,
      log,
    ),
    ...measure(
      'day balance, 1,000,000 segments',
      () => wasm.dayBalance(big, bigArgs),
      () => wasm.dayBalanceColumns(bigColumns, bigArgs),
      () => reference.dayBalance(big, bigArgs),
      2,
      7,
      log,
    ),
  ];
}
