import { z } from '@hono/zod-openapi';
import { decimalInt } from '../http/params';

/*
 * Map editor (spec 02 §2–§4, §7, §9). GeoJSON in EPSG:4326 (lon, lat). Kept free of Bun and the
 * database: the PWA typechecks against these types through api/src/contract.ts.
 */

export const FEATURE_TYPES = ['area', 'road', 'zone', 'object', 'block', 'info'] as const;
export const DRAWN_TYPES = ['area', 'road', 'zone', 'object'] as const;
export const ALGO_TAGS = ['road_gen_grid', 'road_gen_voronoi', 'road_subdivide', 'block_min_circle_cover', 'road_greed_types', 'road_greed_remove'] as const;

/** Most features in one drawn collection and most vertices in one geometry: a save is one JSON body. */
export const MAX_FEATURES = 20_000;
export const MAX_VERTICES = 200_000;

const lon = z.number().min(-180).max(180);
const lat = z.number().min(-90).max(90);
/** Most rings of one polygon, polygons of one multipolygon, lines of one multiline. */
export const MAX_PARTS = 10_000;
const vertices = { message: `не больше ${MAX_VERTICES} точек` };
const parts = { message: `не больше ${MAX_PARTS} частей` };

// [lon, lat] and at most height and measure after them (GeoJSON RFC 7946 §3.1.1).
const Position = z
  .tuple([lon, lat])
  .rest(z.number())
  .refine((p) => p.length <= 4, { message: 'точка — не больше 4 чисел' })
  .openapi({ description: '[долгота, широта] (EPSG:4326)', items: { type: 'number' }, maxItems: 4 });
type Position = z.infer<typeof Position>;

/** Where a list of points first goes wrong, or null; a plain loop (zod per point costs microseconds each, and one issue per bad point). */
function badPosition(value: unknown, min: number): string | null {
  if (!Array.isArray(value)) return 'ожидается список точек [долгота, широта]';
  if (value.length < min) return `не меньше ${min} точек`;
  if (value.length > MAX_VERTICES) return vertices.message;
  for (let i = 0; i < value.length; i++) {
    const p: unknown = value[i];
    const ok =
      Array.isArray(p) &&
      p.length >= 2 &&
      p.length <= 4 &&
      p.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
      Math.abs(p[0] as number) <= 180 &&
      Math.abs(p[1] as number) <= 90;
    if (!ok) return `точка ${i}: ожидается [долгота −180…180, широта −90…90] (до 4 чисел)`;
  }
  return null;
}

/**
 * A list of `min`…MAX_VERTICES points, checked in one pass that stops at the first bad point: a drawing
 * of hundreds of thousands of points is validated in milliseconds, and a body of bad points costs one issue.
 */
const positions = (min: number, message: string) =>
  z
    .custom<Position[]>()
    .superRefine((value, ctx) => {
      const problem = badPosition(value, min);
      if (problem) ctx.addIssue({ code: 'custom', message: problem === `не меньше ${min} точек` ? message : problem });
    })
    .openapi({
      type: 'array',
      items: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: { type: 'number' }, minItems: 2, maxItems: 4 },
      minItems: min,
      maxItems: MAX_VERTICES,
    });
const Ring = positions(4, 'кольцо полигона — не меньше 4 точек');
const Line = positions(2, 'линия — не меньше 2 точек');

export const Geometry = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('Point'), coordinates: Position }),
    z.object({ type: z.literal('LineString'), coordinates: Line }),
    z.object({ type: z.literal('Polygon'), coordinates: z.array(Ring).min(1).max(MAX_PARTS, parts) }),
    z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(Ring).min(1).max(MAX_PARTS, parts)).min(1).max(MAX_PARTS, parts) }),
    z.object({ type: z.literal('MultiLineString'), coordinates: z.array(Line).min(1).max(MAX_PARTS, parts) }),
  ])
  .openapi('MapGeometry');

export const FeatureProperties = z
  .object({
    type: z.enum(FEATURE_TYPES, { message: `ожидается один из типов: ${FEATURE_TYPES.join(', ')}` }),
    type_id: z.number().int().min(0).max(1_000_000).optional(),
    name: z.string().max(500, { message: 'название — не длиннее 500 символов' }).optional(),
    sides_count: z.number().int().min(1).max(2).optional(),
    is_fixed: z.boolean().optional(),
    capacity: z.number().min(0).max(1_000_000_000).optional(),
    radius: z.number().min(0).max(100_000).optional().openapi({ description: 'Радиус обслуживания (зона, объект), м' }),
    html_short: z.string().max(20_000).optional(),
    html_full: z.string().max(200_000).optional(),
  })
  .catchall(z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
  .openapi('MapFeatureProperties');

export const Feature = z
  .object({
    type: z.literal('Feature'),
    id: z.union([z.string().max(200), z.number()]).optional(),
    geometry: Geometry,
    properties: FeatureProperties,
  })
  .openapi('MapFeature');

export const FeatureCollection = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(Feature).max(MAX_FEATURES, { message: `не больше ${MAX_FEATURES} объектов` }),
  })
  .openapi('MapFeatureCollection');

