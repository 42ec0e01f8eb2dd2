import { Delaunay } from 'd3-delaunay';
import { mapType, ROAD_BY_CLASS, typesOf } from './catalog';
import { defaultCrs, type ProjectCrs } from './crs';
import { bbox, centroid, clip, dist, inside, localProjection, mainAngle, polyArea, rect, rotatePoly, segmentDistance, type Poly, type XY } from './geo';
import { seededRandom } from '../random';
import {
  edgeUsage,
  metrics,
  pairDistances,
  readNetwork,
  roadGraph,
  sample,
  shortestPath,
  pathLength,
  SAMPLE_BLOCKS,
  type Block,
  type GeoCollection,
  type GeoFeature,
  type Metrics,
  type Network,
  type Road,
} from './network';

export const ALGO_TAGS = ['road_gen_grid', 'road_gen_voronoi', 'road_subdivide', 'block_min_circle_cover', 'road_greed_types', 'road_greed_remove'] as const;
export type AlgoTag = (typeof ALGO_TAGS)[number];

/** road_greed_remove: a sampled block-to-block trip may grow at most this much over the network before removal. */
export const MAX_DETOUR_GROWTH = 1.5;
/** road_greed_remove: an edge is a candidate only if going around it costs at most this many times its length. */
export const LOCAL_DETOUR = 3.5;
/** road_subdivide: at most this many halvings of one block. */
export const MAX_SUBDIVISION_DEPTH = 12;

export const ALGO_NAMES: Record<AlgoTag, string> = {
  road_gen_grid: 'Сетка улиц',
  road_gen_voronoi: 'Улицы по ячейкам Вороного',
  road_subdivide: 'Деление крупных кварталов (дерево)',
  block_min_circle_cover: 'Покрытие кварталов зонами обслуживания',
  road_greed_types: 'Классы дорог по нагрузке',
  road_greed_remove: 'Удаление лишних дорог',
};

export interface AlgoInput {
  drawn: GeoCollection;
  general: GeoCollection;
  golden?: GeoCollection | null;
  /** The project's coordinate reference: its anchor is the centre of the metres the algorithm works in. */
  crs?: ProjectCrs | null;
}

export interface AlgoOutput {
  general: GeoCollection;
  info: GeoCollection;
  metrics: Metrics;
  /** Figures of the run itself (zones placed, roads removed, …). */
  details: Record<string, number | string>;
}

/** Runs one algorithm on a project. Deterministic: the same input gives the same output. */
export function runAlgorithm(tag: AlgoTag, input: AlgoInput, progress: (percent: number) => void = () => {}): AlgoOutput {
  // Metres around the project's fixed anchor (else the drawn features' centre): never moved by what an earlier run generated.
  const crs = input.crs ?? defaultCrs(input.drawn);
  const net = readNetwork(input.drawn, input.general, crs ? localProjection(crs.lon, crs.lat) : undefined);
  if (net.areas.length === 0 && (tag === 'road_gen_grid' || tag === 'road_gen_voronoi'))
    throw new AlgoInputError('Нарисуйте хотя бы одну территорию (полигон)');
  const details: Record<string, number | string> = {};
  let result: Network;
  if (tag === 'road_gen_grid') result = generate(net, (area, i) => gridBlocks(area.poly, area.type.block_spacing!, i));
  else if (tag === 'road_gen_voronoi') result = generate(net, (area, i) => voronoiBlocks(area.poly, area.type.block_max_area!, i));
  else if (tag === 'road_subdivide') result = subdivide(net, details);
  else if (tag === 'block_min_circle_cover') result = circleCover(net, details);
  else if (tag === 'road_greed_types') result = greedTypes(net, details);
  else result = greedRemove(net, details, progress);
  progress(90);
  const g = roadGraph(result);
  const m = metrics(result, g);
  const golden = input.golden ? metrics(readNetwork(input.golden, { type: 'FeatureCollection', features: [] }, result.projection)) : null;
  return { general: writeGeneral(result), info: infoCollection(tag, result, m, golden, details), metrics: m, details };
}

export class AlgoInputError extends Error {}

// ——— generators ———

