import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env';
import { DOCUMENT_ROUTES, documentOffThread, PREPARED_DOCUMENTS } from './document-threads';
import { validationHook } from './errors';
import { DECIMAL_INTEGER } from './params';

/**
 * A router whose zod failures become our 400 error body. Every domain builds on this.
 *
 * Authorisation before parsing: @hono/zod-openapi runs a route's `middleware` before its
 * validators, so an access check placed there answers 401/403 before a byte of the body is parsed.
 * A route that takes a body must therefore declare its check there: registering one without any
 * `middleware` fails at start-up. A call open to everyone says so with `middleware: [openToAll]`.
 */
export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const register = router.openapi;
  router.openapi = ((route, handler, hook) => {
    if (route.request?.body && !route.middleware) {
      throw new Error(
        `${route.method.toUpperCase()} ${route.path}: a call with a body checks access in \`middleware\` (before the body is parsed), or names openToAll`,
      );
    }
    // A large document is read and checked on the document thread, after the access check.
    const document = DOCUMENT_ROUTES[`${route.method.toUpperCase()} ${route.path}`];
    if (document) {
      const middleware = [...(Array.isArray(route.middleware) ? route.middleware : [route.middleware]), documentOffThread(document)];
      if (PREPARED_DOCUMENTS.has(document)) {
        // The document documents its declared schema; at run time documentOffThread has checked the
        // body against it already and the handler takes the prepared form (preparedDocument), so the
        // route's validator only keeps the media-type check (415) and checks nothing twice.
        router.openAPIRegistry.registerPath(route);
        const body = { content: { 'application/json': { schema: z.unknown() } }, required: true };
        return register({ ...route, middleware, hide: true, request: { ...route.request, body } } as typeof route, handler, hook);
      }
      return register({ ...route, middleware } as typeof route, handler, hook);
    }
    return register(route, handler, hook);
  }) as typeof router.openapi;
  return router;
}

/** The access check of a call open to everyone (sign-in, the feedback form): it lets every request through, and says so. */
export const openToAll: MiddlewareHandler<AppEnv> = (_c, next) => next();

export const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) }).openapi('Error');

/** Standard error responses for the OpenAPI document. */
export const errorResponses = {
  400: { description: 'Некорректные данные', content: { 'application/json': { schema: ErrorSchema } } },
  401: { description: 'Нет входа', content: { 'application/json': { schema: ErrorSchema } } },
  403: { description: 'Недостаточно прав', content: { 'application/json': { schema: ErrorSchema } } },
  404: { description: 'Не найдено', content: { 'application/json': { schema: ErrorSchema } } },
} as const;

export const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});

/** A required JSON request body of this schema (a route's `request`). */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

export { idParam } from './params';

/** Reads an id from raw text (a path, a query or a JSON body field): null unless a positive decimal safe integer. */
export function parseId(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  if (typeof raw !== 'string' || !DECIMAL_INTEGER.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}
