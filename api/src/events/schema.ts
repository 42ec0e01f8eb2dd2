import { z } from '@hono/zod-openapi';
import { CalibrationError, FIGURE_DEFAULTS, homographyFromPoints, MAX_WINDOW_SECONDS, validateZoneShape } from '@norma/workers/tracking';
import { decimalInt } from '../http/params';
import { instant } from '../http/time';

/*
 * Event analytics (issue 44, docs/event-analytics.md): the tracking job over a video, its tracks
 * and their MOTChallenge text, a camera's floor calibration, a hall's zones. Kept free of Bun and
 * the database: the PWA typechecks against these types through api/src/contract.ts.
 */

/** Sampling rates the tracking job accepts, frames per second of the video (docs/event-analytics.md «Задача трекинга»). */
export const TRACKING_FPS = { min: 1, max: 10, default: 5 } as const;
/** Tracks per page of GET /api/v1/event/tracks, and the points one track brings at most (thinned evenly beyond). */
export const TRACKS_PAGE = { default: 50, max: 200 } as const;
export const TRACK_POINTS_MAX = 600;
/** Largest frame side (pixels) and plan coordinate (metres) accepted. */
const MAX_PIXEL = 20_000;
const MAX_METRES = 10_000;
/** A zone's circle: radius in metres; a stand's zone without a shape is this circle around the stand's absolute location. */
export const MAX_ZONE_RADIUS = 1000;
export const STAND_ZONE_RADIUS = 1.5;
export const ZONE_ROLES = ['zone', 'stand', 'safe'] as const;

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const EventVideoQuery = z.object({ video_id: decimalInt(1) });
export const EventCameraQuery = z.object({ camera_id: decimalInt(1) });
export const EventStructureQuery = z.object({ structure_id: decimalInt(1) });
export const EventIdParam = z.object({ id: decimalInt(1) });
export const EventTracksQuery = z.object({
  video_id: decimalInt(1),
  offset: decimalInt(0, 1_000_000).optional().openapi({ description: 'Сколько треков пропустить (по номеру трека), по умолчанию 0' }),
  limit: decimalInt(1, TRACKS_PAGE.max)
    .optional()
    .openapi({ description: `Сколько треков отдать, до ${TRACKS_PAGE.max}, по умолчанию ${TRACKS_PAGE.default}` }),
});

// ——— tracking ———

export const TrackingBody = z
  .object({
    video_id: id,
    fps: z
      .number({ error: 'ожидается число кадров в секунду' })
      .min(TRACKING_FPS.min, `частота обработки — от ${TRACKING_FPS.min} до ${TRACKING_FPS.max} кадров в секунду`)
      .max(TRACKING_FPS.max, `частота обработки — от ${TRACKING_FPS.min} до ${TRACKING_FPS.max} кадров в секунду`)
      .optional()
      .openapi({ description: `Кадров в секунду, на которых ищутся люди (не больше частоты самого видео); по умолчанию ${TRACKING_FPS.default}` }),
  })
  .strict()
  .openapi('TrackingBody');
export const TrackingCancelBody = z.object({ video_id: id }).strict().openapi('TrackingCancelBody');

export const TRACKING_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

export const TrackingSettings = z
  .object({
    fps_sampled: z.number().openapi({ description: 'Частота обработки, кадров в секунду' }),
    detector: z.string(),
    input_width: z.number().int().openapi({ description: 'Ширина кадра на входе детектора, пикселей' }),
    thresholds: z.record(z.string(), z.number()).openapi({ description: 'Пороги трекера (TRACKER_DEFAULTS)' }),
  })
  .openapi('TrackingSettings');
export const TrackingStats = z
  .object({
    tracks: z.number().int(),
    frames: z.number().int().openapi({ description: 'Обработано кадров' }),
    seconds: z.number().openapi({ description: 'Секунд записи' }),
    work_seconds: z.number().openapi({ description: 'Секунд работы задачи (декодирование, детектор, трекер)' }),
    x_real_time: z.number().openapi({ description: 'Во сколько раз быстрее записи' }),
  })
  .openapi('TrackingStats');
