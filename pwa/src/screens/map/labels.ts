import type { Feature, FeatureCollection, Point } from 'geojson';
import type * as maplibregl from 'maplibre-gl';
import type { MapFeature } from '../../api/types';

/**
 * Names on the map: every drawn or generated feature with a `name` gets a label, at the point the
 * CAD export puts it (docs/map.md «Названия»): a road at the middle of its longest segment, an
 * area, block or zone at the centre of its outline, a point on itself. The letters are drawn by
 * maplibre from the page's own Montserrat (the style has no glyphs URL), so nothing is fetched for
 * them and they show offline.
 */
export const NAMES_SOURCE = 'norma-names';
export const NAMES_LAYER = 'norma-names';

/** The longest name the property form accepts (the CAD export draws up to 250 characters). */
export const NAME_MAX = 200;

type XY = [number, number];

/** The area-weighted centre of a ring (its first point when it has no area). */
function ringCentre(ring: XY[]): XY {
  let [area, x, y] = [0, 0, 0];
  for (let i = 0; i + 1 < ring.length; i++) {
    const cross = ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
    area += cross;
    x += (ring[i][0] + ring[i + 1][0]) * cross;
    y += (ring[i][1] + ring[i + 1][1]) * cross;
  }
  return Math.abs(area) < 1e-18 ? ring[0] : [x / (3 * area), y / (3 * area)];
}

/** The middle of a line's longest segment. */
function lineMiddle(line: XY[]): XY {
  let [best, at]: [number, XY] = [-1, line[0]];
  for (let i = 0; i + 1 < line.length; i++) {
    const length = Math.hypot(line[i + 1][0] - line[i][0], line[i + 1][1] - line[i][1]);
    if (length > best) [best, at] = [length, [(line[i][0] + line[i + 1][0]) / 2, (line[i][1] + line[i + 1][1]) / 2]];
  }
  return at;
}

/** Where a feature's name goes; null for a geometry with no place for it. */
export function labelPoint(geometry: MapFeature['geometry']): XY | null {
  const c = geometry.coordinates as unknown;
  switch (geometry.type) {
    case 'Point':
      return c as XY;
    case 'LineString':
      return lineMiddle(c as XY[]);
    case 'MultiLineString':
      return lineMiddle((c as XY[][])[0]);
    case 'Polygon':
      return ringCentre((c as XY[][])[0]);
    case 'MultiPolygon':
      return ringCentre((c as XY[][][])[0][0]);
    default:
      return null;
  }
}

/** The label points of the named features. */
export function nameLabels(features: MapFeature[]): FeatureCollection<Point, { name: string }> {
  const labels: Array<Feature<Point, { name: string }>> = [];
  for (const f of features) {
    const name = typeof f.properties.name === 'string' ? f.properties.name.trim() : '';
    const at = name ? labelPoint(f.geometry) : null;
    if (at) labels.push({ type: 'Feature', geometry: { type: 'Point', coordinates: at }, properties: { name } });
  }
  return { type: 'FeatureCollection', features: labels };
}

/** The names layer, above everything the map draws so far (the drawing's own layers come later and stay above it). */
export function addNamesLayer(map: maplibregl.Map) {
  map.addSource(NAMES_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  map.addLayer({
    id: NAMES_LAYER,
    type: 'symbol',
    source: NAMES_SOURCE,
    layout: {
      'text-field': ['get', 'name'],
      'text-font': ['Montserrat'],
      'text-size': 13,
      'text-max-width': 12,
      'text-padding': 2,
      'text-allow-overlap': false,
    },
    paint: { 'text-color': '#1f2a56', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
  });
  map.on('idle', () => describeNames(map));
}

/**
 * The names maplibre placed on screen (a symbol layer's rendered features are the placed ones), on
 * the map's element as `data-names`: labels are pixels, and so a test or a support person can read
 * which names the map shows.
 */
function describeNames(map: maplibregl.Map) {
  const placed = map.getLayer(NAMES_LAYER) ? map.queryRenderedFeatures({ layers: [NAMES_LAYER] }).map((f) => String(f.properties.name)) : [];
  const names = JSON.stringify([...new Set(placed)].sort());
  const element = map.getContainer();
  if (element.dataset.names !== names) element.dataset.names = names;
}

export function showNames(map: maplibregl.Map, features: MapFeature[]) {
  map.getSource<maplibregl.GeoJSONSource>(NAMES_SOURCE)?.setData(nameLabels(features));
}

/** A name as the form sends it: spaces (no-break ones too) collapsed, ends trimmed. */
export const normaliseName = (name: string) => name.replace(/\s+/gu, ' ').trim();
