import { describe, expect, it } from 'vitest';
import { featureCollection as fc, rectangleRing as ring } from '../../test-support/drawing';
import { runAlgorithm, type AlgoTag } from './algorithms';
import { defaultCrs } from './crs';
import { seededRandom } from '../random';
import { dist, localProjection, type XY } from './geo';
import { readNetwork, type GeoCollection, type GeoFeature, type Road } from './network';

/*
 * Property test (issue 27): over random drawings — territories side by side sharing an edge, drawn
 * roads along territory edges, polylines with inner vertices — no generator emits a road segment
 * that lies on top of another road, and the summary's length counts each metre once.
 */

function randomDrawing(seed: number): GeoCollection {
  const random = seededRandom(seed);
  const [lon0, lat0] = [30.3 + random() * 0.05, 59.93 + random() * 0.02];
  const w = 0.004 + random() * 0.008;
  const h = 0.003 + random() * 0.005;
  const skew = (random() - 0.5) * 0.002;
  const first: number[][] = [
    [lon0, lat0],
    [lon0 + w, lat0 + skew],
    [lon0 + w, lat0 + h + skew],
    [lon0, lat0 + h],
  ];
  const areas = [first];
  // Half the drawings get a neighbour sharing the first territory's east edge.
  if (random() < 0.5) {
    const w2 = 0.003 + random() * 0.006;
    areas.push([first[1], [first[1][0] + w2, first[1][1]], [first[2][0] + w2, first[2][1]], first[2]]);
  }
  const features: GeoFeature[] = areas.map((ring, i) => ({
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] },
    properties: { type: 'area', type_id: [10, 14, 12][Math.floor(random() * 3)], name: `Территория ${i + 1}` },
  }));
  const road = (coordinates: number[][], name: string): GeoFeature => ({
    type: 'Feature',
    geometry: { type: 'LineString', coordinates },
    properties: { type: 'road', type_id: 1 + Math.floor(random() * 3), name },
  });
  // A road along the south edge of the first territory (exactly on it), one along the shared edge,
  // and a polyline from outside into the territory with an inner vertex.
  features.push(road([first[0], first[1]], 'улица Ленина'));
  if (areas.length > 1) features.push(road([first[1], first[2]], 'Пограничная улица'));
  features.push(
    road(
      [
        [lon0 - 0.002, lat0 + h / 2],
        [lon0 - 0.0005, lat0 + h / 2 + 0.0003],
        [lon0 + w * random() * 0.5, lat0 + h / 2],
      ],
      'Подъездная дорога',
    ),
  );
  return fc(features);
}

/** How long two segments run on top of each other (m): both on one line (within 5 cm) and their spans shared. */
function overlap(first: Road, second: Road): number {
  // Measured along the longer one: the shorter one's ends must lie on its line.
  const [r, s] = dist(first.a, first.b) >= dist(second.a, second.b) ? [first, second] : [second, first];
  const len = dist(r.a, r.b);
  if (len < 1e-6 || dist(s.a, s.b) < 1e-6) return 0;
  const off = (p: XY) => Math.abs((r.b[0] - r.a[0]) * (p[1] - r.a[1]) - (r.b[1] - r.a[1]) * (p[0] - r.a[0])) / len;
  if (off(s.a) > 0.05 || off(s.b) > 0.05) return 0;
  const t = (p: XY) => ((p[0] - r.a[0]) * (r.b[0] - r.a[0]) + (p[1] - r.a[1]) * (r.b[1] - r.a[1])) / len;
  const [s0, s1] = [Math.min(t(s.a), t(s.b)), Math.max(t(s.a), t(s.b))];
  return Math.max(0, Math.min(len, s1) - Math.max(0, s0));
}

function worstOverlap(roads: Road[]): { metres: number; pairs: number } {
  let [metres, pairs] = [0, 0];
  for (let i = 0; i < roads.length; i++)
    for (let j = i + 1; j < roads.length; j++) {
      if (roads[i].drawn && roads[j].drawn) continue; // the user's own drawing is theirs
      const o = overlap(roads[i], roads[j]);
      if (o > 0.1) pairs += 1;
      metres = Math.max(metres, o);
    }
  return { metres, pairs };
}

