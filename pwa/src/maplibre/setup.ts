import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { Protocol } from 'pmtiles';
import { apiUrl } from '../api/paths';

/**
 * The offline basemap's style: a `pmtiles://` source on our own origin, no glyphs or sprites
 * (docs/map.md «Подложка»); town names are drawn by maplibre from the page's Montserrat.
 */
export const STYLE_URL = apiUrl('/api/v1/map/style.json');

let ready = false;

/**
 * Once per page: maplibre's worker from our own bundle (v6 has no inline worker) and the
 * `pmtiles://` protocol, which reads the archive with HTTP Range requests on the main thread.
 */
export function setUpMaplibre() {
  if (ready) return;
  maplibregl.setWorkerUrl(workerUrl);
  maplibregl.addProtocol('pmtiles', new Protocol().tile);
  // Labels are drawn from the page's font (the style has no glyphs URL): its Cyrillic file must be
  // loaded before maplibre rasterises the first letter, or that letter stays in a fallback font.
  void document.fonts.load('400 16px Montserrat', 'Санкт-Петербург').catch(() => undefined);
  ready = true;
}

/** The base layer of town names in the built-in style (an operator's style may have none). */
const PLACES_LAYER = 'places';

/**
 * Says which town names the map shows, in the canvas's accessible name («Карта: Санкт-Петербург»):
 * labels are pixels, so a screen reader would otherwise not know where the map is. Only labels
 * actually placed on screen count (a symbol layer's rendered features are the placed ones).
 */
function describePlaces(map: maplibregl.Map) {
  const names = map.getLayer(PLACES_LAYER) ? map.queryRenderedFeatures({ layers: [PLACES_LAYER] }).map((f) => String(f.properties.name)) : [];
  const shown = [...new Set(names)].slice(0, 10);
  const label = shown.length > 0 ? `Карта: ${shown.join(', ')}` : 'Карта';
  const canvas = map.getCanvas();
  if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
}

/** A map on the basemap; the style sets the initial view (St Petersburg, zoom 12). */
export function createBasemap(container: HTMLElement): maplibregl.Map {
  setUpMaplibre();
  const map = new maplibregl.Map({
    container,
    style: new URL(STYLE_URL, window.location.origin).href,
    attributionControl: { compact: true },
    // The controls' own words in Russian (the rest of the interface is).
    locale: { 'Map.Title': 'Карта', 'Popup.Close': 'Закрыть', 'AttributionControl.ToggleAttribution': 'Источники данных', 'Marker.Title': 'Метка на карте' },
  });
  map.on('idle', () => describePlaces(map));
  return map;
}
