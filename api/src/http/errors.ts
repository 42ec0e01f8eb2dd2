import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { isStorageFull } from '../db/storage-full';
import { config, locales, type ZodError } from 'zod';

// Field problems zod describes itself (no message of ours) reach the user too: in Russian (issue 28).
config(locales.ru());

/** The one error shape of the API: `{ "error": { "code", "message" } }`. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After of a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 429 with Retry-After: the client may try again after `retryAfterSeconds`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export const badRequest = (message: string, details?: unknown) => new ApiError(400, 'bad_request', message, details);
export const unauthorized = (message = 'Требуется вход в систему') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'Недостаточно прав для этого действия') => new ApiError(403, 'forbidden', message);
export const notFound = (message = 'Не найдено') => new ApiError(404, 'not_found', message);
export const conflict = (message: string, details?: unknown) => new ApiError(409, 'conflict', message, details);

/** The one text for a full disk, whether SQLite or a file write hit it (HTTP 507). */
export const DISK_FULL_MESSAGE = 'Недостаточно места на сервере';
export const diskFull = () => new ApiError(507, 'insufficient_storage', DISK_FULL_MESSAGE);

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** A failed validation names at most this many problems: one bad field per element of a huge array must not make a huge answer. */
export const MAX_REPORTED_ISSUES = 5;

/** Turns a zod failure into the Russian message shown to the user, naming the fields (the first few). */
export function validationMessage(error: ZodError): string {
  const parts = error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    const field = issue.path.join('.') || 'запрос';
    return `${field}: ${issue.message}`;
  });
  const more = error.issues.length - parts.length;
  return `Некорректные данные запроса — ${parts.join('; ')}${more > 0 ? `; и ещё ошибок: ${more}` : ''}`;
}

/** The `defaultHook` for every zod-validated route: a 400 with the (first few) field problems, nothing changed. */
export function validationHook(result: { success: boolean; error?: unknown }, c: Context) {
  if (!result.success) {
    const error = result.error as ZodError;
    return c.json(errorBody('validation_failed', validationMessage(error), error.issues.slice(0, MAX_REPORTED_ISSUES)), 400);
  }
}

/** Hono `onError`: known errors keep their status; a full disk is a 507; anything else is a logged 500. */
export function handleError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status, err.headers);
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = status === 400 ? `Некорректный запрос: ${err.message}` : err.message || 'Ошибка запроса';
    return c.json(errorBody(status === 400 ? 'bad_request' : 'http_error', message), status);
  }
  if (isStorageFull(err)) {
    console.error(`[api] ${c.req.method} ${c.req.path}: нет места на диске — ${err.message}`);
    const full = diskFull();
    return c.json(errorBody(full.code, full.message), full.status);
  }
  console.error(`[api] ${c.req.method} ${c.req.path}:`, err);
  return c.json(errorBody('internal', 'Внутренняя ошибка сервера. Попробуйте ещё раз или обратитесь к администратору.'), 500);
}
