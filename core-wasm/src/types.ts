/**
 * Input and output types of the report engine. Shared by the WASM wrapper (`index.ts`) and the
 * TypeScript reference (`reference.ts`): both export the same functions over these types.
 *
 * Units: instants are UTC milliseconds; durations in results are seconds unless the field name
 * says minutes; percentages are 0–100. No result ever holds NaN or Infinity — see METHODOLOGY and
 * docs/methodology.md ("пустые значения"): a percent of an empty base is 0, a ratio that has no
 * meaning (takt without units, ΔП without main work) is null.
 */

/** Operation type codes, fixed in the product. The numeric code is the array index. */
export const CATEGORIES = ['main', 'aux', 'pz', 'service', 'move', 'rest', 'idle'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Categories that make up work time W. */
export const WORK_CATEGORIES: readonly Category[] = ['main', 'aux', 'pz', 'service', 'move'];
/** Categories of useful (human) time. */
export const USEFUL_CATEGORIES: readonly Category[] = ['main', 'aux', 'pz', 'service'];

export interface Interval {
  start: number;
  end: number;
}

/** One labelled segment (a markup row) in absolute time. */
export interface Segment {
  start: number;
  end: number;
  category: Category;
  operationId: number;
  operationName: string;
  employeeId: number;
  /** Markup row id, echoed in input errors and the work-day photography table. */
  id?: number;
}

export type ProductionType = 'mass' | 'large_series' | 'series' | 'small_series';

/**
 * Cleaning rule of a time series (METHODOLOGY §3): drop one extreme at a time, the one farther
 * from the median (default), or the minimum and the maximum together, as some textbooks do.
 */
export type CleaningRule = 'one_extreme' | 'both_extremes';

/** A shift in absolute time. Its regulated break is either explicit intervals or minutes. */
export interface Shift {
  start: number;
  end: number;
  /** Regulated break of this shift in minutes; defaults to `regularBreakDuration`. */
  breakMinutes?: number;
  /** Regulated break intervals; when given, their length is the shift's break. */
  breaks?: Interval[];
}

/** Structure settings that the maths uses (METHODOLOGY §1). */
export interface StructureSettings {
  partial: boolean;
  shifts: Shift[];
  /** Minutes of regulated breaks of a full shift (default 70). */
  regularBreakDuration: number;
  /** Replaces the normative stability coefficient when set. */
  timeSeriesStabilityThreshold: number | null;
  /** Percent by which fluctuation is expected to fall (t_freq_pred). Clamped to 0–100. */
  fluctReduction: number;
  /** Count all rest as a loss. */
  restInIdle: boolean;
  productionType: ProductionType;
  machinePaced: boolean;
  employeeCount: number;
  /** Monthly salary of one employee, roubles. */
  employeeSalary: number;
  /** How a time series is cleaned (default 'one_extreme'). */
  cleaningRule: CleaningRule;
}

/** Arguments of a report over a window `[from, to)`. */
export interface ReportSettings {
  from: number;
  to: number;
  structure?: Partial<StructureSettings>;
  /** Units produced in the window (stamps of type product, or the value entered by hand). */
  unitsProduced?: number | null;
  /** Edited reference table from the database; the defaults are used when absent. */
  stabilityTable?: StabilityTable;
  /**
   * Shift-days of a window longer than a day: each runs from its start to the next day's start
   * (the first from `from`, the last to `to`), so the night between two shifts is no working
   * time of either. Absent: the window is one day.
   */
  days?: ReportDay[];
}

/** One shift-day of a report window. */
export interface ReportDay {
  start: number;
  /** Units produced that day, when known (product stamps); null: unknown. */
  units?: number | null;
}

// ---------------------------------------------------------------- reference data (§4)

export interface StabilityRow {
  productionType: ProductionType;
  label: string;
  /** Normative Ку for manual work, element ≤ shortElementMaxSeconds. */
  manualShort: number;
  /** Normative Ку for manual work, longer elements. */
  manualLong: number;
  /** Accuracy ε of the mean, percent. */
  accuracyPercent: number;
}

export interface StabilityTable {
  source: string;
  edition: string;
  shortElementMaxSeconds: number;
  machinePacedShort: number;
  machinePacedLong: number;
  rows: StabilityRow[];
}

// ---------------------------------------------------------------- day balance (§2)

export interface CategoryBalance {
  category: Category;
  /** Category code (index in CATEGORIES). */
  index: number;
  seconds: number;
  minutes: number;
  /** Percent of T_obs. */
  percentVideo: number;
  /** Percent of T_shift. */
  percentDay: number;
  /** Percent of T_avail. */
  percentWDay: number;
}

export interface OperationBalance {
  operationId: number;
  operationName: string;
  category: Category;
  index: number;
  count: number;
  seconds: number;
  /** Mean segment length, seconds. */
  averageSeconds: number;
  percentVideo: number;
  percentDay: number;
  percentWDay: number;
}

export interface Load {
  /** W / T_avail × 100 (0 when T_avail is 0). */
  percentage: number;
  overload: boolean;
  /** W − T_avail in minutes when overloaded, else 0. */
  overworking: number;
  /** overworking / T_avail × 100. */
  overworkingPer: number;
  /** T_avail − W in minutes when underloaded, else 0. */
  underload: number;
  underloadPer: number;
  /** Statement sentence, e.g. "461-минутный день, переработка 11 минут". */
  text: string;
}

export interface NormativeCategory {
  category: Category;
  seconds: number;
  minutes: number;
  /** Percent of T_obs (diagram 2.2). */
  percent: number;
}

export interface ParetoRow {
  operationId: number;
  operationName: string;
  category: Category;
  seconds: number;
  percent: number;
  cumulativePercent: number;
}

export interface Losses {
  seconds: number;
  /** Idle counted as a loss: outside the regulated break intervals. */
  idleSeconds: number;
  /** Rest counted as a loss: above B_reg, or all rest with rest_in_idle (never rest inside a break interval). */
  restSeconds: number;
  /** Idle marked inside the regulated break intervals: that break, so not in `idleSeconds` nor in the losses. */
  idleInBreakSeconds: number;
  /** Percent of T_obs. */
  percent: number;
  pareto: ParetoRow[];
}

export interface Takt {
  /**
   * Actual working-day length, seconds: per shift-day from its first segment's start to its last
   * one's end, summed over the days (the nights between them are not working time); 0 when no
   * segments.
   */
  actualDaySeconds: number;
  /** Regulated breaks subtracted; 0 as the specification says. */
  breakSeconds: number;
  /** Units produced: a count, 0 when there are none (never null). */
  units: number;
  /** Seconds per unit; null when there are no units or no day. */
  seconds: number | null;
}

export type InputErrorCode = 'overlap' | 'end_before_start';

export interface InputError {
  code: InputErrorCode;
  employeeId: number;
  /** Input positions of the segments involved. */
  segmentIndex: number;
  otherSegmentIndex: number | null;
  segmentId: number | null;
  otherSegmentId: number | null;
  message: string;
}

export interface BreakRow {
  type: 'regulated' | 'gap';
  start: number;
  end: number;
  seconds: number;
}

/** One shift-day of a day balance (METHODOLOGY §2, windows longer than a day). */
export interface DayPart {
  /** The day's span inside the window. */
  start: number;
  end: number;
  observedSeconds: number;
  workSeconds: number;
  shiftSeconds: number;
  regulatedBreakSeconds: number;
  availableSeconds: number;
  /** W / T_avail × 100 of the day. */
  loadPercent: number;
  overload: boolean;
  /** e.g. "450-минутный день, недогрузка 20 минут"; «нет наблюдений» for a day without any. */
  text: string;
  /** False when the employee has no observation that day: the day adds nothing to his window. */
  observed: boolean;
  /** A shift of the day was observed only in part and is balanced over that part. */
  partlyObserved: boolean;
  /** Rest of the day, and the part of it above the day's regulated breaks (all of it with rest_in_idle). */
  restSeconds: number;
  restLossSeconds: number;
  /** Idle and rest marked inside the day's regulated break intervals (never a loss; they take the break's share of B_reg). */
  idleInBreakSeconds: number;
  restInBreakSeconds: number;
  /** First segment start and last segment end inside the day; null without segments. */
  firstStart: number | null;
  lastEnd: number | null;
  /** lastEnd − firstStart, seconds (0 without segments). */
  actualDaySeconds: number;
  /** Units that day; null only when a hand-entered total of the window cannot be split by day. */
  units: number | null;
  taktSeconds: number | null;
}

/** A shift the employee was observed in (METHODOLOGY §6), cut to the window. */
export interface ShiftObservation {
  start: number;
  end: number;
  /** The observed part: later of the shift start and the first observation, earlier of the shift end and the last one. */
  observedStart: number;
  observedEnd: number;
  /** The observed part is shorter than the shift: balanced over that part, its break pro rata. */
  partlyObserved: boolean;
  shiftSeconds: number;
  regulatedBreakSeconds: number;
}

export interface DayBalance {
  /** 'shifts' when T_shift comes from shifts; 'observed' for partial structures or no shifts. */
  basis: 'shifts' | 'observed';
  observedSeconds: number;
  shiftSeconds: number;
  regulatedBreakSeconds: number;
  availableSeconds: number;
  workSeconds: number;
  categories: CategoryBalance[];
  operations: OperationBalance[];
  load: Load;
  usefulSeconds: number;
  /** Useful time as percent of T_obs (the "human" figure). */
  usefulPercent: number;
  normative: NormativeCategory[];
  /** ΔП, percent; null when there is no main work. */
  productivityRise: number | null;
  losses: Losses;
  takt: Takt;
  /** Union of covered time inside the window, seconds. */
  coveredSeconds: number;
  /** Table 6: regulated break intervals and unmarked intervals of the window, in time order. */
  breaks: BreakRow[];
  inputErrors: InputError[];
  /** The window's shift-days; their sums are the window's figures. One entry for one day. */
  days: DayPart[];
  /** The shifts he was observed in and their observed parts (empty on an observed-time basis). */
  shifts: ShiftObservation[];
}

// ---------------------------------------------------------------- time study (§3)

/** Statistics of one series (accepted or all measurements). Empty series: every number 0. */
export interface SeriesStats {
  n: number;
  /** Sum of the series, seconds. */
  len: number;
  tMin: number;
  tMax: number;
  tAverage: number;
  time2min: number;
  /** Ку = t_max / t_min. */
  coef: number;
  /** Mean of the series (t_reg for the accepted one). */
  tReg: number;
  tFreqFact: number;
  tFreqPred: number;
  fluctMax: number;
  fluctMin: number;
  /** Mean of |fluct_perc|. */
  fluctAverage: number;
  /** Sample coefficient of variation, percent (0 when n < 2). */
  par2: number;
  /** t_reg × n of all measurements, seconds. */
  standardLen: number;
}

/** 'cut': a segment cut by the window — listed with its part inside, never a measurement (METHODOLOGY §3). */
export type MeasurementStatus = 'accepted' | 'dropped' | 'zero_length' | 'cut';

export interface Measurement {
  /** 1-based position in the chronological series. */
  number: number;
  segmentIndex: number;
  segmentId: number | null;
  start: number;
  seconds: number;
  status: MeasurementStatus;
  /** (t_i − t_reg) / t_reg × 100 against the accepted t_reg (0 for zero-length rows). */
  fluctPerc: number;
  /** (t_i − t̄) / t̄ × 100 against the mean of all measurements (Table 3; 0 for zero-length rows). */
  fluctPercAll: number;
}

export interface OperationStudy {
  operationId: number;
  operationName: string;
  /** Normative Ку used for cleaning and where it came from. */
  normativeCoef: number;
  normativeSource: 'threshold' | 'reference';
  accuracyPercent: number;
  accepted: SeriesStats;
  all: SeriesStats;
  /** fluct_ave shown on measurement rows: the accepted series' mean |fluct_perc|. */
  fluctAve: number;
  requiredMeasurements: number;
  enoughMeasurements: boolean;
  /**
   * The same checks over all measurements (Table 3): mean |fluct_perc| of all measurements,
   * required count from the CV of all measurements, and whether all of them are enough.
   */
  fluctAveAll: number;
  requiredMeasurementsAll: number;
  enoughMeasurementsAll: boolean;
  measurements: Measurement[];
}

export interface TimeStudy {
  operations: OperationStudy[];
  /** Largest measurement count of an operation (max_operation_count). */
  maxOperationCount: number;
  /** The rule stated in the report. */
  cleaningRule: string;
  /** Which rule was applied. */
  cleaningMode: CleaningRule;
}

// ---------------------------------------------------------------- statement

export interface FrvRow {
  number: number;
  segmentIndex: number;
  segmentId: number | null;
  name: string;
  start: number;
  end: number;
  /** Seconds inside the window. */
  lenInterval: number;
  /** Category code. */
  index: number;
  category: Category;
}

export interface Statement {
  balance: DayBalance;
  study: TimeStudy;
  frv: FrvRow[];
}

// ---------------------------------------------------------------- summary, staff, money (§5)

export interface MarkupSpan {
  start: number;
  end: number;
  assessorId: number;
  assessorName: string;
  workplaceId: number;
  workplaceName: string;
}

export interface SummaryOptions {
  budget?: number | null;
  hourCost?: number | null;
  /** Offset of the organisation's time zone from UTC, minutes; used to name dates. */
  utcOffsetMinutes?: number;
}

export interface AssessorRow {
  assessorId: number;
  assessorName: string;
  markupHours: number;
  salary: number;
}

export interface AssessorDetailRow extends AssessorRow {
  /** yyyy-mm-dd in the organisation's time zone, the day the spans start. */
  date: string;
  workplaceId: number;
  workplaceName: string;
}

export interface AssessorSummary {
  budget: number | null;
  hourCost: number | null;
  assessors: AssessorRow[];
  details: AssessorDetailRow[];
}

export type LoadStatus = 'overloaded' | 'balanced' | 'underloaded';

export interface StaffRow {
  employeeId: number;
  workSeconds: number;
  lossSeconds: number;
  loadPercent: number;
  status: LoadStatus;
}

export interface StaffLoad {
  employees: StaffRow[];
  /** Percent of employees per status (human_proportion). */
  overloadedPercent: number;
  balancedPercent: number;
  underloadedPercent: number;
  lossSeconds: number;
  /** Money lost, roubles. */
  moneyLost: number;
}
