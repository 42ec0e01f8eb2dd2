import type { Config } from '../config';
import type { NormParamsValue, NormWindowValue } from '../norms/build';
import { ApiError } from './errors';

/** The report computations that may run on a thread of their own (api/src/report/report-thread.ts). */
export type ReportTask =
  | { task: 'blockReport'; structureId: number; from: number; to: number }
  | { task: 'frv'; structureId: number; from: number; to: number }
  | { task: 'statement'; structureId: number; employeeId: number; from: number; to: number; details: boolean }
  // A norm card reads and balances every shift-day of up to 62 windows; fulfilment balances each shift-day of its window.
  | { task: 'normCard'; structureId: number; windows: NormWindowValue[]; params: NormParamsValue }
  | { task: 'normFulfilment'; structureId: number; from: number; to: number; employeeId?: number };

export type ReportReply = { id: number; json: string } | { id: number; error: { status: number; code: string; message: string; details?: unknown } };

export interface ReportThreads {
  /** The answer's JSON text, computed on a report thread; its ApiError (404 and the like) is thrown here again. */
  run(task: ReportTask): Promise<string>;
  close(): void;
}

/**
 * A few threads that compute wide reports, each with its own database connection, so that a report
 * of 62 days (hundreds of milliseconds of reading and arithmetic) never holds the thread that answers
 * every other call (docs/architecture.md "Limits"). Fair share (http/fair-share.ts) already keeps
 * the number of reports in flight to about the number of threads. The answer comes back as JSON
 * text and goes out as it is, never parsed again.
 */
export function startReportThreads(config: Pick<Config, 'dataDir' | 'databaseUrl'>, size: number): ReportThreads {
  const threads = Array.from({ length: size }, () => {
    const worker = new Worker(new URL('../report/report-thread.ts', import.meta.url).href);
    const pending = new Map<number, { resolve: (json: string) => void; reject: (err: Error) => void }>();
    // Tasks wait until the thread has loaded and says so (a message sent earlier may be lost).
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    worker.onmessage = (event: MessageEvent<ReportReply | { ready: true }>) => {
      if ('ready' in event.data) return markReady();
      const reply = event.data;
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      if ('json' in reply) waiter.resolve(reply.json);
      else if (reply.error.status >= 400 && reply.error.status < 500)
        waiter.reject(new ApiError(reply.error.status as 400, reply.error.code, reply.error.message, reply.error.details));
      else waiter.reject(new Error(reply.error.message));
    };
    worker.onerror = (event) => {
      for (const waiter of pending.values()) waiter.reject(new Error(`report thread failed: ${event.message}`));
      pending.clear();
    };
    return { worker, pending, ready };
  });
  // Sent with every task: the thread opens its connection on the first.
  const where = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  let nextId = 1;
  return {
    run(task) {
      // The thread with the fewest reports in flight.
      const thread = threads.reduce((best, t) => (t.pending.size < best.pending.size ? t : best));
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        void thread.ready.then(() => thread.worker.postMessage({ id, where, ...task }));
      });
    },
    close() {
      for (const { worker } of threads) worker.terminate();
    },
  };
}
