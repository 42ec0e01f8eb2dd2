import {
  computeFigures,
  homographyFromPoints,
  joinOverlappingViews,
  toPlan,
  type EventFigures,
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
 * long window so, figures.service.ts trackBatches): each batch's stored points become plan points as it
 * comes — {t, x, y, fx, fy} a sighting, the video of the track, the camera's counts — and the batch
 * itself (the parsed point arrays) is dropped before the next is read. What stays until the end is
 * those plan points: the core computes every figure over all tracks at once (computeFigures:
 * overlapping cameras joined pair by pair, the plan heat map's extent, medians, paths), so a window's
 * plan points are held together — docs/event-analytics.md «Цифры длинных окон».
 */
export class FiguresFold {
  private readonly runs: Map<number, FiguresInputs['runs'][number]>;
  private readonly calibrations: Map<number, FiguresInputs['calibrations'][number]>;
  private readonly mappings: Map<number, Homography | null>;
  private readonly perCamera: Map<number, { videos: Set<number>; tracks: number }>;
  private readonly frameSizes: Record<number, { width: number; height: number }> = {};
  private readonly planTracks: PlanTrack[] = [];
  private readonly frameOnly: PlanTrack[] = [];
  // Each camera's own track → its video, for visits and entries that open the video at their moment.
  private readonly videoOfTrack = new Map<string, { videoId: number; startSeconds: number }>();

  constructor(
    private readonly head: Omit<FiguresInputs, 'tracks'>,
    private readonly window: FiguresWindow,
  ) {
    this.runs = new Map(head.runs.map((r) => [r.trackingId, r]));
    this.calibrations = new Map(head.calibrations.map((c) => [c.camera_id, c]));
    this.mappings = new Map(head.cameras.map((c) => [c.id, mappingOf(this.calibrations.get(c.id))]));
    this.perCamera = new Map(head.cameras.map((c) => [c.id, { videos: new Set<number>(), tracks: 0 }]));
  }

  /** Folds in the next tracks (in the order of the trackings and their track numbers, as figuresTracks reads them). */
  add(tracks: FiguresInputs['tracks']): void {
    for (const track of tracks) {
      const run = this.runs.get(track.trackingId);
      if (!run) continue;
      const seen = this.perCamera.get(run.cameraId)!;
      seen.videos.add(run.videoId);
      seen.tracks++;
      if (run.frameWidth && run.frameHeight && !this.frameSizes[run.cameraId])
        this.frameSizes[run.cameraId] = { width: run.frameWidth, height: run.frameHeight };
      const h = this.mappings.get(run.cameraId) ?? null;
      const calibration = this.calibrations.get(run.cameraId);
      // Calibration points were taken on a frame of its own size; the tracks are in the video's pixels.
      const sx = calibration && run.frameWidth ? calibration.frame_width / run.frameWidth : 1;
      const sy = calibration && run.frameHeight ? calibration.frame_height / run.frameHeight : 1;
      const points = track.points.map(([, time, x, y, w, hgt]) => {
        const fx = x! + w! / 2;
        const fy = y! + hgt!;
        const t = run.startMs / 1000 + time!;
        const plan = h ? toPlan(h, [fx * sx, fy * sy]) : null;
        return h ? { t, x: plan ? plan[0] : NaN, y: plan ? plan[1] : NaN, fx, fy } : { t, x: fx, y: fy, fx, fy };
      });
      const planTrack: PlanTrack = { id: `${run.cameraId}:${run.videoId}:${track.number}`, camera_id: run.cameraId, points };
      this.videoOfTrack.set(planTrack.id, { videoId: run.videoId, startSeconds: run.startMs / 1000 });
      (h ? this.planTracks : this.frameOnly).push(planTrack);
    }
  }

  /** The figures of everything folded in, as GET /api/v1/event/figures gives them. */
  figures() {
    const { head, window, mappings, perCamera, frameSizes, frameOnly, videoOfTrack } = this;
    const options = { from: window.fromMs / 1000, to: window.toMs / 1000, frameSizes };
    const zones: FigureZone[] = head.zones.map((z) => ({ id: z.id, name: z.name, role: z.role, shape: z.shape }));
    const figures: EventFigures = computeFigures(joinOverlappingViews(this.planTracks), zones, options);
    // Uncalibrated cameras: no plan, but their frame heat maps (the frame stands in for the plan here, only the frame maps are kept).
    const frameMaps = frameOnly.length > 0 ? computeFigures(frameOnly, [], options).frame_heat_maps : [];
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
      dwell: figures.dwell.map((d) => ({ ...d, visit_moments: d.visit_moments.map((v) => ({ ...v, ...inVideo(videoOfTrack, v.view_id, v.start) })) })),
      safe_zone_entries: figures.safe_zone_entries.map((z) => ({
        ...z,
        entries: z.entries.map((e) => ({ ...e, ...inVideo(videoOfTrack, e.view_id, e.entry) })),
      })),
      frame_heat_maps: [...figures.frame_heat_maps, ...frameMaps].sort((a, b) => a.camera_id - b.camera_id),
    };
  }
}

/** The figures of all the tracks at once (a short window, read whole per request). */
export function figuresOf(input: FiguresInputs, window: FiguresWindow) {
  const fold = new FiguresFold(input, window);
  fold.add(input.tracks);
  return fold.figures();
}

/** The video a camera's own track comes from and the second in it of wall-clock moment t (two decimals). */
function inVideo(videos: ReadonlyMap<string, { videoId: number; startSeconds: number }>, viewId: string, t: number) {
  const video = videos.get(viewId);
  return video
    ? { video_id: video.videoId, video_second: Math.max(0, Math.round((t - video.startSeconds) * 100) / 100) }
    : { video_id: null, video_second: null };
}
