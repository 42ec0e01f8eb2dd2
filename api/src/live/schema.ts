import { z } from '@hono/zod-openapi';
import { decimalInt } from '../http/params';

/** Camera stream schemas (issue 45, docs/live-cameras.md). The address's password never leaves the server: replies carry it masked. */

export const CameraIdParam = z.object({ id: decimalInt(1) });

export const StreamSettingsBody = z
  .object({
    url: z.string().min(1).max(1024).openapi({ description: 'rtsp:// или rtsps://; пароль в виде *** (как его отдаёт GET) сохраняет прежний' }),
    enabled: z.boolean().default(true),
    segment_seconds: z.number().int().min(60).max(900).default(300),
    retention_days: z.number().int().min(1).max(365).nullable().default(null),
    retention_gb: z.number().min(0.1).max(100_000).nullable().default(null),
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
