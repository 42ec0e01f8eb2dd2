import { saveBlob } from '../export/download';
import { FROM_CACHE_HEADER } from './cache-header';
import { takePageAnswer } from './page-answers';
import { markOffline, markOnline } from '../status/connectivity';
import { notify } from '../status/notifications';
import { apiUrl, type ApiPath, type Method, type Operation, type UrlInit } from './paths';
import type { paths } from './schema.gen';
import type { ApiErrorBody } from './types';

/** A failure's body as read defensively: a proxy or a crash may answer something else than the API's error shape. */
export type FailureBody = { error?: Partial<ApiErrorBody['error']> } | undefined;

/** A failed API call: the server's `{ error: { code, message } }`, or a network failure. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Every method's calls, by path, as the API declares them (schema.gen.ts, generated from its routes; paths.ts). */
type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody: { content: { 'application/json': infer B } } }
    ? { body: B }
    : Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? { body?: B }
      : { body?: never };
/** A call's parameters: `path` (the `{name}`s of the path) and `query` as the route declares them, `body` for a write, `quiet`. */
export type ApiInit<P extends keyof paths, M extends Method> = UrlInit<P, M> &
  (M extends 'get' | 'delete' ? unknown : BodyOf<P, M>) & {
    /** Do not show the failure (the caller shows it its own way, e.g. a "not signed in" probe). */
    quiet?: boolean;
  };
/** The init argument: optional where the call needs nothing. */
type InitArg<P extends keyof paths, M extends Method> = object extends ApiInit<P, M> ? [init?: ApiInit<P, M>] : [init: ApiInit<P, M>];
type Success = 200 | 201 | 202 | 204;
/** What a call answers when it succeeds, as its route declares it (schema.gen.ts, the one source of reply types). */
export type ApiReply<P extends keyof paths, M extends Method> = {
  [S in Success & keyof Operation<P, M>['responses']]: Operation<P, M>['responses'][S] extends { content: { 'application/json': infer R } } ? R : undefined;
}[Success & keyof Operation<P, M>['responses']];

export const NO_CONNECTION = 'Нет связи с сервером. Проверьте подключение и повторите.';

/** A call's answer as read from its response, here or in a Web Worker that made the call for the page. */
export interface CallAnswer {
  /** 0: no connection (the request failed before any answer). */
  status: number;
  /** Answered from the offline cache (the service worker's FROM_CACHE_HEADER). */
  fromCache?: boolean;
  /** The parsed body (a failure's `{ error: { code, message } }`, read defensively). */
  body?: unknown;
}

/**
 * What the client makes of every answer, the one handler of failures: the connection marked
 * online or offline (a read answered from the offline cache counts as offline but succeeds), and a
 * failure shown to the user (unless `quiet`) and returned as the ApiCallError to throw (null: the
 * call succeeded), so no caller can miss it. A lost connection (status 0, always a failure) is shown
 * once, by the offline banner, not by a message per failed read (background polls stay quiet); an
 * action the user asked for says it was not done. Also used for the statement, whose inputs a Web
 * Worker reads (screens/reports/compute.ts).
 */
export function callFailure(method: 'GET' | 'POST' | 'PUT' | 'DELETE', answer: CallAnswer, quiet = false): ApiCallError | null {
  if (answer.status === 0) {
    markOffline();
    if (!quiet && method !== 'GET') notify('error', NO_CONNECTION);
    return new ApiCallError(0, 'network', NO_CONNECTION);
  }
  if (answer.fromCache) markOffline();
  else markOnline();
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = answer.body as FailureBody;
  const message = body?.error?.message ?? `Ошибка сервера (${answer.status})`;
  if (!quiet) notify('error', message);
  return new ApiCallError(answer.status, body?.error?.code ?? 'http_error', message);
}

/** The one way the PWA talks to the API: same origin, with credentials, JSON in and out; failures as callFailure says. */
async function apiCall<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { body?: unknown; quiet?: boolean }): Promise<T> {
  // The server answered this read with the page already (a shared report's link): the same reply, no request.
  const fromPage = method === 'GET' ? takePageAnswer(url) : undefined;
  if (fromPage) return fromPage.reply as T;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: options.body === undefined ? undefined : { 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw callFailure(method, { status: 0 }, options.quiet);
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  const failure = callFailure(method, { status: response.status, fromCache: response.headers.get(FROM_CACHE_HEADER) !== null, body: data }, options.quiet);
  if (failure) throw failure;
  return data as T;
}

type UntypedInit = { path?: object; query?: object; body?: unknown; quiet?: boolean };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, init: UntypedInit = {}) =>
  apiCall<never>(method, apiUrl(path as ApiPath<'get'>, init as never), { body: init.body, quiet: init.quiet });

/**
 * The PWA's calls, typed by the API's route declarations (schema.gen.ts): the path is one the API
 * declares for that method, `path`, `query` and `body` are checked against its schemas, and the reply
 * is the route's. `api.get('/api/v1/norms/{id}', { path: { id } })`.
 */
export const api = {
  get: <P extends ApiPath<'get'>>(path: P, ...[init]: InitArg<P, 'get'>): Promise<ApiReply<P, 'get'>> => call('GET', path, init as UntypedInit),
  post: <P extends ApiPath<'post'>>(path: P, ...[init]: InitArg<P, 'post'>): Promise<ApiReply<P, 'post'>> => call('POST', path, init as UntypedInit),
  put: <P extends ApiPath<'put'>>(path: P, ...[init]: InitArg<P, 'put'>): Promise<ApiReply<P, 'put'>> => call('PUT', path, init as UntypedInit),
  delete: <P extends ApiPath<'delete'>>(path: P, ...[init]: InitArg<P, 'delete'>): Promise<ApiReply<P, 'delete'>> => call('DELETE', path, init as UntypedInit),
};

/**
 * Downloads a file answer (TSV, PDF…) through the same error handling: a refused call is shown,
 * never opened as raw JSON in a new window.
 */
export async function downloadFile<P extends ApiPath<'get'>>(path: P, init: ApiInit<P, 'get'>, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(apiUrl(path, init as never), { credentials: 'same-origin' });
  } catch {
    markOffline();
    // A download is an action the user asked for: say it was not done.
    notify('error', NO_CONNECTION);
    throw new ApiCallError(0, 'network', NO_CONNECTION);
  }
  markOnline();
  if (!response.ok) {
    let message = `Ошибка сервера (${response.status})`;
    try {
      message = ((await response.json()) as FailureBody)?.error?.message ?? message;
    } catch {}
    notify('error', message);
    throw new ApiCallError(response.status, 'http_error', message);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : (plain ?? fallbackName);
  saveBlob(await response.blob(), name);
}
