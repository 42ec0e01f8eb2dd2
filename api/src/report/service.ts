import type { Category } from '@norma/core-wasm';
import type { ReportInputs, ReportSegment, StructureContext, UnitsProduced, VideoSpan } from '@norma/core-wasm/report';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { notFound } from '../http/errors';
import { UNREVIEWED_SOURCE } from '../markup/model-layer.service';
import { boundedEnd, MAX_INSTANT, MAX_SEGMENT_MS, MIN_INSTANT } from '../http/time';
import { referenceTable } from './reference';
import { addDays, localDate } from '../time-zone';
import { parseBreakIntervals } from '../org/settings.service';
import { listEmployees } from '../org/service';

/**
 * What every report reads from the database, in one place: the structure with its settings,
 * shifts and reference table, the markups of a window as engine segments, product stamps,
 * hand-entered units and video files — the report inputs (loadReportInputs). The reports are
 * assembled from them by @norma/core-wasm/report, the same code the PWA runs.
 */
export type { ReportSegment, StructureContext, UnitsProduced } from '@norma/core-wasm/report';

export async function loadStructureContext(db: Db, structureId: number): Promise<StructureContext> {
  const structure = await db
    .selectFrom('structures')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select(['structures.id', 'structures.name', 'structures.organization_id', 'structures.partial', 'structures.production_type', 'organizations.time_zone'])
    .where('structures.id', '=', structureId)
    .executeTakeFirst();
  if (!structure) throw notFound('Структурная единица не найдена');
  const [settings, shifts, reference, operationTypes] = await Promise.all([
    db
      .selectFrom('structure_settings')
      .select([
        'employee_count',
        'employee_salary',
        'fluct_reduction',
        'regular_break_duration',
        'time_series_stability_threshold',
        'rest_in_idle',
        'cleaning_rule',
      ])
      .where('structure_id', '=', structureId)
      .executeTakeFirst(),
    db
      .selectFrom('shifts')
      .select(['name', 'start_time', 'end_time', 'regular_break_duration_min', 'break_intervals'])
      .where('structure_id', '=', structureId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    referenceTable(db, structure.organization_id),
    db.selectFrom('operation_types').select(['code', 'label', 'color']).orderBy('position').execute(),
  ]);
  return {
    id: structure.id,
    name: structure.name,
    organizationId: structure.organization_id,
    timeZone: structure.time_zone,
    partial: structure.partial === 1,
    productionType: structure.production_type,
    settings: settings ?? null,
    shifts: shifts.map(({ break_intervals, ...shift }) => ({ ...shift, breaks: parseBreakIntervals(break_intervals) })),
    reference,
    operationTypes,
  };
}

/** Instants of product stamps in [from, to), of one employee or (undefined) of all, ascending. */
export async function productStampTimes(
  db: Db,
  structureId: number,
  from: number,
  to: number,
  employeeId?: number,
): Promise<{ at: number; employeeId: number }[]> {
  let query = db
    .selectFrom('video_stamps')
    .select(['at', 'employee_id'])
    .where('structure_id', '=', structureId)
    .where('type', '=', 'product')
    .where('at', '>=', from)
    .where('at', '<', to);
  if (employeeId !== undefined) query = query.where('employee_id', '=', employeeId);
  const rows = await query.orderBy('at').execute();
  return rows.map((r) => ({ at: r.at, employeeId: r.employee_id ?? 0 }));
}

/**
 * Markups of the structure in [from, to) as engine segments, in time order: those overlapping
 * the window, plus zero-length ones inside it (they are measurements too). A markup without an
 * employee gets employee id 0.
 */
export async function loadSegments(db: Db, structureId: number, from: number, to: number, employeeId?: number): Promise<ReportSegment[]> {
  let query = db
    .selectFrom('markups')
    .innerJoin('operations', 'operations.id', 'markups.operation_id')
    .select([
      'markups.id',
      'markups.start_time',
      'markups.end_time',
      'markups.employee_id',
      'markups.workplace_id',
      'markups.video_id',
      'markups.operation_id',
      'operations.name as operation_name',
      'operations.type',
      'operations.machine_paced',
    ])
    .where('markups.structure_id', '=', structureId)
    // A model's unreviewed layer never counts (markup/model-layer.service.ts).
    .where('markups.source', '!=', UNREVIEWED_SOURCE)
    .where('markups.start_time', '<', to)
    .where((eb) => eb.or([eb('markups.end_time', '>', from), eb('markups.start_time', '>=', from)]));
  if (employeeId !== undefined) query = query.where('markups.employee_id', '=', employeeId);
  const rows = await query.orderBy('markups.start_time').orderBy('markups.id').execute();
  return rows.map((row) => ({
    id: row.id,
    start: row.start_time,
    // An old row may end absurdly late (even at infinity): the engine gets at most 24 h of it.
    end: boundedEnd(row.start_time, row.end_time),
    category: row.type as Category,
    operationId: row.operation_id,
    operationName: row.operation_name,
    employeeId: row.employee_id ?? 0,
    machinePaced: row.machine_paced === 1,
    workplaceId: row.workplace_id,
    videoId: row.video_id,
  }));
}

/** Product stamps in [from, to) per employee id (0: stamps without an employee). */
export async function countProductStamps(db: Db, structureId: number, from: number, to: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('video_stamps')
    .select(['employee_id', db.fn.countAll<number>().as('n')])
    .where('structure_id', '=', structureId)
    .where('type', '=', 'product')
    .where('at', '>=', from)
    .where('at', '<', to)
    .groupBy('employee_id')
    .execute();
  return new Map(rows.map((r) => [r.employee_id ?? 0, Number(r.n)]));
}

/**
 * Units produced in a report window (METHODOLOGY §1): the value entered by hand for this
 * structure, employee (0: the whole structure) and exact window, else the product stamps.
 */
export async function unitsProduced(db: Db, structureId: number, employeeId: number, from: number, to: number): Promise<UnitsProduced> {
  const [manual, stamps] = await Promise.all([
    db
      .selectFrom('report_products')
      .select(['product_num', 'products_description'])
      .where('structure_id', '=', structureId)
      .where('employee_id', '=', employeeId)
      .where('from_time', '=', from)
      .where('to_time', '=', to)
      .executeTakeFirst(),
    countProductStamps(db, structureId, from, to),
  ]);
  const stampCount = employeeId === 0 ? [...stamps.values()].reduce((a, b) => a + b, 0) : (stamps.get(employeeId) ?? 0);
  if (manual) return { product_num: manual.product_num, products_description: manual.products_description, source: 'manual', stamp_count: stampCount };
  return { product_num: stampCount, products_description: '', source: 'stamps', stamp_count: stampCount };
}

/** Stores (or, with null, removes) the hand-entered units of a window. */
export async function saveUnitsProduced(
  db: Db,
  structureId: number,
  employeeId: number,
  from: number,
  to: number,
  value: { product_num: number | null; products_description: string },
): Promise<void> {
  if (value.product_num === null) {
    await db
      .deleteFrom('report_products')
      .where('structure_id', '=', structureId)
      .where('employee_id', '=', employeeId)
      .where('from_time', '=', from)
      .where('to_time', '=', to)
      .execute();
    return;
  }
  await db
    .insertInto('report_products')
    .values({
      structure_id: structureId,
      employee_id: employeeId,
      from_time: from,
      to_time: to,
      product_num: value.product_num,
      products_description: value.products_description,
    })
    .onConflict((oc) =>
      oc.columns(['structure_id', 'employee_id', 'from_time', 'to_time']).doUpdateSet({
        product_num: value.product_num!,
        products_description: value.products_description,
      }),
    )
    .execute();
}

/** The employee, if it belongs to the structure (404 otherwise). */
export async function requireEmployee(db: Db, structureId: number, employeeId: number): Promise<{ id: number; name: string }> {
  const row = await db.selectFrom('employees').select(['id', 'name']).where('id', '=', employeeId).where('structure_id', '=', structureId).executeTakeFirst();
  if (!row) throw notFound('Сотрудник не найден в этой структурной единице');
  return row;
}

/**
 * Local dates (organisation time zone) that have markups, ascending, with the employees marked
 * on each. SQL groups the markups by employee and quarter-hour of start (every zone offset is a
 * multiple of 15 minutes), so a month of markups is a few thousand rows, not all of them; each
 * group's end is taken at most 24 h after its start (MAX_SEGMENT_MS: no valid row is longer, and
 * an old row with an absurd or infinite end counts only for its first day), and rows starting
 * outside the calendar range are left out. The work is bounded by the rows, never by their values.
 */
export async function reportDates(db: Db, structureId: number, timeZone: string): Promise<{ dates: string[]; employees: Record<string, number[]> }> {
  const quarter = 900_000;
  const rows = await db
    .selectFrom('markups')
    .select((eb) => [
      'employee_id',
      // The smaller of the two (written as CASE: SQLite and PostgreSQL name the scalar minimum differently);
      // an infinite end_time compares greater than any number.
      sql<number>`max(CASE WHEN end_time < start_time + ${MAX_SEGMENT_MS} THEN end_time ELSE start_time + ${MAX_SEGMENT_MS} END - 1)`.as('last_instant'),
      eb.fn.min('start_time').as('first_instant'),
    ])
    .where('structure_id', '=', structureId)
    .where('source', '!=', UNREVIEWED_SOURCE)
    .where('start_time', '>=', MIN_INSTANT)
    .where('start_time', '<', MAX_INSTANT)
    .groupBy(['employee_id', sql`start_time / ${quarter}`])
    .execute();
  const byDate = new Map<string, Set<number>>();
  const add = (date: string, employeeId: number | null) => {
    let set = byDate.get(date);
    if (!set) byDate.set(date, (set = new Set()));
    if (employeeId !== null) set.add(employeeId);
  };
  for (const row of rows) {
    const first = Number(row.first_instant);
    const last = Math.min(Math.max(first, Number(row.last_instant)), first + MAX_SEGMENT_MS + quarter, MAX_INSTANT - 1);
    // A markup across midnight counts for every local day it touches: at most three (24 h and a clock change).
    const lastDate = localDate(last, timeZone);
    let date = localDate(first, timeZone);
    for (let day = 0; day < 4 && date <= lastDate; day += 1, date = addDays(date, 1)) add(date, row.employee_id);
  }
  const dates = [...byDate.keys()].sort();
  return { dates, employees: Object.fromEntries(dates.map((d) => [d, [...byDate.get(d)!].sort((a, b) => a - b)])) };
}

/**
 * Video files of the structure's cameras (ready, with a known duration) whose span overlaps
 * [from, to), by start time.
 */
export async function videosOverlapping(db: Db, structureId: number, from: number, to: number): Promise<VideoSpan[]> {
  const rows = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.camera_id', 'cameras.camera_key', 'videos.filename', 'videos.start_time', 'videos.duration'])
    .where('cameras.structure_id', '=', structureId)
    .where('videos.status', '=', 'ready')
    // A recording whose start is not yet given counts from the moment it is (video/recording-start.service.ts).
    .where('videos.start_source', '!=', 'unknown')
    .where('videos.duration', '>', 0)
    .where('videos.start_time', '<', to)
    .where((eb) => eb(eb('videos.start_time', '+', eb(eb.ref('videos.duration'), '*', 1000)), '>', from))
    .orderBy('videos.start_time')
    .orderBy('cameras.camera_key')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    cameraId: r.camera_id,
    cameraKey: r.camera_key,
    filename: r.filename,
    start: r.start_time,
    end: r.start_time + Math.round(r.duration! * 1000),
  }));
}

