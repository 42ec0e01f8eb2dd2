/**
 * Reports computed in the browser (issue 12): the screens fetch the report inputs of a window
 * (GET /api/v1/report/inputs, kept by the service worker for offline use) and assemble the report
 * with @norma/core-wasm/report — the same code and WASM core the API's report calls run, so a
 * report opened once opens offline with the same numbers. The core is loaded on first use only,
 * so the rest of the app never waits for (or breaks on) the WASM file.
 */
import type { ReportInputs } from '@norma/core-wasm/report';
import { api } from '../api/client';
import type { BlockReport, InteractiveFrv, StatementReport } from '../screens/reports/types';

type Window = { structureId: number; from: string; to: string };

const loadCore = () => import('@norma/core-wasm/report');

/** The inputs of a window; with `employeeId`, only his markups and stamps (a statement). */
export function fetchReportInputs({ structureId, from, to }: Window, employeeId?: number): Promise<ReportInputs> {
  return api.get<ReportInputs>('/api/v1/report/inputs', { structure_id: structureId, from_time: from, to_time: to, employee_id: employeeId });
}

/** The statement of one employee (as GET /api/v1/report). */
export async function computeStatement(window: Window, employeeId: number): Promise<StatementReport> {
  const [core, inputs] = await Promise.all([loadCore(), fetchReportInputs(window, employeeId)]);
  return core.assembleStatement(inputs, employeeId) as unknown as StatementReport;
}

/** The block report of a structure (as GET /api/v2/report). */
export async function computeBlockReport(window: Window): Promise<BlockReport> {
  const [core, inputs] = await Promise.all([loadCore(), fetchReportInputs(window)]);
  return core.assembleBlockReport(inputs) as unknown as BlockReport;
}

/** The interactive report (as GET /api/v2/frv). */
export async function computeInteractiveFrv(window: Window): Promise<InteractiveFrv> {
  const [core, inputs] = await Promise.all([loadCore(), fetchReportInputs(window)]);
  return core.assembleInteractiveFrv(inputs) as unknown as InteractiveFrv;
}

/**
 * The same functions on `window.normaReports`, to check a report against the API's in the
 * browser console (and in tests/e2e/reports-offline.e2e.test.ts, field by field, in Chromium).
 */
declare global {
  interface Window {
    normaReports?: { computeStatement: typeof computeStatement; computeBlockReport: typeof computeBlockReport; computeInteractiveFrv: typeof computeInteractiveFrv };
  }
}
if (typeof window !== 'undefined') window.normaReports = { computeStatement, computeBlockReport, computeInteractiveFrv };
