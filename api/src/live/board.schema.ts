import { z } from '@hono/zod-openapi';
import { idParam } from '../http/params';

/**
 * The live board «Смена сейчас» (issue 45, docs/live-cameras.md «Доска «Смена сейчас»»): per
 * workplace the current operation, the shift so far and the health of the cameras. Instants are ms
 * UTC; durations are seconds; percentages 0–100.
 */

export const LiveBoardQuery = z.object({
  structure_id: idParam.optional().openapi({ description: 'Структурная единица (без неё — по ключу «поделиться» из параметра key)', example: 4 }),
  key: z.string().min(1).max(200).optional().openapi({ description: 'Ключ ссылки «поделиться» доски (гостю без входа)' }),
});

const CurrentOperation = z
  .object({
    operation_id: z.number().int(),
    operation_name: z.string(),
    operation_type: z.string(),
    since: z.number().int().openapi({ description: 'Начало текущей операции, мс UTC' }),
    until: z.number().int().openapi({ description: 'Конец последней метки, мс UTC' }),
    source: z.enum(['model', 'human']).openapi({ description: 'model — слой модели (непроверенный), human — метка человека' }),
    employee_name: z.string().nullable(),
  })
  .openapi('LiveBoardOperation');

const ShiftSoFar = z
  .object({
    observed_seconds: z.number(),
    work_seconds: z.number().openapi({ description: 'Работа (W) за смену до сих пор' }),
    loss_seconds: z.number().openapi({ description: 'Потери (простой вне перерывов и отдых сверх нормы)' }),
    rest_seconds: z.number().openapi({ description: 'Отдых' }),
    load_percent: z.number().openapi({ description: 'Загрузка, % (W / T_avail прошедшей части смены)' }),
    norm_fulfilment_percent: z.number().nullable().openapi({ description: 'Выполнение утверждённой нормы до сих пор, %; null — нормы или выпуска нет' }),
    model_seconds: z.number().openapi({ description: 'Сколько из разметки — непроверенный слой модели' }),
  })
  .openapi('LiveBoardShift');

const CameraHealth = z
  .object({
    camera_id: z.number().int(),
    name: z.string(),
    state: z.enum(['online', 'connecting', 'offline']),
    last_frame_at: z.number().int().nullable(),
    frame_rate: z.number().nullable().openapi({ description: 'Частота кадров потока (к/с) по закрытому отрезку; null — ещё не измерена' }),
  })
  .openapi('LiveBoardCamera');

const BoardWorkplace = z
  .object({
    workplace_id: z.number().int(),
    name: z.string(),
    current: CurrentOperation.nullable(),
    shift: ShiftSoFar,
    camera_ids: z.array(z.number().int()).openapi({ description: 'Камеры, на видео которых размечено это место сегодня' }),
  })
  .openapi('LiveBoardWorkplace');

export const LiveBoard = z
  .object({
    structure_id: z.number().int(),
    structure_name: z.string(),
    time_zone: z.string(),
    shift_name: z.string().nullable().openapi({ description: 'Смена, идущая сейчас; null — вне смен (тогда окно — с начала суток)' }),
    from_time: z.number().int().openapi({ description: 'Начало окна «смена до сих пор», мс UTC' }),
    now: z.number().int(),
    workplaces: z.array(BoardWorkplace),
    cameras: z.array(CameraHealth),
    alerts: z.array(z.string()).openapi({ description: 'Тревоги: камера не в сети дольше заданного, регистратор отстаёт, диск почти полон' }),
    read_only: z.boolean().openapi({ description: 'Открыто по ссылке «поделиться»' }),
  })
  .openapi('LiveBoard');

export const LiveBoardShareBody = z
  .object({ structure_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })
  .strict()
  .openapi('LiveBoardShareBody');
export const LiveBoardShareKey = z.object({ key: z.string() }).openapi('LiveBoardShareKey');