describe('road generation never draws a street twice (property test over random drawings)', () => {
  const runs: Array<[AlgoTag, AlgoTag | null]> = [
    ['road_gen_grid', null],
    ['road_gen_voronoi', null],
    ['road_subdivide', 'road_gen_voronoi'],
    ['road_subdivide', null],
  ];
  for (const [tag, before] of runs)
    it(`${tag}${before ? ` after ${before}` : ''}: no segment on top of another road; the summary counts each metre once`, () => {
      for (let seed = 1; seed <= 16; seed++) {
        const drawn = randomDrawing(seed * 7919 + tag.length);
        const crs = defaultCrs(drawn)!;
        const start = before ? runAlgorithm(before, { drawn, general: fc([]), crs }).general : fc([]);
        const out = runAlgorithm(tag, { drawn, general: start, crs });
        const net = readNetwork(drawn, out.general, localProjection(crs.lon, crs.lat));
        expect(net.roads.filter((r) => !r.drawn).length).toBeGreaterThan(0);
        expect(worstOverlap(net.roads), `seed ${seed}`).toEqual({ metres: expect.any(Number), pairs: 0 });
        expect(worstOverlap(net.roads).metres).toBeLessThan(0.1);
        // With nothing doubled, the sum of the segments is the length of the network on the ground.
        const total = net.roads.reduce((sum, r) => sum + dist(r.a, r.b), 0);
        expect(Math.abs(out.metrics.road_length_total_m - total)).toBeLessThan(1);
      }
    });

  it('joins a drawn polyline once, at its end: no connector from its inner vertex, none along it', () => {
    const drawn = randomDrawing(42);
    const crs = defaultCrs(drawn)!;
    const out = runAlgorithm('road_gen_grid', { drawn, general: fc([]), crs });
    const net = readNetwork(drawn, out.general, localProjection(crs.lon, crs.lat));
    const drawnRoads = net.roads.filter((r) => r.drawn);
    const inner = drawnRoads[drawnRoads.length - 1].a; // the access road's inner vertex
    const fromInner = net.roads.filter((r) => !r.drawn && (dist(r.a, inner) < 0.1 || dist(r.b, inner) < 0.1));
    expect(fromInner).toHaveLength(0);
  });
});

/*
 * Issue 46: generated streets 0.2–0.4 m beside a drawn avenue for 50–156 m at a time read in CAD as
 * one street drawn twice. The measure, written apart from the generator: a generated segment runs
 * beside another road where it is within 15° of parallel to it and its point lies level with the
 * other road (the foot of the perpendicular inside it) nearer than the clearance — half the sum of
 * the two carriageway widths (catalog road_width: 30, 20, 12 m). Sampled every 10 cm along every
 * generated segment against every other road, drawn and generated; the total must be 0 m.
 */
const WIDTH: Record<number, number> = { 1: 30, 2: 20, 3: 12 };

function besideMetres(roads: Road[]): { metres: number; worst: string } {
  let metres = 0;
  let worst = '';
  for (const g of roads) {
    if (g.drawn) continue;
    const len = dist(g.a, g.b);
    const steps = Math.max(1, Math.ceil(len / 0.1));
    for (const o of roads) {
      if (o === g) continue;
      const olen = dist(o.a, o.b);
      if (olen < 1e-6 || len < 1e-6) continue;
      const cos = Math.abs(((g.b[0] - g.a[0]) * (o.b[0] - o.a[0]) + (g.b[1] - g.a[1]) * (o.b[1] - o.a[1])) / (len * olen));
      if (cos < Math.cos((15 * Math.PI) / 180)) continue;
      const clearance = (WIDTH[g.type_id] + WIDTH[o.type_id]) / 2;
      let beside = 0;
      // Midpoints of 10 cm steps: a segment that only touches the other road at one end counts nothing.
      for (let i = 0; i < steps; i++) {
        const t = (i + 0.5) / steps;
        const p: XY = [g.a[0] + t * (g.b[0] - g.a[0]), g.a[1] + t * (g.b[1] - g.a[1])];
        const s = ((p[0] - o.a[0]) * (o.b[0] - o.a[0]) + (p[1] - o.a[1]) * (o.b[1] - o.a[1])) / (olen * olen);
        const off = Math.abs((o.b[0] - o.a[0]) * (p[1] - o.a[1]) - (o.b[1] - o.a[1]) * (p[0] - o.a[0])) / olen;
        if (s > 0 && s < 1 && off < clearance) beside += len / steps;
      }
      // Rounding at a shared end or at the edge of the clearance is a step at most.
      if (beside > 0.2) {
        metres += beside;
        worst = `${beside.toFixed(2)} м: (${g.a.map((v) => v.toFixed(1))})–(${g.b.map((v) => v.toFixed(1))}) вдоль (${o.a.map((v) => v.toFixed(1))})–(${o.b.map((v) => v.toFixed(1))})`;
      }
    }
  }
  return { metres, worst };
}

