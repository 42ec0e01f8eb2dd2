import { MAP_TYPES, mapType, typesOf, type MapFeatureType } from '@norma/workers/map';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import type { z } from '@hono/zod-openapi';
import { parcelGeometry, saveParcels } from './parcels.service';
import { ZONE_MIN_RADIUS_M, type FeatureCollection } from './schema';

type FC = z.output<typeof FeatureCollection>;

/** The longest name the property form takes (the PWA's NAME_MAX; the CAD export draws up to 250 characters). */
export const FEATURE_NAME_MAX = 200;

/** Popup and side menus are 240 px wide (spec 02 §9). */
export const MENU_WIDTH = 240;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function typeStyles() {
  return Object.fromEntries(
    MAP_TYPES.map((t) => [
      String(t.type_id),
      { name: t.name, color: t.color, ...(t.width ? { width: t.width } : {}), ...(t.fill_opacity ? { fill_opacity: t.fill_opacity } : {}) },
    ]),
  );
}

export function typeList() {
  return MAP_TYPES.map((t) => ({
    type_id: t.type_id,
    name: t.name,
    feature_type: t.feature_type,
    ...(t.sides_count !== undefined ? { sides_count: t.sides_count } : {}),
    ...(t.is_fixed !== undefined ? { is_fixed: t.is_fixed } : {}),
    ...(t.capacity !== undefined ? { capacity: t.capacity } : {}),
    ...(t.radius !== undefined ? { radius: t.radius } : {}),
    ...(t.block_spacing !== undefined ? { block_spacing: t.block_spacing } : {}),
    ...(t.block_max_area !== undefined ? { block_max_area: t.block_max_area } : {}),
  }));
}

const FEATURE_LABELS: Record<MapFeatureType, string> = {
  area: 'Территория',
  road: 'Дорога',
  zone: 'Зона обслуживания',
  object: 'Объект',
  block: 'Квартал',
  info: 'Сведения',
};

/** The property form of a feature (POST /api/v1/html_menu): escaped HTML, values from the feature or its type. */
export function featureMenu(props: Record<string, unknown>) {
  const featureType = props.type as MapFeatureType;
  const current = mapType(featureType, typeof props.type_id === 'number' ? props.type_id : undefined);
  const options = typesOf(featureType)
    .map((t) => `<option value="${t.type_id}"${t.type_id === current.type_id ? ' selected' : ''}>${escapeHtml(t.name)}</option>`)
    .join('');
  const rows = [`<label>Тип<select name="type_id">${options}</select></label>`];
  const value = (key: string, fallback: unknown) => (props[key] ?? fallback) as unknown;
  // The name: the map's label and the CAD label (docs/map.md «Названия»).
  if (featureType !== 'info')
    rows.push(
      `<label>Название<input type="text" name="name" maxlength="${FEATURE_NAME_MAX}" autocomplete="off" value="${escapeHtml(typeof props.name === 'string' ? props.name : '')}"></label>`,
    );
  if (featureType === 'road') {
    const sides = Number(value('sides_count', current.sides_count ?? 2));
    rows.push(
      `<label>Направлений<select name="sides_count"><option value="1"${sides === 1 ? ' selected' : ''}>1</option><option value="2"${sides === 2 ? ' selected' : ''}>2</option></select></label>`,
    );
  }
  // A zone saved before the smallest radius was enforced: kept as it is, marked so the planner finds and redraws it (issue 46).
  if (featureType === 'zone' && typeof props.radius === 'number' && props.radius < ZONE_MIN_RADIUS_M)
    rows.push(
      `<p class="map-note" role="note">Радиус ${escapeHtml(String(Math.round(props.radius * 10) / 10).replace('.', ','))} м — меньше наименьшего радиуса ${ZONE_MIN_RADIUS_M} м — перерисуйте</p>`,
    );
  if (featureType === 'zone')
    rows.push(
      `<label>Вместимость<input type="number" name="capacity" min="0" value="${escapeHtml(String(value('capacity', current.capacity ?? 0)))}"></label>`,
    );
  if (featureType === 'road' || featureType === 'zone' || featureType === 'object')
    rows.push(`<label><input type="checkbox" name="is_fixed"${value('is_fixed', current.is_fixed) ? ' checked' : ''}> Не изменять алгоритмами</label>`);
  if (typeof props.html_full === 'string') rows.push(`<div class="map-info">${escapeHtml(props.html_full)}</div>`);
  return `<form class="map-menu" data-type="${featureType}"><h3>${escapeHtml(FEATURE_LABELS[featureType])}</h3>${rows.join('')}<button type="submit">Сохранить</button></form>`;
}

export function gisMenu(type: 'coords' | 'code') {
  return type === 'coords'
    ? '<form class="map-menu" data-gis="coords"><h3>Полигон по координатам</h3><label>Точки: долгота и широта через табуляцию, каждая с новой строки<textarea name="params" rows="8"></textarea></label><button type="submit">Построить</button></form>'
    : '<form class="map-menu" data-gis="code"><h3>Полигон по кадастровому номеру</h3><label>Кадастровые номера, каждый с новой строки<textarea name="params" rows="4"></textarea></label><button type="submit">Найти</button></form>';
}

const rowsOf = (params: string) =>
  params
    .split(/\r?\n/)
    .map((r) => r.trim())
    .filter((r) => r !== '');

const NUMBER = /^-?\d{1,3}([.,]\d+)?$/;

