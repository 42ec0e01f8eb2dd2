import { describe, expect, it } from 'vitest';
import { computeFigures, FigureExtentFold, FigureFold, type FigureZone, type PlanTrack, type PlanTrackPoint } from './figures';
import { joinOverlappingViews } from './join';
import { simplifyPath } from './paths';

/** Points every second (and at each key) moving straight between keys [t, x, y]. */
function walk(id: string, camera: number, keys: [number, number, number][], frame?: [number, number]): PlanTrack {
  const points: PlanTrackPoint[] = [];
  for (let k = 0; k < keys.length; k++) {
    const [t0, x0, y0] = keys[k]!;
    const next = keys[k + 1];
    if (!next) {
      points.push({ t: t0, x: x0, y: y0 });
      break;
    }
    const [t1, x1, y1] = next;
    for (let t = t0; t < t1; t += 1) {
      const s = (t - t0) / (t1 - t0);
      points.push({ t, x: x0 + s * (x1 - x0), y: y0 + s * (y1 - y0) });
    }
  }
  return { id, camera_id: camera, points: frame ? points.map((p) => ({ ...p, fx: frame[0], fy: frame[1] })) : points };
}

/*
 * The hall along the line y = 1: stand A — a circle at (2, 1), r 1 (x ∈ [1, 3] on the line); stand B —
 * the square x, y ∈ [6, 8] × [0, 2]; stand C far away at (20, 20), nobody goes there; safe zone S —
 * x, y ∈ [10, 12] × [0, 2]. Window 1000…1120 s. People walk 1 m/s unless said.
 */
const zones: FigureZone[] = [
  { id: 1, name: 'Стенд А', role: 'stand', shape: { type: 'circle', center: [2, 1], radius: 1 } },
  {
    id: 2,
    name: 'Стенд Б',
    role: 'stand',
    shape: {
      type: 'polygon',
      points: [
        [6, 0],
        [8, 0],
        [8, 2],
        [6, 2],
      ],
    },
  },
  { id: 3, name: 'Стенд В', role: 'stand', shape: { type: 'circle', center: [20, 20], radius: 1 } },
  {
    id: 4,
    name: 'Витрина',
    role: 'safe',
    shape: {
      type: 'polygon',
      points: [
        [10, 0],
        [12, 0],
        [12, 2],
        [10, 2],
      ],
    },
  },
];

const tracks: PlanTrack[] = [
  // a: at A 1000–1010, leaves A (x = 3) at 1011, enters B (x = 6) at 1014, stays at (7, 1) to 1035, leaves B (x = 8)
  // at 1036, enters S (x = 10) at 1038, deepest at (11, 1) at 1039, back out (x = 10) at 1040, ends at 1041 at x = 9.
  walk('a', 1, [
    [1000, 2, 1],
    [1010, 2, 1],
    [1015, 7, 1],
    [1035, 7, 1],
    [1039, 11, 1],
    [1041, 9, 1],
  ]),
  // b: in B 1030–1034 (x = 6 at 1034), enters A (x = 3) at 1037, stays at (2, 1) to 1100.
  walk('b', 1, [
    [1030, 7, 1],
    [1033, 7, 1],
    [1038, 2, 1],
    [1100, 2, 1],
  ]),
  // c: runs 4 → 14 m in 2 s (5 m/s): through B for 0.4 s (1050.4–1050.8) — no visit —, through S 1051.2–1051.6.
  walk('c', 2, [
    [1050, 4, 1],
    [1052, 14, 1],
  ]),
  // d: at A 1060–1066 (x = 3 is the boundary), steps out to x = 3.5 and back within 1 s (1066–1067), in A again
  // to 1075: one visit of 15 s (14 s inside).
  walk('d', 2, [
    [1060, 2, 1],
    [1065, 2, 1],
    [1066, 3, 1],
    [1066.5, 3.5, 1],
    [1067, 3, 1],
    [1068, 2, 1],
    [1075, 2, 1],
  ]),
  // e: one sighting at 1110 — present, but for no measurable time.
  { id: 'e', camera_id: 2, points: [{ t: 1110, x: 30, y: 30 }] },
  // f: before the window.
  walk('f', 1, [
    [900, 2, 1],
    [950, 2, 1],
  ]),
  // g: standing at (20, 25) from 1110 to 1130 — 10 s inside the window; frame foot point (100, 200) on camera 2.
  walk(
    'g',
    2,
    [
      [1110, 20, 25],
      [1130, 20, 25],
    ],
    [100, 200],
  ),
];

