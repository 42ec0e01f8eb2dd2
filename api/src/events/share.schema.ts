import { z } from '@hono/zod-openapi';
import { instant } from '../http/time';
import { EventFiguresReply, FIGURES_WINDOW_DAYS, refineFiguresWindow, Zone } from './schema';

/*
 * The share link of a hall's event analytics (issue 44, docs/event-analytics.md «Ссылка „поделиться“»):
 * a share key of the kind 'event' opens the figures of its hall and window read-only. Kept free of Bun
 * and the database: the PWA typechecks against these types through api/src/contract.ts.
 */

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const EventShareBody = z
  .object({
    structure_id: id.openapi({ description: 'Зал (структура)' }),
    from: instant.openapi({ description: 'Начало окна', example: '2026-11-16T09:00:00Z' }),
    to: instant.openapi({ description: `Конец окна, не дальше ${FIGURES_WINDOW_DAYS} суток от начала`, example: '2026-11-16T18:00:00Z' }),
  })
  .strict()
  .superRefine(refineFiguresWindow)
  .openapi('EventShareBody');

export const EventShareReply = z
  .object({ hash: z.string().openapi({ description: 'Ключ: 192 случайных бита, base64url; отзыв — DELETE /api/v1/share/{key}' }) })
  .openapi('EventShareReply');

export const SharedEventKeyParam = z.object({
  key: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'key', in: 'path' } }),
});

export const SharedEventFigures = z
  .object({
    structure_id: z.number().int(),
    structure_name: z.string(),
    time_zone: z.string().openapi({ description: 'Часовой пояс организации' }),
    from: z.string().openapi({ format: 'date-time' }),
    to: z.string().openapi({ format: 'date-time' }),
    figures: EventFiguresReply,
    zones: z.array(Zone).openapi({ description: 'Зоны зала (контуры на плане)' }),
  })
  .openapi('SharedEventFigures');
