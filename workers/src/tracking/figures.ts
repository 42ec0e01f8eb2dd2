/**
 * The figures of an event from visitors' tracks on the hall's plan: visitors, visitors per minute,
 * occupancy, heat maps, paths, dwell per zone, stands ranked, routes, safe-zone entries.
 * Pure: the API gives tracks (foot points through the camera's homography, wall-clock seconds),
 * zones and a window, and stores or shows the JSON-ready result. Definitions: docs/event-analytics.md «Цифры».
 * Folded track by track (FigureExtentFold, then FigureFold): what is held grows with the visitors'
 * aggregates, not with their points (docs/event-analytics.md «Память задачи»).
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

type Box = [number, number, number, number];

/** The extents the heat maps are laid out on: known before the tracks are folded in (FigureExtentFold). */
export interface FigureExtents {
  /** The plan heat map's area; null — no grid (nothing present and no zones). */
  plan: Box | null;
  /** Per camera without a frame size: the extent of its frame points, from (0, 0). */
  frames: Record<number, Box>;
}

/** The track's finite points in time order and its presence in the window; null when it is not there (not a visitor). */
function prepare(track: PlanTrack, from: number, to: number, maxGap: number): Prepared | null {
  const sorted = byTime(track.points.filter((p) => Number.isFinite(p.t) && Number.isFinite(p.x) && Number.isFinite(p.y)));
  const pr = presence(sorted, from, to, maxGap);
  return pr.pieces.length > 0 || pr.instants.length > 0 ? { track, sorted, presence: pr } : null;
}

/** Each camera's own view of the track (a joined track has several) as frame samples in time order; views without any left out. */
function frameViews(track: PlanTrack): { camera: number; samples: Sample[] }[] {
  return (track.views ?? [track]).flatMap((view) => {
    const samples = view.points.flatMap((p) =>
      p.fx !== undefined && p.fy !== undefined && Number.isFinite(p.fx) && Number.isFinite(p.fy) && Number.isFinite(p.t) ? [{ t: p.t, x: p.fx, y: p.fy }] : [],
    );
    return samples.length > 0 ? [{ camera: view.camera_id, samples: byTime(samples) }] : [];
  });
}

const widen = (box: Box | null, b: Box): Box => (box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b);

/**
 * The first pass of a fold: the heat maps' extents by default (every point of the visitors' tracks and
 * the zones on the plan; a camera's frame points from (0, 0) where its frame size is not given). Only
 * boxes are kept, so a long window is measured track by track (or batch by batch) before FigureFold.
 */
export class FigureExtentFold {
  private readonly settings: EventFigures['settings'];
  private plan: Box | null = null;
  private readonly frames: Record<number, Box> = {};

  constructor(private readonly options: FigureOptions) {
    this.settings = resolveOptions(options);
  }

  add(track: PlanTrack): void {
    const { from, to, planBounds, frameSizes } = this.options;
    const prepared = prepare(track, from, to, this.settings.maxGapSeconds);
    if (!prepared) return;
    if (!planBounds) {
      let [x0, y0, x1, y1] = this.plan ?? [Infinity, Infinity, -Infinity, -Infinity];
      for (const s of prepared.sorted) [x0, y0, x1, y1] = [Math.min(x0, s.x), Math.min(y0, s.y), Math.max(x1, s.x), Math.max(y1, s.y)];
      this.plan = [x0, y0, x1, y1];
    }
    for (const { camera, samples } of frameViews(track)) {
      if (frameSizes?.[camera]) continue;
      let box = this.frames[camera] ?? [0, 0, -Infinity, -Infinity];
      for (const s of samples) box = [Math.min(box[0], s.x), Math.min(box[1], s.y), Math.max(box[2], s.x), Math.max(box[3], s.y)];
      this.frames[camera] = box;
    }
  }

  result(zones: readonly FigureZone[]): FigureExtents {
    const plan = this.options.planBounds ?? zones.reduce<Box | null>((box, z) => widen(box, zoneBounds(z.shape)), this.plan);
    return { plan, frames: { ...this.frames } };
  }
}

/** The frame heat maps of the visitors' tracks, per camera, each camera's grid laid out when its first samples come. */
export class FrameHeatFold {
  private readonly settings: EventFigures['settings'];
  private readonly grids = new Map<number, HeatGrid>();

  constructor(
    private readonly options: FigureOptions,
    private readonly extents: FigureExtents,
  ) {
    this.settings = resolveOptions(options);
  }

