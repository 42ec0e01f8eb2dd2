import { z } from '@hono/zod-openapi';
import { instant } from '../http/time';

export const PeriodQuery = z
  .object({
    structure_id: z.coerce.number().int().positive(),
    from_time: instant,
    to_time: instant,
  })
  .refine((q) => q.to_time > q.from_time, { message: 'to_time должно быть позже from_time', path: ['to_time'] });

export const OperationMarkup = z
  .object({
    id: z.number(),
    operation_id: z.number(),
    workplace_id: z.number(),
    employee_id: z.number().nullable(),
    start_time: z.string().openapi({ format: 'date-time' }),
    end_time: z.string().openapi({ format: 'date-time' }),
    comment: z.string().nullable(),
  })
  .openapi('OperationMarkup');

export const OperationMarkupList = z.object({ operation_markups: z.array(OperationMarkup) }).openapi('OperationMarkupList');
