import { VectorTile } from '@mapbox/vector-tile';
import { booleanPointInPolygon, lineString, point, pointToLineDistance } from '@turf/turf';
import { PbfReader } from 'pbf';
import { PMTiles } from 'pmtiles';
import { beforeAll, describe, expect, it } from 'vitest';
import { WATER_MISSING } from '../../../tests/support/gshhg';
import { buildBasemap, INITIAL_VIEW } from './basemap-build';
import { chainRing, lakeMinZoom, readWater, waterSource, type Water } from './water';

/** chainRing on pieces written as [lon, lat] pairs, its ring as pairs again (it works on flat arrays). */
function chain(pieces: Array<Array<[number, number]>>): Array<[number, number]> | null {
  const ring = chainRing(pieces.map((piece) => Float64Array.from(piece.flat())));
  return ring && Array.from({ length: ring.length / 2 }, (_, i): [number, number] => [ring[2 * i]!, ring[2 * i + 1]!]);
}

describe('lake outlines cut at bin edges', () => {
  it('chains the pieces of a polygon back into one closed ring, whatever their order; pieces that do not close give null', () => {
    // A square cut by the lines x = 1 and y = 1 into four pieces, as four bins would store it.
    const pieces: Array<Array<[number, number]>> = [
      [
        [1, 0],
        [2, 0],
        [2, 1],
      ],
      [
        [0, 1],
        [0, 0],
        [1, 0],
      ],
      [
        [2, 1],
        [2, 2],
        [1, 2],
      ],
      [
        [1, 2],
        [0, 2],
        [0, 1],
      ],
    ];
    const ring = chain(pieces)!;
    expect(ring).toHaveLength(9);
    expect(ring[0]).toEqual(ring.at(-1));
    expect(booleanPointInPolygon(point([1.5, 0.5]), { type: 'Polygon', coordinates: [ring] })).toBe(true);
    expect(chain(pieces.slice(0, 3))).toBeNull();
  });

  it('takes a loop piece (a coast touching a bin edge leaves and re-enters at one point) into the ring, wherever it lies', () => {
    const square: Array<Array<[number, number]>> = [
      [
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
        [1, 0],
      ],
    ];
    const loop: Array<[number, number]> = [
      [1, 0],
      [1.001, 0.5],
      [1, 0],
    ];
    // The loop where the ring starts, and where it passes on (its point starts two pieces).
    expect(chain([...square, loop])).toHaveLength(7);
    expect(chain([loop, ...square])).toHaveLength(7);
    const halves: Array<Array<[number, number]>> = [
      [
        [0, 0],
        [1, 0],
      ],
      loop,
      [
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ],
    ];
    expect(chain(halves)).toHaveLength(7);
  });

  it('a lake shows from a zoom that grows with its smallness', () => {
    expect([20_000, 17_700, 5_000, 300, 1].map(lakeMinZoom)).toEqual([0, 1, 1, 4, 6]);
  });
});

/** The archive's tile z/x/y decoded (the pmtiles reader ungzips it), or null where there is none. */
async function tileOf(bytes: Uint8Array, z: number, x: number, y: number): Promise<VectorTile | null> {
  const archive = new PMTiles({ getKey: () => 'w', getBytes: async (o: number, l: number) => ({ data: bytes.slice(o, o + l).buffer as ArrayBuffer }) });
  const tile = await archive.getZxy(z, x, y);
  return tile ? new VectorTile(new PbfReader(new Uint8Array(tile.data))) : null;
}

const SPB = point([30.31, 59.94]);
/** In the Neva Bay, west of the city: sea. */
const NEVA_BAY = point([30.2, 59.92]);
const LADOGA = point([31.5, 61.0]);
/** Valaam, an island in Ladoga: a hole of the lake. */
const VALAAM = point([30.95, 61.38]);
/** Vsevolozhsk, on land between Saint Petersburg and Ladoga. */
const ON_LAND = point([30.64, 60.02]);

