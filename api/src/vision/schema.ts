import { z } from '@hono/zod-openapi';
import { decimalInt, decimalNumber } from '../http/params';

/*
 * Vision (spec 02 §3, §5, §7 "Models, areas, locations"; docs/vision.md). Coordinates are pixels
 * of the source video frame. Kept free of Bun and the database: the PWA typechecks against these
 * types through api/src/contract.ts.
 */

/** §5 texts, word for word (one definition with the PWA's: workers/src/vision/messages.ts). */
export { VISION_MESSAGES } from '@norma/workers/vision/messages';

/** Largest coordinate accepted (pixels of an 8K frame and some). */
const MAX_PIXEL = 20_000;
const MAX_SECONDS = 86_400;
const MAX_IDS = 200;

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** A coordinate that may be missing: the service answers the §5 text instead of a field list. */
const coordinate = z.number().min(0).max(MAX_PIXEL).nullable().optional();
const seconds = z.number().min(0).max(MAX_SECONDS);

export const VideoIdQuery = z.object({ video_id: decimalInt(1) });
export const VideoOrStructureQuery = z.object({ video_id: decimalInt(1).optional(), structure_id: decimalInt(1).optional() });
export const StructureIdQuery = z.object({ structure_id: decimalInt(1) });
export const IdParam = z.object({ id: decimalInt(1) });
export const HUMAN_DETECTORS = ['movenet-multipose', 'background-subtraction-blobs'] as const;
export const HumansQuery = z.object({
  video_id: decimalInt(1),
  second: decimalNumber(MAX_SECONDS),
  detector: z
    .enum(HUMAN_DETECTORS)
    .optional()
    .openapi({ description: 'Какой детектор спросить; по умолчанию — настройка сервера NORMA_HUMAN_DETECTOR (movenet-multipose)' }),
});

/** The size of the frame an area was drawn on (issue 43): x1…y2 are its pixels; any other video's picture scales them. */
const frameSide = z.number().int().min(1).max(MAX_PIXEL);
export const VideoArea = z
  .object({
    id: z.number().int(),
    name: z.string(),
    x1: z.number(),
    y1: z.number(),
    x2: z.number(),
    y2: z.number(),
    camera_id: z.number().int(),
    frame_width: z.number().int().nullable().openapi({ description: 'Ширина кадра, на котором обведена область; null — пиксели видео (области до 0023)' }),
    frame_height: z.number().int().nullable(),
  })
  .openapi('VideoArea');
export const VideoAreasReply = z.object({ video_areas: z.array(VideoArea) }).openapi('VideoAreas');
export const VideoAreaBody = z
  .object({
    camera_id: id,
    name: z.string().max(200).nullable().optional(),
    x1: coordinate,
    y1: coordinate,
    x2: coordinate,
    y2: coordinate,
    frame_width: frameSide.optional().openapi({ description: 'Ширина кадра, на котором обведён прямоугольник (пиксели); без неё — кадр видео камеры' }),
    frame_height: frameSide.optional(),
  })
  .openapi('VideoAreaBody');

export const PictureCheckQuery = z.object({
  video_id: decimalInt(1),
  start_second: decimalNumber(MAX_SECONDS).optional(),
  end_second: decimalNumber(MAX_SECONDS).optional(),
});
export const PictureCheckReply = z
  .object({
    model_id: z.number().int(),
    video_id: z.number().int(),
    trained: z.object({ width: z.number().int(), height: z.number().int() }).openapi({ description: 'Кадр видео, на котором модель обучена' }),
    video: z.object({ width: z.number().int(), height: z.number().int() }),
    aspect_change: z.number().openapi({ description: 'Относительная разница соотношений сторон (0,01 — 1 %)' }),
    view_similarity: z.number().nullable().openapi({ description: 'Сходство вида камеры с видом при обучении (−1…1); null — у модели нет подписи вида' }),
    warnings: z.array(z.string()),
  })
  .openapi('PictureCheck');

