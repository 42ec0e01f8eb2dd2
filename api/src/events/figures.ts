import {
  FigureExtentFold,
  FigureFold,
  FrameHeatFold,
  homographyFromPoints,
  joinOverlappingViews,
  toPlan,
  type FigureOptions,
  type FigureZone,
  type Homography,
  type PlanTrack,
} from '@norma/workers/tracking';
import { toIso } from '../http/time';
import type { ZoneShapeValue } from './schema';

/**
 * The figures of a hall over a window (GET /api/v1/event/figures, docs/event-analytics.md «API: цифры»)
 * from what the service read: each track's foot points (bottom centre of the box, source pixels) at
 * wall-clock seconds (video start + time in the video), on the plan through the camera's calibration;
 * overlapping calibrated cameras joined; the pure core computes. No SQL here.
 */

export interface FiguresInputs {
  cameras: { id: number; name: string }[];
  calibrations: { camera_id: number; frame_width: number; frame_height: number; image_points: [number, number][]; plan_points: [number, number][] }[];
  runs: { trackingId: number; videoId: number; cameraId: number; startMs: number; frameWidth: number | null; frameHeight: number | null }[];
  tracks: { trackingId: number; number: number; points: number[][] }[];
  zones: { id: number; name: string; role: 'zone' | 'stand' | 'safe'; shape: ZoneShapeValue }[];
}

export interface FiguresWindow {
  structureId: number;
  fromMs: number;
  toMs: number;
}

/** A camera's mapping from the frame the tracks were taken at to the plan; null without a (still valid) calibration. */
function mappingOf(calibration: FiguresInputs['calibrations'][number] | undefined): Homography | null {
  if (!calibration) return null;
  try {
    return homographyFromPoints(calibration.image_points, calibration.plan_points);
  } catch {
    // Stored calibrations passed the same check when saved; one that no longer does counts as none.
    return null;
  }
}

/**
 * The figures of a window folded from its tracks one batch at a time (the job `event_figures` reads a
 * long window so, figures.service.ts trackBatches), in two passes over the same batches in the same
 * order: `measure` — the heat maps' extents only (FigureExtentFold), then `add` — the figures
 * (FigureFold), each track dropped once folded in. Each batch's stored points become plan points as it
 * comes ({t, x, y, fx, fy}: a sighting, the video of the track, the camera's counts) and the batch is
 * dropped before the next is read. Overlapping calibrated cameras are joined over the tracks that could
 * still join (joinOverlappingViews): held until no unread tracking of another calibrated camera starts
 * before their last sighting — tracks in a video start no earlier than the video — then joined and
 * folded, so what is held is one stretch of overlapping recordings, not the window
 * (docs/event-analytics.md «Память задачи»).
 */
export class FiguresFold {
  private readonly runs: Map<number, { run: FiguresInputs['runs'][number]; index: number }>;
  private readonly calibrations: Map<number, FiguresInputs['calibrations'][number]>;
  private readonly mappings: Map<number, Homography | null>;
  private readonly perCamera: Map<number, { videos: Set<number>; tracks: number }>;
  private readonly frameSizes: Record<number, { width: number; height: number }> = {};
  // A video's start: visits and entries open the video of the camera's own track (its id names the video) at their moment.
  private readonly videoStart: Map<number, number>;
  private readonly options: FigureOptions;
  private readonly zones: FigureZone[];
  private measured: { plan: FigureExtentFold; frame: FigureExtentFold } | null;
  private measuredTracks = 0;
  private folds: { plan: FigureFold; frame: FrameHeatFold } | null = null;
  /** Plan tracks read but not yet joined and folded, with their last sighting. */
  private pending: { track: PlanTrack; last: number }[] = [];
  /** The index (in head.runs) of the tracking being read; once a track comes out of that order, everything is held to the end. */
  private runIndex = 0;
  private inRunOrder = true;
  /** Per calibrated camera, the earliest start (s) of its trackings from each index of head.runs on: what settle asks at every tracking, read in O(cameras). */
  private readonly unreadStarts: Map<number, Float64Array>;

