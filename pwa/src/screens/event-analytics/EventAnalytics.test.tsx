import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import type { EventFigures, EventZone } from '../../api/types';
import { toCsv } from '../../export/table';
import {
  defaultWindow,
  figuresTables,
  fromLocalInput,
  heatColour,
  type HallCamera,
  secondsText,
  toLocalInput,
  videoAt,
  visitVideo,
} from '../../state/eventAnalytics';
import { FiguresView } from './FiguresView';
import { planBounds } from './PlanView';

const tracking = (done: boolean) => ({ video_id: 1, run: null, finished: done ? ({ id: 1 } as never) : null });
const camera = (videos: { id: number; start: string; duration?: number; tracked?: boolean }[]): HallCamera => ({
  id: 3,
  name: 'Вход',
  calibration: null,
  videos: videos.map((v) => ({ id: v.id, filename: `v${v.id}.mp4`, start_time: v.start, duration: v.duration ?? 60, tracking: tracking(v.tracked ?? false) })),
});

const T0 = Date.parse('2026-11-16T10:00:00Z') / 1000;
const grid = { origin: [0, 0] as [number, number], cell: 1, columns: 2, rows: 1, seconds: [0, 4], outside_seconds: 0 };
const figures: EventFigures = {
  structure_id: 4,
  from: '2026-11-16T00:00:00Z',
  to: '2026-11-17T00:00:00Z',
  cameras: [{ camera_id: 3, name: 'Вход', calibrated: true, videos: 1, tracks: 2 }],
  uncalibrated_cameras: [],
  window: { from: T0 - 36000, to: T0 + 50400 },
  settings: {},
  visitors: 2,
  visitors_per_minute: [{ minute_start: T0, visitors: 2, entries: 2 }],
  occupancy_step_seconds: 5,
  occupancy: [{ t: T0, people: 2 }],
  peak_occupancy: { t: T0, people: 2 },
  heat_map: grid,
  frame_heat_maps: [],
  paths: [],
  dwell: [
    {
      zone_id: 1,
      name: 'Стенд «А»',
      role: 'stand',
      visits: 1,
      visitors: 1,
      total_seconds: 10,
      inside_seconds: 12,
      median_seconds: 10,
      mean_seconds: 10,
      p90_seconds: 10,
      histogram: [
        { label: '0–10 с', from: 0, to: 10, count: 0 },
        { label: '10–30 с', from: 10, to: 30, count: 1 },
      ],
      // The API named the video: video 9 at 12.5 s (not the camera's video 7 that videoAt would find).
      visit_moments: [{ track_id: '3:9:2', view_id: '3:9:2', camera_id: 3, video_id: 9, video_second: 12.5, start: T0 + 40, end: T0 + 50, seconds: 10 }],
    },
  ],
  stands: { ranking: [], most_popular: [{ zone_id: 1, name: 'Стенд «А»', visitors: 1, visits: 1, total_seconds: 10 }], least_popular: [] },
  routes: { visitors: [], popular: [{ zones: [1, 2], names: ['Стенд «А»', 'Выход'], count: 3 }] },
  safe_zone_entries: [
    {
      zone_id: 2,
      name: 'Сцена',
      entries_total: 3,
      // No video named: the camera's video playing then (7, second 30).
      entries: [
        {
          track_id: '3:1:1',
          view_id: '3:1:1',
          camera_id: 3,
          video_id: null,
          video_second: null,
          entry: T0 + 30,
          exit: T0 + 31,
          seconds_inside: 1,
          deepest: { t: T0 + 30, x: 1, y: 1, depth_metres: 0.4 },
        },
      ],
    },
  ],
  stored: null,
};

