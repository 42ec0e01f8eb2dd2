import DxfParser from 'dxf-parser';
import { PMTiles, zxyToTileId as readerTileId } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { MAX_DETOUR_GROWTH, runAlgorithm, type AlgoTag } from './algorithms';
import { buildBasemap } from './basemap-build';
import { MAP_TYPES, mapType } from './catalog';
import { writeDxf, layerOf, LABEL_LAYER } from './dxf';
import { centroid, dist, inside, type XY } from './geo';
import { pairDistances, readNetwork, roadGraph, sample, type GeoCollection, type GeoFeature } from './network';
import { writePmtiles, zxyToTileId } from './pmtiles';

const fc = (features: GeoFeature[]): GeoCollection => ({ type: 'FeatureCollection', features });
/** An L-shaped residential area (~1.3 × 1.1 km, not convex) and a drawn main road leading to it. */
const lArea: GeoFeature = {
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [30.3, 59.93],
        [30.322, 59.93],
        [30.322, 59.936],
        [30.312, 59.936],
        [30.312, 59.94],
        [30.3, 59.94],
        [30.3, 59.93],
      ],
    ],
  },
  properties: { type: 'area', type_id: 10 },
};
const park: GeoFeature = {
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [30.33, 59.93],
        [30.345, 59.93],
        [30.345, 59.938],
        [30.33, 59.938],
        [30.33, 59.93],
      ],
    ],
  },
  properties: { type: 'area', type_id: 13 },
};
const mainRoad: GeoFeature = {
  type: 'Feature',
  geometry: {
    type: 'LineString',
    coordinates: [
      [30.29, 59.935],
      [30.2995, 59.935],
    ],
  },
  properties: { type: 'road', type_id: 1, is_fixed: true },
};
const drawn = fc([lArea, park, mainRoad]);
const empty = fc([]);

/** Per area: are all its blocks reachable from one another along the roads? */
function everyBlockReachable(general: GeoCollection): boolean {
  const net = readNetwork(drawn, general);
  const g = roadGraph(net);
  for (let a = 0; a < net.areas.length; a++) {
    const own = net.blocks.map((b, i) => (b.area === a ? i : -1)).filter((i) => i >= 0);
    if (own.length === 0) continue;
    const seen = new Set<string>([g.anchors[own[0]]]);
    const queue = [g.anchors[own[0]]];
    while (queue.length)
      for (const n of g.graph.neighbors(queue.pop()!))
        if (!seen.has(n)) {
          seen.add(n);
          queue.push(n);
        }
    if (!own.every((i) => seen.has(g.anchors[i]))) return false;
  }
  return true;
}

const run = (tag: AlgoTag, general: GeoCollection = empty, golden: GeoCollection | null = null) => runAlgorithm(tag, { drawn, general, golden });

/** Generated roads' points, in the metres of the network read from the output. */
function roadsAndAreas(general: GeoCollection) {
  const net = readNetwork(drawn, general);
  return { net, generated: net.roads.filter((r) => !r.drawn) };
}