  constructor(
    private readonly head: Omit<FiguresInputs, 'tracks'>,
    private readonly window: FiguresWindow,
  ) {
    this.runs = new Map(head.runs.map((run, index) => [run.trackingId, { run, index }]));
    this.calibrations = new Map(head.calibrations.map((c) => [c.camera_id, c]));
    this.mappings = new Map(head.cameras.map((c) => [c.id, mappingOf(this.calibrations.get(c.id))]));
    this.perCamera = new Map(head.cameras.map((c) => [c.id, { videos: new Set<number>(), tracks: 0 }]));
    this.videoStart = new Map(head.runs.map((r) => [r.videoId, r.startMs / 1000]));
    this.options = { from: window.fromMs / 1000, to: window.toMs / 1000, frameSizes: this.frameSizes };
    this.zones = head.zones.map((z) => ({ id: z.id, name: z.name, role: z.role, shape: z.shape }));
    this.measured = { plan: new FigureExtentFold(this.options), frame: new FigureExtentFold(this.options) };
    this.unreadStarts = new Map();
    for (const camera of head.cameras) {
      if (!this.mappings.get(camera.id)) continue;
      const from = new Float64Array(head.runs.length + 1).fill(Infinity);
      for (let i = head.runs.length - 1; i >= 0; i--) {
        const run = head.runs[i]!;
        from[i] = run.cameraId === camera.id ? Math.min(from[i + 1]!, run.startMs / 1000) : from[i + 1]!;
      }
      this.unreadStarts.set(camera.id, from);
    }
  }

  /** Plan tracks read and held for a join with tracks still unread (what the fold holds beyond the figures' aggregates). */
  get heldTracks(): number {
    return this.pending.length;
  }

  /** The first pass: the next tracks (in the order of the trackings and their track numbers, as trackBatches reads them) measured. */
  measure(tracks: FiguresInputs['tracks']): void {
    if (this.folds) throw new Error('FiguresFold: measure() after add()');
    this.measuredTracks += tracks.length;
    this.fold(tracks);
  }

  /** The second pass: the same tracks in the same order folded into the figures. */
  add(tracks: FiguresInputs['tracks']): void {
    // Heat maps laid out on no extents would drop these tracks' seconds: the first pass must come first.
    if (tracks.length > 0 && this.measuredTracks === 0) throw new Error('FiguresFold: add() before measure()');
    this.startFolds();
    this.fold(tracks);
  }

  private startFolds(): void {
    if (this.folds || !this.measured) return;
    this.settle(Infinity);
    this.runIndex = 0;
    this.inRunOrder = true;
    const { plan, frame } = this.measured;
    this.folds = {
      plan: new FigureFold(this.zones, this.options, plan.result(this.zones)),
      // Uncalibrated cameras: no plan, only their frame heat maps (the frame stands in for the plan to tell visitors).
      frame: new FrameHeatFold(this.options, frame.result([])),
    };
    this.measured = null;
  }

  private fold(tracks: FiguresInputs['tracks']): void {
    for (const track of tracks) {
      const entry = this.runs.get(track.trackingId);
      if (!entry) continue;
      const { run, index } = entry;
      if (index < this.runIndex) this.inRunOrder = false;
      if (index > this.runIndex) {
        this.settle(index);
        this.runIndex = index;
      }
      if (this.folds) {
        const seen = this.perCamera.get(run.cameraId)!;
        seen.videos.add(run.videoId);
        seen.tracks++;
      } else if (run.frameWidth && run.frameHeight && !this.frameSizes[run.cameraId]) {
        this.frameSizes[run.cameraId] = { width: run.frameWidth, height: run.frameHeight };
      }
      const h = this.mappings.get(run.cameraId) ?? null;
      const calibration = this.calibrations.get(run.cameraId);
      // Calibration points were taken on a frame of its own size; the tracks are in the video's pixels.
      const sx = calibration && run.frameWidth ? calibration.frame_width / run.frameWidth : 1;
      const sy = calibration && run.frameHeight ? calibration.frame_height / run.frameHeight : 1;
      let last = -Infinity;
      const points = track.points.map(([, time, x, y, w, hgt]) => {
        const fx = x! + w! / 2;
        const fy = y! + hgt!;
        const t = run.startMs / 1000 + time!;
        if (t > last) last = t;
        const plan = h ? toPlan(h, [fx * sx, fy * sy]) : null;
        return h ? { t, x: plan ? plan[0] : NaN, y: plan ? plan[1] : NaN, fx, fy } : { t, x: fx, y: fy, fx, fy };
      });
      const planTrack: PlanTrack = { id: `${run.cameraId}:${run.videoId}:${track.number}`, camera_id: run.cameraId, points };
      if (h) this.pending.push({ track: planTrack, last });
      else if (this.folds) this.folds.frame.add(planTrack);
      else this.measured!.frame.add(planTrack);
    }
    this.settle(this.runIndex);
  }

