import { z } from '@hono/zod-openapi';
import { decimalInt, decimalNumber, idParam } from '../http/params';
import { instant, MAX_VIDEO_SECONDS } from '../http/time';

const positiveId = idParam;
const isoString = z.string().openapi({ format: 'date-time' });

export const SyncQuery = z.object({ structure_id: positiveId.optional().openapi({ example: 4 }) });
export const SyncResult = z
  .object({
    new_videos: z.array(z.string()).openapi({ description: 'Имена файлов, зарегистрированных этим вызовом' }),
    queued_processing_videos: z.array(z.string()).openapi({ description: 'Ключи хранилища видео структуры, ждущих обработки или в обработке' }),
  })
  .openapi('SyncResult');

export const UploadQuery = z.object({
  camera_id: positiveId,
  filename: z.string().min(1).max(255).openapi({ example: 'cam1_2026-11-16_09-00-00.mp4' }),
  file_time: decimalInt(0, 4_102_444_800_000)
    .optional()
    .openapi({ description: 'Время файла на устройстве отправителя (мс UTC, lastModified): только подсказка, если начало записи неизвестно' }),
});
const StartSourceEnum = z
  .enum(['file_name', 'creation_time', 'file_time', 'manual', 'unknown'])
  .openapi({ description: 'Откуда начало записи: имя файла, метаданные файла, время файла, указано человеком, неизвестно' });
export const UploadResult = z
  .object({
    video_id: z.number(),
    job_id: z.number(),
    filename: z.string(),
    start_time: isoString.nullable().openapi({ description: 'Найденное начало записи; null — неизвестно, его надо указать' }),
    start_source: StartSourceEnum,
    start_confirmed: z.boolean(),
    suggested_start_time: isoString.nullable().openapi({ description: 'Время файла на устройстве отправителя — подсказка для неизвестного начала' }),
  })
  .openapi('UploadResult');
export const RecordingStartBody = z.object({ start_time: instant }).openapi('RecordingStartBody');
export const RecordingStart = z
  .object({ video_id: z.number(), start_time: isoString.nullable(), start_source: StartSourceEnum, start_confirmed: z.boolean() })
  .openapi('RecordingStart');
export const UploadCheckQuery = z.object({
  camera_id: positiveId,
  content_hash: z
    .string()
    .max(64)
    .regex(/^[0-9a-f]{64}$/i, 'ожидается SHA-256 в шестнадцатеричной записи'),
});
export const UploadCheck = z.object({ exists: z.boolean(), video_id: z.number().nullable(), status: z.string().nullable() });

export const VideoQuery = z.object({ video_id: positiveId });
export const VideoIdParam = z.object({ videoId: positiveId });

export const VideoMeta = z
  .object({
    id: z.number(),
    filename: z.string(),
    comment: z.string(),
    camera_id: z.number(),
    camera_key: z.number(),
    structure_id: z.number(),
    start_time: isoString,
    duration: z.number().nullable(),
    status: z.enum(['queued', 'processing', 'ready', 'failed']),
    error: z.string().nullable(),
    damage: z.string().nullable().openapi({ description: 'Почему запись повреждена (обрезана, не читается), иначе null' }),
    job_id: z.number().nullable(),
    finished: z.boolean(),
    size_bytes: z.number().nullable(),
    start_source: StartSourceEnum,
    start_confirmed: z.boolean(),
  })
  .openapi('VideoMeta');
export const CommentBody = z.object({ comment: z.string().max(2000, 'не длиннее 2000 символов') });

/** Documented only: the call reads video_id and duration from the query or a JSON body itself. */
export const SetDurationQuery = z.object({
  video_id: z.string().max(20).optional().openapi({ example: '12', description: 'или в теле JSON' }),
  duration: z.string().max(20).optional().openapi({ example: '150', description: 'целые секунды, 1…86400 (не больше длительности файла); или в теле JSON' }),
});
export const SetDurationReply = z.object({ video_id: z.number(), duration: z.number() });

export const OtherVideosQuery = z.object({ video_id: positiveId, current_second: decimalNumber(MAX_VIDEO_SECONDS) });
export const OtherVideo = z
  .object({
    video_id: z.number(),
    video_filename: z.string(),
    workplace_names: z.array(z.string()),
    current_second: z.number(),
    camera_key: z.number(),
  })
  .openapi('OtherVideo');

export const ActivitiesQuery = z.object({
  video_id: positiveId,
  offset: decimalInt(0, 1_000_000_000).default(0),
  limit: decimalInt(1, 100).default(5),
});
export const Activity = z.object({ happened_at: isoString, author_name: z.string(), comment: z.string() }).openapi('Activity');

export const CameraQuery = z.object({ camera_id: positiveId });
export const StructureQuery = z.object({ structure_id: positiveId });
export const CameraVideo = z
  .object({ id: z.number(), filename: z.string(), start_time: isoString, duration: z.number().nullable(), status: z.string() })
  .openapi('CameraVideo');
export const Camera = z.object({ id: z.number(), camera_key: z.number(), name: z.string() }).openapi('Camera');

export const VideosAtQuery = z.object({ structure_id: positiveId, at: instant });
export const CameraAt = z
  .object({
    camera_id: z.number(),
    camera_key: z.number(),
    camera_name: z.string(),
    video_id: z.number().nullable(),
    filename: z.string().nullable(),
    second: z.number().nullable(),
    start_time: isoString.nullable(),
  })
  .openapi('CameraAt');

export const LoaderPackages = z
  .object({
    version: z.string(),
    packages: z.array(
      z.object({
        platform: z.enum(['windows', 'macos', 'linux']),
        format: z.enum(['msi', 'dmg', 'deb']),
        file: z.string(),
        available: z.boolean(),
        url: z.string().nullable(),
        size_bytes: z.number().nullable(),
      }),
    ),
  })
  .openapi('LoaderPackages');

export const FailedVideo = z
  .object({
    id: z.number(),
    filename: z.string(),
    error: z.string().nullable().openapi({ description: 'Почему обработка не удалась' }),
    created_at: isoString,
    camera_key: z.number(),
  })
  .openapi('FailedVideo');
export const RecordingWithoutStart = z
  .object({
    id: z.number(),
    filename: z.string(),
    camera_key: z.number(),
    status: z.enum(['queued', 'processing', 'ready', 'failed']),
    created_at: isoString.openapi({ description: 'когда запись загружена' }),
  })
  .openapi('RecordingWithoutStart');
export const DeletedReply = z.object({ message: z.string() });
export const RetryReply = z
  .object({ video_id: z.number(), job_id: z.number().openapi({ description: 'новая задача обработки: GET /api/v1/jobs/{id}' }) })
  .openapi('IngestRetry');
