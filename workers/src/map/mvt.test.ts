import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import GeoJSONVT from 'geojson-vt';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { fromGeojsonVt } from 'vt-pbf';
import { describe, expect, it } from 'vitest';
import { encodeLayer, everyTile, tileOptions, type RawShape } from './mvt';
import { placeTiles, type Place } from './places';

/*
 * vt-pbf is this test's oracle only (a dev dependency): the product writes every layer with mvt.ts.
 */

/** Zooms 0–4 with the basemap's own options: every tile compared in seconds. */
const MAX_ZOOM = 4;

/** Every tile of zooms 0–4 with features: encodeLayer from the tile as stored against vt-pbf from getTile; the number compared. */
function compareAll(name: string, data: GeoJSON.GeoJSON): number {
  const index = new GeoJSONVT(data, tileOptions(MAX_ZOOM));
  let compared = 0;
  for (const { z, x, y, key } of everyTile(MAX_ZOOM)) {
    const tile = index.getTile(z, x, y);
    if (!tile || tile.features.length === 0) continue;
    const ours = encodeLayer(name, index.getTileRaw(z, x, y)!.features as RawShape[]);
    expect(Buffer.from(ours).equals(Buffer.from(fromGeojsonVt({ [name]: tile }, { version: 2 }))), `${name} ${key}`).toBe(true);
    compared++;
  }
  return compared;
}

describe('vector tile layers from geojson-vt tiles as stored (the basemap writes them so, docs/performance.md «Подложка»)', () => {
  it('are byte for byte what vt-pbf writes: polygons with holes, lines, ids and every kind of property', () => {
    const square = (x0: number, y0: number, side: number) => [
      [x0, y0],
      [x0 + side, y0],
      [x0 + side, y0 + side],
      [x0, y0 + side],
      [x0, y0],
    ];
    const features: GeoJSON.Feature[] = [
      {
        type: 'Feature',
        properties: { kind: 'lake', minzoom: 3 },
        geometry: { type: 'Polygon', coordinates: [square(-40, -20, 60), square(-10, 0, 10).reverse()] },
      },
      {
        type: 'Feature',
        id: 7,
        properties: { level: 1, depth: -5, ratio: 0.25, permanent: true, none: null, names: { ru: 'Нева' }, code: '1' },
        geometry: {
          type: 'LineString',
          coordinates: [
            [-170, -60],
            [0, 10],
            [30.3, 59.9],
            [170, 70],
          ],
        },
      },
      {
        type: 'Feature',
        properties: { level: 1, code: 1, kind: 'lake' },
        geometry: {
          type: 'LineString',
          coordinates: [
            [20, -30],
            [25, 40],
            [-60, 45],
          ],
        },
      },
    ];
    expect(compareAll('water', { type: 'FeatureCollection', features })).toBeGreaterThan(20);
  });

  it('are byte for byte what vt-pbf writes for Natural Earth land (thousands of rings, the antimeridian crossed)', () => {
    const require = createRequire(import.meta.url);
    const topology = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8')) as Topology;
    const land = feature(topology, topology.objects.land as GeometryCollection) as unknown as GeoJSON.FeatureCollection;
    expect(compareAll('land', land)).toBeGreaterThan(100);
  });

  it('are byte for byte what vt-pbf writes for the places layer (points with a name and a rank)', () => {
    const places: Place[] = Array.from({ length: 300 }, (_, i) => ({
      id: i + 1,
      name: i % 3 === 0 ? `Город ${i}` : `Посёлок «${i}»`,
      population: 1_000_000 - i * 3000,
      rank: ((i % 4) + 1) as Place['rank'],
      lon: -179 + ((i * 37.3) % 358),
      lat: -80 + ((i * 17.9) % 160),
    }));
    let compared = 0;
    for (const [key, features] of placeTiles(places, MAX_ZOOM)) {
      const ours = encodeLayer('places', features);
      expect(Buffer.from(ours).equals(Buffer.from(fromGeojsonVt({ places: { features } }, { version: 2 }))), `places ${key}`).toBe(true);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });
});
