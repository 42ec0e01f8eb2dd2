/**
 * @norma/core-wasm — the report engine used by the API (Bun) and the PWA (browser). This file
 * only names the package's exports; the flow is in `engine.ts` (segments → kernel → assembled
 * report), the WASM columns in `kernel.ts`.
 *
 * Same functions and types as `test-support/reference.ts` (the plain TypeScript oracle), but the
 * heavy loops — per-category sums, union/coverage and gaps, overlap detection, sorting, series
 * statistics and cleaning — run in WebAssembly over columns written straight into its memory.
 *
 * @example
 * import { loadCore, statement } from '@norma/core-wasm';
 * await loadCore();
 * const report = statement(segments, { from, to, structure, unitsProduced: 20 });
 */
export * from './types.ts';
export * from './common-exports.ts';
export { loadCore } from './wasm.ts';
export { coveredSeconds, findGaps, toSegmentColumns, type SegmentColumns } from './kernel.ts';
export {
  assessorSummary,
  dayBalance,
  dayBalanceColumns,
  detectOverlaps,
  staffLoad,
  statement,
  statementColumns,
  timeStudy,
  timeStudyColumns,
  type MachinePaced,
} from './engine.ts';