  /** Folds in a track if it is a visitor of the window (its plan points present in it). */
  add(track: PlanTrack): void {
    if (prepare(track, this.options.from, this.options.to, this.settings.maxGapSeconds)) this.addVisitor(track);
  }

  addVisitor(track: PlanTrack): void {
    const { from, to, frameSizes } = this.options;
    for (const { camera, samples } of frameViews(track)) {
      let grid = this.grids.get(camera);
      if (!grid) {
        const size = frameSizes?.[camera];
        const box: Box | undefined = size ? [0, 0, size.width, size.height] : this.extents.frames[camera];
        // The extents pass saw other tracks than this fold: the grid would silently lose this camera's seconds.
        if (!box) throw new Error(`Охват кадра камеры ${camera} не измерен`);
        grid = emptyGrid(box, this.settings.frameCellPixels);
        this.grids.set(camera, grid);
      }
      for (const piece of presence(samples, from, to, this.settings.maxGapSeconds).pieces) addPiece(grid, piece);
    }
  }

  result(): EventFigures['frame_heat_maps'] {
    return [...this.grids.entries()].sort((a, b) => a[0] - b[0]).map(([cameraId, grid]) => ({ camera_id: cameraId, grid: roundGrid(grid) }));
  }
}

/** A visit or safe-zone entry as kept, unrounded, with the order it came in (ties keep it, as a stable sort would). */
type Kept<T> = T & { order: number };

/**
 * At most `limit` items of a stream by a total order (ties: the one that came first): the list is cut
 * back to `limit` whenever it doubles, so it holds at most 2 · limit whatever the stream's length.
 */
class Firsts<T> {
  private items: Kept<T>[] = [];
  count = 0;

  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  push(item: T): void {
    this.items.push({ ...item, order: this.count++ });
    if (this.items.length > 2 * this.limit) this.items = this.sorted().slice(0, this.limit);
  }

  /** The first `limit` by the order; `inOrder` false: all of them in the order they came when there are no more than `limit`. */
  result(inOrder: boolean): T[] {
    const kept = this.count <= this.limit && !inOrder ? this.items : this.sorted().slice(0, this.limit);
    return kept.map(({ order: _, ...item }) => item as unknown as T);
  }

  private sorted(): Kept<T>[] {
    return [...this.items].sort((a, b) => this.compare(a, b) || a.order - b.order);
  }
}

/** What a zone keeps of its visitors: the sums and the visits' lengths (the median and the histogram need every one). */
interface ZoneFold {
  inside: number;
  seconds: number[];
  visitors: number;
  moments: Firsts<ZoneVisit>;
  entries: Firsts<SafeZoneEntry> | null;
}

/**
 * The figures folded track by track: each track (a visitor's, joined across overlapping cameras
 * beforehand) adds to per-figure aggregates and is dropped — counts per minute and per occupancy step,
 * heat map cells (on extents measured first, FigureExtentFold), each zone's visit lengths and inside
 * seconds, the longest visits and the first safe-zone entries (bounded), route sequences, simplified
 * paths. The sums are added in the order the tracks come, so the same tracks in the same order give the
 * same figures to the byte however they are split (computeFigures is this fold over all of them).
 */
export class FigureFold {
  private readonly settings: EventFigures['settings'];
  private visitors = 0;
  private readonly minuteVisitors: number[];
  private readonly minuteEntries: number[];
  private readonly step: number;
  private readonly occupancySeconds: number[];
  private readonly planGrid: HeatGrid;
  private readonly frames: FrameHeatFold;
  private readonly paths: EventFigures['paths'] = [];
  private readonly zoneFolds: ZoneFold[];
  private readonly routes: { track_id: string; first: number; order: number; zones: number[] }[] = [];
  private readonly routeCounts = new Map<string, { zones: number[]; count: number }>();

  constructor(
    private readonly zones: readonly FigureZone[],
    private readonly options: FigureOptions,
    extents: FigureExtents,
  ) {
    const settings = resolveOptions(options);
    this.settings = settings;
    const { from, to } = options;
    const minutes = Math.ceil((to - from) / 60);
    this.minuteVisitors = new Array<number>(minutes).fill(0);
    this.minuteEntries = new Array<number>(minutes).fill(0);
    this.step = Math.max(settings.occupancyStepSeconds, Math.ceil((to - from) / MAX_OCCUPANCY_STEPS));
    this.occupancySeconds = new Array<number>(Math.ceil((to - from) / this.step)).fill(0);
    this.planGrid = emptyGrid(extents.plan, settings.cellMetres);
    this.frames = new FrameHeatFold(options, extents);
    this.zoneFolds = zones.map((z) => ({
      inside: 0,
      seconds: [],
      visitors: 0,
      moments: new Firsts<ZoneVisit>(settings.listedVisits, (a, b) => b.seconds - a.seconds || a.start - b.start),
      entries: z.role === 'safe' ? new Firsts<SafeZoneEntry>(settings.listedVisits, (a, b) => a.entry - b.entry || byTrackId(a, b)) : null,
    }));
  }

