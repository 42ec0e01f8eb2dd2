import type { Config } from '../config';
import type { NormThreadTask } from '../norms/build';
import type { ReportThreadTask } from '../report/thread-task';
import type { ContentCoding } from '../http/compress';
import { ApiError } from '../http/errors';
import { currentRequester, currentRequesterAlone } from '../http/fair-share';
import { startWorkerThread } from '../http/worker-thread';

/**
 * The computations that may run on a report thread (threads/report-thread.ts): the reports' own
 * (report/thread-task.ts, sent by report/computed.routes.ts) and the norms' (norms/build.ts), each domain naming its tasks.
 */
export type ReportTask = ReportThreadTask | NormThreadTask;

export type ReportReply =
  | { id: number; json: string }
  | { id: number; bytes: Uint8Array; coding: ContentCoding }
  | { id: number; error: { status: number; code: string; message: string; details?: unknown } };

/** An answer as it goes to the client: JSON text, or its bytes compressed with `coding` (Content-Encoding). */
export interface ReportAnswer {
  body: string | Uint8Array;
  coding: ContentCoding | null;
}

export interface ReportThreads {
  /**
   * The answer's JSON text, computed on a report thread; its ApiError (404 and the like) is thrown here again.
   * Whose task it is: the requester of the heavy request being served, as fair share counts them
   * (`currentRequester()`, http/fair-share.ts); `requester` names another (tests).
   */
  run(task: ReportTask, requester?: string): Promise<string>;
  /** The same, compressed on the thread with `coding` (chooseEncoding of http/compress.ts) unless it is short. */
  answer(task: ReportTask, coding: ContentCoding | null, requester?: string): Promise<ReportAnswer>;
  close(): void;
}

/** Whose tasks nobody named: one requester of their own, taking turns with the others. */
const UNNAMED = 'unnamed';

export interface Waiting {
  task: ReportTask;
  requester: string;
  /** Whether the requester has no other heavy request in flight now (fair share's count; absent: alone). */
  alone?: () => boolean;
  coding: ContentCoding | null;
  resolve: (answer: ReportAnswer) => void;
  reject: (err: unknown) => void;
}

/**
 * A few threads that compute wide reports, each with its own database connection, so that a report
 * of 62 days (hundreds of milliseconds of reading and arithmetic) never holds the thread that answers
 * every other call (docs/architecture.md "Limits"). Fair share (http/fair-share.ts) already keeps
 * the number of reports in flight to about the number of threads. The answer comes back as JSON
 * text, or compressed for the client, and goes out as it is, never parsed again.
 *
 * Each thread is given one task at a time. The tasks waiting for a thread take turns by requester
 * (round robin: the requester with the fewest tasks on the threads, then the one whose last task
 * started longest ago), each requester's own in the order they came. A task cannot be stopped once
 * on a thread, so another user's report waits for the tasks already running, not for all that one
 * user's flood (ten share keys, eight norm cards of 62 windows) has queued (bench/heavy-requests.bench.ts).
 *
 * `express` threads more (issue 47, finding 4) take only the task of a requester with nothing on the
 * threads, nothing else waiting for them and no other heavy request in flight at the fair share (`alone`),
 * once the `size` others are busy: a bystander's one-day report runs beside the floods' month-long ones (the
 * system shares the cores between them) instead of waiting for one of those to end. Whoever keeps requests
 * going has more in flight, and does not get them — also at the moment none of theirs is on a thread (a
 * month-long one there held the bystander 250 ms and more, bench/heavy-requests.bench.ts case (c)).
 */
export function startReportThreads(config: Pick<Config, 'dataDir' | 'databaseUrl'>, size: number, express = 0): ReportThreads {
  const threads = Array.from({ length: size + express }, () => startWorkerThread<ReportReply>(new URL('./report-thread.ts', import.meta.url), 'report thread'));
  const busy = threads.map(() => false);
  // Sent with every task: the thread opens its connection on the first.
  const where = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  const turns = requesterTurns();

  /** Gives every idle thread the next waiting task. */
  const pump = () => {
    for (const [i, thread] of threads.entries()) {
      if (busy[i]) continue;
      const next = turns.take(i >= size);
      if (!next) return;
      busy[i] = true;
      const done = () => {
        busy[i] = false;
        turns.finished(next.requester);
        pump();
      };
      thread.send({ where, coding: next.coding, ...next.task }).then(
        (reply) => {
          done();
          settle(next, reply);
        },
        (err: unknown) => {
          done();
          next.reject(err);
        },
      );
    }
  };
  const answer = (task: ReportTask, coding: ContentCoding | null, requester?: string) =>
    new Promise<ReportAnswer>((resolve, reject) => {
      turns.add({
        task,
        requester: requester ?? currentRequester() ?? UNNAMED,
        alone: requester ? undefined : currentRequesterAlone(),
        coding,
        resolve,
        reject,
      });
      pump();
    });

  return {
    async run(task, requester) {
      return (await answer(task, null, requester)).body as string;
    },
    answer,
    close() {
      for (const thread of threads) thread.close();
    },
  };
}

/** The tasks waiting for a thread, by requester, and whose turn it is. */
export function requesterTurns() {
  // Each requester's waiting tasks, oldest first; the map keeps requesters in the order they began to wait.
  const waiting = new Map<string, Waiting[]>();
  // Tasks on a thread by requester, and the turn of each requester's latest start (kept while they have tasks).
  const running = new Map<string, number>();
  const lastTurn = new Map<string, number>();
  let turn = 0;
  const rank = (who: string) => [running.get(who) ?? 0, lastTurn.get(who) ?? -1] as const;
  return {
    add(task: Waiting) {
      const queue = waiting.get(task.requester);
      if (queue) queue.push(task);
      else waiting.set(task.requester, [task]);
    },
    /**
     * The next task to start, now counted as running: of the requester with the fewest running, then the one
     * served longest ago; with `idleOnly` (the express thread), only of a requester with nothing running,
     * this one task waiting and nothing else in flight (`alone`, asked now) — one who keeps requests going has
     * more in flight (none if there is no such).
     */
    take(idleOnly = false): Waiting | undefined {
      let best: string | undefined;
      for (const [who, queue] of waiting) {
        if (idleOnly && (running.has(who) || queue.length > 1 || queue[0]!.alone?.() === false)) continue;
        if (best === undefined) best = who;
        const [runs, last] = rank(who);
        const [bestRuns, bestLast] = rank(best);
        if (runs < bestRuns || (runs === bestRuns && last < bestLast)) best = who;
      }
      if (best === undefined) return undefined;
      const queue = waiting.get(best)!;
      const next = queue.shift()!;
      if (!queue.length) waiting.delete(best);
      running.set(best, (running.get(best) ?? 0) + 1);
      lastTurn.set(best, turn++);
      return next;
    },
    /** A task of `who` has left its thread; a requester with nothing left is forgotten. */
    finished(who: string) {
      const left = (running.get(who) ?? 1) - 1;
      if (left > 0) return void running.set(who, left);
      running.delete(who);
      if (!waiting.has(who)) lastTurn.delete(who);
    },
  };
}

function settle(task: Waiting, reply: ReportReply) {
  if ('json' in reply) return task.resolve({ body: reply.json, coding: null });
  if ('bytes' in reply) return task.resolve({ body: reply.bytes, coding: reply.coding });
  if (reply.error.status >= 400 && reply.error.status < 500)
    return task.reject(new ApiError(reply.error.status as 400, reply.error.code, reply.error.message, reply.error.details));
  task.reject(new Error(reply.error.message));
}