/** Grid cells of `spacing` aligned with the area's longest edge, clipped to the area. */
export function gridBlocks(poly: Poly, spacing: number, areaIndex: number): Block[] {
  const about = centroid(poly);
  const angle = mainAngle(poly);
  const local = rotatePoly(poly, -angle, about);
  const [minX, minY, maxX, maxY] = bbox(local);
  const blocks: Block[] = [];
  for (let x = minX; x < maxX - 1e-6; x += spacing)
    for (let y = minY; y < maxY - 1e-6; y += spacing)
      for (const piece of clip(rect(x, y, Math.min(x + spacing, maxX), Math.min(y + spacing, maxY)), local))
        blocks.push({ poly: rotatePoly(piece, angle, about), area: areaIndex });
  return blocks;
}

/** Voronoi cells of seeded points (one per block_max_area of the area, at least two) clipped to the area. */
export function voronoiBlocks(poly: Poly, blockArea: number, areaIndex: number): Block[] {
  const count = Math.max(2, Math.round(polyArea(poly) / blockArea));
  const [minX, minY, maxX, maxY] = bbox(poly);
  const random = seededRandom(0x5eed + areaIndex * 7919);
  const points: XY[] = [];
  for (let tries = 0; points.length < count && tries < count * 200; tries++) {
    const p: XY = [minX + random() * (maxX - minX), minY + random() * (maxY - minY)];
    if (inside(p, poly, 0)) points.push(p);
  }
  const voronoi = Delaunay.from(points).voronoi([minX - 1, minY - 1, maxX + 1, maxY + 1]);
  const blocks: Block[] = [];
  for (let i = 0; i < points.length; i++) {
    const cell = voronoi.cellPolygon(i);
    if (!cell) continue;
    for (const piece of clip([cell.map((p) => [p[0], p[1]] as XY)], poly)) blocks.push({ poly: piece, area: areaIndex });
  }
  return blocks;
}

/** Replaces the generated network with the blocks of each area and the roads along their edges, joined to the drawn roads. */
function generate(net: Network, blocksOf: (area: Network['areas'][number], index: number) => Block[]): Network {
  const blocks = net.areas.flatMap((area, i) => blocksOf(area, i));
  return { ...net, blocks, roads: streets(net, blocks), zones: net.zones.filter((z) => !z.generated) };
}

/** The user's roads, then the streets along the blocks and the connectors to the user's road ends, none on top of another road. */
function streets(net: Network, blocks: Block[]): Road[] {
  const drawnRoads = net.roads.filter((r) => r.drawn);
  const along = withoutOverlaps(drawnRoads, roadsAlongBlocks(blocks, net));
  const joined = [...drawnRoads, ...along];
  // Per drawn road end, the nearest node whose connector runs beside no road: cut, a connector would
  // no longer reach its road's end, so one that would be cut gives way to the next nearest node.
  const joins: Road[] = [];
  for (const choices of connectors({ ...net, roads: joined }, drawnRoads)) {
    const fits = choices.find((c) => {
      const left = withoutOverlaps([...joined, ...joins], [c]);
      return left.length === 1 && left[0].a === c.a && left[0].b === c.b;
    });
    if (fits) joins.push(fits);
  }
  return [...joined, ...joins];
}

/** Two road ends closer than this (m) are one point; shorter stretches than this are no stretch. */
const OVERLAP_TOLERANCE = 0.05;
/** Roads closer to parallel than this (radians, 15°) can run beside each other; steeper ones cross or join. */
const PARALLEL_ANGLE = (15 * Math.PI) / 180;
/** A cut piece ending this near (m) the other road's end joins it there: a street 0.2–0.4 m off a drawn avenue continues from its end. */
const SNAP = 1;

/**
 * How close (m) a road may run beside another: half the sum of their carriageway widths (catalog
 * `road_width`: 30, 20, 12 m) — nearer, the two carriageways overlap on the ground, and in CAD they
 * read as one street drawn twice (issue 46).
 */
const clearanceOf = (a: Road, b: Road) => (widthOf(a) + widthOf(b)) / 2;
const widthOf = (r: Road) => mapType('road', r.type_id).road_width ?? 12;

