import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from './env';
import { validationHook } from './errors';

/** A router whose zod failures become our 400 error body. Every domain builds on this. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

export const ErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) })
  .openapi('Error');

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

/** A query/path integer id: "7" → 7, anything else → 400. */
export const idParam = z.coerce.number().int().positive();
