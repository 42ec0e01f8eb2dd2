import type { Feature } from 'geojson';
import type * as maplibregl from 'maplibre-gl';
import type { HtmlMenuReply, MapFeature } from '../../api/types';
import type { FeatureId } from './drawing';

/**
 * «Удалить объект» when a tap is inside more than one shape (a block drawn inside a territory,
 * overlapping zones; issue 46, docs/map.md «Удалить объект»): the shapes under the point are listed,
 * the first by a stated rule is chosen and outlined on the map, and nothing is deleted until the
 * user presses «Удалить». The rule: points, then lines, then areas from the smallest — what lies on
 * top of another shape is the smaller one, and the larger can still be tapped outside it.
 */
export interface RemovalCandidate {
  id: FeatureId;
  label: string;
  geometry: MapFeature['geometry'];
}

type XY = [number, number];
const EARTH_RADIUS_M = 6_371_008.8;
const KIND: Record<string, string> = { area: 'Территория', road: 'Дорога', zone: 'Зона', object: 'Объект' };

/** A ring's area in m² (equirectangular around its first vertex: exact enough to order and to show a district's shapes). */
function ringAreaM2(ring: XY[]): number {
  if (ring.length < 3) return 0;
  const [lng0, lat0] = ring[0];
  const k = Math.cos((lat0 * Math.PI) / 180);
  const xy = ring.map(([lng, lat]) => [(((lng - lng0) * Math.PI) / 180) * EARTH_RADIUS_M * k, (((lat - lat0) * Math.PI) / 180) * EARTH_RADIUS_M]);
  let twice = 0;
  for (let i = 0; i + 1 < xy.length; i++) twice += xy[i][0] * xy[i + 1][1] - xy[i + 1][0] * xy[i][1];
  return Math.abs(twice) / 2;
}

/** The order of the rule: 0 for points, 1 for lines, then an area's m² (from 2 up). */
function rank(geometry: MapFeature['geometry']): number {
  if (geometry.type === 'Point') return 0;
  if (geometry.type === 'LineString' || geometry.type === 'MultiLineString') return 1;
  if (geometry.type === 'Polygon') return 2 + ringAreaM2(geometry.coordinates[0] as XY[]);
  return Number.POSITIVE_INFINITY;
}