/**
 * The stretch of `road` (parameters 0…1 along it) that runs beside `other`: within 15° of parallel,
 * its points within `clearance` of `other`'s line and level with `other` (their foot inside it).
 * Null: none, or shorter than OVERLAP_TOLERANCE (roads.test.ts measures the same relation its own way).
 */
function besideStretch(road: Road, other: Road, clearance: number): [number, number] | null {
  const len = dist(road.a, road.b);
  const otherLen = dist(other.a, other.b);
  if (len < 1e-9 || otherLen < 1e-9) return null;
  const [ux, uy] = [(other.b[0] - other.a[0]) / otherLen, (other.b[1] - other.a[1]) / otherLen];
  const cos = Math.abs(((road.b[0] - road.a[0]) * ux + (road.b[1] - road.a[1]) * uy) / len);
  if (cos < Math.cos(PARALLEL_ANGLE)) return null;
  // Signed distance from other's line and position along other: both linear along road.
  const across = (p: XY) => (p[0] - other.a[0]) * -uy + (p[1] - other.a[1]) * ux;
  const along = (p: XY) => (p[0] - other.a[0]) * ux + (p[1] - other.a[1]) * uy;
  let [t0, t1] = [0, 1];
  for (const [f0, f1, lo, hi] of [
    [across(road.a), across(road.b), -clearance, clearance],
    [along(road.a), along(road.b), 0, otherLen],
  ]) {
    if (Math.abs(f1 - f0) < 1e-12) {
      if (f0 < lo || f0 > hi) return null;
      continue;
    }
    const [ta, tb] = [(lo - f0) / (f1 - f0), (hi - f0) / (f1 - f0)];
    [t0, t1] = [Math.max(t0, Math.min(ta, tb)), Math.min(t1, Math.max(ta, tb))];
  }
  return (t1 - t0) * len > OVERLAP_TOLERANCE ? [t0, t1] : null;
}

/**
 * The candidate segments less every stretch that runs beside an existing road or a candidate kept
 * before it — within 15° of parallel and nearer than half the two carriageways' widths
 * (besideStretch): a street on top of another, or 0.2 m beside a drawn avenue, is one street drawn
 * twice (wider streets are laid first and stay). What remains ends where it leaves the other road;
 * an end within SNAP of the other road's end joins that end (the graph meets there). Each metre of street is then drawn and counted once
 * (docs/map.md «Алгоритмы»).
 */
