import { z } from '@hono/zod-openapi';

/** An ISO 8601 instant in a query or body ("2026-11-16T05:00:00Z"), as ms since epoch. */
export const instant = z
  .string()
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'ожидается дата-время ISO 8601 с часовым поясом, например 2026-11-16T08:00:00Z',
  })
  .transform((value) => Date.parse(value))
  .openapi({ type: 'string', format: 'date-time', example: '2026-11-16T05:00:00Z' });

export const toIso = (ms: number) => new Date(ms).toISOString();
