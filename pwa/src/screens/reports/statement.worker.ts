/// <reference lib="webworker" />
import { FROM_CACHE_HEADER } from '../../api/cache-header';
import { apiUrl } from '../../api/paths';
import type { ReportInputsReply, StatementReport } from '../../api/types';
import type { StatementReply, StatementRequest } from './statement-protocol';

/**
 * Computes a statement off the page's thread (issue 47): reads the window's inputs (the same typed
 * call as compute.ts's fetchReportInputs; in a worker the service worker answers it offline too),
 * assembles the report with the WASM core and sends it back as JSON text. A month's statement takes
 * a second on a slow CPU; here the page goes on drawing meanwhile.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;

/*
 * The core is imported on demand: its module waits for the WASM at its top level, and a worker whose
 * own module is still waiting has no message handler yet — the page's request would be lost. The
 * handler is set at once; the core loads while the inputs are read.
 */
const loadCore = () => import('@norma/core-wasm/report');

async function compute({ structureId, employeeId, from, to }: StatementRequest): Promise<StatementReply> {
  const core = loadCore();
  // A failed read answers without the core; its own failure is then not left unhandled.
  core.catch(() => undefined);
  let response: Response;
  try {
    const url = apiUrl('/api/v1/report/inputs', { query: { structure_id: structureId, from_time: from, to_time: to, employee_id: employeeId } });
    response = await fetch(url, { credentials: 'same-origin' });
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
  const inputs = JSON.parse(text) as ReportInputsReply;
  // Typed as the API's reply (no cast): a core field the schema lacks or types otherwise fails the typecheck.
  const report: StatementReport = (await core).assembleStatement(inputs, employeeId);
  const fields = Object.entries(report).flatMap(([name, value]): [string, string][] => (value === undefined ? [] : [[name, JSON.stringify(value)]]));
  return { type: 'report', fields, fromCache: response.headers.has(FROM_CACHE_HEADER) };
}

scope.onmessage = (event: MessageEvent<StatementRequest>) => {
  compute(event.data).then(
    (reply) => scope.postMessage(reply),
    (error: unknown) => scope.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies StatementReply),
  );
};
