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

export function figuresOf(input: FiguresInputs, window: FiguresWindow) {
  const from = window.fromMs / 1000;
  const to = window.toMs / 1000;
  const runs = new Map(input.runs.map((r) => [r.trackingId, r]));
  const calibrations = new Map(input.calibrations.map((c) => [c.camera_id, c]));
  const mappings = new Map(input.cameras.map((c) => [c.id, mappingOf(calibrations.get(c.id))]));
  const perCamera = new Map(input.cameras.map((c) => [c.id, { videos: new Set<number>(), tracks: 0 }]));
  const frameSizes: Record<number, { width: number; height: number }> = {};
  const planTracks: PlanTrack[] = [];
  const frameOnly: PlanTrack[] = [];
  // Each camera's own track → its video, for visits and entries that open the video at their moment.
  const videoOfTrack = new Map<string, { videoId: number; startSeconds: number }>();
  for (const track of input.tracks) {
    const run = runs.get(track.trackingId);
    if (!run) continue;
    const seen = perCamera.get(run.cameraId)!;
    seen.videos.add(run.videoId);
    seen.tracks++;
    if (run.frameWidth && run.frameHeight && !frameSizes[run.cameraId]) frameSizes[run.cameraId] = { width: run.frameWidth, height: run.frameHeight };
    const h = mappings.get(run.cameraId) ?? null;
    const calibration = calibrations.get(run.cameraId);
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
    videoOfTrack.set(planTrack.id, { videoId: run.videoId, startSeconds: run.startMs / 1000 });
    (h ? planTracks : frameOnly).push(planTrack);
  }
  const zones: FigureZone[] = input.zones.map((z) => ({ id: z.id, name: z.name, role: z.role, shape: z.shape }));
  const options = { from, to, frameSizes };
  const figures: EventFigures = computeFigures(joinOverlappingViews(planTracks), zones, options);
  // Uncalibrated cameras: no plan, but their frame heat maps (the frame stands in for the plan here, only the frame maps are kept).
  const frameMaps = frameOnly.length > 0 ? computeFigures(frameOnly, [], options).frame_heat_maps : [];
  const uncalibrated = input.cameras.filter((c) => !mappings.get(c.id)).map((c) => c.id);
  return {
    structure_id: window.structureId,
    from: toIso(window.fromMs),
    to: toIso(window.toMs),
    cameras: input.cameras.map((c) => ({
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

/** The video a camera's own track comes from and the second in it of wall-clock moment t (two decimals). */
function inVideo(videos: ReadonlyMap<string, { videoId: number; startSeconds: number }>, viewId: string, t: number) {
  const video = videos.get(viewId);
  return video
    ? { video_id: video.videoId, video_second: Math.max(0, Math.round((t - video.startSeconds) * 100) / 100) }
    : { video_id: null, video_second: null };
}