export function withoutOverlaps(existing: Road[], candidates: Road[]): Road[] {
  const CELL = 50;
  const REACH = 30; // the widest clearance (two main streets) and more
  const grid = new Map<string, Road[]>();
  const cells = (r: Road) => {
    const keys: string[] = [];
    const [x0, x1] = [Math.min(r.a[0], r.b[0]) - REACH, Math.max(r.a[0], r.b[0]) + REACH];
    const [y0, y1] = [Math.min(r.a[1], r.b[1]) - REACH, Math.max(r.a[1], r.b[1]) + REACH];
    for (let cx = Math.floor(x0 / CELL); cx <= Math.floor(x1 / CELL); cx++)
      for (let cy = Math.floor(y0 / CELL); cy <= Math.floor(y1 / CELL); cy++) keys.push(`${cx},${cy}`);
    return keys;
  };
  const index = (r: Road) => {
    for (const k of cells(r)) {
      const list = grid.get(k);
      if (list) list.push(r);
      else grid.set(k, [r]);
    }
  };
  existing.forEach(index);
  const kept: Road[] = [];
  // Wider streets first (stable): of two generated streets side by side the wider one stays.
  for (const road of candidates
    .map((r, i) => [r, i] as const)
    .sort((m, n) => widthOf(n[0]) - widthOf(m[0]) || m[1] - n[1])
    .map(([r]) => r)) {
    const len = dist(road.a, road.b);
    if (len < OVERLAP_TOLERANCE) continue;
    const near = new Set<Road>();
    for (const k of cells(road)) for (const other of grid.get(k) ?? []) near.add(other);
    // Stretches beside another road, as parameters along the candidate, with the points the pieces end at.
    const covered: Array<[number, XY, number, XY]> = [];
    const at = (t: number): XY => (t <= 0 ? road.a : t >= 1 ? road.b : [road.a[0] + t * (road.b[0] - road.a[0]), road.a[1] + t * (road.b[1] - road.a[1])]);
    for (const other of near) {
      const clearance = clearanceOf(road, other);
      // The other way round too: the other road's stretch beside this one, as the part of this one it is level with.
      const back = besideStretch(other, road, clearance);
      if (back) {
        const [u0, u1] = back.map(
          (u) =>
            ((other.a[0] + u * (other.b[0] - other.a[0]) - road.a[0]) * (road.b[0] - road.a[0]) +
              (other.a[1] + u * (other.b[1] - other.a[1]) - road.a[1]) * (road.b[1] - road.a[1])) /
            (len * len),
        );
        const [lo, hi] = [Math.max(0, Math.min(u0, u1)), Math.min(1, Math.max(u0, u1))];
        if ((hi - lo) * len > OVERLAP_TOLERANCE) covered.push([lo, at(lo), hi, at(hi)]);
      }
      const stretch = besideStretch(road, other, clearance);
      if (!stretch) continue;
      const [t0, t1] = stretch;
      // A cut at the other road's end, within SNAP of it, joins that end; elsewhere the piece keeps its own line.
      const endpoint = (p: XY) => [other.a, other.b].find((q) => dist(p, q) <= SNAP);
      covered.push([t0, endpoint(at(t0)) ?? at(t0), t1, endpoint(at(t1)) ?? at(t1)]);
    }
    covered.sort((m, n) => m[0] - n[0]);
    let [from, fromPoint]: [number, XY] = [0, road.a];
    const pieces: Array<[XY, XY]> = [];
    for (const [t0, p0, t1, p1] of covered) {
      if ((t0 - from) * len > OVERLAP_TOLERANCE) pieces.push([fromPoint, t0 >= 1 ? road.b : p0]);
      if (t1 > from) [from, fromPoint] = [t1, t1 >= 1 ? road.b : p1];
    }
    if ((1 - from) * len > OVERLAP_TOLERANCE) pieces.push([fromPoint, road.b]);
    for (const [a, b] of pieces) {
      const piece: Road = { ...road, a, b };
      kept.push(piece);
      index(piece);
    }
  }
  return kept;
}

const round = (p: XY) => `${Math.round(p[0] * 10)},${Math.round(p[1] * 10)}`;

/**
 * Every block edge once, noded: an edge is cut wherever another block's corner lies on it (a
 * T-junction), so neighbouring blocks share nodes and no street is counted twice. On an area's
 * outline a district street (class 2), inside a local one (class 3).
 */
export function roadsAlongBlocks(blocks: Block[], net: Network): Road[] {
  const CELL = 25;
  const cellKey = (x: number, y: number) => `${Math.floor(x / CELL)},${Math.floor(y / CELL)}`;
  const vertices = new Map<string, XY>();
  for (const b of blocks) for (const ring of b.poly) for (const p of ring) vertices.set(round(p), p);
  const buckets = new Map<string, XY[]>();
  for (const p of vertices.values()) {
    const k = cellKey(p[0], p[1]);
    const list = buckets.get(k);
    if (list) list.push(p);
    else buckets.set(k, [p]);
  }
  const seen = new Set<string>();
  const roads: Road[] = [];
  const push = (a: XY, c: XY, area: number) => {
    const k = [round(a), round(c)].sort().join('|');
    if (seen.has(k) || round(a) === round(c)) return;
    seen.add(k);
    const outline = net.areas[area];
    const mid: XY = [(a[0] + c[0]) / 2, (a[1] + c[1]) / 2];
    const onOutline = outline ? outline.poly.some((r) => r.some((p, j) => j + 1 < r.length && segmentDistance(mid, p, r[j + 1]) < 0.5)) : false;
    roads.push({ a, b: c, type_id: ROAD_BY_CLASS[onOutline ? 2 : 3].type_id, fixed: false, drawn: false });
  };
  for (const b of blocks)
    for (const ring of b.poly)
      for (let i = 0; i + 1 < ring.length; i++) {
        const [a, c] = [ring[i], ring[i + 1]];
        const len = dist(a, c);
        if (len < 0.05) continue;
        const cuts: Array<[number, XY]> = [];
        const [x0, x1] = [Math.min(a[0], c[0]) - 0.1, Math.max(a[0], c[0]) + 0.1];
        const [y0, y1] = [Math.min(a[1], c[1]) - 0.1, Math.max(a[1], c[1]) + 0.1];
        for (let cx = Math.floor(x0 / CELL); cx <= Math.floor(x1 / CELL); cx++)
          for (let cy = Math.floor(y0 / CELL); cy <= Math.floor(y1 / CELL); cy++)
            for (const p of buckets.get(`${cx},${cy}`) ?? [])
              if (dist(p, a) > 0.05 && dist(p, c) > 0.05 && segmentDistance(p, a, c) < 0.05)
                cuts.push([((p[0] - a[0]) * (c[0] - a[0]) + (p[1] - a[1]) * (c[1] - a[1])) / (len * len), p]);
        cuts.sort((m, n) => m[0] - n[0]);
        let from = a;
        for (const [, p] of cuts) {
          push(from, p, b.area);
          from = p;
        }
        push(from, c, b.area);
      }
  return roads;
}

