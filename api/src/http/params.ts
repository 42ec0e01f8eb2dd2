import { z } from '@hono/zod-openapi';

/*
 * Path and query number fields. Kept apart from openapi.ts (the router, which needs the server's
 * types) so the schema files stay free of Bun and the database: the PWA typechecks against them
 * (api/src/contract.ts).
 */

export const DECIMAL_INTEGER = /^(0|[1-9]\d*)$/;
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