export const TrackingRun = z
  .object({
    id: z.number().int(),
    video_id: z.number().int(),
    job_id: z.number().int().nullable(),
    status: z.enum(TRACKING_STATUSES),
    progress: z.number(),
    settings: TrackingSettings,
    video_fps: z.number().nullable(),
    frame_width: z.number().int().nullable(),
    frame_height: z.number().int().nullable(),
    stats: TrackingStats.nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .openapi('TrackingRun');
export const TrackingReply = z
  .object({
    video_id: z.number().int(),
    run: TrackingRun.nullable().openapi({ description: 'Последний запуск трекинга этого видео (null — не запускали)' }),
    finished: TrackingRun.nullable().openapi({ description: 'Последний законченный трекинг: его треки отдают tracks и tracks.mot' }),
  })
  .openapi('Tracking');
export const HallTrackingsQuery = z.object({ structure_id: decimalInt(1).openapi({ description: 'Зал (структура)' }) });
export const HallTrackingsReply = z
  .object({
    structure_id: z.number().int(),
    videos: z
      .array(TrackingReply.extend({ camera_id: z.number().int() }))
      .openapi({ description: 'Каждое видео камер зала (по камере, затем по началу) с состоянием трекинга, как у GET /api/v1/event/tracking' }),
  })
  .openapi('HallTrackings');

export const EventTrack = z
  .object({
    number: z.number().int(),
    first_time: z.number(),
    last_time: z.number(),
    points_total: z.number().int(),
    points: z
      .array(z.array(z.number()))
      .openapi({ description: `[кадр видео с 0, время с, x, y, w, h, оценка] в пикселях видео; больше ${TRACK_POINTS_MAX} — прорежены равномерно` }),
  })
  .openapi('EventTrack');
export const EventTracksReply = z
  .object({
    tracking_id: z.number().int(),
    video_fps: z.number().nullable(),
    frame_width: z.number().int().nullable(),
    frame_height: z.number().int().nullable(),
    total: z.number().int(),
    offset: z.number().int(),
    tracks: z.array(EventTrack),
  })
  .openapi('EventTracks');

// ——— calibration ———

// Pairs and fours bounded in the OpenAPI document too (tests: api/src/http/input-bounds.test.ts).
const pixelPoint = z.tuple([z.number().min(0).max(MAX_PIXEL), z.number().min(0).max(MAX_PIXEL)]).openapi({ minItems: 2, maxItems: 2 });
const planPoint = z.tuple([z.number().min(-MAX_METRES).max(MAX_METRES), z.number().min(-MAX_METRES).max(MAX_METRES)]).openapi({ minItems: 2, maxItems: 2 });
/** Why the four point pairs define no floor mapping (the core's CalibrationError, in Russian), or null. */
function calibrationProblem(image: [number, number][], plan: [number, number][]): { field: 'image_points' | 'plan_points'; message: string } | null {
  try {
    homographyFromPoints(image, plan);
    return null;
  } catch (err) {
    if (!(err instanceof CalibrationError)) throw err;
    return { field: err.message.includes('на плане') ? 'plan_points' : 'image_points', message: err.message };
  }
}

export const CalibrationBody = z
  .object({
    frame_width: z.number().int().min(1).max(MAX_PIXEL).openapi({ description: 'Ширина кадра, на котором отмечены точки, пикселей' }),
    frame_height: z.number().int().min(1).max(MAX_PIXEL),
    image_points: z
      .array(pixelPoint)
      .length(4, 'нужно ровно четыре точки на кадре')
      .openapi({ description: 'Четыре точки пола на кадре [[x, y] × 4], пиксели', minItems: 4, maxItems: 4 }),
    plan_points: z
      .array(planPoint)
      .length(4, 'нужно ровно четыре точки на плане')
      .openapi({ description: 'Те же четыре точки на плане зала [[x, y] × 4], метры', minItems: 4, maxItems: 4 }),
  })
  .strict()
  .superRefine((body, ctx) => {
    // Runs after a failed field too (zod goes on): the checks below need four points of two numbers.
    const wellFormed = (points: unknown) => Array.isArray(points) && points.length === 4 && points.every((p) => Array.isArray(p) && p.every(Number.isFinite));
    if (!wellFormed(body.image_points) || !wellFormed(body.plan_points) || !Number.isFinite(body.frame_width) || !Number.isFinite(body.frame_height)) return;
    body.image_points.forEach((p, i) => {
      if (p[0] > body.frame_width || p[1] > body.frame_height)
        ctx.addIssue({ code: 'custom', path: ['image_points', i], message: `точка ${i + 1} за краем кадра ${body.frame_width}×${body.frame_height}` });
    });
    // The core's own refusal (three points on a line, a fold from points taken in a different order): its message is the 400's.
    const problem = calibrationProblem(body.image_points, body.plan_points);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  })
  .openapi('CalibrationBody');
export const Calibration = z
  .object({
    camera_id: z.number().int(),
    frame_width: z.number().int(),
    frame_height: z.number().int(),
    image_points: z.array(z.tuple([z.number(), z.number()])),
    plan_points: z.array(z.tuple([z.number(), z.number()])),
    updated_at: z.string(),
  })
  .openapi('Calibration');
export const CalibrationReply = z.object({ calibration: Calibration.nullable() }).openapi('CalibrationReply');

// ——— zones ———

const polygonShape = z
  .object({
    type: z.literal('polygon'),
    points: z.array(planPoint).min(3, 'у многоугольника не меньше 3 точек').max(100, 'у многоугольника не больше 100 точек'),
  })
  .strict()
  .superRefine((shape, ctx) => {
    // The core's own check (repeated neighbours, crossing sides, no area), after the count and bounds above.
    if (shape.points.length < 3 || shape.points.length > 100) return;
    const problem = validateZoneShape(shape);
    if (problem) ctx.addIssue({ code: 'custom', path: ['points'], message: problem });
  });
const circleShape = z
  .object({
    type: z.literal('circle'),
    center: planPoint,
    radius: z.number().gt(0, 'радиус больше 0').max(MAX_ZONE_RADIUS, `радиус не больше ${MAX_ZONE_RADIUS} м`),
  })
  .strict();
export const ZoneShape = z.discriminatedUnion('type', [polygonShape, circleShape]).openapi('ZoneShape', {
  description: 'На плане зала, метры: многоугольник {type: polygon, points} или круг {type: circle, center, radius}',
});

const zoneFields = {
  name: z.string().trim().min(1, 'название не может быть пустым').max(100, 'название не длиннее 100 символов'),
  role: z.enum(ZONE_ROLES).openapi({ description: 'zone — зона, stand — зона стенда, safe — безопасная зона (вход в неё — нарушение)' }),
  stand_id: id.nullable().optional().openapi({ description: 'Стенд организации (для зоны стенда)' }),
  shape: ZoneShape.optional().openapi({ description: 'Без формы — только у зоны стенда: круг 1,5 м вокруг его абсолютной локации в этой структуре' }),
};
export const ZoneBody = z
  .object({ structure_id: id, ...zoneFields })
  .strict()
  .openapi('ZoneBody');
export const ZoneUpdateBody = z.object(zoneFields).strict().openapi('ZoneUpdateBody');
export const Zone = z
  .object({
    id: z.number().int(),
    structure_id: z.number().int(),
    name: z.string(),
    role: z.enum(ZONE_ROLES),
    stand_id: z.number().int().nullable(),
    shape: ZoneShape,
    updated_at: z.string(),
  })
  .openapi('Zone');
export const ZonesReply = z.object({ zones: z.array(Zone) }).openapi('Zones');
export const ZoneDeletedReply = z.object({ deleted: z.number().int() }).openapi('ZoneDeleted');

// ——— figures ———

/** The longest figures window: seven days (the core's MAX_WINDOW_SECONDS). */
export const FIGURES_WINDOW_DAYS = MAX_WINDOW_SECONDS / 86_400;

/**
 * The one check of a figures window (query of GET /api/v1/event/figures, body of …/compute, …/cancel and
 * POST /api/v1/event/share): the end after the start, no longer than the core computes.
 */
export function refineFiguresWindow(q: { from: unknown; to: unknown }, ctx: z.RefinementCtx) {
  if (typeof q.from !== 'number' || typeof q.to !== 'number') return;
  if (!(q.to > q.from)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'конец окна должен быть позже начала' });
  else if (q.to - q.from > MAX_WINDOW_SECONDS * 1000) ctx.addIssue({ code: 'custom', path: ['to'], message: `окно не длиннее ${FIGURES_WINDOW_DAYS} суток` });
}

export const EventFiguresQuery = z
  .object({
    structure_id: decimalInt(1).openapi({ description: 'Зал (структура)' }),
    from: instant.openapi({ description: 'Начало окна', example: '2026-11-16T09:00:00Z' }),
    to: instant.openapi({ description: `Конец окна, не дальше ${FIGURES_WINDOW_DAYS} суток от начала`, example: '2026-11-16T18:00:00Z' }),
  })
  .superRefine(refineFiguresWindow);

const HeatGrid = z
  .object({
    origin: z.tuple([z.number(), z.number()]),
    cell: z.number(),
    columns: z.number().int(),
    rows: z.number().int(),
    seconds: z.array(z.number()).openapi({ description: 'Секунды присутствия по клеткам, строка за строкой: индекс = строка · columns + столбец' }),
    outside_seconds: z.number(),
  })
  .openapi('EventHeatGrid');
const zoneRef = z.union([z.number(), z.string()]);
/** Where a visit or an entry can be watched: the camera's own track, its camera and video, the second in that video. */
const inVideoFields = {
  view_id: z.string().openapi({ description: 'Трек камеры, видевшей начало (у объединённого трека — одна из его камер)' }),
  camera_id: z.number().int(),
  video_id: z.number().int().nullable(),
  video_second: z.number().nullable().openapi({ description: 'Секунда начала в этом видео' }),
};
const EventVisit = z
  .object({ track_id: z.string(), ...inVideoFields, start: z.number(), end: z.number(), seconds: z.number() })
  .openapi('EventVisit', { description: 'Визит зоны: трек, видео и секунда в нём, начало и конец (секунды от 1970-01-01 UTC)' });
const StandRank = z.object({ zone_id: zoneRef, name: z.string(), visitors: z.number().int(), visits: z.number().int(), total_seconds: z.number() });
/** The state of a long window's stored figures (docs/event-analytics.md «Цифры длинных окон»). */
const EventFiguresStore = z
  .object({
    fresh: z.boolean().openapi({ description: 'Сохранённые цифры посчитаны по нынешним входам; false — устарели или ещё не посчитаны' }),
    computed_at: z.string().nullable().openapi({ description: 'Когда посчитаны сохранённые цифры; null — ещё ни разу' }),
    job: z
      .object({
        id: z.number().int(),
        status: z.enum(['queued', 'running', 'success', 'failed', 'cancelled']),
        progress: z.number(),
        error: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: 'Последняя задача event_figures этого окна (ход — GET /api/v1/jobs/{id})' }),
  })
  .openapi('EventFiguresStore', {
    description:
      'Сохранённые цифры длинного окна и их пересчёт (у EventFigures null — окно посчитано по запросу); fresh — посчитаны по нынешним трекам, зонам и калибровкам',
  });
export const EventFiguresReply = z
  .object({
    structure_id: z.number().int(),
    from: z.string(),
    to: z.string(),
    cameras: z.array(
      z.object({
        camera_id: z.number().int(),
        name: z.string(),
        calibrated: z.boolean(),
        videos: z.number().int().openapi({ description: 'Видео с законченным трекингом в окне' }),
        tracks: z.number().int(),
      }),
    ),
    uncalibrated_cameras: z
      .array(z.number().int())
      .openapi({ description: 'Камеры без калибровки: их треки не входят в цифры плана, только в тепловые карты кадра' }),
    window: z.object({ from: z.number(), to: z.number() }).openapi({ description: 'Окно, секунды от 1970-01-01 UTC' }),
    settings: z.record(z.string(), z.number()),
    visitors: z.number().int(),
    visitors_per_minute: z.array(z.object({ minute_start: z.number(), visitors: z.number().int(), entries: z.number().int() })),
    occupancy_step_seconds: z.number(),
    occupancy: z.array(z.object({ t: z.number(), people: z.number() })),
    peak_occupancy: z.object({ t: z.number(), people: z.number() }).nullable(),
    heat_map: HeatGrid,
    frame_heat_maps: z.array(z.object({ camera_id: z.number().int(), grid: HeatGrid })),
    paths: z.array(z.object({ track_id: z.string(), camera_id: z.number().int(), points: z.array(z.object({ t: z.number(), x: z.number(), y: z.number() })) })),
    dwell: z.array(
      z.object({
        zone_id: zoneRef,
        name: z.string(),
        role: z.enum(ZONE_ROLES),
        visits: z.number().int(),
        visitors: z.number().int(),
        total_seconds: z.number().openapi({ description: 'Сумма длительностей визитов (не короче минимального визита)' }),
        inside_seconds: z.number().openapi({ description: 'Все секунды внутри зоны, проходы короче визита тоже' }),
        median_seconds: z.number().nullable(),
        mean_seconds: z.number().nullable(),
        p90_seconds: z.number().nullable(),
        histogram: z.array(z.object({ label: z.string(), from: z.number(), to: z.number().nullable(), count: z.number().int() })),
        visit_moments: z.array(EventVisit).openapi({
          description: `Самые долгие визиты зоны (не больше ${FIGURE_DEFAULTS.listedVisits}) по времени начала; visits — число всех`,
        }),
      }),
    ),
    stands: z.object({ ranking: z.array(StandRank), most_popular: z.array(StandRank), least_popular: z.array(StandRank) }),
    routes: z.object({
      visitors: z.array(z.object({ track_id: z.string(), zones: z.array(zoneRef) })),
      popular: z.array(z.object({ zones: z.array(zoneRef), names: z.array(z.string()), count: z.number().int() })),
    }),
    safe_zone_entries: z.array(
      z.object({
        zone_id: zoneRef,
        name: z.string(),
        entries_total: z.number().int(),
        entries: z
          .array(
            z.object({
              track_id: z.string(),
              ...inVideoFields,
              entry: z.number(),
              exit: z.number(),
              seconds_inside: z.number(),
              deepest: z.object({ t: z.number(), x: z.number(), y: z.number(), depth_metres: z.number() }),
            }),
          )
          .openapi({ description: `Первые входы (не больше ${FIGURE_DEFAULTS.listedVisits}) по времени; entries_total — число всех` }),
      }),
    ),
    // null: the window computed on this request; else a long window's stored figures and their computation.
    stored: EventFiguresStore.nullable(),
  })
  .openapi('EventFigures');

/** A long window not computed yet (202), or its state after POST …/compute and …/cancel. */
export const EventFiguresPending = z
  .object({ structure_id: z.number().int(), from: z.string(), to: z.string(), stored: EventFiguresStore })
  .openapi('EventFiguresPending', { description: 'Цифры длинного окна считает задача event_figures: её состояние' });

/** The window of POST /api/v1/event/figures/compute and …/cancel. */
export const EventFiguresWindowBody = z
  .object({
    structure_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).openapi({ description: 'Зал (структура)' }),
    from: instant.openapi({ description: 'Начало окна', example: '2026-11-16T09:00:00Z' }),
    to: instant.openapi({ description: 'Конец окна', example: '2026-11-23T09:00:00Z' }),
  })
  .strict()
  .superRefine(refineFiguresWindow)
  .openapi('EventFiguresWindowBody');

export type TrackingBodyInput = z.infer<typeof TrackingBody>;
export type CalibrationInput = z.infer<typeof CalibrationBody>;
export type ZoneInput = z.infer<typeof ZoneUpdateBody>;
export type ZoneShapeValue = z.infer<typeof ZoneShape>;
