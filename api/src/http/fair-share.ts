import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, MiddlewareHandler } from 'hono';
import { CLIENT_IP_HEADER, SHARE_KEY_HEADER, SHARE_KEY_QUERY } from './client-address';
import type { AppEnv } from './env';
import { tooManyRequests } from './errors';

/**
 * The heavy requests, as `METHOD /path` (a `{name}` segment matches any one segment; GET covers
 * HEAD too): each reads and computes over a whole report window, decodes video (humans), writes a
 * whole day's table (dump), builds a norm card (up to 62 report windows, every shift-day of each) or a
 * hall's event figures (every track in the window).
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
  // A hall's event figures: every track of its videos in the window, read and walked through.
  'GET /api/v1/event/figures',
  'GET /api/v1/event/shared/{key}',
  'GET /api/v1/event/tracks.mot',
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
  /**
   * Heavy requests more than `total` that may run for requesters with nothing running and nothing else in
   * line (default 0): a bystander's report starts at once instead of waiting for one of the floods' to end
   * (the report threads' express thread, threads/report-threads.ts, then runs it beside them).
   */
  reserve?: number;
}

export const DEFAULT_FAIR_SHARE: FairShareLimits = { total: 4, perUser: 2, queueTotal: 32, queuePerUser: 4, retryAfterSeconds: 5, reserve: 1 };

/** The requester of the heavy request whose handler is running, and whether it is their only one (set by fairShare around it). */
const requesterScope = new AsyncLocalStorage<{ who: string; alone: () => boolean }>();

/**
 * Whom the heavy request being served counts under (`user:<id>` or `address:<client address>`, as
 * fairShare counts it), or undefined outside one: the report threads (threads/report-threads.ts)
 * take turns by it.
 */
export const currentRequester = (): string | undefined => requesterScope.getStore()?.who;

/**
 * A test, asked later, of whether the heavy request being served is still its requester's only one:
 * none other running or waiting for a slot (true outside one). The report threads' express thread is for
 * such a bystander; a user who keeps several reports going is not one, whichever of them reaches a thread.
 */
export const currentRequesterAlone = (): (() => boolean) => requesterScope.getStore()?.alone ?? (() => true);

export const HEAVY_READ_BUSY = 'Сервер занят тяжёлыми запросами (отчёты, карточки норм, кадры, выгрузки). Повторите через несколько секунд.';

/**
 * Fair share of the heavy requests (docs/architecture.md "Limits"): at most `total` run at once and
 * at most `perUser` for one requester; the rest wait, up to the queue limits, and take turns by
 * requester (`nextWaiting`: a user with nothing running is next, whatever others keep queued); beyond them the answer is 429 with Retry-After at once. A slot is held until the
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
): MiddlewareHandler<AppEnv> & { waitingNow: () => number } {
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
  // When each requester last started a request (a counter, not the clock): forgotten once they have nothing running or waiting.
  let starts = 0;
  const lastStart = new Map<string, number>();
  // The reserve is for a requester with nothing running and no other request waiting (counting the one being
  // decided on, already in line or not): one who keeps requests going always has more in line, and never gets it.
  const canRun = (who: string, queued = 0) => {
    const mine = runningBy.get(who) ?? 0;
    if (mine >= limits.perUser) return false;
    if (running < limits.total) return true;
    return mine === 0 && (waitingBy.get(who) ?? 0) <= queued && running < limits.total + (limits.reserve ?? 0);
  };
  const begin = (who: string) => {
    running++;
    bump(runningBy, who, 1);
    lastStart.set(who, ++starts);
  };
  /**
   * The waiting request to start next: of the requesters who may run, the one with the fewest requests
   * running, then the one who started longest ago, then the earliest to arrive — so a user with nothing
   * running goes before everyone keeping requests going, and floods take turns.
   */
  const nextWaiting = () => {
    let best = -1;
    let bestKey: [number, number] = [Infinity, Infinity];
    waiting.forEach((entry, index) => {
      if (!canRun(entry.who, 1)) return;
      const key: [number, number] = [runningBy.get(entry.who) ?? 0, lastStart.get(entry.who) ?? 0];
      if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) [best, bestKey] = [index, key];
    });
    return best;
  };
  // A slot came free: start the waiting request whose turn it is (a user at their own limit does not hold up others).
  const release = (who: string) => {
    running--;
    bump(runningBy, who, -1);
    if (!runningBy.has(who) && !waitingBy.has(who)) lastStart.delete(who);
    const index = nextWaiting();
    if (index < 0) return;
    const [next] = waiting.splice(index, 1);
    bump(waitingBy, next!.who, -1);
    begin(next!.who);
    // On the next turn of the event loop, so that cheap calls that arrived meanwhile go first.
    setImmediate(next!.start);
  };

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
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
      await requesterScope.run({ who, alone: () => runningBy.get(who) === 1 && !waitingBy.has(who) }, next);
    } finally {
      release(who);
    }
  };
  // How many heavy requests wait for a slot now (tests wait on it rather than on the clock).
  return Object.assign(middleware, { waitingNow: () => waiting.length });
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
