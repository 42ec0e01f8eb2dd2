import type { MiddlewareHandler } from 'hono';
import { CLIENT_IP_HEADER, SHARE_KEY_HEADER, SHARE_KEY_QUERY } from './client-address';
import type { AppEnv } from './env';
import { tooManyRequests } from './errors';

/**
 * The heavy reads: each reads and computes over a whole report window, decodes video (humans) or
 * writes a whole day's table (dump). Everything else is cheap and is never queued.
 */
export const HEAVY_READ_PATHS: ReadonlySet<string> = new Set([
  '/api/v1/report',
  '/api/v2/report',
  '/api/v3/compute-report',
  '/api/v2/frv',
  '/api/v1/report/inputs',
  '/api/v1/norm_fulfilment',
  '/api/v1/summary',
  '/api/v1/humans',
  '/api/v1/dump',
]);

export interface FairShareLimits {
  /** Heavy reads running at once, in all (about the cores the server has). */
  total: number;
  /** Heavy reads running at once for one user (or share key, or address without either). */
  perUser: number;
  /** Heavy reads waiting for a slot, in all and per user; one more is answered 429. */
  queueTotal: number;
  queuePerUser: number;
  /** Retry-After of the 429. */
  retryAfterSeconds: number;
}

export const DEFAULT_FAIR_SHARE: FairShareLimits = { total: 4, perUser: 2, queueTotal: 32, queuePerUser: 4, retryAfterSeconds: 5 };

export const HEAVY_READ_BUSY = 'Сервер занят тяжёлыми запросами (отчёты, кадры, выгрузки). Повторите через несколько секунд.';

/**
 * Fair share of the heavy reads (docs/architecture.md "Limits"): at most `total` run at once and at
 * most `perUser` for one requester; the rest wait in line, first come first served, up to the queue
 * limits; beyond them the answer is 429 with Retry-After at once. A slot is held until the handler
 * has really finished — also when the time budget has already answered 503 — so abandoned work
 * still counts. Cheap calls never pass through here.
 */
export function fairShare(limits: FairShareLimits = DEFAULT_FAIR_SHARE, paths: ReadonlySet<string> = HEAVY_READ_PATHS): MiddlewareHandler<AppEnv> {
  let running = 0;
  const runningBy = new Map<string, number>();
  const waiting: { who: string; start: () => void }[] = [];
  const waitingBy = new Map<string, number>();
  const bump = (map: Map<string, number>, who: string, by: number) => {
    const next = (map.get(who) ?? 0) + by;
    if (next === 0) map.delete(who);
    else map.set(who, next);
  };
  const canRun = (who: string) => running < limits.total && (runningBy.get(who) ?? 0) < limits.perUser;
  const begin = (who: string) => {
    running++;
    bump(runningBy, who, 1);
  };
  // A slot came free: start the first waiting request that may run (a user at their own limit does not hold up others).
  const release = (who: string) => {
    running--;
    bump(runningBy, who, -1);
    const index = waiting.findIndex((entry) => canRun(entry.who));
    if (index < 0) return;
    const [next] = waiting.splice(index, 1);
    bump(waitingBy, next!.who, -1);
    begin(next!.who);
    // On the next turn of the event loop, so that cheap calls that arrived meanwhile go first.
    setImmediate(next!.start);
  };

  return async (c, next) => {
    if (!paths.has(c.req.path)) return next();
    // One turn of the event loop first: requests that arrived together are all counted before any runs.
    await new Promise((resolve) => setImmediate(resolve));
    const user = c.get('user');
    const shareKey = c.req.header(SHARE_KEY_HEADER) ?? c.req.query(SHARE_KEY_QUERY);
    const who = user ? `user:${user.id}` : shareKey ? `key:${shareKey}` : `address:${c.req.header(CLIENT_IP_HEADER) ?? 'unknown'}`;
    if (canRun(who)) begin(who);
    else {
      if (waiting.length >= limits.queueTotal || (waitingBy.get(who) ?? 0) >= limits.queuePerUser)
        throw tooManyRequests(HEAVY_READ_BUSY, limits.retryAfterSeconds);
      bump(waitingBy, who, 1);
      await new Promise<void>((start) => waiting.push({ who, start }));
    }
    try {
      await next();
    } finally {
      release(who);
    }
  };
}
