import { z } from '@hono/zod-openapi';
import { decimalInt } from '../http/params';

/** Camera stream schemas (issue 45, docs/live-cameras.md). The address's password never leaves the server: replies carry it masked. */

/** The shortest segment a stream may be cut into, s: short segments keep live labels within the lag target (docs/live-cameras.md). */
export const MIN_SEGMENT_SECONDS = 5;

export const CameraIdParam = z.object({ id: decimalInt(1) });

export const StreamSettingsBody = z
  .object({
    url: z.string().min(1).max(1024).openapi({ description: 'rtsp:// или rtsps://; пароль в виде *** (как его отдаёт GET) сохраняет прежний' }),
    enabled: z.boolean().default(true),
    segment_seconds: z
      .number()
      .int()
      .min(MIN_SEGMENT_SECONDS)
      .max(900)
      .default(300)
      .openapi({ description: 'Длина отрезка записи, с; короткие (от 5 с) — для камер с живой разметкой (docs/live-cameras.md)' }),
    retention_days: z.number().int().min(1).max(365).nullable().default(null),
    retention_gb: z.number().min(0.1).max(100_000).nullable().default(null),
    offline_alert_seconds: z.number().int().min(10).max(86_400).default(60).openapi({ description: 'Тревога «не в сети», когда кадров нет дольше этого, с' }),
  })
  .strict()
  .openapi('StreamSettingsBody');

export const CameraStream = z
  .object({
    camera_id: z.number().int(),
    url: z.string().openapi({ description: 'Адрес с паролем, заменённым на ***' }),
    enabled: z.boolean(),
    segment_seconds: z.number().int(),
    retention_days: z.number().int().nullable(),
    retention_gb: z.number().nullable(),
    state: z.enum(['online', 'connecting', 'offline']),
    last_frame_at: z.number().int().nullable(),
    last_error: z.string().nullable(),
    recording: z.boolean().openapi({ description: 'Поток держит регистратор (аренда не истекла)' }),
    offline_alert_seconds: z.number().int(),
    live_model: z
      .object({ id: z.number().int(), name: z.string(), employee_id: z.number().int().nullable() })
      .nullable()
      .openapi({ description: 'Модель, которая размечает закрытые отрезки (живая разметка); null — нет' }),
  })
  .openapi('CameraStream');

export const StreamCheckBody = z
  .object({ url: z.string().min(1).max(1024).optional().openapi({ description: 'Проверить этот адрес (иначе — сохранённый)' }) })
  .strict()
  .openapi('StreamCheckBody');

export const StreamCheck = z
  .object({
    codec: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    frame_rate: z.number().nullable(),
    browser_playable: z.boolean().openapi({ description: 'h264: записывается копированием, без перекодирования' }),
    snapshot: z.string().openapi({ description: 'Кадр потока, data:image/jpeg;base64,…' }),
  })
  .openapi('StreamCheck');

export const RecordingGap = z.object({ from_time: z.number().int(), to_time: z.number().int(), reason: z.string() }).openapi('RecordingGap');

export const RecordingGapsQuery = z.object({ from: decimalInt(0).optional(), to: decimalInt(0).optional() });

export const LiveModelBody = z
  .object({
    model_id: z.number().int().min(1).max(2_147_483_647).nullable().openapi({ description: 'Обученная модель этой камеры; null — выключить живую разметку' }),
    employee_id: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .nullable()
      .default(null)
      .openapi({ description: 'Кому записывать метки; null — сотруднику рабочего места в этот день, как при «Применить»' }),
  })
  .strict()
  .openapi('LiveModelBody');

const NamedChoice = z.object({ id: z.number().int(), name: z.string() });

export const LiveModelChoices = z
  .object({
    models: z.array(NamedChoice).openapi({ description: 'Обученные модели камеры (до 200, новые первыми)' }),
    employees: z.array(NamedChoice).openapi({ description: 'Сотрудники её структурной единицы (до 1000)' }),
  })
  .openapi('LiveModelChoices');

export const LiveLabelsQuery = z.object({
  limit: decimalInt(1, 500).optional().openapi({ description: 'Сколько последних отрезков (1–500, по умолчанию 50)' }),
});

export const LiveLabelSegment = z
  .object({
    video_id: z.number().int(),
    start_time: z.number().int().openapi({ description: 'Первый кадр отрезка, мс UTC' }),
    end_time: z.number().int(),
    closed_at: z.number().int().nullable().openapi({ description: 'Когда регистратор увидел отрезок закрытым, мс UTC' }),
    job_id: z.number().int().nullable().openapi({ description: 'Задача живой разметки камеры, которая разметила отрезок (null — ждёт своей очереди)' }),
    job_status: z
      .enum(['queued', 'running', 'success', 'failed', 'cancelled'])
      .nullable()
      .openapi({ description: 'success — метки записаны, failed — отрезок не размечен (label_error), null — ждёт' }),
    labeled_at: z.number().int().nullable().openapi({ description: 'Когда метки отрезка записаны, мс UTC' }),
    label_error: z.string().nullable().openapi({ description: 'Почему метки отрезка не записаны (его больше не пробуют)' }),
    lag_ms: z.number().int().nullable().openapi({ description: 'Задержка «кадр → метка» для первого кадра отрезка (наибольшая в отрезке), мс' }),
  })
  .openapi('LiveLabelSegment');

export const LiveLabels = z
  .object({
    live_model: z.object({ id: z.number().int(), name: z.string(), employee_id: z.number().int().nullable() }).nullable(),
    segments: z.array(LiveLabelSegment),
    lag_p95_ms: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'p95 задержки «кадр → метка» по кадрам размеченных отрезков списка, мс (null — ни одного)' }),
  })
  .openapi('LiveLabels');

export const StructureIdParam = z.object({ id: decimalInt(1) });

const Alert = z
  .object({
    kind: z.enum(['offline', 'behind', 'view', 'disk']),
    since: z.number().int().nullable(),
    message: z.string(),
  })
  .openapi('CameraAlert');

export const StructureHealthReply = z
  .object({
    structure_id: z.number().int(),
    checked_at: z.number().int(),
    cameras: z.array(
      z.object({
        camera_id: z.number().int(),
        camera_key: z.number().int(),
        camera_name: z.string(),
        enabled: z.boolean(),
        state: z.enum(['online', 'connecting', 'offline']),
        recording: z.boolean(),
        last_frame_at: z.number().int().nullable(),
        last_segment_at: z.number().int().nullable(),
        segment_seconds: z.number().int(),
        offline_alert_seconds: z.number().int(),
        live_model_id: z.number().int().nullable(),
        frame_rate: z.number().nullable().openapi({ description: 'Частота кадров потока по последнему закрытому отрезку, к/с; null — ещё не измерена' }),
        last_error: z.string().nullable(),
        view_check: z
          .object({
            checked_at: z.number().int(),
            view_similarity: z.number().nullable(),
            warnings: z.array(z.string()),
            error: z.string().nullable(),
          })
          .nullable()
          .openapi({ description: 'Последняя сверка вида камеры с видом при обучении активной модели (задача live.view_check); null — ещё не было' }),
        alerts: z.array(Alert),
      }),
    ),
    disk: z.object({ free_bytes: z.number(), total_bytes: z.number(), threshold_bytes: z.number(), low: z.boolean() }).nullable(),
    alerts: z.array(Alert),
  })
  .openapi('StructureHealth');