export const ModelMeta = z.object({
  id: z.number().int(),
  name: z.string(),
  comment: z.string(),
  completion_percentage: z.number().openapi({ description: 'Ход обучения 0–100' }),
  object_storage_key: z.string().nullable().openapi({ description: 'Ключ файла ONNX в хранилище; есть — модель обучена' }),
  operation_ids: z.array(z.number().int()),
  video_area_ids: z.array(z.number().int()),
  trained_at: z.string().nullable().openapi({ description: 'Когда обучена (ISO 8601)' }),
  camera_id: z.number().int(),
  report: z.string(),
  workplace_id: z.number().int().nullable(),
  marked_video_id: z.number().int().nullable(),
  start_second: z.number(),
  end_second: z.number(),
  applied_at: z.string().nullable().openapi({ description: 'Когда применена последний раз (ISO 8601)' }),
  status: z.enum(['queued', 'training', 'trained', 'failed', 'cancelled']).openapi({ description: 'Состояние обучения (cancelled — обучение отменено)' }),
  error: z.string().nullable(),
  job_id: z.number().int().nullable(),
  apply_job_id: z.number().int().nullable(),
  apply_status: z.enum(['queued', 'running', 'success', 'failed', 'cancelled']).nullable(),
  apply_progress: z.number().nullable(),
  apply_error: z.string().nullable(),
  apply_message: z.string().nullable().openapi({
    description:
      'Итог последнего применения словами: сколько отрезков записано, сколько не записано под разметкой людей или как отклонённых, сколько заменено, где модель «не уверена»',
  }),
});
export const ModelItem = z.object({ meta: ModelMeta, workplace_name: z.string().nullable() }).openapi('VisionModel');
export const ModelsReply = z.object({ models: z.array(ModelItem) }).openapi('VisionModels');
export const DeletedReply = z.object({ deleted: z.number().int() }).openapi('Deleted');

export const TrainingBody = z
  .object({
    workplace_id: id.nullable().optional(),
    operation_ids: z.array(id).min(1, 'выберите хотя бы одну операцию').max(MAX_IDS),
    marked_video_id: id,
    video_area_ids: z.array(id).min(1, 'выберите хотя бы одну область видео').max(MAX_IDS),
    start_second: seconds,
    end_second: seconds,
    comment: z.string().max(2000).default(''),
    test: z.object({ video_id: id, start_second: seconds, end_second: seconds }).nullable().optional().openapi({
      description:
        'Где оценить модель: отрезок другого видео (другого дня) той же камеры с разметкой людей; без него — блоки размеченного отрезка, не участвовавшие в обучении',
    }),
    poses: z.boolean().default(false).openapi({
      description:
        'Признаками служат и позы людей (MoveNet: голова, локти, запястья в каждой области, раз в секунду); такая модель применяется только сервером — подсказки в браузере у неё нет',
    }),
  })
  .openapi('MarkerTrainingBody');
export const TrainingReply = z.object({ model_id: z.number().int(), job_id: z.number().int() }).openapi('MarkerTrainingReply');

export const ApplyingBody = z
  .object({
    model_id: id,
    unmarked_video_id: id,
    start_second: seconds,
    end_second: seconds,
    employee_id: id.nullable().optional().openapi({
      description: 'Сотрудник, которому пишется разметка модели; без него — сотрудник рабочего места в этот день (по разметке людей)',
    }),
  })
  .openapi('MarkerApplyingBody');
export const ApplyingReply = z
  .object({
    job_id: z.number().int(),
    model_id: z.number().int(),
    model_name: z.string(),
    video_id: z.number().int(),
    video_name: z.string(),
    message: z.string().openapi({ description: 'Текст для оповещения: какая модель к какому видео применяется' }),
  })
  .openapi('MarkerApplyingReply');

export const STAND_KINDS = ['stand', 'basis'] as const;
export const Stand = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: z.enum(STAND_KINDS).openapi({ description: 'stand — Стенд, basis — Базис' }),
    x: z.number().nullable().openapi({ description: 'Базис: координата абсолютной локации в структуре (если задана)' }),
    y: z.number().nullable(),
  })
  .openapi('Stand');
