import type { Db } from '../db/database';

/** A number of units entered by hand for one employee and window (report_products, written by report/). */
export interface ManualOutput {
  employeeId: number;
  from: number;
  to: number;
  units: number;
}

/**
 * The units entered by hand for single employees over windows lying inside [from, to) (the
 * fulfilment's whole shift-days): the candidates for a shift-day's output (METHODOLOGY §7). A
 * total entered for the whole structure (employee 0) is no employee's output.
 */
export async function manualOutputsWithin(db: Db, structureId: number, from: number, to: number, employeeId?: number): Promise<ManualOutput[]> {
  let query = db
    .selectFrom('report_products')
    .select(['employee_id', 'from_time', 'to_time', 'product_num'])
    .where('structure_id', '=', structureId)
    .where('employee_id', '!=', 0)
    .where('from_time', '>=', from)
    .where('to_time', '<=', to);
  if (employeeId !== undefined) query = query.where('employee_id', '=', employeeId);
  const rows = await query.orderBy('employee_id').orderBy('from_time').orderBy('to_time').execute();
  return rows.map((r) => ({ employeeId: r.employee_id, from: r.from_time, to: r.to_time, units: r.product_num }));
}
