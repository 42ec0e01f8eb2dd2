import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from './env';
import { validationHook } from './errors';

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

const DECIMAL_INTEGER = /^(0|[1-9]\d*)$/;
const DECIMAL_NUMBER = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * A whole number written in decimal digits in a path or query ("16" → 16), within [min, max] and
 * a safe integer. "0x10", "1e1", " 16", "016", "16.0" and "" are refused: `Number()` would read
 * some of them as another number (hex "0x10" is 16).
 */
export const decimalInt = (min = 1, max = Number.MAX_SAFE_INTEGER) =>
  z
    // A JSON body may carry the same field as a number (POST /api/v1/generate_hash reuses the report window).
    .union([
      z.number({ error: 'ожидается целое число' }),
      z
        .string({ error: 'ожидается целое число' })
        .refine((value) => DECIMAL_INTEGER.test(value), { message: 'ожидается целое число десятичными цифрами' })
        .transform(Number),
    ])
    .refine((value) => Number.isSafeInteger(value) && value >= min && value <= max, { message: `ожидается целое число от ${min} до ${max}` })
    .openapi({ type: 'integer', minimum: min, maximum: max });

/** A non-negative decimal number in a path or query ("12.5"), at most `max`; no exponent, sign, spaces or hex. */
export const decimalNumber = (max: number) =>
  z
    .string({ error: 'ожидается число' })
    .refine((value) => DECIMAL_NUMBER.test(value) && value.length <= 32, { message: 'ожидается число десятичными цифрами, например 12.5' })
    .transform(Number)
    .refine((value) => Number.isFinite(value) && value <= max, { message: `ожидается число от 0 до ${max}` })
    .openapi({ type: 'number', minimum: 0, maximum: max });

/** A query/path integer id: "7" → 7, anything else (hex, exponent, spaces, unsafe) → 400. */
export const idParam = decimalInt(1);

/** Reads an id from raw text (a path, a query or a JSON body field): null unless a positive decimal safe integer. */
export function parseId(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  if (typeof raw !== 'string' || !DECIMAL_INTEGER.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}