describe('road generators', () => {
  for (const tag of ['road_gen_grid', 'road_gen_voronoi'] as const)
    it(`${tag}: roads lie inside the areas (or join the drawn road), every block is reachable`, () => {
      const out = run(tag);
      const { net, generated } = roadsAndAreas(out.general);
      expect(net.blocks.length).toBeGreaterThan(10);
      const inAnyArea = (p: XY) => net.areas.some((a) => inside(p, a.poly, 0.5));
      const drawnEnds = net.roads.filter((r) => r.drawn).flatMap((r) => [r.a, r.b]);
      for (const r of generated) {
        const mid: XY = [(r.a[0] + r.b[0]) / 2, (r.a[1] + r.b[1]) / 2];
        const connector = drawnEnds.some((e) => dist(e, r.a) < 0.5 || dist(e, r.b) < 0.5);
        if (!connector) expect(inAnyArea(r.a) && inAnyArea(r.b) && inAnyArea(mid)).toBe(true);
      }
      // Blocks cover the areas (within 0.5 %) and each lies in one.
      const areaSum = net.areas.reduce(
        (s, a) => s + Math.abs(a.poly[0].reduce((acc, p, i, ring) => (i + 1 < ring.length ? acc + p[0] * ring[i + 1][1] - ring[i + 1][0] * p[1] : acc), 0)) / 2,
        0,
      );
      expect(out.metrics.block_area_m2.mean * out.metrics.block_count).toBeGreaterThan(areaSum * 0.995);
      for (const b of net.blocks) expect(net.areas.some((a) => inside(centroid(b.poly), a.poly))).toBe(true);
      // Per area, all its blocks are reachable from one another along roads.
      const g = roadGraph(net);
      for (let a = 0; a < net.areas.length; a++) {
        const own = net.blocks.map((b, i) => (b.area === a ? i : -1)).filter((i) => i >= 0);
        const seen = new Set<string>([g.anchors[own[0]]]);
        const queue = [g.anchors[own[0]]];
        while (queue.length)
          for (const n of g.graph.neighbors(queue.pop()!))
            if (!seen.has(n)) {
              seen.add(n);
              queue.push(n);
            }
        expect(own.every((i) => seen.has(g.anchors[i]))).toBe(true);
      }
      // The drawn road is joined to the generated network: its end reaches the blocks of the area beside it.
      const roadEnd = g.graph.nodes().find((n) => dist(g.graph.getNodeAttribute(n, 'xy'), net.projection.forward([30.2995, 59.935])) < 0.5)!;
      const reached = new Set<string>([roadEnd]);
      const queue = [roadEnd];
      while (queue.length)
        for (const n of g.graph.neighbors(queue.pop()!))
          if (!reached.has(n)) {
            reached.add(n);
            queue.push(n);
          }
      expect(reached.has(g.anchors[net.blocks.findIndex((b) => b.area === 0)])).toBe(true);
      expect(out.info.features).toHaveLength(1);
      expect(out.info.features[0].properties.html_full).toContain('Кварталов');
    });

  it('road_gen_grid spaces streets by area type: a park gets larger blocks than housing', () => {
    const { net } = roadsAndAreas(run('road_gen_grid').general);
    const median = (area: number) => {
      const sizes = net.blocks
        .filter((b) => b.area === area)
        .map((b) => Math.abs(b.poly[0].reduce((acc, p, i, r) => (i + 1 < r.length ? acc + p[0] * r[i + 1][1] - r[i + 1][0] * p[1] : acc), 0)) / 2);
      return sizes.sort((x, y) => x - y)[Math.floor(sizes.length / 2)];
    };
    expect(median(0)).toBeCloseTo(mapType('area', 10).block_spacing! ** 2, -2);
    const largest = (area: number) =>
      Math.max(
        ...net.blocks
          .filter((b) => b.area === area)
          .map((b) => Math.abs(b.poly[0].reduce((acc, p, i, r) => (i + 1 < r.length ? acc + p[0] * r[i + 1][1] - r[i + 1][0] * p[1] : acc), 0)) / 2),
      );
    expect(largest(1)).toBeCloseTo(mapType('area', 13).block_spacing! ** 2, -2);
    expect(largest(1)).toBeGreaterThan(largest(0) * 4);
  });

  it('road_subdivide leaves no block over its limit (voronoi blocks are uneven before)', () => {
    const voronoi = run('road_gen_voronoi');
    const limit = mapType('area', 13).block_max_area!;
    expect(voronoi.metrics.block_area_m2.max).toBeGreaterThan(mapType('area', 10).block_max_area!);
    const out = run('road_subdivide', voronoi.general);
    const net = readNetwork(drawn, out.general);
    for (const b of net.blocks) {
      const area = Math.abs(b.poly[0].reduce((acc, p, i, r) => (i + 1 < r.length ? acc + p[0] * r[i + 1][1] - r[i + 1][0] * p[1] : acc), 0)) / 2;
      expect(area).toBeLessThanOrEqual((b.area === 1 ? limit : mapType('area', 10).block_max_area!) * 1.001);
    }
    expect(out.metrics.block_count).toBeGreaterThan(voronoi.metrics.block_count);
    expect(everyBlockReachable(out.general)).toBe(true);
  });
});

