import type { paths } from './schema.gen';

/**
 * The API's paths as its routes declare them (schema.gen.ts, generated from the routes), and the URLs
 * built from them. No DOM and no side effects: the service worker builds its URLs here too, so a
 * renamed or retyped route fails the PWA's typecheck wherever a URL of it is written.
 */
export type Method = 'get' | 'post' | 'put' | 'delete';
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** The paths that answer method M. */
export type ApiPath<M extends Method> = { [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P }[keyof paths];
/** A call's declared parameters: `path` (the `{name}`s of the path), `query`, `header`, `cookie`. */
export type ApiParameters<P extends keyof paths, M extends Method> = Operation<P, M> extends { parameters: infer A } ? A : never;
/** What a URL needs: `path` and `query` as the route declares them. */
export type UrlInit<P extends keyof paths, M extends Method> = Omit<ApiParameters<P, M>, 'header' | 'cookie'>;
/** The init argument: optional where the URL needs nothing. */
type UrlInitArg<P extends keyof paths, M extends Method> = object extends UrlInit<P, M> ? [init?: UrlInit<P, M>] : [init: UrlInit<P, M>];

type QueryValue = string | number | boolean | null | undefined;

/** Any base will do: only the path and the query of the URL are kept (same origin). */
const BASE = 'http://localhost';

function buildUrl(path: string, query?: Record<string, QueryValue>) {
  const url = new URL(path, BASE);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

/**
 * The same-origin URL of a call of `method` sent by hand (a replayed save that needs its status and
 * headers, an upload with progress): the path's `{name}`s filled in from `path`, then the query.
 */
export function apiCallUrl<M extends Method, P extends ApiPath<M>>(method: M, path: P, ...[init]: UrlInitArg<P, M>): string {
  const { path: params = {}, query } = (init ?? {}) as { path?: Record<string, QueryValue>; query?: Record<string, QueryValue> };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  return buildUrl(filled, query);
}

/** The same-origin URL of a read (GET): a `<video>`'s source, a cached answer, a raw fetch. */
export function apiUrl<P extends ApiPath<'get'>>(path: P, ...[init]: UrlInitArg<P, 'get'>): string {
  return apiCallUrl('get', path, ...([init] as UrlInitArg<P, 'get'>));
}

/**
 * A video's file, as the players ask for it and as the offline copy is kept (the same URL, so the kept
 * copy answers the player). Here rather than beside the offline cache, so a screen with a player (the
 * shared report too) does not load the offline machinery.
 */
export const videoUrl = (videoId: number) => apiUrl('/api/v1/video', { query: { video_id: videoId } });
