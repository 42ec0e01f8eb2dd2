import { assembleStatement } from '@norma/core-wasm/report';
import type { Db } from '../db/database';
import type { StatementReportBody } from './schema';
import { loadReportInputs, requireEmployee } from './service';

/**
 * GET /api/v1/report: the statement of one employee over [from, to), assembled by
 * @norma/core-wasm/report from the report inputs (his markups and stamps), as in the PWA.
 */
export async function buildStatement(
  db: Db,
  structureId: number,
  employeeId: number,
  from: number,
  to: number,
  withDetails = false,
): Promise<StatementReportBody> {
  await requireEmployee(db, structureId, employeeId);
  const inputs = await loadReportInputs(db, structureId, from, to, { employeeId, videos: false });
  return assembleStatement(inputs, employeeId, withDetails);
}
