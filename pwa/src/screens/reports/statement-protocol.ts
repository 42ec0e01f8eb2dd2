/** Messages between the statement's page and its worker (statement.worker.ts, run by statement-runner.ts). */

/** A statement's route parameters (/statement/{structureId}/{employeeId}/{fromTime}/{toTime}); statement/window.ts reads them. */
export type StatementParams = { structureId?: string; employeeId?: string; fromTime?: string; toTime?: string };

/** The id of the request the page's first script sends (`address`); the app's own requests count from 1. */
export const EARLY_ID = 0;

/**
 * What the page's first script leaves for the app (pwa/vite.config.ts, routePreload) at a statement's
 * address: the worker it started, the address's parts it asked about, and what the worker answered
 * before the app took the worker over (statement-runner.ts).
 */
export type EarlyStatementWorker = { worker: Worker; params: StatementParams; replies: StatementReply[]; failed: string | null };

/** What to compute: the statement of one employee over a window. */
export interface StatementWindow {
  structureId: number;
  employeeId: number;
  from: string;
  to: string;
}

export type StatementRequest =
  /** Compute a statement; `id` tags its reply (one worker serves every statement of the page). */
  | ({ type: 'compute'; id: number } & StatementWindow)
  /**
   * Compute the statement a statement's address names, as its screen reads it (statement/window.ts):
   * sent by the page's first script (pwa/vite.config.ts, routePreload) with the address's parts, before
   * the app's code is here; its id is EARLY_ID. An address that names no statement is answered `error`.
   */
  | { type: 'address'; id: number; params: StatementParams }
  /** The page no longer waits for request `id`: skip assembling it if it has not started. */
  | { type: 'cancel'; id: number };

/**
 * A piece of the report as JSON text, UTF-8 encoded in a buffer of its own that is moved to the page
 * (transferred), not copied. The first piece (path []) is the report with every long array (table
 * 4's rows, an operation's measurements) left empty; each further piece is a run of rows to append
 * to the array at `path` (['frv'], ['measurements', 'rows', 0, 'measurements']).
 */
export type StatementPiece = [path: (string | number)[], json: ArrayBuffer];

export type StatementReply = { id: number } & (
  | /**
     * The statement as JSON texts in pieces: the page decodes and parses a few pieces a task instead
     * of receiving a cloned object (a month's report is about 8 MB; cloning it blocks the
     * page three times longer than parsing, and even cloning 8 MB of text was one long task of
     * 60–230 ms when the message arrived; parsing it whole is one long task on a slow CPU).
     * `fromCache`: the inputs came from the service worker's offline cache, not from the server.
     */
    { type: 'report'; pieces: StatementPiece[]; fromCache: boolean }
    /** The inputs call failed: `status` 0 — no connection; otherwise the API's answer and its error body. */
  | { type: 'failure'; status: number; body: unknown }
  /** The computation itself failed. */
  | { type: 'error'; message: string }
  /** Cancelled before it was assembled (the page had stopped waiting). */
  | { type: 'cancelled' }
);
