import { assessorSummary, type MarkupSpan } from '@norma/core-wasm';
import type { Db } from '../db/database';
import { UNREVIEWED_SOURCE } from '../markup/model-layer.service';
import { zoneOffsetMs } from '../time-zone';

export interface SummaryInput {
  organizationId: number;
  timeZone: string;
  from: number;
  to: number;
  budget: number | null;
  hourCost: number | null;
}

const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/**
 * Rounds `values` to `digits` decimals so that they add up to `total` (already rounded): the
 * largest-remainder method. Rounding each value on its own could leave the parts a kopeck or a
 * thousandth of an hour off their whole.
 */
export function roundToTotal(values: number[], total: number, digits: number): number[] {
  const factor = 10 ** digits;
  const target = Math.round(total * factor);
  const scaled = values.map((v) => v * factor);
  // The epsilon keeps 29.999999999 (a float's 30) from flooring to 29.
  const units = scaled.map((v) => Math.floor(v + 1e-7));
  let left = target - units.reduce((a, b) => a + b, 0);
  const order = scaled.map((v, i) => ({ i, fraction: v - units[i]! })).sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length, left--) units[order[k]!.i]! += 1;
  for (let k = order.length - 1; left < 0 && order.length > 0; k = (k - 1 + order.length) % order.length, left++) units[order[k]!.i]! -= 1;
  return units.map((u) => u / factor);
}

/**
 * Assessor summary (spec 01 "Assessor summary", METHODOLOGY §5) over every structure of the
 * organisation. An assessor is the author of a markup; the segments they marked by hand or by
 * "fill gaps" count, clipped to the window [from, to); segments written by a model and segments
 * whose author was removed do not. The maths — marked hours as the union of covered time, salary
 * as hours × hour cost or the budget split by share of hours — is the report engine's
 * (`assessorSummary` of core-wasm); this only reads the rows and names the fields.
 */
export async function assessorSummaryReport(db: Db, input: SummaryInput) {
  const rows = await db
    .selectFrom('markups')
    .innerJoin('structures', 'structures.id', 'markups.structure_id')
    .innerJoin('user', 'user.id', 'markups.author_id')
    .innerJoin('workplaces', 'workplaces.id', 'markups.workplace_id')
    .select([
      'markups.start_time',
      'markups.end_time',
      'markups.author_id',
      'user.firstName',
      'user.lastName',
      'markups.workplace_id',
      'workplaces.name as workplace_name',
      'structures.name as structure_name',
    ])
    .where('structures.organization_id', '=', input.organizationId)
    .where('markups.source', '!=', UNREVIEWED_SOURCE)
    .where('markups.start_time', '<', input.to)
    .where('markups.end_time', '>', input.from)
    .orderBy('markups.start_time')
    .execute();

  // The engine keys assessors by number; better-auth user ids are strings.
  const assessorNumber = new Map<string, number>();
  const spans: MarkupSpan[] = rows.map((row) => {
    let assessorId = assessorNumber.get(row.author_id!);
    if (assessorId === undefined) assessorNumber.set(row.author_id!, (assessorId = assessorNumber.size + 1));
    return {
      start: Math.max(row.start_time, input.from),
      end: Math.min(row.end_time, input.to),
      assessorId,
      assessorName: `${row.firstName} ${row.lastName}`.trim(),
      workplaceId: row.workplace_id,
      // Workplaces of different structures may share a name ("Стол 1"): say whose it is.
      workplaceName: `${row.workplace_name} (${row.structure_name})`,
    };
  });
  const summary = assessorSummary(spans, {
    budget: input.budget,
    hourCost: input.hourCost,
    utcOffsetMinutes: zoneOffsetMs(input.from, input.timeZone) / 60_000,
  });
  // Shown figures add up: salaries to the budget (or to the rounded sum at an hour cost), and each
  // assessor's detail hours and costs to his hours and salary.
  const salaryTotal =
    summary.hourCost === null && summary.budget !== null && summary.assessors.some((a) => a.salary > 0)
      ? summary.budget
      : summary.assessors.reduce((a, r) => a + r.salary, 0);
  const salaries = roundToTotal(
    summary.assessors.map((a) => a.salary),
    salaryTotal,
    2,
  );
  const shown = new Map(summary.assessors.map((a, i) => [a.assessorId, { hours: round(a.markupHours, 3), salary: salaries[i]! }]));
  const detailHours = new Array<number>(summary.details.length);
  const detailCosts = new Array<number>(summary.details.length);
  for (const [assessorId, whole] of shown) {
    const indices = summary.details.flatMap((d, i) => (d.assessorId === assessorId ? [i] : []));
    const hours = roundToTotal(
      indices.map((i) => summary.details[i]!.markupHours),
      whole.hours,
      3,
    );
    const costs = roundToTotal(
      indices.map((i) => summary.details[i]!.salary),
      whole.salary,
      2,
    );
    indices.forEach((i, k) => {
      detailHours[i] = hours[k]!;
      detailCosts[i] = costs[k]!;
    });
  }
  return {
    assessors: summary.assessors
      .map((a) => ({ assessor_name: a.assessorName, markup_hours: shown.get(a.assessorId)!.hours, salary: shown.get(a.assessorId)!.salary }))
      .sort((x, y) => x.assessor_name.localeCompare(y.assessor_name, 'ru')),
    details: summary.details
      .map((d, i) => ({
        assessor_name: d.assessorName,
        date: d.date,
        workplace_name: d.workplaceName,
        markup_hours: detailHours[i]!,
        cost: detailCosts[i]!,
      }))
      .sort(
        (x, y) =>
          x.date.localeCompare(y.date) || x.assessor_name.localeCompare(y.assessor_name, 'ru') || x.workplace_name.localeCompare(y.workplace_name, 'ru'),
      ),
    budget: summary.budget,
    hour_cost: summary.hourCost,
  };
}