/**
 * Joins each end of the drawn roads (a point only one drawn segment reaches: a polyline's inner
 * vertices are no ends) to a generated node within 1.5 block spacings (a local street): per end, the
 * candidates from the nearest node on (at most CONNECTOR_CHOICES), for streets() to pick from.
 */
function connectors(net: Network, drawnRoads: Road[]): Road[][] {
  const generated = net.roads.filter((r) => !r.drawn);
  if (generated.length === 0 || drawnRoads.length === 0) return [];
  const nodes = [...new Map(generated.flatMap((r) => [r.a, r.b]).map((p) => [round(p), p])).values()];
  const limit = 1.5 * Math.max(...net.areas.map((a) => a.type.block_spacing ?? 150), 150);
  const degree = new Map<string, number>();
  for (const p of drawnRoads.flatMap((r) => [r.a, r.b])) degree.set(round(p), (degree.get(round(p)) ?? 0) + 1);
  const ends = [...new Map(drawnRoads.flatMap((r) => [r.a, r.b]).map((p) => [round(p), p])).values()].filter((p) => degree.get(round(p)) === 1);
  return ends.map((end) =>
    nodes
      .map((n, i) => [dist(n, end), i] as const)
      .filter(([d]) => d > 0.1 && d <= limit)
      .sort((m, n) => m[0] - n[0] || m[1] - n[1])
      .slice(0, CONNECTOR_CHOICES)
      .map(([, i]): Road => ({ a: end, b: nodes[i], type_id: ROAD_BY_CLASS[3].type_id, fixed: false, drawn: false })),
  );
}
/** How many nearest nodes a drawn road end may try to join. */
const CONNECTOR_CHOICES = 8;

/** Halves every block larger than its area type's limit across its longer side, recursively. */
function subdivide(net: Network, details: Record<string, number | string>): Network {
  const start: Block[] = net.blocks.length > 0 ? net.blocks : net.areas.map((a, i) => ({ poly: a.poly, area: i }));
  if (start.length === 0) throw new AlgoInputError('Нет кварталов и территорий для деления');
  const limitOf = (b: Block) => (net.areas[b.area]?.type ?? mapType('area')).block_max_area!;
  const out: Block[] = [];
  let splits = 0;
  const split = (b: Block, depth: number) => {
    // 0.1 % slack: a grid block of exactly the limit is not split for a rounding error.
    if (polyArea(b.poly) <= limitOf(b) * 1.001 || depth >= MAX_SUBDIVISION_DEPTH) return void out.push(b);
    const about = centroid(b.poly);
    const angle = mainAngle(b.poly);
    const local = rotatePoly(b.poly, -angle, about);
    const [minX, minY, maxX, maxY] = bbox(local);
    const halves =
      maxX - minX >= maxY - minY
        ? [rect(minX - 1, minY - 1, about[0], maxY + 1), rect(about[0], minY - 1, maxX + 1, maxY + 1)]
        : [rect(minX - 1, minY - 1, maxX + 1, about[1]), rect(minX - 1, about[1], maxX + 1, maxY + 1)];
    const pieces = halves.flatMap((h) => clip(h, local));
    if (pieces.length < 2) return void out.push(b);
    splits += 1;
    for (const piece of pieces) split({ poly: rotatePoly(piece, angle, about), area: b.area }, depth + 1);
  };
  for (const b of start) split(b, 0);
  details.splits = splits;
  // Streets are re-derived from the new blocks (classes start afresh); the user's roads stay.
  return { ...net, blocks: out, roads: streets(net, out) };
}

