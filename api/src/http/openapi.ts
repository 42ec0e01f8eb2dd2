import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from './env';
import { validationHook } from './errors';
import { DECIMAL_INTEGER } from './params';

/** A router whose zod failures become our 400 error body. Every domain builds on this. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

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

export { decimalInt, decimalNumber, idParam } from './params';

/** Reads an id from raw text (a path, a query or a JSON body field): null unless a positive decimal safe integer. */
export function parseId(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  if (typeof raw !== 'string' || !DECIMAL_INTEGER.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}