/**
 * Undo/redo (spec 02 §4) restores a whole snapshot: the save then also carries the generated
 * network and the labels the snapshot had (they are not drawn, so the save cannot rebuild them).
 */
export const RestoreSnapshot = z.object({ general_feature_collection: FeatureCollection, info_feature_collection: FeatureCollection });

/**
 * A save queued offline (docs/map.md «Без сети»): the project and the version (`updated_at`) the
 * drawing was made on. The server refuses it (409) when the current project is another one or has
 * changed since, unless it already holds exactly this drawing (a resend of a save that arrived).
 */
export const SaveBase = z
  .object({ project_id: z.number().int().min(1), updated_at: z.number().int().min(0) })
  .openapi('MapSaveBase', { description: 'Проект и его версия (updated_at), на которых сделан рисунок; сохранение без сети' });

/**
 * The smallest radius of a drawn zone, m (issue 46, docs/map.md «Наименьшая зона»). A zone is a
 * service catchment — a school's 500 m, a kindergarten's 300 m, a clinic's 1000 m (catalog.ts) — and
 * a circle under 50 m is a slip of the finger (a second tap beside the first), not a catchment.
 */
export const ZONE_MIN_RADIUS_M = 50;

/**
 * What the user may save: drawn features only (area, road, zone, object); `restore` — see RestoreSnapshot; `base` — SaveBase.
 * A zone circle under ZONE_MIN_RADIUS_M is refused by the save itself (service.ts), not here: one the
 * project already holds is kept (issue 46), and only the stored project tells which.
 */
export const DrawnCollection = FeatureCollection.extend({ restore: RestoreSnapshot.optional(), base: SaveBase.optional() })
  .refine((fc) => fc.features.every((f) => (DRAWN_TYPES as readonly string[]).includes(f.properties.type)), {
    message: `сохраняются только нарисованные объекты: ${DRAWN_TYPES.join(', ')}`,
    path: ['features'],
  })
  .openapi('MapDrawnCollection');

/** Coordinate references a project may use (workers/src/map/crs.ts; docs/map.md «Система координат проекта»). */
export const CRS_KINDS = ['local', 'sk42', 'utm'] as const;
export const ProjectCrsView = z
  .object({
    kind: z.enum(CRS_KINDS),
    zone: z.number().int().nullable(),
    lon: z.number().openapi({ description: 'Привязка (центр первого рисунка), долгота' }),
    lat: z.number(),
    name: z.string().openapi({ description: 'Название системы координат, как в файле' }),
    definition: z.string().openapi({ description: 'Определение proj4' }),
    epsg: z.number().int().nullable(),
  })
  .openapi('MapProjectCrs');
export const CrsOption = z.object({ kind: z.enum(CRS_KINDS), name: z.string() });
export const CrsBody = z
  .object({ kind: z.enum(CRS_KINDS, { message: `ожидается одна из систем координат: ${CRS_KINDS.join(', ')}` }) })
  .openapi('MapProjectCrsSet');

export const MapProject = z
  .object({
    id: z.number().int(),
    name: z.string(),
    is_processing: z.boolean(),
    drawn_feature_collection: FeatureCollection,
    info_feature_collection: FeatureCollection,
    general_feature_collection: FeatureCollection,
    drawing_feature_collection: FeatureCollection,
    // A union, not .nullable(): a nullable named schema is documented as `allOf` with `type: [object, null]`, which reads as never null.
    golden: z.union([FeatureCollection, z.null()]),
    crs: ProjectCrsView.nullable().openapi({ description: 'Система координат чертежа; null — пока ничего не нарисовано' }),
    crs_options: z.array(CrsOption).openapi({ description: 'Системы координат, которые можно выбрать для этого проекта' }),
    updated_at: z.number().int().openapi({ description: 'Последнее изменение, мс Unix' }),
  })
  .openapi('MapProject');

export const MapProjectsListReply = z
  .object({
    projects: z.array(z.object({ id: z.number().int(), name: z.string() })),
    current_id: z.number().int().nullable(),
  })
  .openapi('MapProjectsList');

export const FeatureCounts = z.object(
  Object.fromEntries(FEATURE_TYPES.map((t) => [t, z.number().int()])) as Record<(typeof FEATURE_TYPES)[number], z.ZodNumber>,
);

export const MapProjectMetaReply = z
  .object({
    id: z.number().int(),
    name: z.string(),
    is_processing: z.boolean(),
    updated_at: z.number().int(),
    feature_counts: FeatureCounts,
    job_id: z.number().int().nullable().openapi({ description: 'Задача алгоритма, идущая сейчас' }),
  })
  .openapi('MapProjectMeta');

