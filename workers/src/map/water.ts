import { existsSync } from 'node:fs';
import { join } from 'node:path';
import h5wasm, { Dataset, type File as H5File } from 'h5wasm/node';

/**
 * Rivers and lakes of the basemap (layers `rivers` and `lakes`, docs/map.md «Подложка») from GSHHG
 * (Wessel & Smith, LGPL-3+) as Debian's `gmt-gshhg-high` installs it: the shorelines (GSHHS) and
 * the rivers (WDBII) in GMT's binned netCDF-4 files, read with `h5wasm`. No files — no water
 * layers (the basemap is built without them and says so).
 */
export const GSHHG_DIR = '/usr/share/gmt-gshhg';
/** The resolution letter of the files used: `h` (high), chosen by build time and size (docs/map.md). */
export const GSHHG_RESOLUTION = 'h';
/** The Debian package that installs the files of `GSHHG_RESOLUTION`. */
export const GSHHG_PACKAGE = 'gmt-gshhg-high';

const shorelineFile = (dir: string) => join(dir, `binned_GSHHS_${GSHHG_RESOLUTION}.nc`);
const riverFile = (dir: string) => join(dir, `binned_river_${GSHHG_RESOLUTION}.nc`);

/** The GSHHG folder if both files are there, else null (the package is not installed). */
export function waterSource(dir = GSHHG_DIR): string | null {
  return existsSync(shorelineFile(dir)) && existsSync(riverFile(dir)) ? dir : null;
}

/**
 * WDBII river classes kept, with the zoom each first shows at (fewer small rivers on the world's
 * tiles): 0 double-lined rivers (the banks of wide rivers), 1 permanent major rivers, 2 additional
 * major, 3 additional. Minor rivers (4) are left out — about 30 % of the points of the zoom-6
 * tiles for streams no wider than a pixel there —, and so are intermittent rivers (5–7) and
 * canals (8–10): dry most of the year or man-made, they would read as permanent water.
 */
export const RIVER_MIN_ZOOM: Readonly<Record<number, number>> = { 0: 3, 1: 0, 2: 3, 3: 6 };

/**
 * The zoom a lake first shows at, by its area: 0 from 20 000 km² on, and one zoom later for each
 * quarter of that (a lake appears at about the same size on screen), 6 at most.
 */
export const lakeMinZoom = (km2: number) => Math.max(0, Math.min(6, Math.ceil(Math.log(20_000 / Math.abs(km2)) / Math.log(4))));

export interface Water {
  /** Land (GSHHS level 1) as closed rings, without lakes (they are their own layer). */
  land: GeoJSON.FeatureCollection<GeoJSON.Polygon, Record<string, never>>;
  /** River lines; properties `level` (WDBII class) and `minzoom`. */
  rivers: GeoJSON.FeatureCollection<GeoJSON.LineString, { level: number; minzoom: number }>;
  /** Lakes and river-lakes with their islands as holes; properties `kind` (`lake` or `river`) and `minzoom`. */
  lakes: GeoJSON.FeatureCollection<GeoJSON.Polygon, { kind: 'lake' | 'river'; minzoom: number }>;
}

/** A line or ring as flat pairs: lon₀, lat₀, lon₁, lat₁, … */
type Flat = Float64Array;

/** A flat line or ring as GeoJSON positions. */
function pairsOf(flat: Flat): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
  return pairs;
}

/**
 * A GeoJSON feature whose coordinates are kept flat and made into GeoJSON's [lon, lat] pairs anew
 * each time `geometry` is read (geojson-vt reads it once). GSHHS `h` has 2.3 million points: kept as
 * pairs (an array per point), they left the process at ≈620 MB after reading, flat at ≈330 MB
 * (docs/performance.md «Подложка»).
 */
class FlatPolygon<P> implements GeoJSON.Feature<GeoJSON.Polygon, P> {
  readonly type = 'Feature';
  /** `rings`: the outer ring first, then the holes. */
  constructor(
    readonly properties: P,
    private readonly rings: Flat[],
  ) {}

  get geometry(): GeoJSON.Polygon {
    return { type: 'Polygon', coordinates: this.rings.map(pairsOf) };
  }
}

/** A line kept flat, as FlatPolygon. */
class FlatLine<P> implements GeoJSON.Feature<GeoJSON.LineString, P> {
  readonly type = 'Feature';
  constructor(
    readonly properties: P,
    private readonly line: Flat,
  ) {}

  get geometry(): GeoJSON.LineString {
    return { type: 'LineString', coordinates: pairsOf(this.line) };
  }
}

/** What the binned files share: bins of `size` degrees, `nx` a row, numbered row by row from the north. */
interface Bins {
  size: number;
  nx: number;
  firstSegment: Int32Array;
  segments: Int16Array;
  dx: Int16Array;
  dy: Int16Array;
}