describe('event analytics screen state (issue 44)', () => {
  it('opens on the local day of the newest tracked video, else the newest video', () => {
    const tracked = camera([
      { id: 1, start: new Date(2026, 10, 14, 9).toISOString(), tracked: true },
      { id: 2, start: new Date(2026, 10, 16, 9).toISOString() },
    ]);
    expect(defaultWindow([tracked])).toEqual({ from: '2026-11-14T00:00', to: '2026-11-15T00:00' });
    const untracked = camera([{ id: 2, start: new Date(2026, 10, 16, 23, 30).toISOString() }]);
    expect(defaultWindow([untracked])).toEqual({ from: '2026-11-16T00:00', to: '2026-11-17T00:00' });
    expect(defaultWindow([], new Date(2026, 0, 31, 12))).toEqual({ from: '2026-01-31T00:00', to: '2026-02-01T00:00' });
  });

  it('turns window inputs into instants and refuses a non-date', () => {
    const local = toLocalInput(new Date(2026, 10, 16, 9, 5));
    expect(local).toBe('2026-11-16T09:05');
    expect(fromLocalInput(local)).toBe(new Date(2026, 10, 16, 9, 5).toISOString());
    expect(fromLocalInput('')).toBeNull();
  });

  it('finds the video and its second playing at a moment, for the links to the video screen', () => {
    const cams = [camera([{ id: 7, start: '2026-11-16T10:00:00Z', duration: 120 }])];
    expect(videoAt(cams, 3, T0 + 30.7)).toEqual({ videoId: 7, second: 30 });
    expect(videoAt(cams, 3, T0 + 121)).toBeNull();
    expect(videoAt(cams, 99, T0 + 1)).toBeNull();
    // A visit or an entry whose video the API named opens that video; without one, the camera's video then.
    expect(visitVideo(cams, { camera_id: 3, video_id: 9, video_second: 4.9 }, T0 + 30.7)).toEqual({ videoId: 9, second: 4 });
    expect(visitVideo(cams, { camera_id: 3, video_id: null, video_second: null }, T0 + 30.7)).toEqual({ videoId: 7, second: 30 });
  });

  it('colours only cells with presence, hotter for more seconds', () => {
    expect(heatColour(0, 10)).toBeNull();
    expect(heatColour(5, 0)).toBeNull();
    expect(heatColour(10, 10)).toBe('rgba(230, 0, 0, 0.85)');
    expect(heatColour(5, 10)).toBe('rgba(230, 110, 0, 0.55)');
  });

  it('writes durations in Russian', () => {
    expect(secondsText(null)).toBe('—');
    expect(secondsText(12.5)).toBe('12,5 с');
    expect(secondsText(65)).toBe('1 мин 05 с');
  });

  it('shows the plan area of the grid and zones with a metre around', () => {
    const zone = {
      id: 1,
      structure_id: 4,
      name: 'Круг',
      role: 'zone',
      stand_id: null,
      shape: { type: 'circle', center: [10, 5], radius: 2 },
      updated_at: '',
    } as EventZone;
    expect(planBounds(grid, [zone])).toEqual({ minX: -1, minY: -1, maxX: 13, maxY: 8 });
    expect(planBounds(null, [])).toEqual({ minX: 0, minY: 0, maxX: 20, maxY: 20 });
  });

  it('exports the dwell, routes and safe-zone tables as CSV', () => {
    const [dwell, routes, safe] = figuresTables(figures).map(toCsv);
    expect(dwell).toContain('Зона;Роль;Визитов;Посетителей;Всего, с;Всё время внутри, с;Медиана, с;90-й процентиль, с;0–10 с;10–30 с');
    expect(dwell).toContain('Стенд «А»;Стенд;1;1;10;12;10;10;0;1');
    expect(routes).toContain('Стенд «А» → Выход;3');
    expect(safe).toContain('Сцена;3:1:1;');
  });

  it('draws the tiles, the dwell row and a safe-zone entry linked to its video second', () => {
    const html = renderToStaticMarkup(
      <Router ssrPath="/event-analytics/4">
        <FiguresView figures={figures} cameras={[camera([{ id: 7, start: '2026-11-16T10:00:00Z', duration: 120 }])]} zones={[]} />
      </Router>,
    );
    expect(html).toMatch(/data-testid="tile-visitors"><span[^>]*>Посетителей<\/span><strong>2<\/strong>/);
    expect(html).toContain('Стенд «А» (1)');
    // Visits' seconds, then every second inside (passes shorter than a visit too), then the median.
    expect(html).toMatch(
      /data-testid="dwell-row"><td>Стенд «А»<\/td><td>Стенд<\/td><td>1<\/td><td>1<\/td><td>10 с<\/td><td data-testid="dwell-inside">12 с<\/td><td>10 с<\/td>/,
    );
    expect(html).toContain('href="/video/7/30"');
    // The dwell row's visit opens its own video at its second; the safe zone says it lists 1 of 3 entries.
    expect(html).toMatch(/data-testid="dwell-visit"><a href="\/video\/9\/12">/);
    expect(html).toContain('показаны первые 1 из 3 входов');
    expect(html).toContain('Стенд «А» → Выход');
  });
});
