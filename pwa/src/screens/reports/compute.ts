/**
 * Reports computed in the browser (issue 12): the screens fetch the report inputs of a window
 * (GET /api/v1/report/inputs, kept by the service worker for offline use) and assemble the report
 * with @norma/core-wasm/report — the same code and WASM core the API's report calls run, so a
 * report opened once opens offline with the same numbers. The core is loaded on first use only,
 * so the rest of the app never waits for (or breaks on) the WASM file.
 */
import { api, callFailure } from '../../api/client';
import type { BlockReport, InteractiveFrv, ReportInputsReply, StatementReport } from '../../api/types';
import { statementInWorker } from './statement-runner';

type Window = { structureId: number; from: string; to: string };

const loadCore = () => import('@norma/core-wasm/report');

/** The inputs of a window; with `employeeId`, only his markups and stamps (a statement). */
export function fetchReportInputs({ structureId, from, to }: Window, employeeId?: number): Promise<ReportInputsReply> {
  return api.get('/api/v1/report/inputs', { query: { structure_id: structureId, from_time: from, to_time: to, employee_id: employeeId } });
}

/*
 * The screens render the API's reply types (the zod schemas of api/src/report/schema.ts); the
 * core's results are checked against them here, the one place they meet, as the API's report
 * calls check theirs. Statement and interactive report: assigned without a cast, so a core field
 * the schema lacks or types otherwise fails the PWA typecheck. Block report: the core types a
 * block loosely (`type: string` and its fields), so it is cast, as the API does (api/src/report/blocks.ts).
 */

/**
 * The statement of one employee (as GET /api/v1/report), computed in the session's Web Worker
 * (statement-runner.ts; issue 47: a month's statement blocked the page for seconds on a slow CPU),
 * or taken from the one started with the app at this address. Only parsing the finished report runs
 * in the page. The worker reads the inputs with the same typed path as fetchReportInputs; its answer
 * is settled by the API client's own handler (callFailure: the connection marked, a failure shown
 * and thrown). `signal`: the caller stopped waiting (the page was left); the worker's reply is then dropped.
 */
export async function computeStatement({ structureId, from, to }: Window, employeeId: number, signal?: AbortSignal): Promise<StatementReport> {
  const reply = await statementInWorker({ structureId, employeeId, from, to }, signal);
  if (reply.type === 'error') throw new Error(reply.message);
  if (reply.type === 'cancelled') throw new Error('Расчёт ведомости отменён');
  // The inputs call's answer, settled as the API client settles every answer.
  const answer = reply.type === 'failure' ? { status: reply.status, body: reply.body } : { status: 200, fromCache: reply.fromCache };
  const failure = callFailure('GET', answer);
  if (failure) throw failure;
  if (reply.type !== 'report') throw new Error(`Ошибка сервера (${reply.status})`);
  return reply.report;
}

/** The block report of a structure (as GET /api/v2/report). */
export async function computeBlockReport(window: Window): Promise<BlockReport> {
  const [core, inputs] = await Promise.all([loadCore(), fetchReportInputs(window)]);
  return core.assembleBlockReport(inputs) as BlockReport;
}

/** The interactive report (as GET /api/v2/frv). */
export async function computeInteractiveFrv(window: Window): Promise<InteractiveFrv> {
  const [core, inputs] = await Promise.all([loadCore(), fetchReportInputs(window)]);
  const frv: InteractiveFrv = core.assembleInteractiveFrv(inputs);
  return frv;
}

/**
 * The same functions on `window.normaReports`, to check a report against the API's in the
 * browser console (and in tests/e2e/reports-offline.e2e.test.ts, field by field, in Chromium).
 */
declare global {
  interface Window {
    normaReports?: {
      computeStatement: typeof computeStatement;
      computeBlockReport: typeof computeBlockReport;
      computeInteractiveFrv: typeof computeInteractiveFrv;
    };
  }
}
if (typeof window !== 'undefined') window.normaReports = { computeStatement, computeBlockReport, computeInteractiveFrv };
