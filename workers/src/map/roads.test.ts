import { describe, expect, it } from 'vitest';
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

const fc = (features: GeoFeature[]): GeoCollection => ({ type: 'FeatureCollection', features });

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