describe('event figures', () => {
  const f = computeFigures(tracks, zones, { from: 1000, to: 1120, planBounds: [0, 0, 30, 30], frameSizes: { 2: { width: 640, height: 480 } } });

  it('visitors, visitors per minute, occupancy and its peak', () => {
    // Present: a, b, c, d, e, g (f is before the window).
    expect(f.visitors).toBe(6);
    // Minute 1000–1060: a, b, c present and started there. Minute 1060–1120: b, d, e, g present; d, e, g started.
    expect(f.visitors_per_minute).toEqual([
      { minute_start: 1000, visitors: 3, entries: 3 },
      { minute_start: 1060, visitors: 4, entries: 3 },
    ]);
    expect(f.occupancy_step_seconds).toBe(5);
    expect(f.occupancy).toHaveLength(24);
    const at = (t: number) => f.occupancy.find((r) => r.t === t)?.people;
    expect(at(1000)).toBe(1); // a alone
    expect(at(1040)).toBe(1.2); // a to 1041 (1 s) + b (5 s) over 5 s
    expect(at(1050)).toBe(1.4); // b (5 s) + c (2 s)
    expect(at(1110)).toBe(1); // g 5 s; e's sighting adds no time
    // Two people first at 1030–1035 (a and b); 1060–1075 (b and d) ties later.
    expect(f.peak_occupancy).toEqual({ t: 1030, people: 2 });
  });

  it('heat map on the plan integrates time along the tracks; frame heat map per camera', () => {
    const h = f.heat_map;
    expect(h).toMatchObject({ origin: [0, 0], cell: 0.5, columns: 60, rows: 60 });
    // Presence: a 41 s, b 70 s, c 2 s, d 15 s, g 10 s = 138 s, all inside the plan.
    const sum = h.seconds.reduce((s, v) => s + v, 0);
    expect(sum).toBeCloseTo(138, 6);
    expect(h.outside_seconds).toBe(0);
    // Cell x ∈ [2, 2.5), y ∈ [1, 1.5) (column 4, row 2): a 10 s standing + 0.5 s leaving; b 0.5 s arriving + 62 s;
    // d 5 + 0.5 (out) + 0.5 (back) + 7 s = 86 s.
    expect(h.seconds[2 * 60 + 4]).toBe(86);
    // c at 5 m/s spends 0.1 s in each half-metre cell it crosses, e.g. x ∈ [12.5, 13).
    expect(h.seconds[2 * 60 + 25]).toBe(0.1);
    // Frame: only g has frame points; camera 2, 640 × 480 at 32 px = 20 × 15 cells, (100, 200) in column 3, row 6.
    expect(f.frame_heat_maps).toHaveLength(1);
    const fr = f.frame_heat_maps[0]!;
    expect(fr.camera_id).toBe(2);
    expect(fr.grid).toMatchObject({ columns: 20, rows: 15, cell: 32 });
    expect(fr.grid.seconds[6 * 20 + 3]).toBe(10);
  });

  it('paths: Douglas–Peucker on the plan with times', () => {
    // a lies on y = 1: only the ends and the turn at x = 11 (2 m beyond the line (2, 1)–(9, 1)) remain.
    expect(f.paths.find((p) => p.track_id === 'a')?.points).toEqual([
      { t: 1000, x: 2, y: 1 },
      { t: 1039, x: 11, y: 1 },
      { t: 1041, x: 9, y: 1 },
    ]);
    // An L with 0.1 m jitter: the corner stays, the jitter goes.
    const l = [
      { t: 0, x: 0, y: 0 },
      { t: 1, x: 1, y: 0.1 },
      { t: 2, x: 2, y: 0 },
      { t: 3, x: 2.1, y: 1 },
      { t: 4, x: 2, y: 2 },
    ];
    expect(simplifyPath(l, 0.25).map((p) => p.t)).toEqual([0, 2, 4]);
    expect(simplifyPath(l, 0.05).map((p) => p.t)).toEqual([0, 1, 2, 3, 4]);
  });

  it('dwell per zone: visits of at least 4 s, a short step out does not split a visit', () => {
    const a = f.dwell.find((d) => d.zone_id === 1)!;
    // Visits: a 1000–1011 (11 s), b 1037–1100 (63 s), d 1060–1075 (15 s). Sorted 11, 15, 63: total 89, median 15,
    // mean 29.67, p90 at position 1.8 = 15 + 0.8 · 48 = 53.4.
    expect(a).toMatchObject({ visits: 3, visitors: 3, total_seconds: 89, median_seconds: 15, mean_seconds: 29.67, p90_seconds: 53.4 });
    expect(a.histogram.map((b) => b.count)).toEqual([0, 2, 0, 1, 0, 0]);
    expect(a.histogram[0]).toEqual({ label: '0–10 с', from: 0, to: 10, count: 0 });
    expect(a.histogram[5]).toEqual({ label: 'больше 5 мин', from: 300, to: null, count: 0 });
    // B: a 1014–1036 (22 s), b 1030–1034 (4 s); c's 0.4 s is no visit. Median = mean = 13, p90 = 4 + 0.9 · 18 = 20.2.
    expect(f.dwell.find((d) => d.zone_id === 2)).toMatchObject({
      visits: 2,
      visitors: 2,
      total_seconds: 26,
      median_seconds: 13,
      mean_seconds: 13,
      p90_seconds: 20.2,
    });
    expect(f.dwell.find((d) => d.zone_id === 3)).toMatchObject({ visits: 0, visitors: 0, total_seconds: 0, median_seconds: null, p90_seconds: null });
    // S: a's 2 s and c's 0.4 s are no visits (under 4 s), but both are time inside: 2.4 s.
    expect(f.dwell.find((d) => d.zone_id === 4)).toMatchObject({ visits: 0, visitors: 0, total_seconds: 0, inside_seconds: 2.4 });
    // B's time inside adds c's 0.4 s walk-through to the visits' 26 s; with a 2 s minimum a's 2 s in S is a visit.
    expect(f.dwell.find((d) => d.zone_id === 2)!.inside_seconds).toBe(26.4);
    const shorter = computeFigures(tracks, zones, { from: 1000, to: 1120, minDwellSeconds: 2 });
    expect(shorter.dwell.find((d) => d.zone_id === 4)).toMatchObject({ visits: 1, visitors: 1, total_seconds: 2, inside_seconds: 2.4 });
  });

  it('each zone lists its visits with their moments: in time order, the longest kept when there are more', () => {
    expect(f.dwell.find((d) => d.zone_id === 1)!.visit_moments).toEqual([
      { track_id: 'a', view_id: 'a', camera_id: 1, start: 1000, end: 1011, seconds: 11 },
      { track_id: 'b', view_id: 'b', camera_id: 1, start: 1037, end: 1100, seconds: 63 },
      { track_id: 'd', view_id: 'd', camera_id: 2, start: 1060, end: 1075, seconds: 15 },
    ]);
    expect(f.dwell.find((d) => d.zone_id === 3)!.visit_moments).toEqual([]);
    // Listing two: the 63 s and 15 s visits, still in time order; the counts keep all three.
    const two = computeFigures(tracks, zones, { from: 1000, to: 1120, listedVisits: 2 });
    const a = two.dwell.find((d) => d.zone_id === 1)!;
    expect(a.visits).toBe(3);
    expect(a.visit_moments.map((v) => [v.track_id, v.start])).toEqual([
      ['b', 1037],
      ['d', 1060],
    ]);
    // Safe zones list their first entries; the total counts all.
    const one = computeFigures(tracks, zones, { from: 1000, to: 1120, listedVisits: 1 });
    expect(one.safe_zone_entries[0]).toMatchObject({ entries_total: 2, entries: [{ track_id: 'a', entry: 1038 }] });
    expect(() => computeFigures(tracks, zones, { from: 1000, to: 1120, listedVisits: 0 })).toThrow(/listedVisits/);
  });

  it('a visit of a track joined across two cameras names the camera that saw its start', () => {
    // Camera 1 sees the person 0–5 s, camera 2 from 5 s on; the joined track enters A (x ≤ 3) at 8 s, seen by camera 2.
    const first = walk('1:10:1', 1, [
      [0, 8, 1],
      [5, 6, 1],
    ]);
    const second = walk('2:20:1', 2, [
      [5, 6, 1],
      [10, 1, 1],
      [20, 1, 1],
    ]);
    const joined: PlanTrack = { id: '1:10:1+2:20:1', camera_id: 1, points: [...first.points, ...second.points.slice(1)], views: [first, second] };
    const j = computeFigures([joined], zones, { from: 0, to: 60 });
    expect(j.dwell[0]!.visit_moments).toEqual([{ track_id: '1:10:1+2:20:1', view_id: '2:20:1', camera_id: 2, start: 8, end: 20, seconds: 12 }]);
  });

  it('a gap in the track longer than 2 s ends presence and splits a visit', () => {
    const gap: PlanTrack = {
      id: 'h',
      camera_id: 1,
      points: [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12].map((t) => ({ t, x: 2, y: 1 })),
    };
    const g = computeFigures([gap], zones.slice(0, 1), { from: 0, to: 60 });
    // Present 0–5 and 8–12: 9 s; two visits of 5 and 4 s by one visitor.
    // Occupancy 0–5: 5 s / 5; 5–10: 8–10, 2 s / 5; 10–15: 10–12, 2 s / 5.
    expect(g.occupancy.slice(0, 3).map((r) => r.people)).toEqual([1, 0.4, 0.4]);
    expect(g.dwell[0]).toMatchObject({ visits: 2, visitors: 1, total_seconds: 9, median_seconds: 4.5 });
  });

  it('stands ranked; the unvisited stand is the least popular', () => {
    expect(f.stands.ranking.map((s) => [s.zone_id, s.visitors, s.total_seconds])).toEqual([
      [1, 3, 89],
      [2, 2, 26],
      [3, 0, 0],
    ]);
    expect(f.stands.most_popular.map((s) => s.name)).toEqual(['Стенд А']);
    expect(f.stands.least_popular.map((s) => s.name)).toEqual(['Стенд В']);
    // Ties by visitors go to the longer total dwell.
    const tie = computeFigures(
      [
        walk('p', 1, [
          [0, 2, 1],
          [5, 2, 1],
        ]),
        walk('q', 1, [
          [0, 7, 1],
          [9, 7, 1],
        ]),
      ],
      zones.slice(0, 2),
      { from: 0, to: 60 },
    );
    expect(tie.stands.ranking.map((s) => s.zone_id)).toEqual([2, 1]);
  });

  it('routes: each visitor’s zones in order, popular routes with counts, safe zones left out', () => {
    expect(f.routes.visitors).toEqual([
      { track_id: 'a', zones: [1, 2] },
      { track_id: 'b', zones: [2, 1] },
      { track_id: 'd', zones: [1] },
    ]);
    // Two routes once each: the tie goes in the zones' order (A→B before B→A).
    expect(f.routes.popular).toEqual([
      { zones: [1, 2], names: ['Стенд А', 'Стенд Б'], count: 1 },
      { zones: [2, 1], names: ['Стенд Б', 'Стенд А'], count: 1 },
    ]);
    // A → B → A → B by three people (A 0–4, B 7–12.8, A 18.2–24, B 27–31), B → A by one, and one who leaves A
    // for 8 s (two visits) and comes back: A, A collapses to A.
    const abab = [0, 1, 2].map((i) =>
      walk(`m${i}`, 1, [
        [0, 2, 1],
        [3, 2, 1],
        [8, 7, 1],
        [11, 7, 1],
        [20, 2, 1],
        [23, 2, 1],
        [28, 7, 1],
        [31, 7, 1],
      ]),
    );
    const ba = walk('n', 1, [
      [0, 7, 1],
      [3, 7, 1],
      [8, 2, 1],
      [11, 2, 1],
    ]);
    const back = walk('o', 1, [
      [0, 2, 1],
      [3, 2, 1],
      [4, 2, 2],
      [8, 2, 4],
      [12, 2, 2],
      [13, 2, 1],
      [16, 2, 1],
    ]);
    const r = computeFigures([...abab, ba, back], zones.slice(0, 2), { from: 0, to: 120, topRoutes: 1 });
    expect(r.dwell[0]!.visits).toBe(3 * 2 + 1 + 2);
    expect(r.routes.popular).toEqual([{ zones: [1, 2, 1, 2], names: ['Стенд А', 'Стенд Б', 'Стенд А', 'Стенд Б'], count: 3 }]);
    expect(r.routes.visitors.find((v) => v.track_id === 'o')).toEqual({ track_id: 'o', zones: [1] });
  });

  it('safe-zone entries: every entry with its moments, time inside and deepest point', () => {
    expect(f.safe_zone_entries).toEqual([
      {
        zone_id: 4,
        name: 'Витрина',
        entries_total: 2,
        entries: [
          { track_id: 'a', view_id: 'a', camera_id: 1, entry: 1038, exit: 1040, seconds_inside: 2, deepest: { t: 1039, x: 11, y: 1, depth_metres: 1 } },
          // c crosses x = 10 at 1051.2 and x = 12 at 1051.6; deepest in the middle, (11, 1).
          {
            track_id: 'c',
            view_id: 'c',
            camera_id: 2,
            entry: 1051.2,
            exit: 1051.6,
            seconds_inside: 0.4,
            deepest: { t: 1051.4, x: 11, y: 1, depth_metres: 1 },
          },
        ],
      },
    ]);
  });

  it('the window cuts tracks; long windows and wide plans keep their outputs bounded', () => {
    // At A from 990 to 1005: 5 s inside the window 1000–1060, a visitor but no entry (it started before).
    const early = walk('x', 1, [
      [990, 2, 1],
      [1005, 2, 1],
    ]);
    const w = computeFigures([early], zones.slice(0, 1), { from: 1000, to: 1060 });
    expect(w.visitors_per_minute).toEqual([{ minute_start: 1000, visitors: 1, entries: 0 }]);
    expect(w.dwell[0]).toMatchObject({ visits: 1, total_seconds: 5 });
    expect(w.heat_map.seconds.reduce((s, v) => s + v, 0)).toBeCloseTo(5, 6);
    // A week: 10 080 minutes; occupancy step 604 800 / 10 000 = 60.48 → 61 s, ⌈604 800 / 61⌉ = 9915 rows.
    const week = computeFigures([], [], { from: 0, to: 7 * 24 * 3600 });
    expect(week.visitors_per_minute).toHaveLength(10_080);
    expect(week.occupancy_step_seconds).toBe(61);
    expect(week.occupancy).toHaveLength(9915);
    // 1 km square at 0.5 m would be 4 000 000 cells; at 1 m 1 000 000; at 2 m 500 × 500 = 250 000 — the limit.
    const wide = computeFigures([early], [], { from: 1000, to: 1060, planBounds: [0, 0, 1000, 1000] });
    expect(wide.heat_map).toMatchObject({ cell: 2, columns: 500, rows: 500 });
  });

  it('refuses a bad window or option', () => {
    expect(() => computeFigures([], [], { from: 10, to: 10 })).toThrow('Конец окна должен быть позже начала');
    expect(() => computeFigures([], [], { from: 0, to: 8 * 24 * 3600 })).toThrow('Окно не длиннее семи суток');
    expect(() => computeFigures([], [], { from: 0, to: 10, cellMetres: 0 })).toThrow(/cellMetres/);
    expect(() => computeFigures([], [], { from: 0, to: 10, maxGapSeconds: Number.NaN })).toThrow(/maxGapSeconds/);
    // Nothing at all: empty figures, not an error.
    const empty = computeFigures([], [], { from: 0, to: 10 });
    expect(empty).toMatchObject({ visitors: 0, peak_occupancy: { t: 0, people: 0 }, heat_map: { columns: 0, rows: 0 } });
  });
});

