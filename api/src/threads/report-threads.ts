import type { Config } from '../config';
import type { NormThreadTask } from '../norms/build';
import type { ReportThreadTask } from '../report/computed.routes';
import { ApiError } from '../http/errors';
import { startWorkerThread } from '../http/worker-thread';

/**
 * The computations that may run on a report thread (threads/report-thread.ts): the reports' own
 * (report/computed.routes.ts) and the norms' (norms/build.ts), each domain naming its tasks.
 */
export type ReportTask = ReportThreadTask | NormThreadTask;

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
  const threads = Array.from({ length: size }, () => startWorkerThread<ReportReply>(new URL('./report-thread.ts', import.meta.url), 'report thread'));
  // Sent with every task: the thread opens its connection on the first.
  const where = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  return {
    async run(task) {
      // The thread with the fewest reports in flight.
      const thread = threads.reduce((best, t) => (t.inFlight < best.inFlight ? t : best));
      const reply = await thread.send({ where, ...task });
      if ('json' in reply) return reply.json;
      if (reply.error.status >= 400 && reply.error.status < 500)
        throw new ApiError(reply.error.status as 400, reply.error.code, reply.error.message, reply.error.details);
      throw new Error(reply.error.message);
    },
    close() {
      for (const thread of threads) thread.close();
    },
  };
}
