import type { FeatureCollection, Geometry } from 'geojson';
import type * as maplibregl from 'maplibre-gl';
import type { MapFeature, MapTypeStyle } from '../api/types';

/**
 * Read-only layers under the drawing: what the algorithms built (blocks, roads, placed zones) and
 * drawn features the drawing tools cannot hold (e.g. a multipolygon from the cadastre). Colours
 * and widths come from the type catalogue (POST /api/v1/html_menu `styles`), copied into each
 * feature's properties so the paint stays a plain `['get', …]`.
 */
export const GENERATED_SOURCE = 'norma-generated';

type Styles = Record<string, MapTypeStyle>;

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

export function addGeneratedLayers(map: maplibregl.Map) {
  map.addSource(GENERATED_SOURCE, { type: 'geojson', data: EMPTY });
  const polygon = ['==', ['geometry-type'], 'Polygon'] as maplibregl.FilterSpecification;
  map.addLayer({
    id: 'norma-generated-fill',
    type: 'fill',
    source: GENERATED_SOURCE,
    filter: polygon,
    paint: { 'fill-color': ['get', 'color'], 'fill-opacity': ['get', 'fill_opacity'] },
  });
  map.addLayer({
    id: 'norma-generated-outline',
    type: 'line',
    source: GENERATED_SOURCE,
    filter: polygon,
    paint: { 'line-color': ['get', 'color'], 'line-width': 1 },
  });
  map.addLayer({
    id: 'norma-generated-lines',
    type: 'line',
    source: GENERATED_SOURCE,
    filter: ['==', ['geometry-type'], 'LineString'] as maplibregl.FilterSpecification,
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': ['get', 'color'], 'line-width': ['get', 'width'] },
  });
  map.addLayer({
    id: 'norma-generated-points',
    type: 'circle',
    source: GENERATED_SOURCE,
    filter: ['==', ['geometry-type'], 'Point'] as maplibregl.FilterSpecification,
    paint: { 'circle-color': ['get', 'color'], 'circle-radius': 5, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1 },
  });
}

/** The colour, width and fill opacity of a feature's type (grey when the catalogue has no such type). */
export function styleOf(styles: Styles, typeId: unknown) {
  const style = styles[String(typeId)];
  return { color: style?.color ?? '#636363', width: style?.width ?? 2, fill_opacity: style?.fill_opacity ?? 0.2 };
}

export function showGenerated(map: maplibregl.Map, features: MapFeature[], styles: Styles) {
  const source = map.getSource<maplibregl.GeoJSONSource>(GENERATED_SOURCE);
  if (!source) return;
  // Blocks first: the roads between them are drawn over their fill.
  const ordered = [...features].sort((a, b) => rank(a) - rank(b));
  source.setData({
    type: 'FeatureCollection',
    features: ordered.map((f) => ({
      type: 'Feature',
      geometry: f.geometry as Geometry,
      properties: { ...f.properties, ...styleOf(styles, f.properties.type_id) },
    })),
  });
}

const rank = (f: MapFeature) => ({ block: 0, area: 1, zone: 2, road: 3, object: 4, info: 5 })[f.properties.type];
