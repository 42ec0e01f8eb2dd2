/**
 * The map editor's type catalogue (spec 02 §3): road, area, zone, object, block and info types by
 * type_id, with the parameters the algorithms read (docs/map.md). Pure data: the API serves it in
 * POST /api/v1/html_menu, the algorithms and the CAD export read it here.
 */

export type MapFeatureType = 'area' | 'road' | 'zone' | 'object' | 'block' | 'info';

export interface MapType {
  type_id: number;
  name: string;
  feature_type: MapFeatureType;
  color: string;
  /** Line width on the map, px. */
  width?: number;
  fill_opacity?: number;
  /** Roads: 1 — one-way, 2 — two-way. */
  sides_count?: number;
  /** Roads, zones, objects: algorithms never move or remove it. */
  is_fixed?: boolean;
  /** Zones: people one service point serves. */
  capacity?: number;
  /** Zones: service radius, m. */
  radius?: number;
  /** Areas: street spacing of the generated grid, m. */
  block_spacing?: number;
  /** Areas: a block larger than this is subdivided (road_subdivide), m². */
  block_max_area?: number;
  /** Roads: class rank, 1 — the main one. */
  road_class?: number;
  /** Roads: carriageway width, m (CAD export). */
  road_width?: number;
  /**
   * DXF colour index (AutoCAD ACI). Chosen so that the layers differ as rendered (pairwise CIE76
   * ΔE ≥ 20 between their ACI RGB values) and read on white and on black (contrast ≥ 2.5 to both);
   * docs/map.md «Цвета слоёв».
   */
  aci: number;
}

export const MAP_TYPES: readonly MapType[] = [
  {
    type_id: 1,
    name: 'Магистральная улица',
    feature_type: 'road',
    color: '#d7301f',
    width: 6,
    sides_count: 2,
    is_fixed: false,
    road_class: 1,
    road_width: 30,
    aci: 1,
  },
  {
    type_id: 2,
    name: 'Районная улица',
    feature_type: 'road',
    color: '#fc8d59',
    width: 4,
    sides_count: 2,
    is_fixed: false,
    road_class: 2,
    road_width: 20,
    aci: 30,
  },
  {
    type_id: 3,
    name: 'Местный проезд',
    feature_type: 'road',
    color: '#fdcc8a',
    width: 2,
    sides_count: 1,
    is_fixed: false,
    road_class: 3,
    road_width: 12,
    aci: 52,
  },
  { type_id: 10, name: 'Жилая застройка', feature_type: 'area', color: '#fee391', fill_opacity: 0.3, block_spacing: 150, block_max_area: 25_000, aci: 44 },
  { type_id: 11, name: 'Промышленная зона', feature_type: 'area', color: '#bdbdbd', fill_opacity: 0.3, block_spacing: 300, block_max_area: 90_000, aci: 15 },
  {
    type_id: 12,
    name: 'Общественно-деловая зона',
    feature_type: 'area',
    color: '#9ecae1',
    fill_opacity: 0.3,
    block_spacing: 200,
    block_max_area: 40_000,
    aci: 150,
  },
  {
    type_id: 14,
    name: 'Плотная городская застройка',
    feature_type: 'area',
    color: '#fdbb84',
    fill_opacity: 0.3,
    block_spacing: 100,
    block_max_area: 10_000,
    aci: 223,
  },
  { type_id: 13, name: 'Парк', feature_type: 'area', color: '#a1d99b', fill_opacity: 0.3, block_spacing: 400, block_max_area: 160_000, aci: 94 },
  { type_id: 20, name: 'Школа', feature_type: 'zone', color: '#756bb1', fill_opacity: 0.2, capacity: 1000, radius: 500, is_fixed: false, aci: 6 },
  { type_id: 21, name: 'Детский сад', feature_type: 'zone', color: '#e377c2', fill_opacity: 0.2, capacity: 250, radius: 300, is_fixed: false, aci: 22 },
  { type_id: 22, name: 'Поликлиника', feature_type: 'zone', color: '#3182bd', fill_opacity: 0.2, capacity: 20_000, radius: 1000, is_fixed: false, aci: 132 },
  { type_id: 30, name: 'Здание', feature_type: 'object', color: '#636363', is_fixed: true, aci: 253 },
  { type_id: 31, name: 'Остановка транспорта', feature_type: 'object', color: '#31a354', is_fixed: true, aci: 180 },
  { type_id: 40, name: 'Квартал', feature_type: 'block', color: '#fdae6b', fill_opacity: 0.15, aci: 212 },
  { type_id: 50, name: 'Сведения', feature_type: 'info', color: '#252525', aci: 230 },
];

const byId = new Map(MAP_TYPES.map((t) => [t.type_id, t]));

/** The first type of each kind: what a feature without a type_id gets. */
export const DEFAULT_TYPE: Record<MapFeatureType, number> = { road: 3, area: 10, zone: 20, object: 30, block: 40, info: 50 };

export function mapType(featureType: MapFeatureType, typeId?: number | null): MapType {
  const found = typeId === undefined || typeId === null ? undefined : byId.get(typeId);
  if (found && found.feature_type === featureType) return found;
  return byId.get(DEFAULT_TYPE[featureType])!;
}

export const typesOf = (featureType: MapFeatureType) => MAP_TYPES.filter((t) => t.feature_type === featureType);

/** Road types by class rank (1 — main): road_greed_types assigns these. */
export const ROAD_BY_CLASS: Record<number, MapType> = Object.fromEntries(typesOf('road').map((t) => [t.road_class!, t]));