describe('optimisers', () => {
  const grid = run('road_gen_grid');

  it('block_min_circle_cover covers every block and states its bound', () => {
    const out = run('block_min_circle_cover', grid.general);
    expect(out.metrics.coverage).toBe(1);
    const zones = out.general.features.filter((f) => f.properties.type === 'zone');
    expect(zones.length).toBe(out.details.zones_placed);
    expect(zones.length).toBeGreaterThan(0);
    expect(zones.length).toBeLessThan(out.metrics.block_count);
    expect(String(out.details.greedy_bound)).toMatch(/от минимума/);
  });

  it('road_greed_types gives the most loaded roads the main class and keeps fixed roads', () => {
    const out = run('road_greed_types', grid.general);
    const classes = new Set(out.general.features.filter((f) => f.properties.type === 'road').map((f) => f.properties.type_id));
    expect(classes).toEqual(new Set([1, 2, 3]));
    expect(out.metrics.road_length_total_m).toBeCloseTo(grid.metrics.road_length_total_m, 0);
    expect(out.metrics.road_length_m['1']).toBeGreaterThan(grid.metrics.road_length_m['1']);
  });

  it('road_greed_remove keeps every block reachable and sampled trips within the stated growth', () => {
    const out = run('road_greed_remove', grid.general);
    expect(out.details.roads_removed).toBeGreaterThan(0);
    expect(out.metrics.road_length_total_m).toBeLessThan(grid.metrics.road_length_total_m);
    // Connectivity: every block still reaches the first one.
    expect(everyBlockReachable(out.general)).toBe(true);
    expect(out.metrics.reachable_blocks).toBe(grid.metrics.reachable_blocks);
    expect(out.metrics.detour_mean!).toBeLessThanOrEqual(grid.metrics.detour_mean! * 1.5);
  });

  it('road_greed_remove: no sampled block-to-block trip grows more than the stated ratio', () => {
    const out = run('road_greed_remove', grid.general);
    const [before, after] = [roadGraph(readNetwork(drawn, grid.general)), roadGraph(readNetwork(drawn, out.general))];
    expect(after.anchors).toEqual(before.anchors);
    const picked = sample(before.anchors.length, 40);
    const [d0, d1] = [pairDistances(before, picked, picked), pairDistances(after, picked, picked)];
    for (const [pair, d] of d0) if (Number.isFinite(d)) expect(d1.get(pair)!).toBeLessThanOrEqual(d * MAX_DETOUR_GROWTH + 1e-6);
  });

  it('road_subdivide adds only the cut lines: no street is counted twice', () => {
    const voronoi = run('road_gen_voronoi');
    const out = run('road_subdivide', voronoi.general);
    const added = out.metrics.road_length_total_m - voronoi.metrics.road_length_total_m;
    expect(added).toBeGreaterThan(0);
    // Each split cuts one block across its shorter side: never longer than the block's bounding box diagonal (≤ ~1 km here).
    expect(added / Number(out.details.splits)).toBeLessThan(600);
    expect(run('road_subdivide', run('road_gen_grid').general).metrics.road_length_total_m).toBeCloseTo(run('road_gen_grid').metrics.road_length_total_m, 0);
  });

  it('every algorithm is deterministic', () => {
    for (const tag of ['road_gen_grid', 'road_gen_voronoi'] as const) expect(JSON.stringify(run(tag))).toBe(JSON.stringify(run(tag)));
    for (const tag of ['road_subdivide', 'block_min_circle_cover', 'road_greed_types', 'road_greed_remove'] as const)
      expect(JSON.stringify(run(tag, grid.general))).toBe(JSON.stringify(run(tag, grid.general)));
  });

  it('shows the differences from the golden standard', () => {
    const golden = fc([...drawn.features, ...grid.general.features]);
    const out = run('road_greed_remove', grid.general, golden);
    const text = out.info.features[0].properties.html_full as string;
    expect(text).toContain('Отличие от эталона');
    expect(text).toMatch(/длина дорог −\d/);
  });

  it('refuses to generate without an area', () => {
    expect(() => runAlgorithm('road_gen_grid', { drawn: fc([mainRoad]), general: empty })).toThrow(/территорию/);
  });
});