/**
 * Greedy set cover: candidate centres are the block centroids; each step places the zone that
 * covers most uncovered blocks (ties: the lower index). Drawn zones count as placed. The greedy
 * choice uses at most H(k) ≤ 1 + ln k times the fewest zones possible over these candidates
 * (k — the most blocks one zone covers).
 */
function circleCover(net: Network, details: Record<string, number | string>): Network {
  if (net.blocks.length === 0) throw new AlgoInputError('Сначала постройте кварталы (сетка, Вороной или дерево)');
  const drawnZones = net.zones.filter((z) => !z.generated);
  const type = mapType('zone', drawnZones[0]?.type_id ?? typesOf('zone')[0].type_id);
  const radius = type.radius!;
  const centroids = net.blocks.map((b) => centroid(b.poly));
  const uncovered = new Set(centroids.map((_, i) => i).filter((i) => !drawnZones.some((z) => dist(z.center, centroids[i]) <= z.radius)));
  // Which blocks each candidate covers (a grid of buckets keeps this near-linear).
  const cell = radius;
  const buckets = new Map<string, number[]>();
  centroids.forEach((c, i) => {
    const k = `${Math.floor(c[0] / cell)},${Math.floor(c[1] / cell)}`;
    buckets.set(k, [...(buckets.get(k) ?? []), i]);
  });
  const covers = centroids.map((c) => {
    const [cx, cy] = [Math.floor(c[0] / cell), Math.floor(c[1] / cell)];
    const out: number[] = [];
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++) for (const j of buckets.get(`${cx + dx},${cy + dy}`) ?? []) if (dist(c, centroids[j]) <= radius) out.push(j);
    return out;
  });
  const placed: number[] = [];
  while (uncovered.size > 0) {
    let best = -1;
    let bestGain = 0;
    for (let i = 0; i < covers.length; i++) {
      let gain = 0;
      for (const j of covers[i]) if (uncovered.has(j)) gain++;
      if (gain > bestGain) [best, bestGain] = [i, gain];
    }
    placed.push(best);
    for (const j of covers[best]) uncovered.delete(j);
  }
  const k = Math.max(...covers.map((c) => c.length));
  details.zones_placed = placed.length;
  details.zone_type = type.name;
  details.greedy_bound = `не больше ${(1 + Math.log(k)).toFixed(2).replace('.', ',')}× от минимума`;
  return { ...net, zones: [...drawnZones, ...placed.map((i) => ({ center: centroids[i], radius, type_id: type.type_id, generated: true }))] };
}

/** Classes by load: the share of sampled block-to-block shortest paths along each road; top 10 % main, next 30 % district. */
function greedTypes(net: Network, details: Record<string, number | string>): Network {
  if (net.blocks.length < 2 || net.roads.length === 0) throw new AlgoInputError('Нужны дороги и хотя бы два квартала');
  const g = roadGraph(net);
  const picked = sample(net.blocks.length, SAMPLE_BLOCKS);
  const usage = edgeUsage(g, picked, sample(net.blocks.length, SAMPLE_BLOCKS * 4));
  const loadOf = (i: number) => {
    const r = net.roads[i];
    const e = g.graph.edge(round(r.a), round(r.b));
    return e ? (usage.get(e) ?? 0) : 0;
  };
  // The user's own roads keep their types: only generated, not fixed ones are classed.
  const movable = net.roads.map((r, i) => i).filter((i) => !net.roads[i].fixed && !net.roads[i].drawn);
  const ranked = [...movable].sort((a, b) => loadOf(b) - loadOf(a) || a - b);
  const roads = net.roads.map((r) => ({ ...r }));
  ranked.forEach((i, rank) => {
    const cls = rank < ranked.length * 0.1 && loadOf(i) > 0 ? 1 : rank < ranked.length * 0.4 && loadOf(i) > 0 ? 2 : 3;
    roads[i].type_id = ROAD_BY_CLASS[cls].type_id;
  });
  details.paths_sampled = picked.length * Math.min(net.blocks.length, SAMPLE_BLOCKS * 4);
  return { ...net, roads };
}

