/**
 * A report window in the engine's terms: the structure's shifts as absolute intervals,
 * shift-days, engine settings, and the machine-paced operations (operations.machine_paced) the
 * engine studies apart with the machine-work Ку. The report functions (`statement.ts`,
 * `blocks.ts`) build these from the inputs and call the engine (`../engine.ts`) once.
 */
import { dayBalance, statement, timeStudy, type MachinePaced } from '../engine.ts';
import type { DayBalance, Interval, ReportDay, ReportSettings, Segment, Shift, Statement, StructureSettings, TimeStudy } from '../types.ts';
import { stabilityTableFor, type ReportSegment, type ShiftRow, type StructureContext } from './inputs.ts';
import { addDays, localDate, zonedInstant } from './time-zone.ts';

/** Minutes of regulated break of one shift: its own when entered (> 0), else the structure's. */
function shiftBreakMinutes(shift: ShiftRow, context: StructureContext): number {
  if (shift.regular_break_duration_min > 0) return shift.regular_break_duration_min;
  return (context.settings?.regular_break_duration ?? 4200) / 60;
}

export interface ShiftInstance extends Shift {
  name: string;
  /** Local start and end as stored ("08:00:00"). */
  startText: string;
  endText: string;
}

/**
 * A shift's break intervals on the shift starting at `start` (local date `date`), in absolute
 * time: a break before the shift's start time of day lies after midnight (a night shift), and one
 * that ends before it starts ends the next day.
 */
function breakInstances(date: string, start: number, shift: ShiftRow, timeZone: string): { start: number; end: number }[] {
  return shift.breaks.map((b) => {
    let breakDate = date;
    let from = zonedInstant(breakDate, b.start_time, timeZone);
    if (from < start) from = zonedInstant((breakDate = addDays(date, 1)), b.start_time, timeZone);
    let to = zonedInstant(breakDate, b.end_time, timeZone);
    if (to <= from) to = zonedInstant(addDays(breakDate, 1), b.end_time, timeZone);
    return { start: from, end: to };
  });
}

/**
 * Every occurrence of the structure's shifts that overlaps [from, to), in absolute time: each
 * local day of the window (and the day before, for night shifts) gets each shift; a shift whose
 * end is not after its start ends the next day.
 */
export function shiftInstances(context: StructureContext, from: number, to: number): ShiftInstance[] {
  const instances: ShiftInstance[] = [];
  if (context.shifts.length === 0) return instances;
  const last = localDate(to, context.timeZone);
  for (let date = addDays(localDate(from, context.timeZone), -1); date <= last; date = addDays(date, 1)) {
    for (const shift of context.shifts) {
      const start = zonedInstant(date, shift.start_time, context.timeZone);
      let end = zonedInstant(date, shift.end_time, context.timeZone);
      if (end <= start) end = zonedInstant(addDays(date, 1), shift.end_time, context.timeZone);
      if (start < to && end > from) {
        const breaks = breakInstances(date, start, shift, context.timeZone);
        instances.push({
          start,
          end,
          breakMinutes: shiftBreakMinutes(shift, context),
          name: shift.name,
          startText: shift.start_time,
          endText: shift.end_time,
          // Intervals, when the shift has them: a window that cuts the shift owes the part of them inside it.
          ...(breaks.length > 0 ? { breaks } : {}),
        });
      }
    }
  }
  return instances.sort((a, b) => a.start - b.start);
}

/**
 * The parts of the intervals outside `cut` (any order, may overlap): an interval is split around
 * each cut one, and one inside a cut interval is left out. Fill gaps leaves the regulated breaks
 * unmarked this way, Table 6 lists no gap inside a break, and the losses skip idle inside one.
 */
export function partsOutside(intervals: readonly Interval[], cut: readonly Interval[]): Interval[] {
  const sorted = [...cut].sort((a, b) => a.start - b.start);
  return intervals.flatMap((iv) => {
    const parts: Interval[] = [];
    let cursor = iv.start;
    for (const c of sorted) {
      if (c.end <= cursor || c.start >= iv.end) continue;
      if (c.start > cursor) parts.push({ start: cursor, end: c.start });
      cursor = Math.max(cursor, c.end);
    }
    if (cursor < iv.end) parts.push({ start: cursor, end: iv.end });
    return parts;
  });
}

/**
 * The regulated break intervals of the shifts (those entered as intervals) that overlap
 * [from, to), in absolute time and time order: what Table 6 lists as breaks, and what fill gaps
 * leaves unmarked (an unmarked break is the break, not idle time).
 */
