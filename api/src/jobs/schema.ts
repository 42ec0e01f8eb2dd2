import { z } from '@hono/zod-openapi';
import { idParam } from '../http/params';

export const JobIdParam = z.object({ id: idParam });

export const Job = z
  .object({
    id: z.number(),
    kind: z.string(),
    status: z.enum(['queued', 'running', 'success', 'failed', 'cancelled']).openapi({ description: 'cancelled — отменена (POST /api/v1/jobs/{id}/cancel)' }),
    progress: z.number().openapi({ description: '0–100' }),
    error: z.string().nullable().openapi({ description: 'Причина сбоя (у status = failed) или «Задача отменена» (у cancelled)' }),
    result: z.unknown().nullable(),
    attempts: z.number(),
    max_attempts: z.number(),
    last_error: z.string().nullable().openapi({ description: 'Ошибка последней попытки, если задача ждёт повтора' }),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Job');