/**
 * Drops the least loaded generated roads while (1) the network stays connected — an edge goes only
 * if a way around it exists, at most LOCAL_DETOUR times its length — and (2) no sampled
 * block-to-block trip grows more than MAX_DETOUR_GROWTH times; removals that break (2) are undone
 * (the longest prefix of the removal order that keeps it is kept, found by bisection).
 */
function greedRemove(net: Network, details: Record<string, number | string>, progress: (p: number) => void): Network {
  if (net.blocks.length < 2 || net.roads.length === 0) throw new AlgoInputError('Нужны дороги и хотя бы два квартала');
  const g = roadGraph(net);
  const picked = sample(net.blocks.length, SAMPLE_BLOCKS);
  const before = pairDistances(g, picked, picked);
  const usage = edgeUsage(g, picked, picked);
  const candidates = g.graph
    .edges()
    .filter((e) => {
      const r = net.roads[g.graph.getEdgeAttribute(e, 'road')];
      return !r.drawn && !r.fixed;
    })
    .sort((a, b) => (usage.get(a) ?? 0) - (usage.get(b) ?? 0) || g.graph.getEdgeAttribute(a, 'road') - g.graph.getEdgeAttribute(b, 'road'));
  const removed: Array<{ u: string; v: string; attr: { length: number; road: number } }> = [];
  candidates.forEach((e, i) => {
    if (i % 200 === 0) progress(10 + (60 * i) / candidates.length);
    const [u, v] = g.graph.extremities(e);
    const attr = g.graph.getEdgeAttributes(e);
    g.graph.dropEdge(e);
    const around = pathLength(g.graph, shortestPath(g.graph, u, v));
    if (around <= LOCAL_DETOUR * attr.length) removed.push({ u, v, attr });
    else g.graph.addEdge(u, v, attr);
  });
  const fits = () => {
    const after = pairDistances(g, picked, picked);
    for (const [pair, d0] of before) if (Number.isFinite(d0) && (after.get(pair) ?? Infinity) > MAX_DETOUR_GROWTH * d0 + 1e-6) return false;
    return true;
  };
  // Bisection over how many of the removals to keep; the graph holds the first `kept` removed.
  let kept = removed.length;
  const setKept = (n: number) => {
    for (let i = n; i < kept; i++) g.graph.addEdge(removed[i].u, removed[i].v, removed[i].attr);
    for (let i = kept; i < n; i++) g.graph.dropEdge(removed[i].u, removed[i].v);
    kept = n;
  };
  if (!fits()) {
    let [lo, hi] = [0, removed.length];
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      setKept(mid);
      if (fits()) lo = mid;
      else hi = mid - 1;
    }
    setKept(lo);
  }
  const gone = new Set(removed.slice(0, kept).map((r) => r.attr.road));
  details.roads_removed = gone.size;
  details.max_detour_growth = MAX_DETOUR_GROWTH;
  return { ...net, roads: net.roads.filter((_, i) => !gone.has(i)) };
}

// ——— output ———

