import { z } from '@hono/zod-openapi';
import { instant } from '../http/time';

/** The longest window of one summary: a year and a day. */
const MAX_WINDOW_MS = 367 * 86_400_000;

/** "100000" → 100000; a non-negative whole number of roubles (spec 01 §5), empty → not given. */
const roubles = (field: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return null;
      if (!/^\d+$/.test(value.trim())) {
        ctx.addIssue({ code: 'custom', message: `${field}: ожидается целое неотрицательное число рублей` });
        return z.NEVER;
      }
      return Number(value.trim());
    })
    .openapi({ type: 'integer', minimum: 0, example: 100000 });

export const SummaryQuery = z
  .object({ from_time: instant, to_time: instant, budget: roubles('budget'), hour_cost: roubles('hour_cost') })
  .refine((q) => q.to_time > q.from_time, { message: 'to_time должно быть позже from_time', path: ['to_time'] })
  .refine((q) => q.to_time - q.from_time <= MAX_WINDOW_MS, { message: 'окно сводки — не больше года', path: ['to_time'] });

export const SummaryReply = z
  .object({
    assessors: z.array(z.object({ assessor_name: z.string(), markup_hours: z.number(), salary: z.number() })),
    details: z.array(z.object({ assessor_name: z.string(), date: z.string(), workplace_name: z.string(), markup_hours: z.number(), cost: z.number() })),
    budget: z.number().nullable(),
    hour_cost: z.number().nullable(),
  })
  .openapi('AssessorSummary');