export function shiftBreakIntervals(shifts: ShiftRow[], timeZone: string, from: number, to: number): Interval[] {
  const found: Interval[] = [];
  const last = localDate(to, timeZone);
  for (let date = addDays(localDate(from, timeZone), -1); date <= last; date = addDays(date, 1)) {
    for (const shift of shifts) {
      const start = zonedInstant(date, shift.start_time, timeZone);
      for (const b of breakInstances(date, start, shift, timeZone)) if (b.start < to && b.end > from) found.push(b);
    }
  }
  return found.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Starts of the shift-days of [from, to) after the first (METHODOLOGY §2): local midnights, each
 * moved to the end of a shift that runs across it (a night shift belongs to the day it starts).
 * An empty list: the window is one day.
 */
export function shiftDayStarts(context: StructureContext, from: number, to: number, instances: ShiftInstance[]): number[] {
  const starts: number[] = [];
  const last = localDate(to, context.timeZone);
  for (let date = addDays(localDate(from, context.timeZone), 1); date <= last; date = addDays(date, 1)) {
    let cut = zonedInstant(date, '00:00:00', context.timeZone);
    for (const shift of instances) if (shift.start < cut && shift.end > cut) cut = Math.max(cut, shift.end);
    if (cut > from && cut < to && (starts.length === 0 || cut > starts[starts.length - 1]!)) starts.push(cut);
  }
  return starts;
}

/**
 * The engine's shift-days: each day's start and, when units come from stamps, the stamps that
 * fall in it (a hand-entered total cannot be split by day: null).
 */
export function reportDays(from: number, dayStarts: number[], stampTimes: number[] | null): { start: number; units: number | null }[] {
  const starts = [from, ...dayStarts];
  return starts.map((start, k) => {
    const end = starts[k + 1] ?? Infinity;
    return { start, units: stampTimes === null ? null : stampTimes.filter((t) => t >= start && t < end).length };
  });
}

/**
 * Shifts that count for a set of segments: those holding at least one of them. An employee is
 * not held to a shift in which nobody observed him (a day not marked up yet, a day off).
 */
export function shiftsWorked(instances: ShiftInstance[], segments: Segment[]): ShiftInstance[] {
  return instances.filter((shift) => segments.some((s) => s.start < shift.end && s.end > shift.start));
}

/** The engine's structure settings (METHODOLOGY §1) from the database rows. */
export function engineStructure(context: StructureContext, shifts: Shift[]): Partial<StructureSettings> {
  const s = context.settings;
  return {
    partial: context.partial,
    shifts,
    regularBreakDuration: (s?.regular_break_duration ?? 4200) / 60,
    timeSeriesStabilityThreshold: s?.time_series_stability_threshold ?? null,
    fluctReduction: s?.fluct_reduction ?? 0,
    restInIdle: (s?.rest_in_idle ?? 0) === 1,
    productionType: context.productionType,
    machinePaced: false,
    employeeCount: s?.employee_count ?? 1,
    employeeSalary: s?.employee_salary ?? 0,
    cleaningRule: s?.cleaning_rule ?? 'one_extreme',
  };
}

export function engineSettings(
  context: StructureContext,
  from: number,
  to: number,
  shifts: Shift[],
  unitsProduced: number | null = null,
  days?: ReportDay[],
): ReportSettings {
  return {
    from,
    to,
    ...(days && days.length > 1 ? { days } : {}),
    structure: engineStructure(context, shifts),
    unitsProduced,
    stabilityTable: stabilityTableFor(context.reference, context.productionType, 'manual'),
  };
}

/**
 * The machine-paced main operations of the segments, with the machine rows of the reference
 * table; undefined when there are none.
 */
export function machinePacedOf(segments: ReportSegment[], context: StructureContext): MachinePaced | undefined {
  const operationIds = new Set(segments.filter((s) => s.machinePaced && s.category === 'main').map((s) => s.operationId));
  if (operationIds.size === 0) return undefined;
  return { operationIds, stabilityTable: stabilityTableFor(context.reference, context.productionType, 'machine') };
}

export function runStatement(segments: ReportSegment[], settings: ReportSettings, context: StructureContext): Statement {
  return statement(segments as Segment[], settings, machinePacedOf(segments, context));
}

export function runTimeStudy(segments: ReportSegment[], settings: ReportSettings, context: StructureContext): TimeStudy {
  return timeStudy(segments as Segment[], settings, machinePacedOf(segments, context));
}

export function runDayBalance(segments: Segment[], settings: ReportSettings): DayBalance {
  return dayBalance(segments, settings);
}
