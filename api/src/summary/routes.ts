import { createRoute, z } from '@hono/zod-openapi';
import { currentUser, requireAccess } from '../auth/access';
import type { AppDeps } from '../http/env';
import { createRouter, errorResponses, json } from '../http/openapi';
import { instant } from '../http/time';
import { assessorSummaryReport } from './service';

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

export function summaryRoutes({ db }: AppDeps) {
  const app = createRouter();
  app.openapi(
    createRoute({
      method: 'get', path: '/api/v1/summary', tags: ['Сводка'],
      summary: 'Сводка по разметчикам организации: размеченные часы и оплата за период (администратор, аналитик)',
      middleware: [requireAccess(db, 'workspace.write')] as const,
      request: { query: SummaryQuery },
      responses: { 200: json(SummaryReply), ...errorResponses },
    }),
    async (c) => {
      const user = currentUser(c);
      const q = c.req.valid('query');
      const reply = await assessorSummaryReport(db, {
        organizationId: user.organizationId, timeZone: user.timeZone, from: q.from_time, to: q.to_time, budget: q.budget, hourCost: q.hour_cost,
      });
      return c.json(reply, 200);
    },
  );
  return app;
}
