import type { Db } from '../db/database';
import { badRequest } from '../http/errors';

/** Ids of the operations, workplaces and employees of one structure. */
export interface StructureMembers {
  operations: Set<number>;
  workplaces: Set<number>;
  employees: Set<number>;
}

export async function structureMembers(db: Db, structureId: number): Promise<StructureMembers> {
  const ids = async (table: 'operations' | 'workplaces' | 'employees') =>
    new Set((await db.selectFrom(table).select('id').where('structure_id', '=', structureId).execute()).map((r) => r.id));
  const [operations, workplaces, employees] = await Promise.all([ids('operations'), ids('workplaces'), ids('employees')]);
  return { operations, workplaces, employees };
}

/**
 * A markup row may only name an operation, workplace and employee of its own structure (both
 * the video screen and the period editor save through this check); `where` names the row.
 */
export function assertRowInStructure(
  members: StructureMembers,
  row: { operation_id: number; workplace_id: number; employee_id?: number | null },
  where: string,
) {
  if (!members.operations.has(row.operation_id)) throw badRequest(`Операция не из этой структурной единицы (${where})`);
  if (!members.workplaces.has(row.workplace_id)) throw badRequest(`Рабочее место не из этой структурной единицы (${where})`);
  if (row.employee_id != null && !members.employees.has(row.employee_id)) throw badRequest(`Сотрудник не из этой структурной единицы (${where})`);
}
