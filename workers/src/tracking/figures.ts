/**
 * The figures of an event from visitors' tracks on the hall's plan: visitors, visitors per minute,
 * occupancy, heat maps, paths, dwell per zone, stands ranked, routes, safe-zone entries.
 * Pure: the API gives tracks (foot points through the camera's homography, wall-clock seconds),
 * zones and a window, and stores or shows the JSON-ready result. Definitions: docs/event-analytics.md «Цифры».
 */
import { histogram, percentile, staysInZone, type Stay } from './dwell';
import { addPiece, emptyGrid, round2, roundGrid, type HeatGrid } from './heat';
import { simplifyPath } from './paths';
import { byTime, presence, secondsWithin, type Presence, type Sample } from './presence';
import { zoneBounds, type ZoneShape } from './zones';

export interface PlanTrackPoint {
  /** Wall-clock seconds. */
  t: number;
  /** Foot point on the plan, metres. */
  x: number;
  y: number;
  /** Foot point on the camera's frame, source pixels. */
  fx?: number;
  fy?: number;
}

export interface PlanTrack {
  id: string;
  camera_id: number;
  points: PlanTrackPoint[];
  /** The per-camera tracks joined into this one (joinOverlappingViews): frame heat maps use them. */
  views?: PlanTrack[];
}

export type ZoneRole = 'zone' | 'stand' | 'safe';

export interface FigureZone {
  id: number | string;
  name: string;
  role: ZoneRole;
  shape: ZoneShape;
}

export interface FigureOptions {
  /** The window, wall-clock seconds. */
  from: number;
  to: number;
  /** Heat map cell on the plan, metres. */
  cellMetres?: number;
  /** Heat map cell on a camera's frame, pixels. */
  frameCellPixels?: number;
  /** Plan area of the heat map [minX, minY, maxX, maxY]; by default the tracks' and zones' extent. */
  planBounds?: [number, number, number, number];
  /** Frame size per camera id, for the frame heat map; by default the extent of the frame points. */
  frameSizes?: Record<number, { width: number; height: number }>;
  /** Shortest stay in a zone that counts as a visit. */
  minDwellSeconds?: number;
  /** Longest gap between two sightings that still counts as presence; shorter exits from a zone do not split a visit. */
  maxGapSeconds?: number;
  occupancyStepSeconds?: number;
  /** Douglas–Peucker tolerance of the paths, metres. */
  pathToleranceMetres?: number;
  /** How many popular routes to list. */
  topRoutes?: number;
  /** How many visits each zone lists with their moments (the longest), and safe-zone entries each safe zone lists (the first). */
  listedVisits?: number;
}

/**
 * 0.5 m cells: about a person's footprint. 4 s minimum dwell: a stand's default zone is a circle 3 m
 * across, which a person walking through at 1–1.4 m/s crosses in 2.1–3 s (on vtest.avi every 2 s
 * «visit» of a stand was such a walk-through, counted or not by 0.3 m of foot-point error;
 * docs/event-analytics.md «Цифры против истины»); foot-point jitter on a zone's edge makes entries
 * of a fraction of a second. 2 s gap: sightings further apart are not one sighting (the tracker
 * itself closes a track lost for a few seconds).
 */
export const FIGURE_DEFAULTS = {
  cellMetres: 0.5,
  frameCellPixels: 32,
  minDwellSeconds: 4,
  maxGapSeconds: 2,
  occupancyStepSeconds: 5,
  pathToleranceMetres: 0.25,
  topRoutes: 10,
  listedVisits: 200,
} as const;

/** The longest window: a week (10 080 minutes of visitors per minute). */
export const MAX_WINDOW_SECONDS = 7 * 24 * 3600;
const MAX_OCCUPANCY_STEPS = 10_000;

/**
 * One visit of a zone with its moments. `view_id` — the camera's own track seen at the visit's start
 * (for a track joined across overlapping cameras, the view that covers that moment; otherwise the
 * track itself) with its camera: the video to open at that moment.
 */
export interface ZoneVisit {
  track_id: string;
  view_id: string;
  camera_id: number;
  start: number;
  end: number;
  seconds: number;
}