const projectName = z
  .string({ error: 'укажите название проекта' })
  .trim()
  .min(1, { message: 'укажите название проекта' })
  .max(200, { message: 'название проекта — не длиннее 200 символов' });

export const ProjectCreateBody = z.object({ name: projectName }).openapi('MapProjectCreate');
export const ProjectDeleteBody = z.object({ delete_id: decimalInt(1), new_id: decimalInt(1) }).openapi('MapProjectDelete');
export const ProjectSetBody = z.object({ project_id: decimalInt(1) }).openapi('MapProjectSet');

export const AlgoBody = z.object({ algo_tag: z.enum(ALGO_TAGS, { message: `ожидается один из алгоритмов: ${ALGO_TAGS.join(', ')}` }) }).openapi('MapAlgo');
export const MapAlgoReply = z.object({ job_id: z.number().int() }).openapi('MapAlgoReply');

/** The DWG's text encodings (DwgTextEncoding in workers/src/map/dwg/cp1251.ts; the PWA's types come from here, not from the workers). */
const DWG_TEXT_ENCODINGS = ['unicode', 'cp1251'] as const;
export const DwgBuildBody = z
  .object({
    format: z.enum(['dxf', 'dwg'], { message: 'ожидается dxf или dwg' }).optional(),
    text_encoding: z
      .enum(DWG_TEXT_ENCODINGS, { message: `ожидается одна из кодировок текста DWG: ${DWG_TEXT_ENCODINGS.join(', ')}` })
      .optional()
      .openapi({
        description:
          'Только для DWG: как записаны подписи и имена слоёв не из ASCII. unicode (по умолчанию) — коды \\U+XXXX (LibreCAD, LibreDWG); cp1251 — байты Windows-1251 (GDAL/QGIS как векторный слой, LibreDWG), символы вне 1251 — ближайшей читаемой формой (é → e, ½ → 1/2, ₽ → руб., иначе ?)',
      }),
  })
  // DXF picks its encoding itself (Windows-1251 or UTF-8); a choice it would ignore is refused.
  .refine((b) => b.text_encoding === undefined || b.format === 'dwg', { message: 'кодировка текста задаётся только для DWG', path: ['text_encoding'] })
  .openapi('DwgBuild');
export const DwgBuildReply = z.object({ work_item_id: z.number().int() }).openapi('DwgBuildReply');
export const WorkItemQuery = z.object({ work_item_id: decimalInt(1) });
export const DwgStatusReply = z
  .object({ status: z.enum(['queued', 'running', 'success', 'failed', 'cancelled']), error: z.string().optional(), progress: z.number().optional() })
  .openapi('DwgStatus');
export const DwgOutputUrlReply = z
  .object({
    url: z.string(),
    filename: z.string(),
    prj_url: z.string().optional().openapi({ description: 'Файл .prj (WKT системы координат) для того же чертежа' }),
    prj_filename: z.string().optional(),
  })
  .openapi('DwgOutputUrl');
export const DwgDownloadQuery = WorkItemQuery.extend({ file: z.enum(['drawing', 'prj'], { message: 'ожидается drawing или prj' }).optional() });

export const MenuMeta = z.object({ width: z.number().int() });

export const GisMenuBody = z.object({ type: z.enum(['coords', 'code'], { message: 'ожидается coords или code' }) });
export const GisMenuReply = z.object({ html_menu: z.string(), meta: MenuMeta }).openapi('GisHtmlMenu');
export const GisQuery = z.object({ params: z.string({ error: 'укажите строки' }).max(200_000, { message: 'слишком длинный запрос' }) });

export const TypeStyle = z.object({ name: z.string(), color: z.string(), width: z.number().optional(), fill_opacity: z.number().optional() });
export const MapTypeInfo = z.object({
  type_id: z.number().int(),
  name: z.string(),
  feature_type: z.enum(FEATURE_TYPES),
  sides_count: z.number().int().optional(),
  is_fixed: z.boolean().optional(),
  capacity: z.number().optional(),
  radius: z.number().optional(),
  block_spacing: z.number().optional(),
  block_max_area: z.number().optional(),
});
export const HtmlMenuBody = z
  .object({
    type: z.enum(FEATURE_TYPES, { message: `ожидается один из типов: ${FEATURE_TYPES.join(', ')}` }),
    type_id: z.number().int().min(0).max(1_000_000).optional(),
  })
  .catchall(z.unknown())
  .openapi('HtmlMenuBody');
export const HtmlMenuReply = z
  .object({
    html_menu: z.string(),
    meta: MenuMeta,
    styles: z.record(z.string(), TypeStyle),
    types: z.array(MapTypeInfo),
    zone_min_radius: z.number().openapi({ description: 'Наименьший радиус нарисованной зоны, м: меньший круг сохранение отклоняет' }),
  })
  .openapi('HtmlMenuReply');

export const CadastreImportReply = z.object({ imported: z.number().int() }).openapi('CadastreImport');
