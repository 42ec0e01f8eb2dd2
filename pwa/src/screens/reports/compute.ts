/**
 * Reports computed in the browser (issue 12): the screens fetch the report inputs of a window
 * (GET /api/v1/report/inputs, kept by the service worker for offline use) and assemble the report
 * with @norma/core-wasm/report — the same code and WASM core the API's report calls run, so a
 * report opened once opens offline with the same numbers. The core is loaded on first use only,
 * so the rest of the app never waits for (or breaks on) the WASM file.
 */
import { api, callFailure } from '../../api/client';
import type { BlockReport, InteractiveFrv, ReportInputsReply, StatementReport } from '../../api/types';
import type { StatementPiece } from './statement-protocol';
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

/** Parsed JSON bytes after which the page gets a turn (input, paint): 1 MB took 70–180 ms on a 4× slower CPU under load. */
const PARSE_SLICE_BYTES = 400_000;
/**
 * Lets the browser handle input and paint before going on: a message to itself is a new task at
 * once, where a chain of setTimeout(0) waits at least 4 ms a link after the fifth (40 pieces: 0.16 s).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The report from the worker's pieces, about PARSE_SLICE_BYTES decoded and parsed a task (statement-protocol.ts). */
async function assemblePieces(pieces: StatementPiece[]): Promise<StatementReport> {
  const decoder = new TextDecoder();
  let report: unknown;
  let sinceTurn = 0;
  for (const [path, json] of pieces) {
    if (sinceTurn > 0 && sinceTurn + json.byteLength > PARSE_SLICE_BYTES) {
      await nextTask();
      sinceTurn = 0;
    }
    sinceTurn += json.byteLength;
    const value: unknown = JSON.parse(decoder.decode(json));
    if (path.length === 0) report = value;
    else {
      const rows = path.reduce((at: unknown, key) => (at as Record<string | number, unknown>)[key], report) as unknown[];
      for (const row of value as unknown[]) rows.push(row);
    }
  }
  return report as StatementReport;
}

/**
 * The statement of one employee (as GET /api/v1/report), computed in the session's Web Worker
 * (statement-runner.ts; issue 47: a month's statement blocked the page for seconds on a slow CPU).
 * Only parsing the finished report runs here. The worker reads the inputs with the same typed path
 * as fetchReportInputs; its answer is settled by the API client's own handler (callFailure: the
 * connection marked, a failure shown and thrown). `signal`: the caller stopped waiting (the page was
 * left); the worker's reply is then dropped.
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
  return assemblePieces(reply.pieces);
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