export interface ZoneDwell {
  zone_id: number | string;
  name: string;
  role: ZoneRole;
  visits: number;
  visitors: number;
  total_seconds: number;
  /** Every second anyone spent inside, walk-throughs shorter than a visit included. */
  inside_seconds: number;
  median_seconds: number | null;
  mean_seconds: number | null;
  p90_seconds: number | null;
  histogram: { label: string; from: number; to: number | null; count: number }[];
  /** The longest `listedVisits` visits (all of them when fewer), in time order; `visits` counts them all. */
  visit_moments: ZoneVisit[];
}

export interface StandRank {
  zone_id: number | string;
  name: string;
  visitors: number;
  visits: number;
  total_seconds: number;
}

export interface SafeZoneEntry {
  track_id: string;
  /** The camera's own track seen at the entry and its camera (see ZoneVisit). */
  view_id: string;
  camera_id: number;
  entry: number;
  exit: number;
  seconds_inside: number;
  deepest: { t: number; x: number; y: number; depth_metres: number };
}

export interface EventFigures {
  window: { from: number; to: number };
  settings: Required<Omit<FigureOptions, 'from' | 'to' | 'planBounds' | 'frameSizes'>>;
  visitors: number;
  visitors_per_minute: { minute_start: number; visitors: number; entries: number }[];
  occupancy_step_seconds: number;
  occupancy: { t: number; people: number }[];
  peak_occupancy: { t: number; people: number } | null;
  heat_map: HeatGrid;
  frame_heat_maps: { camera_id: number; grid: HeatGrid }[];
  paths: { track_id: string; camera_id: number; points: { t: number; x: number; y: number }[] }[];
  dwell: ZoneDwell[];
  stands: { ranking: StandRank[]; most_popular: StandRank[]; least_popular: StandRank[] };
  routes: {
    visitors: { track_id: string; zones: (number | string)[] }[];
    popular: { zones: (number | string)[]; names: string[]; count: number }[];
  };
  /** Per safe zone: the first `listedVisits` entries in time order; `entries_total` counts them all. */
  safe_zone_entries: { zone_id: number | string; name: string; entries_total: number; entries: SafeZoneEntry[] }[];
}

interface Prepared {
  track: PlanTrack;
  sorted: PlanTrackPoint[];
  presence: Presence;
}

export function computeFigures(tracks: readonly PlanTrack[], zones: readonly FigureZone[], options: FigureOptions): EventFigures {
  const settings = resolveOptions(options);
  const { from, to } = options;
  const prepared: Prepared[] = tracks.map((track) => {
    const sorted = byTime(track.points.filter((p) => Number.isFinite(p.t) && Number.isFinite(p.x) && Number.isFinite(p.y)));
    return { track, sorted, presence: presence(sorted, from, to, settings.maxGapSeconds) };
  });
  const present = prepared.filter((p) => p.presence.pieces.length > 0 || p.presence.instants.length > 0);
  const occupancy = occupancyOf(present, from, to, settings.occupancyStepSeconds);
  const stays = zoneStays(present, zones, settings.maxGapSeconds);
  const dwell = zones.map((z, i) => dwellOf(z, stays[i]!, settings));
  return {
    window: { from, to },
    settings,
    visitors: present.length,
    visitors_per_minute: perMinute(present, from, to),
    occupancy_step_seconds: occupancy.step,
    occupancy: occupancy.rows,
    peak_occupancy: occupancy.rows.reduce<EventFigures['peak_occupancy']>((best, r) => (!best || r.people > best.people ? r : best), null),
    heat_map: planHeat(present, zones, options.planBounds, settings.cellMetres),
    frame_heat_maps: frameHeat(present, from, to, settings, options.frameSizes),
    paths: present.map(({ track, sorted }) => ({
      track_id: track.id,
      camera_id: track.camera_id,
      points: simplifyPath(
        sorted.filter((p) => p.t >= from && p.t <= to),
        settings.pathToleranceMetres,
      ).map((p) => ({ t: round2(p.t), x: round2(p.x), y: round2(p.y) })),
    })),
    dwell,
    stands: rankStands(zones, dwell),
    routes: routesOf(zones, stays, settings),
    safe_zone_entries: safeEntries(zones, stays, settings.listedVisits),
  };
}