function writeGeneral(net: Network): GeoCollection {
  const p = net.projection;
  const ll = (xy: XY) => p.inverse(xy).map((v) => Math.round(v * 1e7) / 1e7);
  const features: GeoFeature[] = [];
  for (const r of net.roads)
    if (!r.drawn) {
      const type = mapType('road', r.type_id);
      features.push({
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: [ll(r.a), ll(r.b)] },
        properties: { type: 'road', type_id: type.type_id, sides_count: type.sides_count, is_fixed: r.fixed },
      });
    }
  net.blocks.forEach((b, i) =>
    features.push({
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: b.poly.map((ring) => ring.map(ll)) },
      properties: { type: 'block', type_id: mapType('block').type_id, area_index: b.area, area_m2: Math.round(polyArea(b.poly)), name: `Квартал ${i + 1}` },
    }),
  );
  for (const z of net.zones)
    if (z.generated) {
      const ring: XY[] = [];
      for (let k = 0; k <= 48; k++)
        ring.push([z.center[0] + z.radius * Math.cos((2 * Math.PI * k) / 48), z.center[1] + z.radius * Math.sin((2 * Math.PI * k) / 48)]);
      ring[48] = ring[0];
      features.push({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [ring.map(ll)] },
        properties: { type: 'zone', type_id: z.type_id, radius: z.radius, is_fixed: false },
      });
    }
  return { type: 'FeatureCollection', features };
}

const num = (v: number, digits = 0) =>
  v
    .toFixed(digits)
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ')
    .replace('.', ',');
const km = (m: number) => `${num(m / 1000, 2)} км`;
const pct = (v: number | null) => (v === null ? '—' : `${num(v * 100, 1)} %`);
const ratio = (v: number | null) => (v === null ? '—' : num(v, 2));
const signed = (v: number, f: (x: number) => string) => (v > 0 ? '+' : v < 0 ? '−' : '±') + f(Math.abs(v));

function metricLines(m: Metrics): string[] {
  return [
    `Дороги: ${km(m.road_length_total_m)} (${Object.entries(m.road_length_m)
      .map(([cls, length]) => `${ROAD_BY_CLASS[Number(cls)]?.name ?? cls} — ${km(length)}`)
      .join(', ')})`,
    `Кварталов: ${m.block_count}; площадь: мин. ${num(m.block_area_m2.min)} м², медиана ${num(m.block_area_m2.median)} м², макс. ${num(m.block_area_m2.max)} м²`,
    `Охват зонами обслуживания: ${pct(m.coverage)}`,
    `Коэффициент непрямолинейности: средний ${ratio(m.detour_mean)}, наибольший ${ratio(m.detour_max)}`,
    `Кварталов, достижимых по дорогам: ${m.reachable_blocks} из ${m.block_count}`,
  ];
}

function infoCollection(tag: AlgoTag, net: Network, m: Metrics, golden: Metrics | null, details: Record<string, number | string>): GeoCollection {
  const lines = [
    ...metricLines(m),
    ...Object.entries(details).map(([k, v]) => `${DETAIL_NAMES[k] ?? k}: ${typeof v === 'number' ? num(v, Number.isInteger(v) ? 0 : 2) : v}`),
  ];
  if (golden) {
    lines.push('Отличие от эталона:');
    lines.push(`— длина дорог ${signed(m.road_length_total_m - golden.road_length_total_m, km)}`);
    lines.push(`— кварталов ${signed(m.block_count - golden.block_count, (v) => num(v))}`);
    if (m.coverage !== null && golden.coverage !== null) lines.push(`— охват ${signed(m.coverage - golden.coverage, (v) => `${num(v * 100, 1)} п. п.`)}`);
    if (m.detour_mean !== null && golden.detour_mean !== null)
      lines.push(`— непрямолинейность ${signed(m.detour_mean - golden.detour_mean, (v) => num(v, 2))}`);
  }
  const anchor: XY = net.areas.length ? centroid(net.areas[0].poly) : net.blocks.length ? centroid(net.blocks[0].poly) : [0, 0];
  const short = `${ALGO_NAMES[tag]}: ${m.block_count} кв., ${km(m.road_length_total_m)}`;
  return {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: net.projection.inverse(anchor) },
        properties: {
          type: 'info',
          type_id: mapType('info').type_id,
          algo_tag: tag,
          html_short: escapeHtml(short),
          html_full: lines.map(escapeHtml).join('<br>'),
        },
      },
    ],
  };
}

const DETAIL_NAMES: Record<string, string> = {
  splits: 'Делений кварталов',
  zones_placed: 'Размещено зон',
  zone_type: 'Тип зоны',
  greedy_bound: 'Оценка жадного выбора',
  paths_sampled: 'Учтено кратчайших путей',
  roads_removed: 'Удалено участков дорог',
  max_detour_growth: 'Допустимый рост пути',
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