describe('DXF export', () => {
  it('writes layers per type and road class, entities and Cyrillic labels that dxf-parser reads back', () => {
    const out = run('block_min_circle_cover', run('road_greed_types', run('road_gen_grid').general).general);
    const drawing = fc([...drawn.features, ...out.general.features]);
    const dxf = writeDxf(drawing, out.info);
    const parsed = new DxfParser().parseSync(dxf.text)!;
    const layers = Object.keys(parsed.tables.layer.layers);
    for (const t of MAP_TYPES) expect(layers).toContain(layerOf(t));
    expect(layers).toContain(LABEL_LAYER);
    expect(parsed.tables.layer.layers[layerOf(mapType('road', 1))].colorIndex).toBe(mapType('road', 1).aci);
    const perLayer: Record<string, number> = {};
    for (const e of parsed.entities) perLayer[e.layer] = (perLayer[e.layer] ?? 0) + 1;
    expect(perLayer).toEqual(dxf.counts);
    const roads = drawing.features.filter((f) => f.properties.type === 'road').length;
    expect([1, 2, 3].reduce((s, id) => s + (perLayer[layerOf(mapType('road', id))] ?? 0), 0)).toBe(roads);
    expect(perLayer[layerOf(mapType('block'))]).toBe(out.metrics.block_count);
    expect(parsed.entities.filter((e) => e.type === 'CIRCLE')).toHaveLength(Number(out.details.zones_placed));
    const texts = parsed.entities.filter((e) => e.type === 'TEXT').map((e) => (e as unknown as { text: string }).text);
    expect(texts).toContain('Жилая застройка');
    // Metres: the L-shaped area is about 1.2 km wide.
    const outline = parsed.entities.find((e) => e.layer === layerOf(mapType('area', 10))) as unknown as { vertices: Array<{ x: number }> };
    const xs = outline.vertices.map((v) => v.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(1150);
    expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(1300);
  });
});

describe('PMTiles writer', () => {
  it('numbers tiles as the pmtiles reader does', () => {
    for (const [z, x, y] of [
      [0, 0, 0],
      [1, 1, 0],
      [3, 5, 2],
      [6, 37, 18],
      [12, 2390, 1190],
    ])
      expect(zxyToTileId(z, x, y)).toBe(readerTileId(z, x, y));
  });

  it('writes an archive the pmtiles reader opens, with leaf directories when the root is full', async () => {
    const tiles = [];
    for (let x = 0; x < 64; x++) for (let y = 0; y < 64; y++) tiles.push({ z: 6, x, y, data: new TextEncoder().encode(`tile ${x}/${y}`) });
    const bytes = writePmtiles(tiles, {
      minZoom: 6,
      maxZoom: 6,
      bounds: [-180, -85, 180, 85],
      center: [0, 0, 6],
      tileCompression: 1,
      tileType: 2,
      metadata: { name: 't' },
    });
    const archive = new PMTiles({ getKey: () => 'k', getBytes: async (o: number, l: number) => ({ data: bytes.slice(o, o + l).buffer as ArrayBuffer }) });
    const header = await archive.getHeader();
    expect(header.numAddressedTiles).toBe(4096);
    expect(new TextDecoder().decode((await archive.getZxy(6, 37, 18))!.data)).toBe('tile 37/18');
    expect(new TextDecoder().decode((await archive.getZxy(6, 63, 0))!.data)).toBe('tile 63/0');
    expect(await archive.getMetadata()).toEqual({ name: 't' });
  });

  it('builds the Natural Earth basemap: land near Saint Petersburg, none in open sea', async () => {
    const bytes = buildBasemap(4);
    const archive = new PMTiles({ getKey: () => 'b', getBytes: async (o: number, l: number) => ({ data: bytes.slice(o, o + l).buffer as ArrayBuffer }) });
    expect(await archive.getHeader()).toMatchObject({ tileType: 1, maxZoom: 4, specVersion: 3 });
    expect((await archive.getZxy(4, 9, 4))?.data.byteLength).toBeGreaterThan(0);
    expect(await archive.getZxy(4, 1, 10)).toBeUndefined();
  });
});