/**
 * The report inputs of a structure and window (GET /api/v1/report/inputs): what the statement,
 * the block report and the interactive report are assembled from. `employeeId` keeps only that
 * employee's markups and stamps (a statement); `videos: false` skips the video files (only the
 * interactive report maps onto them).
 */
export async function loadReportInputs(
  db: Db,
  structureId: number,
  from: number,
  to: number,
  options: { employeeId?: number; videos?: boolean } = {},
): Promise<ReportInputs> {
  const { employeeId, videos = true } = options;
  const [structure, segments, employees, workplaces, stamps, manual, files] = await Promise.all([
    loadStructureContext(db, structureId),
    loadSegments(db, structureId, from, to, employeeId),
    listEmployees(db, structureId),
    db.selectFrom('workplaces').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('id').execute(),
    productStampTimes(db, structureId, from, to, employeeId),
    db
      .selectFrom('report_products')
      .select(['employee_id', 'product_num', 'products_description'])
      .where('structure_id', '=', structureId)
      .where('from_time', '=', from)
      .where('to_time', '=', to)
      .orderBy('employee_id')
      .execute(),
    videos ? videosOverlapping(db, structureId, from, to) : Promise.resolve([]),
  ]);
  return {
    from,
    to,
    employeeId: employeeId ?? null,
    structure,
    segments,
    employees,
    workplaces,
    stamps,
    manualUnits: manual.map((m) => ({ employeeId: m.employee_id, productNum: m.product_num, productsDescription: m.products_description })),
    videos: files,
  };
}
