export { assignBy, assignByIou, type Assignment } from './assign';
export { ByteTracker, TRACKER_DEFAULTS, type Detection, type Track, type TrackerOptions, type TrackPoint } from './byte-tracker';
export type { Box } from './kalman';
export { motRowsOfTracks, readMot, writeMot, type MotRow } from './mot-format';
export { motScores, type MotBox, type MotScores } from './mot-metrics';