/** Rows "lon<TAB>lat" → one polygon (closed if it is not), type area. */
export function polygonFromCoords(params: string) {
  const rows = rowsOf(params);
  if (rows.length < 3) throw badRequest('Нужно не меньше трёх точек: долгота и широта через табуляцию, каждая точка с новой строки');
  if (rows.length > 10_000) throw badRequest('Слишком много точек: не больше 10000');
  const ring = rows.map((row, i) => {
    const parts = row.split(/\t|;|\s+/).filter((p) => p !== '');
    if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p)))
      throw badRequest(`Строка ${i + 1}: ожидаются долгота и широта через табуляцию, например 30.3141\t59.9386`);
    const [lon, lat] = parts.map((p) => Number(p.replace(',', '.')));
    if (lon < -180 || lon > 180 || lat < -90 || lat > 90) throw badRequest(`Строка ${i + 1}: долгота от −180 до 180, широта от −90 до 90`);
    return [lon, lat];
  });
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push([...first]);
  if (new Set(ring.map((p) => p.join(','))).size < 3) throw badRequest('Нужно не меньше трёх разных точек');
  return areaCollection([{ type: 'Polygon' as const, coordinates: [ring] }]);
}

/** Decimal places of a coordinate sent to the map: 7 is about 1 cm, far below what a parcel or a typed point means. */
export const COORDINATE_DECIMALS = 7;
const SCALE = 10 ** COORDINATE_DECIMALS;

/**
 * A polygon with every coordinate rounded to COORDINATE_DECIMALS and the points that became
 * repeats of their neighbour dropped. Arithmetic leaves tails such as 30.325000000000003, which
 * the drawing library refuses as a polygon («с дырами или самопересечением»).
 */
export function roundPolygon(polygon: { type: 'Polygon'; coordinates: number[][][] }): { type: 'Polygon'; coordinates: number[][][] } {
  return {
    type: 'Polygon',
    coordinates: polygon.coordinates.map((ring) =>
      ring
        .map((point) => point.map((value) => Math.round(value * SCALE) / SCALE))
        .filter((point, i, all) => i === 0 || point[0] !== all[i - 1]![0] || point[1] !== all[i - 1]![1]),
    ),
  };
}

const areaCollection = (polygons: Array<{ type: 'Polygon'; coordinates: number[][][] }>, numbers?: string[]): FC => ({
  type: 'FeatureCollection' as const,
  features: polygons.map((geometry, i) => ({
    type: 'Feature' as const,
    geometry: roundPolygon(geometry) as FC['features'][number]['geometry'],
    properties: { type: 'area' as const, type_id: mapType('area').type_id, ...(numbers ? { name: numbers[i], cadastral_number: numbers[i] } : {}) },
  })),
});

/** A cadastral number: region:district:quarter:parcel, e.g. 78:31:0001001:1. */
export const CADASTRAL_NUMBER = /^\d{2}:\d{2}:\d{6,7}:\d{1,10}$/;

/**
 * Where cadastral numbers are looked up beyond the local registry: an external cadastre service
 * when one is configured (docs/map.md «Кадастр»). The default has none.
 */
export interface CadastreProvider {
  lookup(number: string): Promise<{ type: 'Polygon'; coordinates: number[][][] } | null>;
}

/**
 * Polygons of the parcels, looked up for one organisation: its own imported parcel first, else the
 * shared registry (no organisation: the demo parcels and the operator's import-cadastre.ts).
 */
export async function polygonsFromCodes(db: Db, organizationId: number, params: string, provider?: CadastreProvider) {
  const numbers = rowsOf(params);
  if (numbers.length === 0) throw badRequest('Укажите кадастровый номер');
  if (numbers.length > 100) throw badRequest('Не больше 100 кадастровых номеров за раз');
  const polygons = [];
  for (const number of numbers) {
    if (!CADASTRAL_NUMBER.test(number)) throw badRequest(`«${number.slice(0, 40)}» — не кадастровый номер (пример: 78:31:0001001:1)`);
    const row = await parcelGeometry(db, organizationId, number);
    const geometry = row ? JSON.parse(row.geometry) : provider ? await provider.lookup(number) : null;
    if (!geometry) throw badRequest(`Участок с кадастровым номером ${number} не найден`);
    polygons.push(geometry);
  }
  return areaCollection(polygons, numbers);
}

/**
 * Imports parcels from a GeoJSON FeatureCollection whose features carry a cadastral number (`cadastral_number`
 * or `number`) into one organisation's registry, or with `organizationId` null into the shared one (the
 * operator's import-cadastre.ts only: an organisation never writes what another one reads).
 */
export async function importParcels(db: Db, organizationId: number | null, collection: unknown): Promise<number> {
  const features = (collection as { features?: unknown })?.features;
  if (!Array.isArray(features)) throw badRequest('Ожидается GeoJSON FeatureCollection');
  const rows = features.map((f, i) => {
    const props = (f?.properties ?? {}) as Record<string, unknown>;
    const number = String(props.cadastral_number ?? props.number ?? props.cad_num ?? '');
    if (!CADASTRAL_NUMBER.test(number)) throw badRequest(`Объект ${i + 1}: нет кадастрового номера в свойствах cadastral_number или number`);
    const geometry = f?.geometry;
    const validRing = (ring: unknown) =>
      Array.isArray(ring) &&
      ring.length >= 4 &&
      ring.every((p) => Array.isArray(p) && p.length >= 2 && Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90 && Number.isFinite(p[0]) && Number.isFinite(p[1]));
    if (
      !geometry ||
      geometry.type !== 'Polygon' ||
      !Array.isArray(geometry.coordinates) ||
      geometry.coordinates.length === 0 ||
      !geometry.coordinates.every(validRing)
    )
      throw badRequest(`Объект ${i + 1}: ожидается полигон (кольца не меньше чем из 4 точек «долгота, широта»)`);
    return { number, geometry: JSON.stringify({ type: 'Polygon', coordinates: geometry.coordinates }), source: 'import', updated_at: Date.now() };
  });
  await saveParcels(db, organizationId, rows);
  return rows.length;
}
