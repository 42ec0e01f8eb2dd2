/** Messages between the statement's page and its worker (statement.worker.ts, run by compute.ts). */

/** What to compute: the statement of one employee over a window. */
export interface StatementRequest {
  structureId: number;
  employeeId: number;
  from: string;
  to: string;
}

export type StatementReply =
  /**
   * The statement as JSON texts, one per field of the report: the page parses them a field a task
   * instead of receiving a cloned object (a month's report is about 8 MB; cloning it blocks the page
   * three times longer than parsing, and parsing it whole is one long task on a slow CPU).
   * `fromCache`: the inputs came from the service worker's offline cache, not from the server.
   */
  | { type: 'report'; fields: [name: string, json: string][]; fromCache: boolean }
  /** The inputs call failed: `status` 0 — no connection; otherwise the API's answer and its error body. */
  | { type: 'failure'; status: number; body: unknown }
  /** The computation itself failed. */
  | { type: 'error'; message: string };