/** The shapes under a point in the rule's order (equal ones keep the order they came in). */
export function byRemovalRule<T extends { geometry: MapFeature['geometry'] }>(found: T[]): T[] {
  return found
    .map((f, i) => ({ f, i, r: rank(f.geometry) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.f);
}

/** «1,2 га» or «850 м²». */
function areaText(m2: number): string {
  return m2 >= 10_000 ? `${(m2 / 10_000).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} га` : `${Math.round(m2).toLocaleString('ru-RU')} м²`;
}

/** How a shape reads in the list: «Зона «Школа № 1» — Школа», «Территория — Жилая застройка, 12,4 га». */
export function candidateLabel(properties: MapFeature['properties'], geometry: MapFeature['geometry'], types: HtmlMenuReply['types']): string {
  const kind = KIND[properties.type] ?? 'Объект';
  const name = typeof properties.name === 'string' && properties.name.trim() ? ` «${properties.name.trim()}»` : '';
  const typeName = types.find((t) => t.type_id === properties.type_id)?.name;
  const size = geometry.type === 'Polygon' && properties.type !== 'zone' ? areaText(ringAreaM2(geometry.coordinates[0] as XY[])) : '';
  const details = [typeName, size].filter(Boolean).join(', ');
  return `${kind}${name}${details ? ` — ${details}` : ''}`;
}

/** «Под точкой 1 объект», «… 2 объекта», «… 5 объектов». */
export function objectsUnder(count: number): string {
  const tens = count % 100;
  const ones = count % 10;
  const word = tens >= 11 && tens <= 14 ? 'объектов' : ones === 1 ? 'объект' : ones >= 2 && ones <= 4 ? 'объекта' : 'объектов';
  return `Под точкой ${count} ${word}`;
}

const PICK_SOURCE = 'norma-remove-pick';
const PICK_FILL = 'norma-remove-pick-fill';
const PICK_LINE = 'norma-remove-pick-line';
const PICK_POINT = 'norma-remove-pick-point';
const PICK_COLOR = '#c62828';

/** The outline of the shape chosen for removal: red, above the drawing (its layers are moved to the top when shown). */
export function addPickLayers(map: maplibregl.Map) {
  map.addSource(PICK_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  map.addLayer({
    id: PICK_FILL,
    type: 'fill',
    source: PICK_SOURCE,
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'fill-color': PICK_COLOR, 'fill-opacity': 0.25 },
  });
  map.addLayer({
    id: PICK_LINE,
    type: 'line',
    source: PICK_SOURCE,
    filter: ['!=', ['geometry-type'], 'Point'],
    paint: { 'line-color': PICK_COLOR, 'line-width': 4, 'line-dasharray': [2, 1] },
  });
  map.addLayer({
    id: PICK_POINT,
    type: 'circle',
    source: PICK_SOURCE,
    filter: ['==', ['geometry-type'], 'Point'],
    paint: { 'circle-radius': 10, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': PICK_COLOR, 'circle-stroke-width': 3 },
  });
  map.on('idle', () => describePick(map));
}

/** Outlines `candidate` (none: nothing outlined). */
export function showPick(map: maplibregl.Map, candidate: RemovalCandidate | null) {
  const features: Feature[] = candidate ? [{ type: 'Feature', geometry: candidate.geometry, properties: { label: candidate.label } }] : [];
  map.getSource<maplibregl.GeoJSONSource>(PICK_SOURCE)?.setData({ type: 'FeatureCollection', features });
  for (const id of [PICK_FILL, PICK_LINE, PICK_POINT]) if (map.getLayer(id)) map.moveLayer(id);
}

/** What maplibre drew as the outline, on the map's element as `data-remove-pick` (the label; '' for none), as `data-names` does for names. */
function describePick(map: maplibregl.Map) {
  const layers = [PICK_FILL, PICK_LINE, PICK_POINT].filter((id) => map.getLayer(id));
  const drawn = layers.length ? map.queryRenderedFeatures({ layers }).map((f) => String(f.properties.label)) : [];
  const text = [...new Set(drawn)].join(' | ');
  const element = map.getContainer();
  if (element.dataset.removePick !== text) element.dataset.removePick = text;
}

/** A box on the screen, px, relative to the map's top left corner. */
interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** Where «Удалить объект» sits over the map: one of its corners. */
export type PanelCorner = 'top-left' | 'top-right' | 'bottom-right' | 'bottom-left';
const CORNERS: PanelCorner[] = ['top-left', 'top-right', 'bottom-right', 'bottom-left'];
/** The panel's distance from the map's edges and the room kept round the outlined shape, px. */
const PANEL_MARGIN_PX = 8;

/** The panel's box in `corner` of a map of `area` size. */
export function cornerBox(corner: PanelCorner, area: { width: number; height: number }, panel: { width: number; height: number }): ScreenBox {
  const m = PANEL_MARGIN_PX;
  const x = corner.endsWith('left') ? m : area.width - m - panel.width;
  const y = corner.startsWith('top') ? m : area.height - m - panel.height;
  return { x, y, width: panel.width, height: panel.height };
}

const overlaps = (a: ScreenBox, b: ScreenBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The first corner (top left, top right, bottom right, bottom left) where the panel leaves the
 * outlined shape's box and a margin round it clear (issue 46: the panel sat top left over whatever
 * was there); null when every corner touches it — the map then moves the shape clear (clearPadding).
 */
export function freeCorner(area: { width: number; height: number }, panel: { width: number; height: number }, shape: ScreenBox | null): PanelCorner | null {
  if (!shape) return 'top-left';
  const m = PANEL_MARGIN_PX;
  const kept = { x: shape.x - m, y: shape.y - m, width: shape.width + 2 * m, height: shape.height + 2 * m };
  return CORNERS.find((corner) => !overlaps(cornerBox(corner, area, panel), kept)) ?? null;
}

/**
 * When no corner is free: the two paddings that fit the shape beside the panel in the top left
 * corner — below it or right of it; the screen shows the shape with the one that leaves it larger.
 */
export function clearPaddings(area: { width: number; height: number }, panel: { width: number; height: number }): maplibregl.PaddingOptions[] {
  const m = PANEL_MARGIN_PX * 2;
  return [
    { top: panel.height + PANEL_MARGIN_PX + m, right: m, bottom: m, left: m },
    { top: m, right: m, bottom: m, left: panel.width + PANEL_MARGIN_PX + m },
  ].filter((p) => area.width - p.left - p.right >= 40 && area.height - p.top - p.bottom >= 40);
}

/** Where a geometry lies on the map's screen (its coordinates projected; a point as the outline's 24 px ring). */
export function shapeScreenBox(map: maplibregl.Map, geometry: MapFeature['geometry']): ScreenBox {
  const points: number[][] = [];
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') points.push(c as number[]);
    else if (Array.isArray(c)) c.forEach(visit);
  };
  visit(geometry.coordinates);
  const xy = points.map((p) => map.project([p[0], p[1]]));
  // The outline's width (4 px line) and a point's ring (10 px radius, 3 px stroke) round the coordinates.
  const pad = geometry.type === 'Point' ? 13 : 3;
  const xs = xy.map((p) => p.x);
  const ys = xy.map((p) => p.y);
  const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
  return { x: x0, y: y0, width: Math.max(...xs) + pad - x0, height: Math.max(...ys) + pad - y0 };
}