  /**
   * Joins and folds the pending plan tracks when none of them can join a track still unread: every
   * unread tracking (from index `unread` on) of another calibrated camera starts after the pending
   * track's last sighting. Joining needs common time, so the held tracks join as they would in the whole window.
   */
  private settle(unread: number): void {
    if (this.pending.length === 0) return;
    if (unread !== Infinity) {
      if (!this.inRunOrder) return;
      const earliest = [...this.unreadStarts].map(([camera, from]) => [camera, from[Math.min(unread, from.length - 1)]!] as const);
      const open = this.pending.some(({ track, last }) => earliest.some(([camera, start]) => camera !== track.camera_id && start <= last));
      if (open) return;
    }
    const tracks = this.pending.map((p) => p.track);
    this.pending = [];
    for (const track of joinOverlappingViews(tracks)) {
      if (this.folds) this.folds.plan.add(track);
      else this.measured!.plan.add(track);
    }
  }

  /** The figures of everything folded in (both passes over the same tracks), as GET /api/v1/event/figures gives them. */
  figures() {
    const { head, window, mappings, perCamera, videoStart } = this;
    this.startFolds();
    this.settle(Infinity);
    const figures = this.folds!.plan.result();
    const frameMaps = this.folds!.frame.result();
    const uncalibrated = head.cameras.filter((c) => !mappings.get(c.id)).map((c) => c.id);
    return {
      structure_id: window.structureId,
      from: toIso(window.fromMs),
      to: toIso(window.toMs),
      cameras: head.cameras.map((c) => ({
        camera_id: c.id,
        name: c.name,
        calibrated: mappings.get(c.id) !== null,
        videos: perCamera.get(c.id)!.videos.size,
        tracks: perCamera.get(c.id)!.tracks,
      })),
      uncalibrated_cameras: uncalibrated,
      ...figures,
      dwell: figures.dwell.map((d) => ({ ...d, visit_moments: d.visit_moments.map((v) => ({ ...v, ...inVideo(videoStart, v.view_id, v.start) })) })),
      safe_zone_entries: figures.safe_zone_entries.map((z) => ({
        ...z,
        entries: z.entries.map((e) => ({ ...e, ...inVideo(videoStart, e.view_id, e.entry) })),
      })),
      frame_heat_maps: [...figures.frame_heat_maps, ...frameMaps].sort((a, b) => a.camera_id - b.camera_id),
    };
  }
}

/** The figures of all the tracks at once (a short window, read whole per request). */
export function figuresOf(input: FiguresInputs, window: FiguresWindow) {
  const fold = new FiguresFold(input, window);
  fold.measure(input.tracks);
  fold.add(input.tracks);
  return fold.figures();
}

/** The video of a camera's own track (its id: camera:video:number) and the second in it of wall-clock moment t (two decimals). */
function inVideo(videoStart: ReadonlyMap<number, number>, viewId: string, t: number) {
  const videoId = Number(viewId.split(':')[1]);
  const start = videoStart.get(videoId);
  return start !== undefined ? { video_id: videoId, video_second: Math.max(0, Math.round((t - start) * 100) / 100) } : { video_id: null, video_second: null };
}