describe('figures folded track by track', () => {
  /** People along y = 1 (through stands A and B, some into the safe zone), each seen by camera 1 and, 0.2 m off, by camera 2. */
  const hall = () =>
    Array.from({ length: 12 }, (_, i) => {
      const t0 = 1000 + i * 7;
      const keys: [number, number, number][] = [
        [t0, 0, 1],
        [t0 + 2, 2, 1],
        [t0 + 4 + (i % 5) * 3, 2.2, 1],
        [t0 + 12 + (i % 5) * 3, 7, 1],
        [t0 + 20 + (i % 3) * 4, 7, 1.5],
        [t0 + 26 + (i % 3) * 4, i % 2 ? 11 : 9, 1],
      ];
      const a = walk(`1:1:${i}`, 1, keys, [100 + i, 200]);
      const b = walk(
        `2:2:${i}`,
        2,
        keys.map(([t, x, y]) => [t, x + 0.2, y]),
        [300, 100 + i],
      );
      return [a, b];
    }).flat();

  it('give the same figures one track at a time as all at once, overlapping cameras joined first', () => {
    const joined = joinOverlappingViews(hall());
    expect(joined).toHaveLength(12);
    const options = { from: 1000, to: 1120, listedVisits: 3 };
    const all = computeFigures(joined, zones, options);
    expect(all.visitors).toBe(12);
    // More visits than listed: the kept longest are cut back while folding.
    expect(all.dwell[0]!.visits).toBeGreaterThan(2 * 3);
    // The extents measured in another order (boxes do not depend on it), then the tracks one by one.
    const extents = new FigureExtentFold(options);
    for (const track of [...joined].reverse()) extents.add(track);
    const fold = new FigureFold(zones, options, extents.result(zones));
    for (const track of joined) fold.add(track);
    expect(JSON.stringify(fold.result())).toBe(JSON.stringify(all));
    // The 3 longest visits of stand A, as the full list of them ranks them.
    const every = computeFigures(joined, zones, { ...options, listedVisits: 200 }).dwell[0]!.visit_moments;
    const longest = [...every].sort((a, b) => b.seconds - a.seconds || a.start - b.start).slice(0, 3);
    expect(all.dwell[0]!.visit_moments).toEqual(longest.sort((a, b) => a.start - b.start));
    expect(all.safe_zone_entries[0]!.entries_total).toBeGreaterThan(3);
    expect(all.safe_zone_entries[0]!.entries).toHaveLength(3);
  });
});