function dataset(file: H5File, name: string) {
  const entity = file.get(name);
  if (!(entity instanceof Dataset)) throw new Error(`GSHHG: в файле ${file.filename} нет переменной ${name}`);
  return entity.value as Int32Array | Int16Array | Int8Array | Float64Array;
}

function readBins(file: H5File): Bins {
  return {
    size: (dataset(file, 'Bin_size_in_minutes')[0] as number) / 60,
    nx: dataset(file, 'N_bins_in_360_longitude_range')[0] as number,
    firstSegment: dataset(file, 'Id_of_first_segment_in_a_bin') as Int32Array,
    segments: dataset(file, 'N_segments_in_a_bin') as Int16Array,
    dx: dataset(file, 'Relative_longitude_from_SW_corner_of_bin') as Int16Array,
    dy: dataset(file, 'Relative_latitude_from_SW_corner_of_bin') as Int16Array,
  };
}

/**
 * Calls `visit` for every segment of every bin with its bin's south-west corner. A point is stored
 * as two 16-bit fractions (read unsigned, 0…65535) of the bin's side from that corner.
 */
function eachSegment(bins: Bins, visit: (segment: number, west: number, south: number) => void): void {
  for (let bin = 0; bin < bins.firstSegment.length; bin++) {
    const west = (bin % bins.nx) * bins.size;
    const south = 90 - (Math.floor(bin / bins.nx) + 1) * bins.size;
    const first = bins.firstSegment[bin]!;
    for (let s = first; s < first + bins.segments[bin]!; s++) visit(s, west, south);
  }
}

/** Points first … first+count−1 of a bin in degrees, flat; longitudes 0…360 as stored. */
function pointsOf(bins: Bins, first: number, count: number, west: number, south: number): Flat {
  const scale = bins.size / 65535;
  const points = new Float64Array(count * 2);
  for (let i = 0; i < count; i++) {
    points[i * 2] = west + (bins.dx[first + i]! & 0xffff) * scale;
    points[i * 2 + 1] = south + (bins.dy[first + i]! & 0xffff) * scale;
  }
  return points;
}

/** Longitudes east of 180° written as west ones, in place (a bin's points never straddle 180°). */
function toWest(points: Flat): Flat {
  let east = false;
  for (let i = 0; i < points.length; i += 2) east ||= points[i]! > 180;
  if (east) for (let i = 0; i < points.length; i += 2) points[i] = points[i]! - 360;
  return points;
}

/** WDBII rivers of the kept classes, one line per bin segment. */
function readRivers(file: H5File): Water['rivers'] {
  const bins = readBins(file);
  const count = dataset(file, 'N_points_for_a_segment') as Int16Array;
  const level = dataset(file, 'Hierarchial_level_of_a_segment') as Int16Array;
  const start = dataset(file, 'Id_of_first_point_in_a_segment') as Int32Array;
  const features: Water['rivers']['features'] = [];
  eachSegment(bins, (s, west, south) => {
    const minzoom = RIVER_MIN_ZOOM[level[s]!];
    if (minzoom === undefined || count[s]! < 2) return;
    features.push(new FlatLine({ level: level[s]!, minzoom }, toWest(pointsOf(bins, start[s]!, count[s]!, west, south))));
  });
  return { type: 'FeatureCollection', features };
}

/** A place on the globe as a map key: micro-degrees, longitude taken modulo 360°. */
const keyOf = (lon: number, lat: number) => `${((Math.round(lon * 1e6) % 360e6) + 360e6) % 360e6},${Math.round(lat * 1e6)}`;
const startKey = (piece: Flat) => keyOf(piece[0]!, piece[1]!);
const endKey = (piece: Flat) => keyOf(piece[piece.length - 2]!, piece[piece.length - 1]!);

/**
 * One polygon's ring from its pieces (flat, as pointsOf gives them): a polygon is stored cut at the
 * bin edges, one piece per bin it crosses, and a piece ends where the next one (in the neighbouring
 * bin) starts. Pieces are chained by those shared end points until the ring returns to its start.
 * Null when the pieces do not close.
 */
