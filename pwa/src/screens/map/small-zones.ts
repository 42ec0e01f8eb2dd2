import type { Feature, FeatureCollection, Point, Polygon } from 'geojson';
import type * as maplibregl from 'maplibre-gl';
import type { MapFeature } from '../../api/types';
import { labelPoint } from './labels';

/**
 * Zone circles under the smallest radius that a project saved before the rule holds (issue 46,
 * docs/map.md «Наименьшая зона»): the server keeps them while they are unchanged, and the map marks
 * them — a dashed outline in the warning colour, a short note under the zone, a tooltip on the map
 * under the pointer, and a legend line in the project info (MapInfo). A new one cannot be drawn.
 */
const SMALL_ZONES_SOURCE = 'norma-small-zones';
const SMALL_ZONES_OUTLINE = 'norma-small-zones-outline';
const SMALL_ZONES_NOTE = 'norma-small-zones-note';
/** The warning colour: the dashed outline and the legend's swatch (map.css .map-small-zone-swatch). */
export const SMALL_ZONE_COLOR = '#c2410c';

/** Whether a drawn feature is a zone circle under `min` metres. */
export const isSmallZone = (f: MapFeature, min: number) => f.properties.type === 'zone' && typeof f.properties.radius === 'number' && f.properties.radius < min;

/** What the tooltip (and `data-small-zones`) says about one such zone. */
const smallZoneTitle = (radius: number, min: number) =>
  `Зона радиусом ${Math.round(radius)} м — меньше наименьшего радиуса ${min} м (сохранена до правила): перерисуйте её`;

interface Marked {
  centre: [number, number];
  radius: number;
}

function marked(features: MapFeature[], min: number): Marked[] {
  return features.flatMap((f) => {
    const centre = isSmallZone(f, min) ? labelPoint(f.geometry) : null;
    return centre ? [{ centre, radius: f.properties.radius as number }] : [];
  });
}

/** The outline and note layers, under the drawing (its layers come later): the dash shows round the drawn circle. */
export function addSmallZoneLayers(map: maplibregl.Map) {
  map.addSource(SMALL_ZONES_SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  map.addLayer({
    id: SMALL_ZONES_OUTLINE,
    type: 'line',
    source: SMALL_ZONES_SOURCE,
    filter: ['==', ['geometry-type'], 'Polygon'],
    paint: { 'line-color': SMALL_ZONE_COLOR, 'line-width': 3, 'line-dasharray': [2, 1.5] },
  });
  map.addLayer({
    id: SMALL_ZONES_NOTE,
    type: 'symbol',
    source: SMALL_ZONES_SOURCE,
    filter: ['==', ['geometry-type'], 'Point'],
    layout: {
      'text-field': ['get', 'note'],
      'text-font': ['Montserrat'],
      'text-size': 12,
      // Below the zone's name (labels.ts puts it at the centre).
      'text-offset': [0, 1.4],
      'text-anchor': 'top',
      'text-max-width': 14,
      'text-allow-overlap': false,
    },
    paint: { 'text-color': '#9a3412', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
  });
  map.on('idle', () => describeSmallZones(map));
}

/** How many marks maplibre drew, on the map's element as `data-small-zones`: they are pixels, and a test or a support person reads it. */
function describeSmallZones(map: maplibregl.Map) {
  const drawn = map.getLayer(SMALL_ZONES_OUTLINE) ? map.queryRenderedFeatures({ layers: [SMALL_ZONES_OUTLINE] }).map((f) => String(f.properties.title)) : [];
  const value = JSON.stringify([...new Set(drawn)].sort());
  const element = map.getContainer();
  if (element.dataset.smallZones !== value) element.dataset.smallZones = value;
}

/** Metres from `a` to `b` (lon, lat), flat: a zone is tens of metres across. */
function metres(a: [number, number], b: [number, number]) {
  const perDegree = 111_320;
  return Math.hypot((a[0] - b[0]) * perDegree * Math.cos((a[1] * Math.PI) / 180), (a[1] - b[1]) * perDegree);
}

/**
 * Marks the project's small zones (its saved drawing, as the server holds it) and says what one is
 * when the pointer is over it: the map canvas's title. Returns the handler to remove at the next call.
 */
export function showSmallZones(map: maplibregl.Map, features: MapFeature[], min: number | undefined): () => void {
  const zones = min === undefined ? [] : marked(features, min);
  const data: FeatureCollection<Polygon | Point, { title: string; note?: string }> = {
    type: 'FeatureCollection',
    features: features.flatMap((f): Array<Feature<Polygon | Point, { title: string; note?: string }>> => {
      if (min === undefined || !isSmallZone(f, min) || f.geometry.type !== 'Polygon') return [];
      const title = smallZoneTitle(f.properties.radius as number, min);
      const at = labelPoint(f.geometry)!;
      return [
        { type: 'Feature', geometry: f.geometry as Polygon, properties: { title } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: at }, properties: { title, note: `< ${min} м — перерисуйте` } },
      ];
    }),
  };
  map.getSource<maplibregl.GeoJSONSource>(SMALL_ZONES_SOURCE)?.setData(data);
  const canvas = map.getCanvas();
  let titled = false;
  const onMove = (event: maplibregl.MapMouseEvent) => {
    const at: [number, number] = [event.lngLat.lng, event.lngLat.lat];
    const over = zones.find((z) => metres(at, z.centre) <= z.radius);
    if (over && min !== undefined) {
      canvas.title = smallZoneTitle(over.radius, min);
      titled = true;
    } else if (titled) {
      canvas.removeAttribute('title');
      titled = false;
    }
  };
  if (zones.length > 0) map.on('mousemove', onMove);
  return () => {
    map.off('mousemove', onMove);
    if (titled) canvas.removeAttribute('title');
  };
}
