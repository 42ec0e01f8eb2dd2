import { z } from '@hono/zod-openapi';
import { idParam } from '../http/params';
import { instant, MAX_PERIOD_DAYS, MAX_SEGMENT_SECONDS, MAX_VIDEO_SECONDS } from '../http/time';

export const PeriodQuery = z
  .object({
    structure_id: idParam,
    from_time: instant,
    to_time: instant,
  })
  .refine((q) => q.to_time > q.from_time, { message: 'to_time должно быть позже from_time', path: ['to_time'] })
  .refine((q) => q.to_time - q.from_time <= MAX_PERIOD_DAYS * 86_400_000, { message: `период не длиннее ${MAX_PERIOD_DAYS} дней`, path: ['to_time'] });

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

/** Seconds from a video's start: finite, 0 … max (zod refuses Infinity and NaN). */
const seconds = (max: number, field: string) =>
  z
    .number({ error: `${field}: ожидается число секунд` })
    .min(0, { error: `${field}: не меньше 0` })
    .max(max, { error: `${field}: не больше ${max} с` });

/** A markup as the video screen sees it: seconds from the video's start. */
export const VideoMarkup = z
  .object({
    id: z.number().int().openapi({ description: '-1 (или отсутствует) — новая строка' }).optional(),
    operation_id: z.number().int().positive(),
    workplace_id: z.number().int().positive(),
    employee_id: z.number().int().positive().nullable().optional(),
    start_time: seconds(MAX_VIDEO_SECONDS, 'start_time').openapi({ description: 'секунды от начала видео' }),
    end_time: seconds(MAX_VIDEO_SECONDS + MAX_SEGMENT_SECONDS, 'end_time').openapi({
      description: 'секунды от начала видео; операция может продолжаться в следующем файле камеры, но не дольше суток',
    }),
    comment: z.string().max(2000).nullable().optional(),
  })
  .openapi('VideoMarkup');

export const VideoStamp = z
  .object({
    id: z.number().int().optional(),
    type: z.string().min(1).max(100),
    time: seconds(MAX_VIDEO_SECONDS, 'time'),
    comment: z.string().max(2000).default(''),
    employee_id: z.number().int().positive().nullable().optional(),
  })
  .openapi('VideoStamp');

export const VideoMarkupsSave = z
  .object({
    video_markups: z.array(VideoMarkup).max(20_000).default([]),
    operation_markups_to_delete: z.array(z.number().int().positive()).max(20_000).default([]),
    video_stamps: z.array(VideoStamp).max(20_000).default([]),
    video_stamps_to_delete: z.array(z.number().int().positive()).max(20_000).default([]),
    base_version: z
      .number({
        error:
          'base_version: укажите версию разметки, на которой основано изменение (поле version из последнего ответа), — без неё сохранение могло бы затереть чужие правки',
      })
      .int()
      .min(0)
      .openapi({ description: 'обязательно: версия, на которой основано изменение; иная текущая → 409' }),
    client_save_id: z
      .string()
      .min(8)
      .max(64)
      .regex(/^[\x21-\x7e]+$/, { error: 'client_save_id: только латинские буквы, цифры и знаки без пробелов' })
      .optional()
      .openapi({ description: 'ключ идемпотентности для повторной отправки из офлайн-очереди' }),
  })
  .openapi('VideoMarkupsSave');

// Saved rows are objects of their own, not extensions: an extension is documented as `allOf` with the
// request's row, whose id, employee and comment may be left out (and the stamp's comment defaults to '').
const SavedMarkup = z
  .object({
    ...VideoMarkup.shape,
    id: z.number().int(),
    employee_id: z.number().nullable(),
    comment: z.string().nullable(),
    author_name: z.string().nullable(),
    source: z.enum(['manual', 'fill_gaps', 'model']).openapi({
      description: 'model — слой модели, ещё не принятый человеком: в отчёты не входит; правка или принятие строки делает её manual',
    }),
    confidence: z.number().nullable().optional().openapi({ description: 'у отрезка модели — средняя вероятность его класса (0…1), иначе null' }),
  })
  .openapi('SavedVideoMarkup');
const SavedStamp = z
  .object({ ...VideoStamp.shape, id: z.number().int(), employee_id: z.number().nullable(), author_name: z.string().nullable() })
  .openapi('SavedVideoStamp');

export const VideoMarkupsReply = z
  .object({ video_markups: z.array(SavedMarkup), video_stamps: z.array(SavedStamp), version: z.number().int() })
  .openapi('VideoMarkups');

export const VideoMarkupsChanges = z
  .object({
    video_markups: z
      .array(SavedMarkup)
      .openapi({ description: 'строки, которые сохранение записало на этом видео (новые, изменённые, обрезанные куски слоя модели)' }),
    video_stamps: z.array(SavedStamp).openapi({ description: 'записанные отметки' }),
    deleted_markup_ids: z
      .array(z.number().int())
      .openapi({ description: 'строки, которых больше нет: удалённые и обрезанные слоем модели целиком или заменённые кусками' }),
    deleted_stamp_ids: z.array(z.number().int()),
    base_version: z.number().int().openapi({ description: 'версия, поверх которой эти изменения лежат' }),
    version: z.number().int(),
    complete: z.boolean().openapi({
      description: 'true — повторная отправка уже принятого сохранения: video_markups и video_stamps — вся разметка, заменить ею всё',
    }),
  })
  .openapi('VideoMarkupsChanges');

/** ?reply=changes: the save answers only what it changed (VideoMarkupsChanges); by default the whole markup (spec 02). */
export const SaveReplyQuery = z.object({
  reply: z
    .enum(['full', 'changes'], { error: 'reply: ожидается full или changes' })
    .optional()
    .openapi({ description: 'changes — ответить только изменёнными строками (VideoMarkupsChanges); по умолчанию вся разметка' }),
});

export const AvailableOperations = z
  .object({
    operations: z.array(z.object({ id: z.number(), name: z.string(), type: z.string(), color: z.string() })),
    video_stamp_types: z.array(z.object({ type: z.string(), name: z.string() })),
    operation_types: z.record(z.string(), z.object({ label: z.string(), color: z.string() })),
  })
  .openapi('AvailableOperations');
