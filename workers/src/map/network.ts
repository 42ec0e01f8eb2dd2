import Graph from 'graphology';
import { bidirectional, singleSource } from 'graphology-shortest-path/dijkstra';
import { mapType, ROAD_BY_CLASS, type MapType } from './catalog';
import { centroid, dist, polyArea, projectionFor, type Poly, type Projection, type XY } from './geo';

/** GeoJSON as the API stores it (EPSG:4326). */
export interface GeoFeature {
  type: 'Feature';
  id?: string | number;
  geometry: { type: string; coordinates: unknown };
  properties: { type: string; type_id?: number; [key: string]: unknown };
}
export interface GeoCollection {
  type: 'FeatureCollection';
  features: GeoFeature[];
}

export interface Area {
  poly: Poly;
  type: MapType;
}
export interface Road {
  a: XY;
  b: XY;
  type_id: number;
  fixed: boolean;
  /** Drawn by the user (kept in the drawn collection) rather than generated. */
  drawn: boolean;
}
export interface Block {
  poly: Poly;
  /** Index of the area it lies in (−1: unknown). */
  area: number;
}
export interface Zone {
  center: XY;
  radius: number;
  type_id: number;
  generated: boolean;
}

/** A project in projected metres: what every algorithm reads and writes. */
export interface Network {
  projection: Projection;
  areas: Area[];
  roads: Road[];
  blocks: Block[];
  zones: Zone[];
}

function* positions(value: unknown): Generator<number[]> {
  if (Array.isArray(value) && typeof value[0] === 'number') yield value as number[];
  else if (Array.isArray(value)) for (const v of value) yield* positions(v);
}

const polygonsOf = (g: GeoFeature['geometry']): number[][][][] =>
  g.type === 'Polygon' ? [g.coordinates as number[][][]] : g.type === 'MultiPolygon' ? (g.coordinates as number[][][][]) : [];
const linesOf = (g: GeoFeature['geometry']): number[][][] =>
  g.type === 'LineString' ? [g.coordinates as number[][]] : g.type === 'MultiLineString' ? (g.coordinates as number[][][]) : [];

/** Reads the drawn and generated collections into metres, with one projection for both. */
export function readNetwork(drawn: GeoCollection, general: GeoCollection, projection?: Projection): Network {
  const all = [...drawn.features, ...general.features];
  const proj =
    projection ??
    projectionFor(
      (function* () {
        for (const f of all) yield* positions(f.geometry.coordinates);
      })(),
    );
  const toPoly = (rings: number[][][]): Poly => rings.map((r) => r.map((p) => proj.forward(p)));
  const net: Network = { projection: proj, areas: [], roads: [], blocks: [], zones: [] };
  const read = (f: GeoFeature, drawnFeature: boolean) => {
    const p = f.properties;
    if (p.type === 'area') for (const rings of polygonsOf(f.geometry)) net.areas.push({ poly: toPoly(rings), type: mapType('area', p.type_id) });
    if (p.type === 'block')
      for (const rings of polygonsOf(f.geometry)) net.blocks.push({ poly: toPoly(rings), area: typeof p.area_index === 'number' ? p.area_index : -1 });
    if (p.type === 'road') {
      const type = mapType('road', p.type_id);
      for (const line of linesOf(f.geometry))
        for (let i = 0; i + 1 < line.length; i++)
          net.roads.push({ a: proj.forward(line[i]), b: proj.forward(line[i + 1]), type_id: type.type_id, fixed: p.is_fixed === true, drawn: drawnFeature });
    }
    if (p.type === 'zone') {
      const type = mapType('zone', p.type_id);
      const radius = typeof p.radius === 'number' && p.radius > 0 ? p.radius : type.radius!;
      if (f.geometry.type === 'Point')
        net.zones.push({ center: proj.forward(f.geometry.coordinates as number[]), radius, type_id: type.type_id, generated: !drawnFeature });
      for (const rings of polygonsOf(f.geometry)) {
        const poly = toPoly(rings);
        // A drawn zone polygon serves the circle of its own size at least.
        net.zones.push({
          center: centroid(poly),
          radius: Math.max(radius, Math.sqrt(polyArea(poly) / Math.PI)),
          type_id: type.type_id,
          generated: !drawnFeature,
        });
      }
    }
  };
  for (const f of drawn.features) read(f, true);
  for (const f of general.features) read(f, false);
  return net;
}

const key = (p: XY) => `${Math.round(p[0] * 10)},${Math.round(p[1] * 10)}`;

export interface RoadGraph {
  graph: Graph<{ xy: XY }, { length: number; road: number }>;
  /** Graph node of each block: its outline vertex (or any node) nearest its centroid. */
  anchors: string[];
}

/** The road graph (nodes are road ends merged within 0.1 m) and each block's anchor node. */
export function roadGraph(net: Network): RoadGraph {
  const graph = new Graph<{ xy: XY }, { length: number; road: number }>({ type: 'undirected', multi: false, allowSelfLoops: false });
  net.roads.forEach((r, i) => {
    const [u, v] = [key(r.a), key(r.b)];
    if (u === v) return;
    if (!graph.hasNode(u)) graph.addNode(u, { xy: r.a });
    if (!graph.hasNode(v)) graph.addNode(v, { xy: r.b });
    if (!graph.hasEdge(u, v)) graph.addEdge(u, v, { length: dist(r.a, r.b), road: i });
  });
  const nodes = graph.nodes().map((n) => ({ n, xy: graph.getNodeAttribute(n, 'xy') }));
  const anchors = net.blocks.map((b) => {
    const c = centroid(b.poly);
    const onRing = b.poly[0].map(key).filter((k) => graph.hasNode(k));
    const candidates = onRing.length > 0 ? onRing.map((n) => ({ n, xy: graph.getNodeAttribute(n, 'xy') })) : nodes;
    let best = '';
    let bestD = Infinity;
    for (const { n, xy } of candidates) {
      const d = dist(xy, c);
      if (d < bestD) [best, bestD] = [n, d];
    }
    return best;
  });
  return { graph, anchors };
}

