import type { Db } from '../db/database';
import { toIso } from '../http/time';

/**
 * Markups of a structure that overlap [from, to), newest first, with instants as ISO strings.
 * The same rows the video screen shows in seconds (DESIGN.md "Time and markups").
 */
export async function listOperationMarkups(db: Db, structureId: number, from: number, to: number) {
  const rows = await db
    .selectFrom('markups')
    .select(['id', 'operation_id', 'workplace_id', 'employee_id', 'start_time', 'end_time', 'comment'])
    .where('structure_id', '=', structureId)
    .where('start_time', '<', to)
    .where('end_time', '>', from)
    .orderBy('start_time', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, start_time: toIso(row.start_time), end_time: toIso(row.end_time) }));
}
