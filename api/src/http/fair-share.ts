import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, MiddlewareHandler } from 'hono';
import { CLIENT_IP_HEADER, SHARE_KEY_HEADER, SHARE_KEY_QUERY } from './client-address';
import type { AppEnv } from './env';
import { tooManyRequests } from './errors';

/**
 * The heavy requests, as `METHOD /path` (a `{name}` segment matches any one segment; GET covers
 * HEAD too): each reads and computes over a whole report window, decodes video (humans), writes a
 * whole day's table (dump) or builds a norm card (up to 62 report windows, every shift-day of each).
 * Matched on method and path: listing a structure's norm cards (GET /api/v1/norms) stays cheap.
 * Everything else is cheap and is never queued.
 */
export const HEAVY_REQUESTS: readonly string[] = [
  'GET /api/v1/report',
  'GET /api/v2/report',
  'GET /api/v3/compute-report',
  'GET /api/v2/frv',
  'GET /api/v1/report/inputs',
  'GET /api/v1/norm_fulfilment',
  'GET /api/v1/summary',
  'GET /api/v1/humans',
  'GET /api/v1/dump',
  'POST /api/v1/norms',
  'PUT /api/v1/norms/{id}',
];

/**
 * A test for "is this request heavy" from such a list; an entry without a method (`/heavy`) matches
 * every method.
 */
export function heavyRequestMatcher(requests: Iterable<string>): (method: string, path: string) => boolean {
  const exact = new Set<string>();
  const patterns: { method: string | null; path: RegExp }[] = [];
  for (const entry of requests) {
    const [method, path] = entry.startsWith('/') ? [null, entry] : [entry.slice(0, entry.indexOf(' ')).toUpperCase(), entry.slice(entry.indexOf(' ') + 1)];
    if (!path.includes('{')) exact.add(`${method ?? '*'} ${path}`);
    else patterns.push({ method, path: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`) });
  }
  return (rawMethod, path) => {
    const method = rawMethod.toUpperCase() === 'HEAD' ? 'GET' : rawMethod.toUpperCase();
    if (exact.has(`${method} ${path}`) || exact.has(`* ${path}`)) return true;
    return patterns.some((p) => (p.method === null || p.method === method) && p.path.test(path));
  };
}

/**
 * The user a share key's requests count as (its creator's id), or null for a key that opens nothing
 * (unknown, revoked, malformed, its creator gone): such a request counts under its client address.
 * auth/share-keys.ts `shareKeyCreators`; it must be cheap, since it runs before every heavy request with a key.
 */
export type ShareKeyCreator = (key: string, address: string) => Promise<string | null>;

export interface FairShareLimits {
  /** Heavy requests running at once, in all (about the cores the server has). */
  total: number;
  /** Heavy requests running at once for one user (with their share keys), or one address without a user. */
  perUser: number;
  /** Heavy requests waiting for a slot, in all and per user; one more is answered 429. */
  queueTotal: number;
  queuePerUser: number;
  /** Retry-After of the 429. */
  retryAfterSeconds: number;
}

export const DEFAULT_FAIR_SHARE: FairShareLimits = { total: 4, perUser: 2, queueTotal: 32, queuePerUser: 4, retryAfterSeconds: 5 };

/** The requester of the heavy request whose handler is running (set by fairShare around it). */
const requesterScope = new AsyncLocalStorage<string>();

/**
 * Whom the heavy request being served counts under (`user:<id>` or `address:<client address>`, as
 * fairShare counts it), or undefined outside one: the report threads (threads/report-threads.ts)
 * take turns by it.
 */
export const currentRequester = (): string | undefined => requesterScope.getStore();

export const HEAVY_READ_BUSY = 'Сервер занят тяжёлыми запросами (отчёты, карточки норм, кадры, выгрузки). Повторите через несколько секунд.';

/**
 * Fair share of the heavy requests (docs/architecture.md "Limits"): at most `total` run at once and
 * at most `perUser` for one requester; the rest wait in line, first come first served, up to the
 * queue limits; beyond them the answer is 429 with Retry-After at once. A slot is held until the
 * handler has really finished — also when the time budget has already answered 503 — so abandoned
 * work still counts. Cheap calls never pass through here.
 *
 * The requester is the signed-in user; a request with a share key counts as the user who created the
 * key (`keyCreator`), so that a user's keys do not multiply their share; anything else — no user, an
 * unknown or revoked key — counts under its client address, so that inventing keys multiplies nothing either.
 * The handler sees whom it counts as: `currentRequester()`.
 */
export function fairShare(
  limits: FairShareLimits = DEFAULT_FAIR_SHARE,
  requests: Iterable<string> = HEAVY_REQUESTS,
  keyCreator?: ShareKeyCreator,
): MiddlewareHandler<AppEnv> {
  const isHeavy = heavyRequestMatcher(requests);
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
    if (!isHeavy(c.req.method, c.req.path)) return next();
    // One turn of the event loop first: requests that arrived together are all counted before any runs.
    await new Promise((resolve) => setImmediate(resolve));
    const who = await requesterOf(c, keyCreator);
    if (canRun(who)) begin(who);
    else {
      if (waiting.length >= limits.queueTotal || (waitingBy.get(who) ?? 0) >= limits.queuePerUser)
        throw tooManyRequests(HEAVY_READ_BUSY, limits.retryAfterSeconds);
      bump(waitingBy, who, 1);
      await new Promise<void>((start) => waiting.push({ who, start }));
    }
    try {
      await requesterScope.run(who, next);
    } finally {
      release(who);
    }
  };
}

/** Whom a heavy request counts under: `user:<id>` (signed in, or by a live key of theirs) or `address:<client address>`. */
async function requesterOf(c: Context<AppEnv>, keyCreator: ShareKeyCreator | undefined): Promise<string> {
  const user = c.get('user');
  if (user) return `user:${user.id}`;
  const address = c.req.header(CLIENT_IP_HEADER) ?? 'unknown';
  const key = c.req.header(SHARE_KEY_HEADER) ?? c.req.query(SHARE_KEY_QUERY);
  const creator = key && keyCreator ? await keyCreator(key, address) : null;
  return creator ? `user:${creator}` : `address:${address}`;
}