describe('no generated street runs beside another road (issue 46)', () => {
  // A residential territory and, drawn across it, an avenue 0.21–0.42 m off one of the grid's streets
  // (as the drawn Московский проспект was), and a district road 0.3 m inside the south edge.
  const [lon0, lat0] = [30.3, 59.93];
  const area: GeoFeature = {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [ring(lon0, lat0, 0.02, 0.009)] },
    properties: { type: 'area', type_id: 10 },
  };
  const crs = defaultCrs(fc([area]))!;
  const projection = localProjection(crs.lon, crs.lat);
  const plain = runAlgorithm('road_gen_grid', { drawn: fc([area]), general: fc([]), crs });
  const grid = readNetwork(fc([area]), plain.general, projection).roads.filter((r) => r.type_id === 3);
  // The longest east–west line of the grid inside the territory: the avenue follows it.
  const eastWest = grid.filter((r) => Math.abs(r.b[1] - r.a[1]) < 0.05 * Math.abs(r.b[0] - r.a[0]));
  const y = eastWest.map((r) => (r.a[1] + r.b[1]) / 2).sort((m, n) => m - n)[Math.floor(eastWest.length / 2)];
  const onLine = eastWest.filter((r) => Math.abs((r.a[1] + r.b[1]) / 2 - y) < 0.5);
  const [x0, x1] = [Math.min(...onLine.flatMap((r) => [r.a[0], r.b[0]])), Math.max(...onLine.flatMap((r) => [r.a[0], r.b[0]]))];
  const lineY = (x: number) => {
    const r = onLine.find((s) => x >= Math.min(s.a[0], s.b[0]) - 1e-6 && x <= Math.max(s.a[0], s.b[0]) + 1e-6) ?? onLine[0];
    return r.a[1] + ((x - r.a[0]) * (r.b[1] - r.a[1])) / (r.b[0] - r.a[0]);
  };
  const lonLat = (x: number, yy: number) => projection.inverse([x, yy]);
  const avenue: GeoFeature = {
    type: 'Feature',
    geometry: { type: 'LineString', coordinates: [lonLat(x0 - 200, lineY(x0) + 0.21), lonLat(x1 + 200, lineY(x1) + 0.42)] },
    properties: { type: 'road', type_id: 1, name: 'Московский проспект' },
  };
  const south = projection.forward([lon0, lat0]);
  const southEast = projection.forward([lon0 + 0.02, lat0]);
  const district: GeoFeature = {
    type: 'Feature',
    geometry: { type: 'LineString', coordinates: [lonLat(south[0] + 20, south[1] + 0.3), lonLat(southEast[0] - 20, southEast[1] + 0.3)] },
    properties: { type: 'road', type_id: 2, name: 'Южная улица' },
  };
  const drawn = fc([area, avenue, district]);

  it('the fixture is the case of the issue: without the avenue the grid has a street along its line', () => {
    expect(onLine.reduce((s, r) => s + dist(r.a, r.b), 0)).toBeGreaterThan(800);
  });

  for (const [tag, before] of [
    ['road_gen_grid', null],
    ['road_gen_voronoi', null],
    ['road_subdivide', 'road_gen_grid'],
  ] as Array<[AlgoTag, AlgoTag | null]>)
    it(`${tag}${before ? ` after ${before}` : ''}: 0 m of generated street beside a drawn or generated road`, () => {
      const start = before ? runAlgorithm(before, { drawn, general: fc([]), crs }).general : fc([]);
      const out = runAlgorithm(tag, { drawn, general: start, crs });
      const net = readNetwork(drawn, out.general, projection);
      expect(net.roads.filter((r) => !r.drawn).length).toBeGreaterThan(20);
      const beside = besideMetres(net.roads);
      expect(beside.worst).toBe('');
      expect(beside.metres).toBe(0);
      // The summary still counts each metre once, and the territory still has its blocks.
      const total = net.roads.reduce((sum, r) => sum + dist(r.a, r.b), 0);
      expect(Math.abs(out.metrics.road_length_total_m - total)).toBeLessThan(1);
      expect(out.metrics.block_count).toBeGreaterThan(10);
    });

  it('over the random drawings of the property test too: 0 m beside', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const random = randomDrawing(seed * 104729);
      const reference = defaultCrs(random)!;
      for (const tag of ['road_gen_grid', 'road_gen_voronoi'] as const) {
        const out = runAlgorithm(tag, { drawn: random, general: fc([]), crs: reference });
        const net = readNetwork(random, out.general, localProjection(reference.lon, reference.lat));
        expect(besideMetres(net.roads), `${tag}, seed ${seed}`).toEqual({ metres: 0, worst: '' });
      }
    }
  });
});
