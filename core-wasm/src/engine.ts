/**
 * The report engine: segments and settings in, reports out, in one direction. Each function
 * resolves the settings, writes the segments into the WASM core through the kernel wrapper
 * (`kernel.ts`: columns in, aggregates out), and assembles the report from the aggregates
 * (`assemble.ts`, the step the oracle `test-support/reference.ts` shares). Nothing here is called
 * back by the kernel wrapper.
 *
 * @example
 * import { statement } from '@norma/core-wasm';
 * const report = statement(segments, { from, to, structure, unitsProduced: 20 });
 */
import type {
  AssessorSummary,
  DayBalance,
  InputError,
  MarkupSpan,
  ReportSettings,
  Segment,
  StabilityTable,
  StaffLoad,
  Statement,
  SummaryOptions,
  TimeStudy,
} from './types.ts';
import { buildDayBalance, buildFrv, buildTimeStudy, inputErrors, normativeFor, resolveSettings, type ResolvedSettings } from './assemble.ts';
import { buildAssessorSummary, buildStaffLoad } from './summary.ts';
import { dayPass, groupedCoverage, loadColumns, overlapPass, studyPass, writeColumns, type Columns, type SegmentColumns } from './kernel.ts';
import { withArena, type Arena } from './wasm.ts';

/**
 * Machine-paced main operations (operations.machine_paced): studied apart, with the machine-work
 * Ку (`structure.machinePaced`) and the machine rows of the reference table.
 */
export interface MachinePaced {
  operationIds: ReadonlySet<number>;
  stabilityTable: StabilityTable;
}

// ---------------------------------------------------------------- day balance

/**
 * Day balance (фотография рабочего дня) of one employee's segments over `[from, to)`:
 * categories with percent_video/percent_day/percent_w_day, load, useful time, normative balance
 * and ΔП, losses with Pareto, takt, gaps and regulated breaks, input errors.
 */
export function dayBalance(segments: Segment[], settings: ReportSettings): DayBalance {
  const st = resolveSettings(settings);
  return withArena((arena) => {
    const cols = writeColumns(arena, segments);
    return buildDayBalance(cols.rows, dayPass(arena, cols, st).agg, st);
  });
}

/** `dayBalance` over columns (see SegmentColumns). */
export function dayBalanceColumns(columns: SegmentColumns, settings: ReportSettings): DayBalance {
  const st = resolveSettings(settings);
  return withArena((arena) => {
    const cols = loadColumns(arena, columns);
    return buildDayBalance(cols.rows, dayPass(arena, cols, st).agg, st);
  });
}

// ---------------------------------------------------------------- time study

function studyOf(arena: Arena, cols: Columns, st: ResolvedSettings): TimeStudy {
  return buildTimeStudy(
    cols.rows,
    studyPass(arena, cols, st, (elementSeconds) => normativeFor(elementSeconds, st)),
    st,
  );
}

/**
 * The study with the machine-paced operations replaced by their own study (their segments only,
 * machine-work Ку and reference rows), operations by id.
 */
function withMachinePaced(study: TimeStudy, segments: Segment[], settings: ReportSettings, machine: MachinePaced | undefined): TimeStudy {
  const ids = machine?.operationIds;
  if (!machine || !ids || ids.size === 0) return study;
  const st = resolveSettings({
    ...settings,
    structure: { ...settings.structure, machinePaced: true },
    stabilityTable: machine.stabilityTable,
  });
  const machineStudy = withArena((arena) =>
    studyOf(
      arena,
      writeColumns(
        arena,
        segments.filter((s) => ids.has(s.operationId)),
      ),
      st,
    ),
  );
  const operations = [...study.operations.filter((o) => !ids.has(o.operationId)), ...machineStudy.operations].sort((a, b) => a.operationId - b.operationId);
  return {
    ...study,
    operations,
    maxOperationCount: operations.reduce((m, o) => Math.max(m, o.measurements.length), 0),
  };
}

/**
 * Time study (хронометраж) of the main operations in `[from, to)`, by operation id; `machine`:
 * the machine-paced operations studied apart (see MachinePaced).
 */
export function timeStudy(segments: Segment[], settings: ReportSettings, machine?: MachinePaced): TimeStudy {
  const st = resolveSettings(settings);
  const study = withArena((arena) => studyOf(arena, writeColumns(arena, segments), st));
  return withMachinePaced(study, segments, settings, machine);
}

/** `timeStudy` over columns (see SegmentColumns). */
export function timeStudyColumns(columns: SegmentColumns, settings: ReportSettings): TimeStudy {
  const st = resolveSettings(settings);
  return withArena((arena) => studyOf(arena, loadColumns(arena, columns), st));
}

// ---------------------------------------------------------------- statement

function statementOf(arena: Arena, cols: Columns, st: ResolvedSettings): Statement {
  const day = dayPass(arena, cols, st);
  return {
    balance: buildDayBalance(cols.rows, day.agg, st),
    study: studyOf(arena, cols, st),
    frv: buildFrv(cols.rows, arena.viewI32(day.chronological, cols.n).slice(), st),
  };
}

/**
 * The statement report of one employee: day balance, time study and Table 4 (frv); `machine`:
 * the machine-paced operations studied apart (see MachinePaced).
 */
export function statement(segments: Segment[], settings: ReportSettings, machine?: MachinePaced): Statement {
  const st = resolveSettings(settings);
  const result = withArena((arena) => statementOf(arena, writeColumns(arena, segments), st));
  return machine ? { ...result, study: withMachinePaced(result.study, segments, settings, machine) } : result;
}

/** `statement` over columns (see SegmentColumns). */
export function statementColumns(columns: SegmentColumns, settings: ReportSettings): Statement {
  const st = resolveSettings(settings);
  return withArena((arena) => statementOf(arena, loadColumns(arena, columns), st));
}

// ---------------------------------------------------------------- input errors, summaries

/** Input errors: overlapping segments of one employee and segments ending before they start. */
export function detectOverlaps(segments: Segment[]): InputError[] {
  return withArena((arena) => {
    const { overlapPairs, endBeforeStart } = overlapPass(arena, writeColumns(arena, segments));
    return inputErrors(segments, overlapPairs, endBeforeStart);
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
