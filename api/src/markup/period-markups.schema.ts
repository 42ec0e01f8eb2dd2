import { z } from '@hono/zod-openapi';
import { instant } from '../http/time';
import { OperationMarkup } from './schema';

/** The period editor's request and reply (rows as absolute instants; see period-markups.service.ts). */
export const PeriodMarkupRow = OperationMarkup.extend({
  video_id: z.number().nullable().openapi({ description: 'видео, на экране которого видна строка; null — без видео' }),
});

export const PeriodMarkupsReply = z
  .object({
    operation_markups: z.array(PeriodMarkupRow),
    version: z.string().openapi({ description: 'версия строк окна: передайте её в base_version при сохранении' }),
  })
  .openapi('PeriodMarkups');

export const PeriodMarkupsSave = z
  .object({
    operation_markups: z
      .array(
        z.object({
          id: z.number().int().optional().openapi({ description: 'нет, 0 или -1 — новая строка' }),
          operation_id: z.number({ error: 'operation_id: выберите операцию' }).int().positive({ error: 'operation_id: выберите операцию' }),
          workplace_id: z.number({ error: 'workplace_id: выберите рабочее место' }).int().positive({ error: 'workplace_id: выберите рабочее место' }),
          employee_id: z.number().int().positive().nullable().optional(),
          start_time: instant,
          end_time: instant,
          comment: z.string().max(2000).nullable().optional(),
        }),
      )
      .max(5000)
      .default([]),
    operation_markups_to_delete: z.array(z.number().int().positive()).max(5000).default([]),
    base_version: z
      .string({ error: 'base_version: укажите версию окна из ответа GET — без неё сохранение могло бы затереть чужие правки' })
      .max(100)
      .openapi({ description: 'обязательно: version из GET; другая текущая версия окна → 409' }),
  })
  .openapi('OperationMarkupsSave');

export type PeriodMarkupsSaveInput = z.infer<typeof PeriodMarkupsSave>;