  add(track: PlanTrack): void {
    const { from, to } = this.options;
    const prepared = prepare(track, from, to, this.settings.maxGapSeconds);
    if (!prepared) return;
    const order = this.visitors++;
    this.addMinutes(prepared);
    this.addOccupancy(prepared);
    for (const piece of prepared.presence.pieces) addPiece(this.planGrid, piece);
    this.frames.addVisitor(track);
    this.paths.push({
      track_id: track.id,
      camera_id: track.camera_id,
      points: simplifyPath(
        prepared.sorted.filter((p) => p.t >= from && p.t <= to),
        this.settings.pathToleranceMetres,
      ).map((p) => ({ t: round2(p.t), x: round2(p.x), y: round2(p.y) })),
    });
    this.addZones(prepared, order);
  }

  result(): EventFigures {
    const { from, to } = this.options;
    const { settings, step } = this;
    const occupancy = this.occupancySeconds.map((s, k) => {
      const t = from + k * step;
      return { t: round2(t), people: round2(s / (Math.min(t + step, to) - t)) };
    });
    const dwell = this.zones.map((z, i) => dwellOf(z, this.zoneFolds[i]!));
    return {
      window: { from, to },
      settings,
      visitors: this.visitors,
      visitors_per_minute: this.minuteVisitors.map((v, k) => ({ minute_start: round2(from + k * 60), visitors: v, entries: this.minuteEntries[k]! })),
      occupancy_step_seconds: step,
      occupancy,
      peak_occupancy: occupancy.reduce<EventFigures['peak_occupancy']>((best, r) => (!best || r.people > best.people ? r : best), null),
      heat_map: roundGrid(this.planGrid),
      frame_heat_maps: this.frames.result(),
      paths: this.paths,
      dwell,
      stands: rankStands(dwell),
      routes: this.routesResult(),
      safe_zone_entries: this.zones.flatMap((z, zi) => {
        const entries = this.zoneFolds[zi]!.entries;
        return entries ? [{ zone_id: z.id, name: z.name, entries_total: entries.count, entries: entries.result(true) }] : [];
      }),
    };
  }

  /** Marks the minutes the track's pieces overlap and the minute of its first sighting: linear in the pieces. */
  private addMinutes({ presence: pr, sorted }: Prepared): void {
    const { from, to } = this.options;
    const count = this.minuteVisitors.length;
    // A moment exactly at the window's end belongs to the last minute.
    const minuteOf = (t: number) => Math.min(count - 1, Math.floor((t - from) / 60));
    const minutes = new Set<number>();
    for (const p of pr.pieces) {
      // Minutes [m, m + 60) with p.t0 < m + 60 and p.t1 > m.
      for (let k = minuteOf(p.t0); k < count && from + k * 60 < p.t1; k++) minutes.add(k);
    }
    for (const s of pr.instants) minutes.add(minuteOf(s.t));
    for (const k of minutes) this.minuteVisitors[k]!++;
    const first = sorted[0]!.t;
    if (first >= from && first <= to) this.minuteEntries[minuteOf(first)]!++;
  }

  /** People present per step: each piece's seconds spread over the steps it spans (divided by the step's length at the end). */
  private addOccupancy({ presence: pr }: Prepared): void {
    const { from, to } = this.options;
    const { step, occupancySeconds: seconds } = this;
    const count = seconds.length;
    for (const p of pr.pieces) {
      for (let k = Math.floor((p.t0 - from) / step); k < count && from + k * step < p.t1; k++) {
        seconds[k]! += secondsWithin([p], from + k * step, Math.min(from + (k + 1) * step, to));
      }
    }
  }

