/**
 * METHODOLOGY §5: assessor summary (marked hours, salary) and the staff view. The heavy part —
 * the union of covered time per group — is passed in, so the WASM wrapper and the reference share
 * the rest.
 */
import type {
  AssessorDetailRow,
  AssessorRow,
  AssessorSummary,
  DayBalance,
  MarkupSpan,
  ReportSettings,
  Segment,
  StaffLoad,
  StaffRow,
  SummaryOptions,
} from './types.ts';
import { loadStatus, moneyLost, percentOf } from './formulas.ts';
import { resolveSettings } from './assemble.ts';

/** Covered milliseconds (union) of the spans of each group; `groupOf[i]` is span i's group. */
export type GroupedCoverage = (spans: MarkupSpan[], groupOf: Int32Array, groupCount: number) => ArrayLike<number>;

const nonNegativeOrNull = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

function dateKey(instant: number, utcOffsetMinutes: number): string {
  return new Date(instant + utcOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/** The spans cut at local midnights (fixed offset), so each piece lies in one local day. */
function splitAtMidnight(spans: MarkupSpan[], utcOffsetMinutes: number): MarkupSpan[] {
  const offset = utcOffsetMinutes * 60_000;
  const pieces: MarkupSpan[] = [];
  for (const span of spans) {
    if (!(span.end > span.start)) continue;
    let start = span.start;
    while (start < span.end) {
      const midnight = Math.floor((start + offset) / DAY_MS) * DAY_MS + DAY_MS - offset;
      const end = Math.min(span.end, midnight);
      pieces.push({ ...span, start, end });
      start = end;
    }
  }
  return pieces;
}

/**
 * Marked hours of each assessor and salary: hours × hour cost, or the budget split by share of
 * hours when no hour cost is given. Marked hours are the sum over workplaces of the union of the
 * time covered at each workplace: time marked twice at one workplace is paid once, while an
 * assessor who codes four workplaces over the same hours did four times the work. Details group
 * by assessor, local day and workplace; spans are cut at local midnight, so the details of an
 * assessor add up exactly to his hours (and, the pay being linear, to his salary).
 */
export function buildAssessorSummary(allSpans: MarkupSpan[], options: SummaryOptions, groupedCoverage: GroupedCoverage): AssessorSummary {
  const budget = nonNegativeOrNull(options.budget);
  const hourCost = nonNegativeOrNull(options.hourCost);
  const offset = Number.isFinite(options.utcOffsetMinutes) ? (options.utcOffsetMinutes as number) : 0;
  const spans = splitAtMidnight(allSpans, offset);

  const assessorGroup = new Map<number, number>();
  const detailGroup = new Map<string, number>();
  const detailKeys: { assessorIndex: number; date: string; span: MarkupSpan }[] = [];
  const byDetail = new Int32Array(spans.length);
  const assessorSpans: MarkupSpan[] = [];
  spans.forEach((span, i) => {
    let a = assessorGroup.get(span.assessorId);
    if (a === undefined) {
      a = assessorSpans.length;
      assessorGroup.set(span.assessorId, a);
      assessorSpans.push(span);
    }
    const date = dateKey(span.start, offset);
    const key = `${span.assessorId}|${date}|${span.workplaceId}`;
    let d = detailGroup.get(key);
    if (d === undefined) {
      d = detailKeys.length;
      detailGroup.set(key, d);
      detailKeys.push({ assessorIndex: a, date, span });
    }
    byDetail[i] = d;
  });
  // Pieces of one (assessor, workplace) on different days never overlap, so the union per
  // (assessor, workplace) is the sum of its details.
  const detailMs = groupedCoverage(spans, byDetail, detailKeys.length);
  const assessorMs = new Float64Array(assessorSpans.length);
  detailKeys.forEach(({ assessorIndex }, d) => (assessorMs[assessorIndex] += detailMs[d]));

  let totalHours = 0;
  for (let a = 0; a < assessorSpans.length; a++) totalHours += assessorMs[a] / 3_600_000;
  const pay = (hours: number) => (hourCost !== null ? hours * hourCost : budget !== null && totalHours > 0 ? (budget * hours) / totalHours : 0);

  const assessors: AssessorRow[] = assessorSpans
    .map((span, a) => {
      const markupHours = assessorMs[a] / 3_600_000;
      return { assessorId: span.assessorId, assessorName: span.assessorName, markupHours, salary: pay(markupHours) };
    })
    .sort((x, y) => x.assessorId - y.assessorId);
  const details: AssessorDetailRow[] = detailKeys
    .map(({ date, span }, d) => {
      const markupHours = detailMs[d] / 3_600_000;
      return {
        assessorId: span.assessorId,
        assessorName: span.assessorName,
        date,
        workplaceId: span.workplaceId,
        workplaceName: span.workplaceName,
        markupHours,
        salary: pay(markupHours),
      };
    })
    .sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0) || x.assessorId - y.assessorId || x.workplaceId - y.workplaceId);
  return { budget, hourCost, assessors, details };
}

/**
 * Staff view of a window: per employee work, losses and load, the shares overloaded (> 100 %),
 * balanced (85–100 %) and underloaded (< 85 %), and the money lost.
 */
export function buildStaffLoad(
  segments: Segment[],
  settings: ReportSettings,
  dayBalance: (segments: Segment[], settings: ReportSettings) => DayBalance,
  hoursFund?: number,
): StaffLoad {
  const byEmployee = new Map<number, Segment[]>();
  for (const s of segments) {
    const list = byEmployee.get(s.employeeId);
    if (list) list.push(s);
    else byEmployee.set(s.employeeId, [s]);
  }
  const employees: StaffRow[] = [...byEmployee.entries()]
    .sort(([a], [b]) => a - b)
    .map(([employeeId, own]) => {
      const balance = dayBalance(own, settings);
      return {
        employeeId,
        workSeconds: balance.workSeconds,
        lossSeconds: balance.losses.seconds,
        loadPercent: balance.load.percentage,
        status: loadStatus(balance.load.percentage),
      };
    });
  const share = (status: StaffRow['status']) => percentOf(employees.filter((e) => e.status === status).length, employees.length);
  const lossSeconds = employees.reduce((acc, e) => acc + e.lossSeconds, 0);
  const salary = resolveSettings(settings).structure.employeeSalary;
  return {
    employees,
    overloadedPercent: share('overloaded'),
    balancedPercent: share('balanced'),
    underloadedPercent: share('underloaded'),
    lossSeconds,
    moneyLost: moneyLost(lossSeconds, salary, hoursFund),
  };
}
