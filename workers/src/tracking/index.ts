export { appearanceOf, scaleBox } from './appearance';
export { assignBy, assignByIou, type Assignment } from './assign';
export { ByteTracker, TRACKER_DEFAULTS, type Detection, type Track, type TrackerOptions, type TrackPoint } from './byte-tracker';
export type { Box } from './kalman';
export { motRowsOfTracks, readMot, writeMot, type MotRow } from './mot-format';
export { motScores, type MotBox, type MotScores } from './mot-metrics';
export {
  computeFigures,
  FIGURE_DEFAULTS,
  FigureExtentFold,
  FigureFold,
  FrameHeatFold,
  MAX_WINDOW_SECONDS,
  type EventFigures,
  type FigureExtents,
  type FigureOptions,
  type FigureZone,
  type PlanTrack,
  type PlanTrackPoint,
  type SafeZoneEntry,
  type StandRank,
  type ZoneDwell,
  type ZoneRole,
  type ZoneVisit,
} from './figures';
export type { Point } from './geometry';
export type { HeatGrid } from './heat';
export { CalibrationError, homographyFromPoints, invertHomography, toImage, toPlan, type Homography } from './homography';
export { JOIN_DEFAULTS, joinOverlappingViews, type JoinOptions } from './join';
export { depthInZone, pointInZone, validateZoneShape, ZONE_LIMITS, zoneArea, zoneBounds, type ZoneShape } from './zones';
export {
  atEdge,
  finishTracks,
  interpolateGaps,
  linkTracklets,
  OFFLINE_DEFAULTS,
  reachable,
  type FrameSize,
  type OfflineOptions,
  type PlaceRules,
  type Tracklet,
} from './offline';
