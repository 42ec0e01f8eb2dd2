/**
 * Reports computed in the browser (issue 12): the screens fetch the report inputs of a window
 * (GET /api/v1/report/inputs, kept by the service worker for offline use) and assemble the report
 * with @norma/core-wasm/report — the same code and WASM core the API's report calls run, so a
 * report opened once opens offline with the same numbers. The core is loaded on first use only,
 * so the rest of the app never waits for (or breaks on) the WASM file.
 */
import { ApiCallError, api, NO_CONNECTION, type FailureBody } from '../../api/client';
import type { BlockReport, InteractiveFrv, ReportInputsReply, StatementReport } from '../../api/types';
import { markOffline, markOnline } from '../../status/connectivity';
import { notify } from '../../status/notifications';
import type { StatementReply, StatementRequest } from './statement-protocol';

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

/** A statement field longer than this (JSON characters) is parsed in a task of its own. */
const PARSE_SLICE_CHARS = 200_000;
/** Lets the browser handle input and paint before going on. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Runs statement.worker.ts once: a worker per statement, ended when it has answered (the core's memory goes with it). */
function statementInWorker(request: StatementRequest): Promise<StatementReply> {
  const worker = new Worker(new URL('./statement.worker.ts', import.meta.url), { type: 'module', name: 'norma-statement' });
  return new Promise<StatementReply>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<StatementReply>) => resolve(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(event.message || 'Модуль расчёта ведомости не загрузился'));
    };
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}

/**
 * The statement of one employee (as GET /api/v1/report), computed in a Web Worker (issue 47: a
 * month's statement blocked the page for seconds on a slow CPU). Only parsing the finished report
 * runs here. The worker reads the inputs with the same typed path as fetchReportInputs; a failed
 * read is shown and thrown here exactly as the API client does for any read (api/client.ts).
 */
export async function computeStatement({ structureId, from, to }: Window, employeeId: number): Promise<StatementReport> {
  const reply = await statementInWorker({ structureId, employeeId, from, to });
  if (reply.type === 'error') throw new Error(reply.message);
  if (reply.type === 'failure') {
    if (reply.status === 0) {
      markOffline();
      throw new ApiCallError(0, 'network', NO_CONNECTION);
    }
    markOnline();
    const body = reply.body as FailureBody;
    const message = body?.error?.message ?? `Ошибка сервера (${reply.status})`;
    notify('error', message);
    throw new ApiCallError(reply.status, body?.error?.code ?? 'http_error', message);
  }
  if (reply.fromCache) markOffline();
  else markOnline();
  // A field a task: the page answers between the big ones (table 4, the observation sheets).
  const report: Record<string, unknown> = {};
  for (const [name, json] of reply.fields) {
    if (json.length > PARSE_SLICE_CHARS) await nextTask();
    report[name] = JSON.parse(json);
  }
  return report as StatementReport;
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