describe.skipIf(WATER_MISSING)("with Debian's GSHHG files (gmt-gshhg-high)", () => {
  let water: Water;
  beforeAll(async () => {
    water = await readWater(waterSource()!);
  });

  it('the Neva runs from Lake Ladoga through Saint Petersburg as a major river', () => {
    const near = water.rivers.features.filter((f) => pointToLineDistance(SPB, lineString(f.geometry.coordinates), { units: 'kilometers' }) < 2);
    expect(near.length).toBeGreaterThan(0);
    const neva = near.find((f) => f.properties.level === 1 && f.geometry.coordinates.some(([lon]) => lon! > 30.95));
    expect(neva).toBeDefined();
    // No intermittent rivers or canals: only the kept classes.
    expect(new Set(water.rivers.features.map((f) => f.properties.level))).toEqual(new Set([0, 1, 2, 3]));
  });

  it('Lake Ladoga is one closed lake polygon, its islands holes; the land beside it is not water', () => {
    const ladoga = water.lakes.features.filter((f) => booleanPointInPolygon(LADOGA, f));
    expect(ladoga).toHaveLength(1);
    const [lake] = ladoga;
    expect(lake!.properties).toEqual({ kind: 'lake', minzoom: 1 });
    const outer = lake!.geometry.coordinates[0]!;
    expect(outer[0]).toEqual(outer.at(-1));
    expect(lake!.geometry.coordinates.length).toBeGreaterThan(1);
    expect(booleanPointInPolygon(VALAAM, lake!)).toBe(false);
    expect(water.lakes.features.filter((f) => booleanPointInPolygon(ON_LAND, f) || booleanPointInPolygon(SPB, f))).toEqual([]);
  });

  it('every land polygon closes; the start view is land, the Neva Bay and the Gulf of Finland sea, Kotlin island land', () => {
    expect(water.land.features.length).toBeGreaterThan(140_000);
    for (const { geometry } of water.land.features) expect(geometry.coordinates[0]![0]).toEqual(geometry.coordinates[0]!.at(-1));
    const onLand = (p: ReturnType<typeof point>) => water.land.features.some((f) => booleanPointInPolygon(p, f));
    expect(onLand(point([INITIAL_VIEW.lon, INITIAL_VIEW.lat]))).toBe(true);
    expect(onLand(NEVA_BAY)).toBe(false);
    expect(onLand(point([29.0, 60.0]))).toBe(false);
    expect(onLand(point([29.77, 60.0]))).toBe(true);
  });

  it('the archive has land, lakes and rivers in the tile of Saint Petersburg at zoom 6, and credits GSHHG', async () => {
    const bytes = buildBasemap(6, null, water);
    const tile = (await tileOf(bytes, 6, 37, 18))!;
    expect(Object.keys(tile.layers).sort()).toEqual(['borders', 'lakes', 'land', 'rivers']);
    // GSHHS land: the Neva Bay stays sea (Natural Earth's 1:50m coast drew it as land), the start view is land.
    const land = tile.layers.land!;
    const polygons = Array.from({ length: land.length }, (_, i) => land.feature(i).toGeoJSON(37, 18, 6));
    expect(polygons.some((f) => booleanPointInPolygon(NEVA_BAY, f as GeoJSON.Feature<GeoJSON.Polygon>))).toBe(false);
    expect(polygons.some((f) => booleanPointInPolygon(point([INITIAL_VIEW.lon, INITIAL_VIEW.lat]), f as GeoJSON.Feature<GeoJSON.Polygon>))).toBe(true);
    const rivers = tile.layers.rivers!;
    const levels = Array.from({ length: rivers.length }, (_, i) => rivers.feature(i).properties.level);
    expect(levels).toContain(1);
    const lakes = tile.layers.lakes!;
    expect(Array.from({ length: lakes.length }, (_, i) => lakes.feature(i).properties.kind)).toContain('lake');
    // The world tile keeps only what is large: major rivers and the largest lakes.
    const world = (await tileOf(bytes, 0, 0, 0))!;
    const worldRivers = world.layers.rivers!;
    expect(new Set(Array.from({ length: worldRivers.length }, (_, i) => worldRivers.feature(i).properties.level))).toEqual(new Set([1]));
    const archive = new PMTiles({ getKey: () => 'm', getBytes: async (o: number, l: number) => ({ data: bytes.slice(o, o + l).buffer as ArrayBuffer }) });
    expect(await archive.getMetadata()).toMatchObject({ attribution: 'Natural Earth, GSHHG (LGPL-3.0)' });
  });
});
