import { describe, expect, it } from 'vitest';
import { computeFigures, type PlanTrack } from './figures';
import { joinOverlappingViews, positionAt } from './join';

/** A straight walk along y at 1 m/s from x = x0, one sighting a second from t0 to t1; optional frame point. */
function line(id: string, camera: number, t0: number, t1: number, x0: number, y: number, frame?: [number, number]): PlanTrack {
  const points = [];
  for (let t = t0; t <= t1; t++) points.push({ t, x: x0 + (t - t0), y, ...(frame ? { fx: frame[0], fy: frame[1] } : {}) });
  return { id, camera_id: camera, points };
}

describe('joining overlapping cameras', () => {
  it('one person through the overlap of two cameras is one visitor', () => {
    // Camera 1 sees x = 0…10 at t = 0…10; camera 2 the same person at t = 6…16, 0.3 m off (calibration error).
    const a = line('1:5', 1, 0, 10, 0, 1, [100, 100]);
    const b = line('2:7', 2, 6, 16, 6, 1.3, [300, 300]);
    const joined = joinOverlappingViews([a, b]);
    expect(joined).toHaveLength(1);
    const j = joined[0]!;
    expect(j.id).toBe('1:5+2:7');
    expect(j.camera_id).toBe(1);
    expect(j.views).toEqual([a, b]);
    // t = 0…16, one point a second; where both see (t = 6…10) y is the mean 1.15, elsewhere the one view's.
    expect(j.points.map((p) => p.t)).toEqual(Array.from({ length: 17 }, (_, t) => t));
    expect(j.points[3]).toEqual({ t: 3, x: 3, y: 1 });
    expect(j.points[8]!.y).toBeCloseTo(1.15, 12);
    expect(j.points[14]).toEqual({ t: 14, x: 14, y: 1.3 });
    // Figures count one visitor instead of two; the frame heat maps still come from both cameras' views.
    const window = { from: 0, to: 60 };
    expect(computeFigures([a, b], [], window).visitors).toBe(2);
    const f = computeFigures(joined, [], window);
    expect(f.visitors).toBe(1);
    expect(f.frame_heat_maps.map((m) => [m.camera_id, m.grid.seconds.reduce((s, v) => s + v, 0)])).toEqual([
      [1, 10],
      [2, 10],
    ]);
  });

  it('two people side by side 3 m apart stay two', () => {
    const joined = joinOverlappingViews([line('a', 1, 0, 10, 0, 1), line('b', 2, 0, 10, 0, 4)]);
    expect(joined.map((t) => t.id)).toEqual(['a', 'b']);
    // 3 m is beyond 1 m, but within a 5 m limit they would be joined.
    expect(joinOverlappingViews([line('a', 1, 0, 10, 0, 1), line('b', 2, 0, 10, 0, 4)], { maxDistanceMetres: 5 })).toHaveLength(1);
  });

  it('camera A, then later camera B: no common time, two tracks (no re-identification)', () => {
    const joined = joinOverlappingViews([line('a', 1, 0, 10, 0, 1), line('b', 2, 20, 30, 10, 1)]);
    expect(joined.map((t) => t.id)).toEqual(['a', 'b']);
    // Half a second together is not enough (minOverlapSeconds 1).
    const brief = joinOverlappingViews([
      {
        id: 'a',
        camera_id: 1,
        points: [
          { t: 0, x: 0, y: 0 },
          { t: 0.5, x: 0, y: 0 },
        ],
      },
      {
        id: 'b',
        camera_id: 2,
        points: [
          { t: 0, x: 0, y: 0 },
          { t: 0.5, x: 0, y: 0 },
        ],
      },
    ]);
    expect(brief).toHaveLength(2);
  });

  it('never joins two tracks of one camera that overlap in time', () => {
    // p and q on camera 1 walk 0.4 m apart at the same time: two people the camera told apart. Camera 2's r is
    // 0.1 m from p and 0.3 m from q: it joins p (closer), and q cannot join that group.
    const p = line('p', 1, 0, 10, 0, 1);
    const q = line('q', 1, 0, 10, 0, 1.4);
    const r = line('r', 2, 0, 10, 0, 1.1);
    expect(joinOverlappingViews([p, q, r]).map((t) => t.id)).toEqual(['p+r', 'q']);
    // Same camera alone: never joined, however close.
    expect(joinOverlappingViews([p, line('p2', 1, 0, 10, 0, 1)])).toHaveLength(2);
  });

  it('tolerates one stray foot point in ten, not more', () => {
    const a = line('a', 1, 0, 9, 0, 1);
    const b = line('b', 2, 0, 9, 0, 1);
    b.points[5] = { ...b.points[5]!, y: 4 };
    expect(joinOverlappingViews([a, b])).toHaveLength(1);
    b.points[6] = { ...b.points[6]!, y: 4 };
    expect(joinOverlappingViews([a, b])).toHaveLength(2);
  });

  it('position between sightings, none in a long gap', () => {
    const s = [
      { t: 0, x: 0, y: 0 },
      { t: 2, x: 2, y: 4 },
      { t: 10, x: 9, y: 9 },
    ];
    expect(positionAt(s, 1, 2)).toEqual([1, 2]);
    expect(positionAt(s, 2, 2)).toEqual([2, 4]);
    expect(positionAt(s, 5, 2)).toBeNull();
    expect(positionAt(s, 11, 2)).toBeNull();
  });
});
