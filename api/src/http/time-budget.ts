import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env';
import { errorBody } from './errors';

/** How long a read may take before the client gets a 503 instead of waiting on. */
export const READ_TIME_BUDGET_MS = 30_000;

export const TIME_BUDGET_MESSAGE = 'Сервер не успел ответить за отведённое время. Сузьте запрос (период, выборку) или повторите позже.';

/**
 * The time budget of a request (docs/api.md "Границы входных данных"): a GET or HEAD that has not
 * produced its answer within `budgetMs` is answered 503 at once. What it covers, honestly: the
 * waiting of an asynchronous handler (queries one after another, file reads). What it does not:
 * the work goes on to its end in the background (SQLite and JavaScript cannot be interrupted), and
 * a synchronous loop holds the one thread so the timer cannot even fire — that is why every loop
 * is bounded by the size of the input and the data, never by a value a client sent. Writes are
 * left alone: a 503 for a write that then commits would be a lie.
 */
export function timeBudget(budgetMs = READ_TIME_BUDGET_MS): MiddlewareHandler<AppEnv> {
  // One timer for every read in flight, not one per request: most reads finish in microseconds,
  // and arming and clearing a timer each time costs about as much as the read. The timer ticks every
  // tenth of the budget (at most every second), so a read is cut off at most one tick after its
  // budget ends; it stops once nothing is waiting.
  const waiting = new Set<{ deadline: number; expire: () => void }>();
  const tickMs = Math.max(1, Math.min(1000, budgetMs / 10));
  let timer: ReturnType<typeof setInterval> | null = null;
  const sweep = () => {
    const now = performance.now();
    for (const entry of waiting) {
      if (entry.deadline > now) continue;
      waiting.delete(entry);
      entry.expire();
    }
    if (waiting.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const entry = { deadline: performance.now() + budgetMs, expire: () => {} };
    let done!: Promise<void>;
    // One promise settles with whichever comes first: the handler's answer or the budget's end.
    // The handler's own failure is not ours to judge: it still reaches onError through it.
    const outcome = new Promise<'done' | 'expired'>((resolve, reject) => {
      entry.expire = () => resolve('expired');
      done = next().then(() => resolve('done'), reject);
    });
    waiting.add(entry);
    if (!timer) {
      timer = setInterval(sweep, tickMs);
      timer.unref();
    }
    try {
      if ((await outcome) === 'done') return;
    } finally {
      waiting.delete(entry);
    }
    done.catch(() => {});
    return c.json(errorBody('time_budget_exceeded', TIME_BUDGET_MESSAGE), 503, { 'retry-after': '5' });
  };
}