export function chainRing(pieces: Flat[]): Flat | null {
  const byStart = new Map<string, number[]>();
  pieces.forEach((piece, i) => {
    const key = startKey(piece);
    byStart.set(key, [...(byStart.get(key) ?? []), i]);
  });
  const used = new Set<number>([0]);
  const order = [0];
  let points = pieces[0]!.length / 2;
  const home = startKey(pieces[0]!);
  let end = endKey(pieces[0]!);
  for (;;) {
    const free = (byStart.get(end) ?? []).filter((i) => !used.has(i));
    // Back home with no piece left there: closed. A coast that just touches a bin edge is stored as a
    // piece leaving and re-entering at one point (a loop, seen at `h` on North America's coast), and
    // one point of an edge may start two pieces: a loop is taken first, so none is left behind.
    if (end === home && points > 3 && free.length === 0) break;
    const next = free.find((i) => endKey(pieces[i]!) === end) ?? free[0];
    if (next === undefined) return null;
    used.add(next);
    order.push(next);
    // A piece's first point is the previous one's last: it is not repeated.
    points += pieces[next]!.length / 2 - 1;
    end = endKey(pieces[next]!);
  }
  if (used.size !== pieces.length) return null;
  const ring = new Float64Array(points * 2);
  let at = 0;
  for (const [k, i] of order.entries()) {
    const piece = k === 0 ? pieces[i]! : pieces[i]!.subarray(2);
    ring.set(piece, at);
    at += piece.length;
  }
  // Keep longitudes continuous across 180° (geojson-vt wraps what lies beyond); start west of it.
  const shift = ring[0]! > 180 ? -360 : 0;
  let previous = ring[0]! + shift;
  for (let i = 0; i < ring.length; i += 2) {
    let x = ring[i]! + shift;
    while (x - previous > 180) x -= 360;
    while (previous - x > 180) x += 360;
    previous = x;
    ring[i] = x;
  }
  return ring;
}

/** Closed GSHHS polygons of levels 1–4 (land, lake, island in a lake, pond on it) by GSHHS id, Antarctic grounding-line ones left out. */
function readShoreRings(file: H5File): Map<number, { level: number; ring: Flat }> {
  const bins = readBins(file);
  const info = dataset(file, 'Embedded_npts_levels_exit_entry_for_a_segment') as Int32Array;
  const start = dataset(file, 'Id_of_first_point_in_a_segment') as Int32Array;
  const polygonOf = dataset(file, 'Id_of_GSHHS_ID') as Int32Array;
  const antarctic = dataset(file, 'Embedded_ANT_flag') as Int8Array;
  const pieces = new Map<number, { level: number; pieces: Flat[] }>();
  eachSegment(bins, (s, west, south) => {
    // Bits: 0–2 exit side, 3–5 entry side, 6–8 level, 9… number of points.
    const level = (info[s]! >> 6) & 7;
    if (level < 1 || level > 4 || antarctic[s]) return;
    const polygon = polygonOf[s]!;
    const entry = pieces.get(polygon) ?? { level, pieces: [] };
    entry.pieces.push(pointsOf(bins, start[s]!, info[s]! >>> 9, west, south));
    pieces.set(polygon, entry);
  });
  const rings = new Map<number, { level: number; ring: Flat }>();
  for (const [polygon, { level, pieces: parts }] of [...pieces].sort((a, b) => a[0] - b[0])) {
    const ring = chainRing(parts);
    if (ring) rings.set(polygon, { level, ring });
  }
  return rings;
}

/**
 * GSHHS land (level 1: continents and sea islands; Antarctica by its ice front) and lakes (level 2;
 * a negative area marks a river-lake, a double-lined river), each lake with its islands (level 3) as
 * holes; ponds on those islands (level 4) are lakes again. Land has no holes: the lakes layer lies
 * over it.
 */
function readShores(file: H5File): Pick<Water, 'land' | 'lakes'> {
  const rings = readShoreRings(file);
  const parent = dataset(file, 'Id_of_parent_polygons') as Int32Array;
  const area = dataset(file, 'The_km_squared_area_of_polygons') as Float64Array;
  const holes = new Map<number, Flat[]>();
  for (const [polygon, { level, ring }] of rings)
    if (level === 3 && rings.has(parent[polygon]!)) holes.set(parent[polygon]!, [...(holes.get(parent[polygon]!) ?? []), ring]);
  const lakes: Water['lakes']['features'] = [];
  const land: Water['land']['features'] = [];
  for (const [polygon, { level, ring }] of rings) {
    if (level === 1) land.push(new FlatPolygon({}, [ring]));
    if (level === 1 || level === 3) continue;
    const kind = area[polygon]! < 0 ? 'river' : 'lake';
    lakes.push(new FlatPolygon({ kind, minzoom: lakeMinZoom(area[polygon]!) }, [ring, ...(holes.get(polygon) ?? [])]));
  }
  return { land: { type: 'FeatureCollection', features: land }, lakes: { type: 'FeatureCollection', features: lakes } };
}

/** Reads the land, rivers and lakes of the GSHHG files in `dir` (waterSource). */
export async function readWater(dir: string): Promise<Water> {
  await h5wasm.ready;
  const read = <T>(path: string, take: (file: H5File) => T): T => {
    const file = new h5wasm.File(path, 'r');
    try {
      return take(file);
    } finally {
      file.close();
    }
  };
  return { rivers: read(riverFile(dir), readRivers), ...read(shorelineFile(dir), readShores) };
}
