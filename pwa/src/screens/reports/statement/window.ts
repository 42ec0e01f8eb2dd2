import { instantParam } from '../format';
import type { StatementParams, StatementWindow } from '../statement-protocol';

/**
 * The window a statement's address names, or null when it names none (the screen then says the
 * address is wrong). The one reading of the address: the screen's and the early start's
 * (statement-runner.ts, startStatementEarly), so that the screen finds the read already running.
 */
export function statementWindow(params: StatementParams): StatementWindow | null {
  const structureId = Number(params.structureId);
  const employeeId = Number(params.employeeId);
  const from = instantParam(params.fromTime);
  const to = instantParam(params.toTime);
  if (!(structureId > 0 && employeeId > 0 && from !== null && to !== null)) return null;
  return { structureId, employeeId, from, to };
}