const weight = (_: string, attr: { length: number }) => attr.length;

export function pathLength(graph: RoadGraph['graph'], path: string[] | null | undefined): number {
  if (!path || path.length === 0) return Infinity;
  let sum = 0;
  for (let i = 0; i + 1 < path.length; i++) sum += dist(graph.getNodeAttribute(path[i], 'xy'), graph.getNodeAttribute(path[i + 1], 'xy'));
  return sum;
}

export const shortestPath = (graph: RoadGraph['graph'], u: string, v: string) => bidirectional(graph, u, v, weight);

/** Evenly spaced indices (deterministic sample) of at most `k` of `n`. */
export const sample = (n: number, k: number) => (n <= k ? [...Array(n).keys()] : [...Array(k).keys()].map((i) => Math.floor((i * n) / k)));

/** Network distances between sampled block pairs (Infinity: unreachable). */
export function pairDistances(g: RoadGraph, blocks: number[], targets: number[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of blocks) {
    const source = g.anchors[s];
    if (!source || !g.graph.hasNode(source)) continue;
    const paths = singleSource(g.graph, source, weight);
    for (const t of targets) if (t !== s) out.set(`${s}:${t}`, g.anchors[t] ? pathLength(g.graph, paths[g.anchors[t]]) : Infinity);
  }
  return out;
}

/** How many sampled block-to-block shortest paths run along each graph edge. */
export function edgeUsage(g: RoadGraph, sources: number[], targets: number[]): Map<string, number> {
  const usage = new Map<string, number>();
  for (const s of sources) {
    const source = g.anchors[s];
    if (!source) continue;
    const paths = singleSource(g.graph, source, weight);
    for (const t of targets) {
      const path = paths[g.anchors[t]];
      if (!path) continue;
      for (let i = 0; i + 1 < path.length; i++) {
        const e = g.graph.edge(path[i], path[i + 1])!;
        usage.set(e, (usage.get(e) ?? 0) + 1);
      }
    }
  }
  return usage;
}

export interface Metrics {
  road_length_m: Record<string, number>;
  road_length_total_m: number;
  block_count: number;
  block_area_m2: { min: number; median: number; max: number; mean: number };
  /** Share of blocks whose centroid lies within a zone's service circle; null without zones. */
  coverage: number | null;
  /** Network distance over straight-line distance between sampled blocks: mean and max. */
  detour_mean: number | null;
  detour_max: number | null;
  /** Blocks whose anchor is reachable from the first block's (all, when the network is connected). */
  reachable_blocks: number;
}

export const SAMPLE_BLOCKS = 40;

export function metrics(net: Network, g: RoadGraph = roadGraph(net)): Metrics {
  const road_length_m: Record<string, number> = {};
  for (const cls of Object.keys(ROAD_BY_CLASS)) road_length_m[cls] = 0;
  for (const r of net.roads) {
    const cls = String(mapType('road', r.type_id).road_class);
    road_length_m[cls] = (road_length_m[cls] ?? 0) + dist(r.a, r.b);
  }
  const areas = net.blocks.map((b) => polyArea(b.poly)).sort((a, b) => a - b);
  const centroids = net.blocks.map((b) => centroid(b.poly));
  const coverage =
    net.zones.length === 0 || net.blocks.length === 0
      ? null
      : centroids.filter((c) => net.zones.some((z) => dist(z.center, c) <= z.radius + 1e-6)).length / net.blocks.length;
  const picked = sample(net.blocks.length, SAMPLE_BLOCKS);
  const distances = pairDistances(g, picked, picked);
  const ratios: number[] = [];
  for (const [pair, d] of distances) {
    const [s, t] = pair.split(':').map(Number);
    const straight = dist(centroids[s], centroids[t]);
    if (straight > 1 && Number.isFinite(d))
      ratios.push(
        Math.max(
          1,
          (d + dist(centroids[s], g.graph.getNodeAttribute(g.anchors[s], 'xy')) + dist(centroids[t], g.graph.getNodeAttribute(g.anchors[t], 'xy'))) / straight,
        ),
      );
  }
  let reachable = 0;
  if (net.blocks.length > 0 && g.anchors[0]) {
    const seen = new Set(Object.keys(singleSource(g.graph, g.anchors[0], weight)));
    reachable = g.anchors.filter((a) => seen.has(a)).length;
  }
  return {
    road_length_m,
    road_length_total_m: Object.values(road_length_m).reduce((a, b) => a + b, 0),
    block_count: net.blocks.length,
    block_area_m2: {
      min: areas[0] ?? 0,
      median: areas[Math.floor(areas.length / 2)] ?? 0,
      max: areas[areas.length - 1] ?? 0,
      mean: areas.length ? areas.reduce((a, b) => a + b, 0) / areas.length : 0,
    },
    coverage,
    detour_mean: ratios.length ? ratios.reduce((a, b) => a + b, 0) / ratios.length : null,
    detour_max: ratios.length ? Math.max(...ratios) : null,
    reachable_blocks: reachable,
  };
}