  /** The track's stays in each zone: dwell, visits with their moments, safe-zone entries, and its route of zones and stands. */
  private addZones({ track, presence: pr }: Prepared, order: number): void {
    const route: { start: number; zone: number }[] = [];
    let first = -1;
    this.zones.forEach((z, zi) => {
      const stays = staysInZone(z.shape, pr, this.settings.maxGapSeconds);
      if (stays.length === 0) return;
      const fold = this.zoneFolds[zi]!;
      fold.inside += stays.reduce((s, v) => s + v.inside, 0);
      const visits = stays.filter((s) => s.end - s.start >= this.settings.minDwellSeconds);
      if (visits.length > 0) fold.visitors++;
      for (const v of visits) {
        const view = viewAt(track, v.start);
        fold.seconds.push(v.end - v.start);
        fold.moments.push({ track_id: track.id, view_id: view.id, camera_id: view.camera_id, start: v.start, end: v.end, seconds: v.end - v.start });
        if (z.role !== 'safe') route.push({ start: v.start, zone: zi });
      }
      if (z.role !== 'safe' && visits.length > 0 && first < 0) first = zi;
      for (const s of stays) fold.entries?.push(safeEntry(track, s));
    });
    if (route.length === 0) return;
    const ordered = route.sort((a, b) => a.start - b.start || a.zone - b.zone).map((v) => v.zone);
    const zones = ordered.filter((z, i) => i === 0 || ordered[i - 1] !== z);
    this.routes.push({ track_id: track.id, first, order, zones });
    if (zones.length < 2) return;
    const key = zones.join(',');
    const c = this.routeCounts.get(key) ?? { zones, count: 0 };
    c.count++;
    this.routeCounts.set(key, c);
  }

  /**
   * Each visitor's zones and stands in the order of their visits (repeats in a row collapsed), listed by
   * the first zone (in the zones' order) the visitor visited, then in the tracks' order; whole routes of
   * two or more counted.
   */
  private routesResult(): EventFigures['routes'] {
    const { zones } = this;
    const visitors = [...this.routes].sort((a, b) => a.first - b.first || a.order - b.order);
    const popular = [...this.routeCounts.values()]
      .sort((a, b) => b.count - a.count || compareSeq(a.zones, b.zones))
      .slice(0, this.settings.topRoutes)
      .map((r) => ({ zones: r.zones.map((z) => zones[z]!.id), names: r.zones.map((z) => zones[z]!.name), count: r.count }));
    return { visitors: visitors.map((v) => ({ track_id: v.track_id, zones: v.zones.map((z) => zones[z]!.id) })), popular };
  }
}

/**
 * The figures of the tracks: the extents measured over them first, then the fold of them one by one —
 * the same code a long window's job runs batch by batch.
 */
export function computeFigures(tracks: readonly PlanTrack[], zones: readonly FigureZone[], options: FigureOptions): EventFigures {
  const extents = new FigureExtentFold(options);
  for (const track of tracks) extents.add(track);
  const fold = new FigureFold(zones, options, extents.result(zones));
  for (const track of tracks) fold.add(track);
  return fold.result();
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

/** The longest visits kept (Firsts) in time order (ties: by track), rounded for output. */
function visitMoments(kept: readonly ZoneVisit[]): ZoneVisit[] {
  return [...kept]
    .sort((a, b) => a.start - b.start || byTrackId(a, b))
    .map((v) => ({ ...v, start: round2(v.start), end: round2(v.end), seconds: round2(v.seconds) }));
}

function dwellOf(zone: FigureZone, fold: ZoneFold): ZoneDwell {
  const seconds = [...fold.seconds].sort((a, b) => a - b);
  const total = seconds.reduce((s, v) => s + v, 0);
  const r = (v: number | null) => (v === null ? null : round2(v));
  return {
    zone_id: zone.id,
    name: zone.name,
    role: zone.role,
    visits: seconds.length,
    visitors: fold.visitors,
    total_seconds: round2(total),
    inside_seconds: round2(fold.inside),
    median_seconds: r(percentile(seconds, 0.5)),
    mean_seconds: r(seconds.length > 0 ? total / seconds.length : null),
    p90_seconds: r(percentile(seconds, 0.9)),
    histogram: histogram(seconds),
    visit_moments: visitMoments(fold.moments.result(false)),
  };
}

/** Stands by visitors, ties by total dwell, then in the zones' order; the top and bottom ties listed. */
function rankStands(dwell: readonly ZoneDwell[]): EventFigures['stands'] {
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

/** Ties of popular routes: in the zones' order, element by element, a shorter prefix first. */
function compareSeq(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A stay in a safe zone as an entry, rounded for output. */
function safeEntry(track: PlanTrack, s: Stay): SafeZoneEntry {
  const view = viewAt(track, s.start);
  return {
    track_id: track.id,
    view_id: view.id,
    camera_id: view.camera_id,
    entry: round2(s.start),
    exit: round2(s.end),
    seconds_inside: round2(s.inside),
    deepest: { t: round2(s.deepest.t), x: round2(s.deepest.x), y: round2(s.deepest.y), depth_metres: round2(s.deepest.depth) },
  };
}
