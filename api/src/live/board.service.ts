import type { Db } from '../db/database';

/**
 * The reads of the live board «Смена сейчас» (board.ts, docs/live-cameras.md «Доска»): the labels of
 * the window (people's and the model layer's), the workplaces, and a cheap signature of the labels that the board's poller compares between ticks.
 */

/** The most labels one board reads for its window (a shift of one structure holds far fewer). */
export const BOARD_MARKUP_LIMIT = 50_000;
/** The most workplaces one board lists. */
export const BOARD_LIST_LIMIT = 500;

export interface BoardMarkup {
  id: number;
  start: number;
  end: number;
  workplaceId: number;
  operationId: number;
  operationName: string;
  operationType: string;
  employeeId: number | null;
  employeeName: string | null;
  source: 'manual' | 'fill_gaps' | 'model';
  cameraId: number | null;
}

/** Every label of the structure overlapping [from, to) — reviewed and the model's layer — by start. */
export async function boardMarkups(db: Db, structureId: number, from: number, to: number): Promise<BoardMarkup[]> {
  const rows = await db
    .selectFrom('markups')
    .innerJoin('operations', 'operations.id', 'markups.operation_id')
    .leftJoin('employees', 'employees.id', 'markups.employee_id')
    .leftJoin('videos', 'videos.id', 'markups.video_id')
    .select([
      'markups.id',
      'markups.start_time',
      'markups.end_time',
      'markups.workplace_id',
      'markups.operation_id',
      'operations.name as operation_name',
      'operations.type as operation_type',
      'markups.employee_id',
      'employees.name as employee_name',
      'markups.source',
      'videos.camera_id',
    ])
    .where('markups.structure_id', '=', structureId)
    .where('markups.start_time', '<', to)
    .where('markups.end_time', '>=', from)
    .orderBy('markups.start_time')
    .orderBy('markups.id')
    .limit(BOARD_MARKUP_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    start: r.start_time,
    end: r.end_time,
    workplaceId: r.workplace_id,
    operationId: r.operation_id,
    operationName: r.operation_name,
    operationType: r.operation_type,
    employeeId: r.employee_id,
    employeeName: r.employee_name ?? null,
    source: r.source,
    cameraId: r.camera_id ?? null,
  }));
}

/** A signature of the structure's labels ending at or after `from`: it changes when one is added, removed or edited. */
export async function markupSignature(db: Db, structureId: number, from: number): Promise<string> {
  const row = await db
    .selectFrom('markups')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('id').as('last_id'), eb.fn.max('updated_at').as('last_update')])
    .where('structure_id', '=', structureId)
    .where('end_time', '>=', from)
    .executeTakeFirst();
  return `${row?.n ?? 0}:${row?.last_id ?? 0}:${row?.last_update ?? 0}`;
}

export async function boardWorkplaces(db: Db, structureId: number) {
  return db.selectFrom('workplaces').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('id').limit(BOARD_LIST_LIMIT).execute();
}