export const StandsReply = z.object({ stands: z.array(Stand) }).openapi('Stands');
export const StandsBody = z
  .object({
    organization_id: id,
    changed_stands: z
      .array(z.object({ id: id.optional(), name: z.string().max(200).nullable().optional(), kind: z.string().max(50).nullable().optional() }))
      .max(MAX_IDS)
      .default([]),
    stands_to_delete: z.array(id).max(MAX_IDS).default([]),
  })
  .openapi('StandsBody');

export const Movable = z.object({ id: z.number().int(), name: z.string() }).openapi('Movable');
export const MovablesReply = z.object({ movables: z.array(Movable) }).openapi('Movables');
export const MovablesBody = z
  .object({
    changed_movables: z
      .array(z.object({ id: id.optional(), name: z.string().max(200).nullable().optional() }))
      .max(MAX_IDS)
      .default([]),
    movables_to_delete: z.array(id).max(MAX_IDS).default([]),
  })
  .openapi('MovablesBody');

export const StandLocation = z
  .object({
    id: z.number().int(),
    stand_id: z.number().int(),
    name: z.string(),
    camera_id: z.number().int(),
    x: z.number(),
    y: z.number(),
    checkpoint_time: z.number().nullable().openapi({ description: 'Секунда видео, если стенд здесь только в этот момент' }),
  })
  .openapi('StandLocation');
export const StandLocationsReply = z.object({ stand_locations: z.array(StandLocation) }).openapi('StandLocations');
export const StandLocationBody = z
  .object({ stand_id: id.nullable().optional(), camera_id: id, x: coordinate, y: coordinate, checkpoint_time: seconds.nullable().optional() })
  .openapi('StandLocationBody');

export const MovableLocation = z
  .object({
    id: z.number().int(),
    movable_id: z.number().int(),
    name: z.string(),
    camera_id: z.number().int(),
    x1: z.number(),
    y1: z.number(),
    x2: z.number(),
    y2: z.number(),
    checkpoint_time: z.number().nullable(),
  })
  .openapi('MovableLocation');
export const MovableLocationsReply = z.object({ movable_locations: z.array(MovableLocation) }).openapi('MovableLocations');
export const MovableLocationBody = z
  .object({
    movable_id: id.nullable().optional(),
    camera_id: id,
    x1: coordinate,
    y1: coordinate,
    x2: coordinate,
    y2: coordinate,
    checkpoint_time: seconds.nullable().optional(),
  })
  .openapi('MovableLocationBody');

export const AbsoluteLocation = z
  .object({ id: z.number().int(), stand_id: z.number().int(), name: z.string(), structure_id: z.number().int().nullable(), x: z.number(), y: z.number() })
  .openapi('AbsoluteLocation');
export const AbsoluteLocationsReply = z.object({ absolute_locations: z.array(AbsoluteLocation) }).openapi('AbsoluteLocations');
export const AbsoluteLocationBody = z
  .object({
    stand_id: id.nullable().optional(),
    structure_id: id.optional(),
    x: z.number().min(-1e9).max(1e9).nullable().optional(),
    y: z.number().min(-1e9).max(1e9).nullable().optional(),
  })
  .openapi('AbsoluteLocationBody');

export const HumansReply = z
  .object({
    humans: z.array(
      z.object({
        location: z.object({ x: z.number(), y: z.number() }),
        box: z.object({ x1: z.number(), y1: z.number(), x2: z.number(), y2: z.number() }),
        score: z.number(),
        keypoints: z
          .array(z.object({ name: z.string(), x: z.number(), y: z.number(), score: z.number() }))
          .optional()
          .openapi({ description: 'Точки позы (17 точек MoveNet: нос, глаза, уши, плечи, локти, запястья, бёдра, колени, лодыжки) в пикселях кадра' }),
      }),
    ),
    detector: z.enum(['movenet-multipose', 'background-subtraction-blobs', 'onnx-person-detector']).openapi({
      description:
        'movenet-multipose — обученный детектор людей и поз MoveNet (по умолчанию); background-subtraction-blobs — вычитание фона и пятна (находит всё, что движется или появилось); onnx-person-detector — детектор из хранилища моделей',
    }),
    fallback: z.string().optional().openapi({ description: 'Почему ответил не MoveNet, а запасной детектор (вычитание фона)' }),
    width: z.number().int(),
    height: z.number().int(),
  })
  .openapi('Humans');
