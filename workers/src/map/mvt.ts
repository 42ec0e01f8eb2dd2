import type { RawFeature } from 'geojson-vt';
import { PbfWriter } from 'pbf';

/** Tile units per tile side: what geojson-vt cuts to and what each layer says. */
const TILE_EXTENT = 4096;

/** geojson-vt's options: every tile of zooms 0–maxZoom indexed up front, simplified by 3 tile units. */
export const tileOptions = (maxZoom: number) => ({ maxZoom, indexMaxZoom: maxZoom, indexMaxPoints: 0, tolerance: 3, extent: TILE_EXTENT, buffer: 64 });

/** Every tile of zooms 0…maxZoom, zoom by zoom, column by column, with its `z/x/y` key. */
export function* everyTile(maxZoom: number) {
  for (let z = 0; z <= maxZoom; z++) for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) yield { z, x, y, key: `${z}/${x}/${y}` };
}

/** A line or polygon feature of a geojson-vt tile as stored (getTileRaw): rings as flat x, y arrays in tile units. */
export type RawShape = Extract<RawFeature, { type: 2 | 3 }>;

/** A point feature in tile units as geojson-vt's getTile gives one: its points as [x, y] pairs (places.ts). */
export interface PointShape {
  type: 1;
  id?: number | string;
  geometry: readonly (readonly [number, number])[];
  tags: Record<string, unknown> | null;
}

type Shape = RawShape | PointShape;

/**
 * One layer of a Mapbox Vector Tile (spec 2.1) from geojson-vt's tile of lines or polygons as
 * stored, or of points, as the bytes vt-pbf's `fromGeojsonVt` writes for it: the same fields in the
 * same order (version 2, extent 4096; keys and values in the order first met; a polygon's closing
 * point not written; a point feature's points after one MoveTo). The one tile encoder of the
 * product (the basemap's layers, places included); vt-pbf is only the tests' oracle (mvt.test.ts).
 * vt-pbf takes getTile's [x, y] pairs and makes a Point of each — two objects a point, millions at
 * zoom 6 of GSHHS land, and ≈280 MB more memory that the runtime kept (docs/performance.md «Подложка»);
 * this reads the flat arrays as they are.
 */
export function encodeLayer(name: string, features: readonly Shape[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(3, writeLayer, { name, features });
  // A copy: the writer's buffer is larger than what it wrote.
  return pbf.finish().slice();
}

function writeLayer({ name, features }: { name: string; features: readonly Shape[] }, pbf: PbfWriter) {
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, name);
  pbf.writeVarintField(5, TILE_EXTENT);
  const keys = new Map<string, number>();
  // By type and value, as vt-pbf tells 1 from '1'.
  const values = new Map<string, { value: string | number | boolean; index: number }>();
  for (const feature of features) pbf.writeMessage(2, writeFeature, { feature, keys, values });
  for (const key of keys.keys()) pbf.writeStringField(3, key);
  for (const { value } of values.values()) pbf.writeMessage(4, writeValue, value);
}

interface FeatureContext {
  feature: Shape;
  keys: Map<string, number>;
  values: Map<string, { value: string | number | boolean; index: number }>;
}

function writeFeature({ feature, keys, values }: FeatureContext, pbf: PbfWriter) {
  if (typeof feature.id === 'number') pbf.writeVarintField(1, feature.id);
  pbf.writeMessage(2, writeTags, { feature, keys, values });
  pbf.writeVarintField(3, feature.type);
  pbf.writeMessage(4, writeGeometry, feature);
}

function writeTags({ feature, keys, values }: FeatureContext, pbf: PbfWriter) {
  for (const [key, raw] of Object.entries(feature.tags ?? {})) {
    // Null properties are not written (nor is their key).
    if (raw === null) continue;
    if (!keys.has(key)) keys.set(key, keys.size);
    pbf.writeVarint(keys.get(key)!);
    const value = typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' ? raw : (JSON.stringify(raw) as string);
    const valueKey = `${typeof raw}:${value}`;
    if (!values.has(valueKey)) values.set(valueKey, { value, index: values.size });
    pbf.writeVarint(values.get(valueKey)!.index);
  }
}

function writeValue(value: string | number | boolean, pbf: PbfWriter) {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (value % 1 !== 0) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
}

const command = (id: number, count: number) => (count << 3) + (id & 0x7);
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/**
 * Points: one MoveTo with every point. Lines and polygons, each ring: MoveTo its first point, LineTo
 * the rest (a polygon's closing point left out), then ClosePath for a polygon. Deltas zigzag-coded.
 */
function writeGeometry(feature: Shape, pbf: PbfWriter) {
  let x = 0;
  let y = 0;
  if (feature.type === 1) {
    pbf.writeVarint(command(1, feature.geometry.length));
    for (const [px, py] of feature.geometry) {
      pbf.writeVarint(zigzag(px - x));
      pbf.writeVarint(zigzag(py - y));
      x = px;
      y = py;
    }
    return;
  }
  for (const ring of feature.geometry) {
    pbf.writeVarint(command(1, 1));
    const count = feature.type === 3 ? ring.length / 2 - 1 : ring.length / 2;
    for (let i = 0; i < count; i++) {
      if (i === 1) pbf.writeVarint(command(2, count - 1));
      const dx = ring[2 * i]! - x;
      const dy = ring[2 * i + 1]! - y;
      pbf.writeVarint(zigzag(dx));
      pbf.writeVarint(zigzag(dy));
      x += dx;
      y += dy;
    }
    if (feature.type === 3) pbf.writeVarint(command(7, 1));
  }
}
