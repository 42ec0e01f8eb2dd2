import type { MiddlewareHandler } from 'hono';
import { errorBody } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Legacy calls that change state although they are GETs (spec 01 keeps them for old clients):
 * sign-in, registration, sign-out and the camera-folder sync. A GET to any other /api path only reads.
 */
export const STATE_CHANGING_GETS: ReadonlySet<string> = new Set(['/api/v1/login', '/api/v2/register', '/api/v1/leave', '/api/v1/sync_videos']);

/** Names the public address, for a page that reached the API from somewhere else. */
export const crossSiteRefused = (ownOrigin: string) =>
  `Запрос пришёл с другой страницы, не с ${ownOrigin}, и отклонён. Откройте Norma по адресу ${ownOrigin} и повторите действие.`;

/**
 * Whether a browser sent this request from a page that is not ours. Origin, when present, must be
 * one of our own origins: the public one (NORMA_BASE_URL) or the one this request was addressed to
 * (a tablet on the plant network opens the server by its IP); without Origin, fetch metadata must
 * say same-origin or "none" (typed in the address bar, a bookmark). A request with neither header
 * comes from a non-browser client (the loader, scripts, old clients) and is let through: such a
 * client carries its own cookies, so it cannot be the victim of a forged request.
 */
export function isForeignRequest(headers: Headers, ownOrigins: readonly string[]): boolean {
  const origin = headers.get('origin');
  if (origin !== null) return !ownOrigins.includes(origin);
  const site = headers.get('sec-fetch-site');
  if (site !== null) return site !== 'same-origin' && site !== 'none';
  return false;
}

/**
 * Refuses, with 403 and nothing changed, every write (unsafe method) and every state-changing
 * legacy GET under /api that another site's page made the browser send — a form post, a top-level
 * navigation, an <img>. Same-site pages on another port are refused too: they are other origins.
 */
export function refuseCrossSiteWrites(baseUrl: string): MiddlewareHandler {
  const ownOrigin = new URL(baseUrl).origin;
  return async (c, next) => {
    const changesState = !SAFE_METHODS.has(c.req.method) || STATE_CHANGING_GETS.has(c.req.path);
    // The address the browser used is ours too: another site's page cannot send our cookies to it
    // under its own name (a rebound name gets that name's cookies, not our users').
    if (changesState && isForeignRequest(c.req.raw.headers, [ownOrigin, new URL(c.req.url).origin])) {
      return c.json(errorBody('cross_site_refused', crossSiteRefused(ownOrigin)), 403);
    }
    await next();
  };
}