function resolveOptions(options: FigureOptions): EventFigures['settings'] {
  const { from, to } = options;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) throw new RangeError('Конец окна должен быть позже начала');
  if (to - from > MAX_WINDOW_SECONDS) throw new RangeError('Окно не длиннее семи суток');
  const settings = { ...FIGURE_DEFAULTS } as EventFigures['settings'];
  for (const key of Object.keys(FIGURE_DEFAULTS) as (keyof typeof FIGURE_DEFAULTS)[]) {
    const v = options[key];
    if (v === undefined) continue;
    const ok = Number.isFinite(v) && (key === 'minDwellSeconds' ? v >= 0 : v > 0) && v <= MAX_WINDOW_SECONDS;
    if (!ok) throw new RangeError(`Неверный параметр расчёта: ${key}`);
    settings[key] = key === 'topRoutes' ? Math.floor(v) : v;
  }
  return settings;
}

/** Each track marks the minutes its pieces overlap and the minute of its first sighting: linear in the pieces. */
function perMinute(present: readonly Prepared[], from: number, to: number): EventFigures['visitors_per_minute'] {
  const count = Math.ceil((to - from) / 60);
  const visitors = new Array<number>(count).fill(0);
  const entries = new Array<number>(count).fill(0);
  // A moment exactly at the window's end belongs to the last minute.
  const minuteOf = (t: number) => Math.min(count - 1, Math.floor((t - from) / 60));
  for (const { presence: pr, sorted } of present) {
    const minutes = new Set<number>();
    for (const p of pr.pieces) {
      // Minutes [m, m + 60) with p.t0 < m + 60 and p.t1 > m.
      for (let k = minuteOf(p.t0); k < count && from + k * 60 < p.t1; k++) minutes.add(k);
    }
    for (const s of pr.instants) minutes.add(minuteOf(s.t));
    for (const k of minutes) visitors[k]!++;
    const first = sorted[0]!.t;
    if (first >= from && first <= to) entries[minuteOf(first)]!++;
  }
  return visitors.map((v, k) => ({ minute_start: round2(from + k * 60), visitors: v, entries: entries[k]! }));
}

/** Mean people present per step: each piece's seconds spread over the steps it spans. */
function occupancyOf(present: readonly Prepared[], from: number, to: number, wanted: number) {
  const step = Math.max(wanted, Math.ceil((to - from) / MAX_OCCUPANCY_STEPS));
  const count = Math.ceil((to - from) / step);
  const seconds = new Array<number>(count).fill(0);
  for (const { presence: pr } of present) {
    for (const p of pr.pieces) {
      for (let k = Math.floor((p.t0 - from) / step); k < count && from + k * step < p.t1; k++) {
        seconds[k]! += secondsWithin([p], from + k * step, Math.min(from + (k + 1) * step, to));
      }
    }
  }
  const rows = seconds.map((s, k) => {
    const t = from + k * step;
    return { t: round2(t), people: round2(s / (Math.min(t + step, to) - t)) };
  });
  return { step, rows };
}

function planHeat(present: readonly Prepared[], zones: readonly FigureZone[], bounds: FigureOptions['planBounds'], cell: number): HeatGrid {
  let box = bounds ?? null;
  if (!box) {
    for (const b of [...present.flatMap((p) => p.sorted.map((s): Box => [s.x, s.y, s.x, s.y])), ...zones.map((z) => zoneBounds(z.shape))]) {
      box = box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b;
    }
  }
  const grid = emptyGrid(box, cell);
  for (const p of present) for (const piece of p.presence.pieces) addPiece(grid, piece);
  return roundGrid(grid);
}

type Box = [number, number, number, number];

