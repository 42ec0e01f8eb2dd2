import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { encodeLayer, everyTile, tileOptions, type RawShape } from './mvt';
import { placeNamesCatalog, placeTiles, readPlaceNames, russianPlaces } from './places';
import { writePmtiles, type PmTile } from './pmtiles';
import type { Water } from './water';

/**
 * Zooms of the default basemap. At zoom 6 a tile unit is about 76 m at Saint Petersburg's latitude
 * and geojson-vt's simplification (3 units) about 230 m — as fine as GSHHS `h` (≈200 m), the finest
 * source used (Natural Earth 1:50m is coarser); maplibre over-zooms past it (docs/map.md «Разрешение»).
 */
export const BASEMAP_MAX_ZOOM = 6;
/** The map editor opens here (spec 02 §2: a northern city at zoom 12): Saint Petersburg. */
export const INITIAL_VIEW = { lon: 30.3141, lat: 59.9386, zoom: 12 } as const;

const require = createRequire(import.meta.url);
const atlas = (name: string) => JSON.parse(readFileSync(require.resolve(`world-atlas/${name}`), 'utf8')) as Topology;

/** What the built-in basemap's data is credited to on the map (GSHHG and GeoNames only when their data is in). */
export const basemapAttribution = (withPlaces: boolean, withWater = false) =>
  ['Natural Earth', ...(withWater ? ['GSHHG (LGPL-3.0)'] : []), ...(withPlaces ? ['GeoNames (CC BY 4.0)'] : [])].join(', ');

/** Natural Earth 1:50m land, the fallback without the GSHHG files (its topology read and parsed once). */
function naturalEarthLand(): GeoJSON.FeatureCollection {
  const topology = atlas('land-50m.json');
  return feature(topology, topology.objects.land as GeometryCollection) as unknown as GeoJSON.FeatureCollection;
}

/**
 * A full garbage collection, where the runtime is Bun (the server's and the tests'). Bun collects
 * when the heap has grown to about twice what is live; between the build's stages the previous
 * stage's garbage (GeoJSON made for geojson-vt, clipped copies) is all dead, and collecting it there
 * keeps the peak near what is live: ≈800 MB → ≈530 MB for GSHHG (docs/performance.md «Подложка»).
 */
const collectGarbage = () => {
  if (typeof Bun !== 'undefined') Bun.gc(true);
};

/**
 * One layer cut into tiles of zooms 0…maxZoom, each tile with features encoded as that layer's part
 * of a vector tile (by `z/x/y`). A vector tile is its layers one after another, each with its own
 * keys and values, so parts made layer by layer and joined in layer order are byte for byte the tile
 * of all layers at once — and only one layer's geojson-vt index (≈100 MB for GSHHS land) is alive at
 * a time. `byMinZoom`: a feature shows from its `minzoom` property on.
 */
function layerTiles(name: string, data: GeoJSON.GeoJSON, maxZoom: number, byMinZoom = false): Map<string, Uint8Array> {
  collectGarbage();
  const index = new GeoJSONVT(data, tileOptions(maxZoom));
  const parts = new Map<string, Uint8Array>();
  for (const { z, x, y, key } of everyTile(maxZoom)) {
    // The tile as stored (flat arrays, nothing made per point: mvt.ts); lines and polygons only.
    const features = (index.getTileRaw(z, x, y)?.features ?? []) as RawShape[];
    const shown = byMinZoom ? features.filter((f) => (f.tags?.minzoom as number) <= z) : features;
    if (shown.length > 0) parts.set(key, encodeLayer(name, shown));
  }
  return parts;
}

/**
 * Builds the default offline basemap: country borders from Natural Earth 1:50m (`world-atlas`);
 * land, lakes and rivers from GSHHG where its files are read (water.ts), else Natural Earth land; where the
 * GeoNames catalogue of Russian names is given, towns with their Russian names (places.ts) — cut
 * into vector tiles (layers `land`, `lakes`, `rivers`, `borders`, `places`) for zooms 0–6 and
 * packed as a PMTiles v3 archive (docs/map.md «Подложка»). Deterministic for given package
 * versions, catalogue and GSHHG files. `catalog` null: no `places` layer; `water` null: no
 * `lakes` and `rivers`. Layers are cut one after another (layerTiles), so the build's peak memory
 * is that of its largest layer, not of all of them.
 */
export function buildBasemap(maxZoom = BASEMAP_MAX_ZOOM, catalog: string | null = placeNamesCatalog(), water: Water | null = null): Uint8Array {
  const world = atlas('countries-50m.json');
  const borders: GeoJSON.FeatureCollection = {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { kind: 'country' }, geometry: mesh(world, world.objects.countries as GeometryCollection, (a, b) => a !== b) }],
  };
  // In the order of layers in a tile. Land from GSHHS where its files are read (Natural Earth's 1:50m
  // coast misses the Neva Bay), else Natural Earth; a river or lake shows from its own zoom on
  // (water.ts: RIVER_MIN_ZOOM, lakeMinZoom).
  const layers = [
    layerTiles('land', water?.land ?? naturalEarthLand(), maxZoom),
    ...(water ? [layerTiles('lakes', water.lakes, maxZoom, true), layerTiles('rivers', water.rivers, maxZoom, true)] : []),
    layerTiles('borders', borders, maxZoom),
  ];
  const placesByTile = catalog ? placeTiles(russianPlaces(readPlaceNames(catalog)), maxZoom) : new Map<string, never>();
  const tiles: PmTile[] = [];
  for (const { z, x, y, key } of everyTile(maxZoom)) {
    const parts = layers.map((layer) => layer.get(key)).filter((part) => part !== undefined);
    const placeFeatures = placesByTile.get(key);
    if (placeFeatures) parts.push(encodeLayer('places', placeFeatures));
    // Open sea needs no tile: the style's background is the sea.
    if (parts.length === 0) continue;
    tiles.push({ z, x, y, data: gzipSync(Buffer.concat(parts)) });
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
      attribution: basemapAttribution(catalog !== null, water !== null),
      vector_layers: [
        { id: 'land', fields: {}, minzoom: 0, maxzoom: maxZoom },
        ...(water
          ? [
              { id: 'lakes', fields: { kind: 'String', minzoom: 'Number' }, minzoom: 0, maxzoom: maxZoom },
              { id: 'rivers', fields: { level: 'Number', minzoom: 'Number' }, minzoom: 0, maxzoom: maxZoom },
            ]
          : []),
        { id: 'borders', fields: { kind: 'String' }, minzoom: 0, maxzoom: maxZoom },
        ...(catalog ? [{ id: 'places', fields: { name: 'String', population: 'Number', rank: 'Number' }, minzoom: 0, maxzoom: maxZoom }] : []),
      ],
    },
  });
}
