import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { Protocol } from 'pmtiles';
import { apiUrl } from '../api/paths';

/** The offline basemap's style: a `pmtiles://` source on our own origin, no glyphs or sprites (docs/map.md «Подложка»). */
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
  ready = true;
}

/** A map on the basemap; the style sets the initial view (St Petersburg, zoom 12). */
export function createBasemap(container: HTMLElement): maplibregl.Map {
  setUpMaplibre();
  return new maplibregl.Map({
    container,
    style: new URL(STYLE_URL, window.location.origin).href,
    attributionControl: { compact: true },
    // The controls' own words in Russian (the rest of the interface is).
    locale: { 'Popup.Close': 'Закрыть', 'AttributionControl.ToggleAttribution': 'Источники данных', 'Marker.Title': 'Метка на карте' },
  });
}
