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
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), budgetMs);
    });
    const done = next().then(() => 'done' as const);
    // The handler's own failure is not ours to judge: it still reaches onError through `done`.
    const outcome = await Promise.race([done, expired]).finally(() => clearTimeout(timer));
    if (outcome === 'expired') {
      done.catch(() => {});
      return c.json(errorBody('time_budget_exceeded', TIME_BUDGET_MESSAGE), 503, { 'retry-after': '5' });
    }
  };
}