function frameHeat(
  present: readonly Prepared[],
  from: number,
  to: number,
  settings: EventFigures['settings'],
  sizes: FigureOptions['frameSizes'],
): EventFigures['frame_heat_maps'] {
  const byCamera = new Map<number, Sample[][]>();
  for (const { track } of present) {
    for (const view of track.views ?? [track]) {
      const samples = view.points.flatMap((p) =>
        p.fx !== undefined && p.fy !== undefined && Number.isFinite(p.fx) && Number.isFinite(p.fy) && Number.isFinite(p.t)
          ? [{ t: p.t, x: p.fx, y: p.fy }]
          : [],
      );
      if (samples.length > 0) byCamera.set(view.camera_id, [...(byCamera.get(view.camera_id) ?? []), byTime(samples)]);
    }
  }
  return [...byCamera.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([cameraId, lists]) => {
      const size = sizes?.[cameraId];
      const all = lists.flat();
      const box: Box = size
        ? [0, 0, size.width, size.height]
        : [Math.min(0, ...all.map((s) => s.x)), Math.min(0, ...all.map((s) => s.y)), Math.max(...all.map((s) => s.x)), Math.max(...all.map((s) => s.y))];
      const grid = emptyGrid(box, settings.frameCellPixels);
      for (const samples of lists) for (const piece of presence(samples, from, to, settings.maxGapSeconds).pieces) addPiece(grid, piece);
      return { camera_id: cameraId, grid: roundGrid(grid) };
    });
}

interface TrackStays {
  track: PlanTrack;
  stays: Stay[];
}

/** Per zone (in the zones' order): each present track's stays in it. */
function zoneStays(present: readonly Prepared[], zones: readonly FigureZone[], mergeGap: number): TrackStays[][] {
  return zones.map((z) =>
    present.flatMap(({ track, presence: pr }) => {
      const stays = staysInZone(z.shape, pr, mergeGap);
      return stays.length > 0 ? [{ track, stays }] : [];
    }),
  );
}

function visitsOf(perTrack: readonly TrackStays[], minDwell: number): TrackStays[] {
  return perTrack.flatMap(({ track, stays }) => {
    const visits = stays.filter((s) => s.end - s.start >= minDwell);
    return visits.length > 0 ? [{ track, stays: visits }] : [];
  });
}

/** The camera's own track of a (joined) track that saw moment t: the view whose time span holds it, else the nearest. */
function viewAt(track: PlanTrack, t: number): PlanTrack {
  if (!track.views || track.views.length === 0) return track;
  let best = track;
  let bestGap = Infinity;
  for (const view of track.views) {
    let first = Infinity;
    let last = -Infinity;
    for (const p of view.points) {
      first = Math.min(first, p.t);
      last = Math.max(last, p.t);
    }
    const gap = t < first ? first - t : t > last ? t - last : 0;
    if (gap < bestGap) [best, bestGap] = [view, gap];
  }
  return best;
}

const byTrackId = (a: { track_id: string }, b: { track_id: string }) => (a.track_id < b.track_id ? -1 : a.track_id > b.track_id ? 1 : 0);

/** The longest `limit` visits with their moments, in time order (ties: the earlier first). */
function visitMoments(visits: readonly TrackStays[], limit: number): ZoneVisit[] {
  const all = visits.flatMap(({ track, stays }) =>
    stays.map((s) => {
      const view = viewAt(track, s.start);
      return { track_id: track.id, view_id: view.id, camera_id: view.camera_id, start: s.start, end: s.end, seconds: s.end - s.start };
    }),
  );
  const kept = all.length <= limit ? all : [...all].sort((a, b) => b.seconds - a.seconds || a.start - b.start).slice(0, limit);
  return kept
    .sort((a, b) => a.start - b.start || byTrackId(a, b))
    .map((v) => ({ ...v, start: round2(v.start), end: round2(v.end), seconds: round2(v.seconds) }));
}

function dwellOf(zone: FigureZone, stays: readonly TrackStays[], settings: EventFigures['settings']): ZoneDwell {
  const visits = visitsOf(stays, settings.minDwellSeconds);
  const inside = stays.reduce((sum, t) => sum + t.stays.reduce((s, v) => s + v.inside, 0), 0);
  const seconds = visits.flatMap((v) => v.stays.map((s) => s.end - s.start)).sort((a, b) => a - b);
  const total = seconds.reduce((s, v) => s + v, 0);
  const r = (v: number | null) => (v === null ? null : round2(v));
  return {
    zone_id: zone.id,
    name: zone.name,
    role: zone.role,
    visits: seconds.length,
    visitors: visits.length,
    total_seconds: round2(total),
    inside_seconds: round2(inside),
    median_seconds: r(percentile(seconds, 0.5)),
    mean_seconds: r(seconds.length > 0 ? total / seconds.length : null),
    p90_seconds: r(percentile(seconds, 0.9)),
    histogram: histogram(seconds),
    visit_moments: visitMoments(visits, settings.listedVisits),
  };
}

