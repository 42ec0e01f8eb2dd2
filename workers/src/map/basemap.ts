import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { fromGeojsonVt } from 'vt-pbf';
import { placeNamesCatalog, placeTiles, readPlaceNames, russianPlaces } from './places';
import { writePmtiles, type PmTile } from './pmtiles';

/** Zooms of the default basemap: Natural Earth 1:50m is no finer; maplibre over-zooms past it. */
export const BASEMAP_MAX_ZOOM = 6;
/** The map editor opens here (spec 02 §2: a northern city at zoom 12): Saint Petersburg. */
export const INITIAL_VIEW = { lon: 30.3141, lat: 59.9386, zoom: 12 } as const;

const require = createRequire(import.meta.url);
const atlas = (name: string) => JSON.parse(readFileSync(require.resolve(`world-atlas/${name}`), 'utf8')) as Topology;

/** What the built-in basemap's data is credited to on the map (GeoNames only when its names are in). */
export const basemapAttribution = (withPlaces: boolean) => (withPlaces ? 'Natural Earth, GeoNames (CC BY 4.0)' : 'Natural Earth');

/**
 * Builds the default offline basemap: Natural Earth 1:50m land and country borders from the
 * `world-atlas` package and, where the GeoNames catalogue of Russian names is given, towns with
 * their Russian names (places.ts), cut into vector tiles (layers `land`, `borders`, `places`) for
 * zooms 0–6 and packed as a PMTiles v3 archive (docs/map.md «Подложка»). Deterministic for given
 * package versions and catalogue. `catalog` null: no `places` layer.
 */
export function buildBasemap(maxZoom = BASEMAP_MAX_ZOOM, catalog: string | null = placeNamesCatalog()): Uint8Array {
  const world = atlas('countries-50m.json');
  const land = feature(atlas('land-50m.json'), atlas('land-50m.json').objects.land as GeometryCollection) as unknown as GeoJSON.FeatureCollection;
  const borders: GeoJSON.FeatureCollection = {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { kind: 'country' }, geometry: mesh(world, world.objects.countries as GeometryCollection, (a, b) => a !== b) }],
  };
  const options = { maxZoom, indexMaxZoom: maxZoom, indexMaxPoints: 0, tolerance: 3, extent: 4096, buffer: 64 };
  const landIndex = new GeoJSONVT(land, options);
  const borderIndex = new GeoJSONVT(borders, options);
  const placesByTile = catalog ? placeTiles(russianPlaces(readPlaceNames(catalog)), maxZoom) : new Map<string, never>();
  const tiles: PmTile[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    const n = 2 ** z;
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++) {
        // geojson-vt answers null or an empty tile where no feature reaches.
        const nonEmpty = <T extends { features: unknown[] } | null>(tile: T) => (tile && tile.features.length > 0 ? tile : null);
        const landTile = nonEmpty(landIndex.getTile(z, x, y));
        const borderTile = nonEmpty(borderIndex.getTile(z, x, y));
        const placeFeatures = placesByTile.get(`${z}/${x}/${y}`);
        // Open sea needs no tile: the style's background is the sea.
        if (!landTile && !borderTile && !placeFeatures) continue;
        const layers: Record<string, unknown> = {};
        if (landTile) layers.land = landTile;
        if (borderTile) layers.borders = borderTile;
        if (placeFeatures) layers.places = { features: placeFeatures };
        tiles.push({ z, x, y, data: gzipSync(fromGeojsonVt(layers, { version: 2 })) });
      }
  }
  return writePmtiles(tiles, {
    minZoom: 0,
    maxZoom,
    bounds: [-180, -85.05, 180, 85.05],
    center: [INITIAL_VIEW.lon, INITIAL_VIEW.lat, Math.min(maxZoom, INITIAL_VIEW.zoom)],
    tileCompression: 2,
    tileType: 1,
    metadata: {
      name: 'Norma basemap',
      attribution: basemapAttribution(catalog !== null),
      vector_layers: [
        { id: 'land', fields: {}, minzoom: 0, maxzoom: maxZoom },
        { id: 'borders', fields: { kind: 'String' }, minzoom: 0, maxzoom: maxZoom },
        ...(catalog ? [{ id: 'places', fields: { name: 'String', population: 'Number', rank: 'Number' }, minzoom: 0, maxzoom: maxZoom }] : []),
      ],
    },
  });
}
