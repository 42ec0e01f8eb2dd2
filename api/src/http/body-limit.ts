import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './env';
import { errorBody } from './errors';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Sign-in, registration, sign-out and better-auth's own calls: a login and a password. */
export const SIGN_IN_BODY_MAX_BYTES = 8 * KiB;
/** Every other form, setting and command: the largest is a feedback message or a list of 200 ids. */
export const FORM_BODY_MAX_BYTES = 64 * KiB;

/**
 * The calls whose body is a document rather than a form, with the size their schema allows
 * (docs/architecture.md "Limits"). Matched on method and path; the first match wins. The video
 * upload is not here: its own limit (NORMA_UPLOAD_MAX_BYTES) is applied before the app, as it streams.
 */
export const LARGE_BODIES: readonly { method: string; path: RegExp; maxBytes: number; why: string }[] = [
  // 20 000 markups and 20 000 stamps of ≤ 2000-character comments: about 250 bytes a row in practice.
  { method: 'POST', path: /^\/api\/v1\/video_markups\/[^/]+$/, maxBytes: 8 * MiB, why: 'сохранение разметки видео' },
  { method: 'PUT', path: /^\/api\/v1\/video_markups\/[^/]+$/, maxBytes: 8 * MiB, why: 'сохранение разметки видео' },
  // 5000 rows of the period editor.
  { method: 'POST', path: /^\/api\/v1\/operation_markups$/, maxBytes: 2 * MiB, why: 'сохранение разметки периода' },
  // A drawing: 20 000 features, 200 000 vertices, plus the two collections an undo restores.
  { method: 'POST', path: /^\/api\/v1\/projects\/last\/save$/, maxBytes: 16 * MiB, why: 'сохранение чертежа карты' },
  { method: 'POST', path: /^\/api\/v1\/gis\/cadastre\/import$/, maxBytes: 16 * MiB, why: 'импорт кадастровых участков' },
];

const SIGN_IN_PATHS = /^\/api\/(auth\/|v1\/login$|v2\/register$|v1\/leave$)/;

/** The most bytes a request's body may have on this method and path (the upload excepted: see LARGE_BODIES). */
export function bodyLimitFor(method: string, path: string): number {
  if (SIGN_IN_PATHS.test(path)) return SIGN_IN_BODY_MAX_BYTES;
  for (const large of LARGE_BODIES) if (large.method === method && large.path.test(path)) return large.maxBytes;
  return FORM_BODY_MAX_BYTES;
}

const tooLarge = (maxBytes: number) =>
  errorBody(
    'payload_too_large',
    `Тело запроса больше допустимого для этого вызова размера (${maxBytes >= MiB ? `${maxBytes / MiB} МиБ` : `${maxBytes / KiB} КиБ`})`,
  );

/**
 * The body limit of every /api call, enforced while the body is read and before anything parses it
 * (better-auth included): a declared Content-Length over the limit is refused at once, a body
 * without one is counted as it arrives and cut off at the limit. The answer is a JSON 413.
 */
export function requestBodyLimits(uploadPath: string): MiddlewareHandler<AppEnv> {
  const limiters = new Map<number, MiddlewareHandler<AppEnv>>();
  const limiterFor = (maxBytes: number) => {
    let limiter = limiters.get(maxBytes);
    if (!limiter) {
      limiter = bodyLimit({ maxSize: maxBytes, onError: (c) => c.json(tooLarge(maxBytes), 413) });
      limiters.set(maxBytes, limiter);
    }
    return limiter;
  };
  return async (c, next) => {
    if (!c.req.raw.body || c.req.path === uploadPath) return next();
    return limiterFor(bodyLimitFor(c.req.method, c.req.path))(c, next);
  };
}
