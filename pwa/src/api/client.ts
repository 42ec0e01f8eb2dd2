import { saveBlob } from '../export/download';
import { FROM_CACHE_HEADER } from '../offline/apiCache';
import { markOffline, markOnline } from '../state/connectivity';
import { notify } from '../state/notifications';
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

type QueryValue = string | number | boolean | null | undefined;

export interface CallOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Do not show the failure (the caller shows it its own way, e.g. a "not signed in" probe). */
  quiet?: boolean;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>) {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

export const NO_CONNECTION = 'Нет связи с сервером. Проверьте подключение и повторите.';

/**
 * The one way the PWA talks to the API: same origin, with credentials, JSON in and out.
 * A failure is shown to the user (unless `quiet`) and thrown, so no caller can miss it. A lost
 * connection is shown once, by the offline banner, not by a message per failed call (background
 * polls stay quiet); a read answered from the offline cache counts as offline but succeeds.
 */
export async function apiCall<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: CallOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      credentials: 'same-origin',
      headers: options.body === undefined ? undefined : { 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    markOffline();
    // A read just waits for the network (the banner says so); an action the user asked for says it was not done.
    if (!options.quiet && method !== 'GET') notify('error', NO_CONNECTION);
    throw new ApiCallError(0, 'network', NO_CONNECTION);
  }
  if (response.headers.get(FROM_CACHE_HEADER)) markOffline();
  else markOnline();
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const body = data as FailureBody;
    const message = body?.error?.message ?? `Ошибка сервера (${response.status})`;
    const error = new ApiCallError(response.status, body?.error?.code ?? 'http_error', message);
    if (!options.quiet) notify('error', message);
    throw error;
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, options: Omit<CallOptions, 'query'> = {}) => apiCall<T>('GET', path, { ...options, query }),
  post: <T>(path: string, body?: unknown, options: Omit<CallOptions, 'body'> = {}) => apiCall<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options: Omit<CallOptions, 'body'> = {}) => apiCall<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options: CallOptions = {}) => apiCall<T>('DELETE', path, options),
};

/**
 * Downloads a file answer (TSV, PDF…) through the same error handling: a refused call is shown,
 * never opened as raw JSON in a new window.
 */
export async function downloadFile(path: string, query: Record<string, QueryValue>, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), { credentials: 'same-origin' });
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
