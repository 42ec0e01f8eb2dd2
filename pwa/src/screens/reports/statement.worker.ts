/// <reference lib="webworker" />
import { FROM_CACHE_HEADER } from '../../api/cache-header';
import { apiUrl } from '../../api/paths';
import type { ReportInputsReply, StatementReport } from '../../api/types';
import type { StatementPiece, StatementReply, StatementRequest, StatementWindow } from './statement-protocol';
import { statementWindow } from './statement/window';

/**
 * Computes statements off the page's thread (issue 47): reads a window's inputs (the typed path of
 * compute.ts's fetchReportInputs; in a worker the service worker answers it offline too), assembles
 * the report with the WASM core and sends it back as JSON text. One worker serves every statement of
 * the app session (statement-runner.ts): the core is instantiated once, when the worker starts, and
 * stays warm for the next statement.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;

/*
 * The core is imported without waiting for it: its module waits for the WASM at its top level, and a
 * worker whose own module is still waiting has no message handler yet — the page's first request
 * would be lost. The handler is set at once; the core loads while the first inputs are read (the
 * read is sent first: loading the core keeps this thread busy for a while on a slow CPU, and the
 * first request usually arrives with the worker's start, from the page's first script). A core that
 * failed to load is tried again by the next request.
 */
let core: ReturnType<typeof loadCore> | null = null;
const loadCore = () => import('@norma/core-wasm/report');
function warmCore() {
  if (!core) {
    core = loadCore();
    core.catch(() => (core = null));
  }
  return core;
}

/** A long array (table 4's rows, an operation's measurements) is sent in runs of this many rows, so that no piece takes the page long to parse. */
const PIECE_ROWS = 1000;

const encoder = new TextEncoder();
const encoded = (value: unknown) => encoder.encode(JSON.stringify(value)).buffer as ArrayBuffer;

/** `value` with its long arrays emptied; their rows go to `runs`, in runs of PIECE_ROWS, by path. */
function hollow(value: unknown, path: StatementPiece[0], runs: [StatementPiece[0], unknown[]][]): unknown {
  if (Array.isArray(value)) {
    if (value.length <= PIECE_ROWS) return value.map((item, i) => hollow(item, [...path, i], runs));
    for (let start = 0; start < value.length; start += PIECE_ROWS) runs.push([path, value.slice(start, start + PIECE_ROWS)]);
    return [];
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hollow(item, [...path, key], runs)]));
}

/** The report in pieces: itself with the long arrays emptied, then their rows (statement-protocol.ts). */
function asPieces(report: StatementReport): StatementPiece[] {
  const runs: [StatementPiece[0], unknown[]][] = [];
  const rest = hollow(report, [], runs);
  return [[[], encoded(rest)], ...runs.map(([path, rows]): StatementPiece => [path, encoded(rows)])];
}

/** Requests being computed, and those of them the page stopped waiting for (not assembled). */
const running = new Set<number>();
const cancelled = new Set<number>();

type Outcome = StatementReply extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

async function compute(id: number, { structureId, employeeId, from, to }: StatementWindow): Promise<Outcome> {
  const url = apiUrl('/api/v1/report/inputs', { query: { structure_id: structureId, from_time: from, to_time: to, employee_id: employeeId } });
  const reading = fetch(url, { credentials: 'same-origin' });
  const loading = warmCore();
  let response: Response;
  try {
    response = await reading;
  } catch {
    return { type: 'failure', status: 0, body: undefined };
  }
  const text = await response.text();
  if (!response.ok) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { type: 'failure', status: response.status, body };
  }
  if (cancelled.has(id)) return { type: 'cancelled' };
  const inputs = JSON.parse(text) as ReportInputsReply;
  // Typed as the API's reply (no cast): a core field the schema lacks or types otherwise fails the typecheck.
  const report: StatementReport = (await loading).assembleStatement(inputs, employeeId);
  return { type: 'report', pieces: asPieces(report), fromCache: response.headers.has(FROM_CACHE_HEADER) };
}

scope.onmessage = (event: MessageEvent<StatementRequest>) => {
  const request = event.data;
  if (request.type === 'cancel') {
    if (running.has(request.id)) cancelled.add(request.id);
    return;
  }
  const { id } = request;
  const target = request.type === 'address' ? statementWindow(request.params) : request;
  if (!target) {
    scope.postMessage({ id, type: 'error', message: 'Неверный адрес ведомости' } satisfies StatementReply);
    return;
  }
  running.add(id);
  compute(id, target)
    .catch((error: unknown): Outcome => ({ type: 'error', message: `Ведомость не рассчитана: ${error instanceof Error ? error.message : String(error)}` }))
    .then((outcome) => {
      running.delete(id);
      cancelled.delete(id);
      // The report's buffers move to the page: nothing to copy on either side.
      const buffers = outcome.type === 'report' ? outcome.pieces.map(([, json]) => json) : [];
      scope.postMessage({ id, ...outcome } as StatementReply, buffers);
    });
};