/** Stands by visitors, ties by total dwell, then in the zones' order; the top and bottom ties listed. */
function rankStands(zones: readonly FigureZone[], dwell: readonly ZoneDwell[]): EventFigures['stands'] {
  const ranking: StandRank[] = dwell
    .filter((d) => d.role === 'stand')
    .map((d) => ({ zone_id: d.zone_id, name: d.name, visitors: d.visitors, visits: d.visits, total_seconds: d.total_seconds }))
    .sort((a, b) => b.visitors - a.visitors || b.total_seconds - a.total_seconds);
  const same = (a: StandRank, b: StandRank) => a.visitors === b.visitors && a.total_seconds === b.total_seconds;
  const top = ranking[0];
  const bottom = ranking[ranking.length - 1];
  return {
    ranking,
    most_popular: top && top.visitors > 0 ? ranking.filter((s) => same(s, top)) : [],
    least_popular: bottom ? ranking.filter((s) => same(s, bottom)) : [],
  };
}

/** Each visitor's zones and stands in the order of their visits (repeats in a row collapsed); whole routes of two or more counted. */
function routesOf(zones: readonly FigureZone[], stays: readonly TrackStays[][], settings: EventFigures['settings']): EventFigures['routes'] {
  const seq = new Map<string, { start: number; zone: number }[]>();
  zones.forEach((z, zi) => {
    if (z.role === 'safe') return;
    for (const { track, stays: visits } of visitsOf(stays[zi]!, settings.minDwellSeconds)) {
      const list = seq.get(track.id) ?? [];
      for (const v of visits) list.push({ start: v.start, zone: zi });
      seq.set(track.id, list);
    }
  });
  const visitors = [...seq.entries()].map(([trackId, list]) => {
    const ordered = list.sort((a, b) => a.start - b.start || a.zone - b.zone).map((v) => v.zone);
    return { track_id: trackId, zones: ordered.filter((z, i) => i === 0 || ordered[i - 1] !== z) };
  });
  const counts = new Map<string, { zones: number[]; count: number }>();
  for (const v of visitors) {
    if (v.zones.length < 2) continue;
    const key = v.zones.join(',');
    const c = counts.get(key) ?? { zones: v.zones, count: 0 };
    c.count++;
    counts.set(key, c);
  }
  const popular = [...counts.values()]
    .sort((a, b) => b.count - a.count || compareSeq(a.zones, b.zones))
    .slice(0, settings.topRoutes)
    .map((r) => ({ zones: r.zones.map((z) => zones[z]!.id), names: r.zones.map((z) => zones[z]!.name), count: r.count }));
  return { visitors: visitors.map((v) => ({ track_id: v.track_id, zones: v.zones.map((z) => zones[z]!.id) })), popular };
}

/** Ties of popular routes: in the zones' order, element by element, a shorter prefix first. */
function compareSeq(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function safeEntries(zones: readonly FigureZone[], stays: readonly TrackStays[][], listed: number): EventFigures['safe_zone_entries'] {
  return zones.flatMap((z, zi) => {
    if (z.role !== 'safe') return [];
    const entries: SafeZoneEntry[] = stays[zi]!.flatMap(({ track, stays: list }) =>
      list.map((s) => ({
        track_id: track.id,
        view_id: viewAt(track, s.start).id,
        camera_id: viewAt(track, s.start).camera_id,
        entry: round2(s.start),
        exit: round2(s.end),
        seconds_inside: round2(s.inside),
        deepest: { t: round2(s.deepest.t), x: round2(s.deepest.x), y: round2(s.deepest.y), depth_metres: round2(s.deepest.depth) },
      })),
    );
    entries.sort((a, b) => a.entry - b.entry || byTrackId(a, b));
    return [{ zone_id: z.id, name: z.name, entries_total: entries.length, entries: entries.slice(0, listed) }];
  });
}
