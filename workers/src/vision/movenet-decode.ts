/**
 * MoveNet multipose output, shared by the server (movenet.ts) and the browser (pwa/src/ml/pose-*):
 * [1, 6, 56] — per person 17 keypoints × (y, x, score), then the box ymin, xmin, ymax, xmax and
 * the person's score, all relative to the input (0…1). Pure code: no TensorFlow.js here.
 */
export const KEYPOINT_NAMES = [
  'nose',
  'left_eye',
  'right_eye',
  'left_ear',
  'right_ear',
  'left_shoulder',
  'right_shoulder',
  'left_elbow',
  'right_elbow',
  'left_wrist',
  'right_wrist',
  'left_hip',
  'right_hip',
  'left_knee',
  'right_knee',
  'left_ankle',
  'right_ankle',
] as const;
export type KeypointName = (typeof KEYPOINT_NAMES)[number];

export const MOVENET_PEOPLE = 6;
const STRIDE = 56;

/**
 * The lowest person score kept. Measured on the hand-labelled vtest.avi frames
 * (tests/fixtures/vtest-people.json, two strips at 768 px): people there are 40–150 px tall seen
 * from above and MoveNet scores the smallest of them 0.18–0.3; what is not a person (a bag on the
 * grass, a tripod) scored at most 0.145. 0.16 lies between.
 */
export const MOVENET_MIN_SCORE = 0.16;

/**
 * Default input width: 768×576 (the whole vtest frame). Cost grows with the area; smaller inputs
 * were measured on the hand-labelled vtest.avi frames (two strips): 576×448 still found 0.962 of the
 * people (precision 0.989) and 512×384 0.934, but at 576 and 640 the man standing behind the sign
 * at frame 125 — the case background subtraction cannot see — was lost (docs/vision.md).
 */
export const MOVENET_INPUT_WIDTH = 768;

/** Vertical strips per frame (movenet.ts): two lift the six-people limit of one picture to twelve. */
export const MOVENET_COLUMNS = 2;

/** The model's input size for a source: `inputWidth` rounded to a multiple of 32, the height by the aspect, also a multiple of 32. */
export function movenetInputSize(sourceWidth: number, sourceHeight: number, inputWidth = MOVENET_INPUT_WIDTH): { width: number; height: number } {
  const width = Math.max(32, Math.round(inputWidth / 32) * 32);
  const height = Math.max(32, Math.round((sourceHeight * width) / sourceWidth / 32) * 32);
  return { width, height };
}

export interface Keypoint {
  name: KeypointName;
  x: number;
  y: number;
  score: number;
}

export interface PosedHuman {
  /** Centre of the box, in source pixels. */
  location: { x: number; y: number };
  box: { x1: number; y1: number; x2: number; y2: number };
  score: number;
  keypoints: Keypoint[];
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** People with a score ≥ minScore, best first, scaled to a `width`×`height` source. */
export function decodeMoveNet(raw: Float32Array | number[], width: number, height: number, minScore = MOVENET_MIN_SCORE): PosedHuman[] {
  const people: PosedHuman[] = [];
  for (let p = 0; p < MOVENET_PEOPLE && (p + 1) * STRIDE <= raw.length; p++) {
    const o = p * STRIDE;
    const score = raw[o + 55]!;
    if (!(score >= minScore)) continue;
    const clampX = (v: number) => Math.min(width, Math.max(0, v * width));
    const clampY = (v: number) => Math.min(height, Math.max(0, v * height));
    const box = {
      x1: Math.round(clampX(raw[o + 52]!)),
      y1: Math.round(clampY(raw[o + 51]!)),
      x2: Math.round(clampX(raw[o + 54]!)),
      y2: Math.round(clampY(raw[o + 53]!)),
    };
    if (box.x2 <= box.x1 || box.y2 <= box.y1) continue;
    const keypoints = KEYPOINT_NAMES.map((name, k) => ({
      name,
      x: round1(clampX(raw[o + k * 3 + 1]!)),
      y: round1(clampY(raw[o + k * 3]!)),
      score: Math.round(raw[o + k * 3 + 2]! * 1000) / 1000,
    }));
    people.push({
      location: { x: Math.round((box.x1 + box.x2) / 2), y: Math.round((box.y1 + box.y2) / 2) },
      box,
      score: Math.round(score * 1000) / 1000,
      keypoints,
    });
  }
  return people.sort((a, b) => b.score - a.score);
}

/** Intersection over union of two boxes (x2, y2 exclusive). */
export function iou(a: { x1: number; y1: number; x2: number; y2: number }, b: { x1: number; y1: number; x2: number; y2: number }): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter);
}

export interface Tile {
  x: number;
  width: number;
}

/** Overlap of neighbouring strips, in input pixels: wider than a person is in the input. */
const TILE_OVERLAP = 96;

/** `columns` strips of a `width`-wide frame, each a multiple of 32 wide, spread evenly with overlap. */
export function stripTiles(width: number, columns: number): Tile[] {
  if (columns <= 1) return [{ x: 0, width }];
  const tileWidth = Math.min(width, Math.ceil((width / columns + TILE_OVERLAP) / 32) * 32);
  return Array.from({ length: columns }, (_, i) => ({ x: Math.round(((width - tileWidth) * i) / (columns - 1)), width: tileWidth }));
}

export function shifted(p: PosedHuman, dx: number, sx: number, sy: number): PosedHuman {
  const x = (v: number) => Math.round((v + dx) * sx);
  const y = (v: number) => Math.round(v * sy);
  const box = { x1: x(p.box.x1), y1: y(p.box.y1), x2: x(p.box.x2), y2: y(p.box.y2) };
  return {
    location: { x: Math.round((box.x1 + box.x2) / 2), y: Math.round((box.y1 + box.y2) / 2) },
    box,
    score: p.score,
    keypoints: p.keypoints.map((k) => ({ ...k, x: Math.round((k.x + dx) * sx * 10) / 10, y: Math.round(k.y * sy * 10) / 10 })),
  };
}

/** Keeps the best-scored of people whose boxes overlap much (the same person seen in two strips). */
export function mergeOverlapping(people: PosedHuman[]): PosedHuman[] {
  const kept: PosedHuman[] = [];
  for (const p of [...people].sort((a, b) => b.score - a.score)) {
    const area = (p.box.x2 - p.box.x1) * (p.box.y2 - p.box.y1);
    const duplicate = kept.some((k) => {
      const w = Math.min(k.box.x2, p.box.x2) - Math.max(k.box.x1, p.box.x1);
      const h = Math.min(k.box.y2, p.box.y2) - Math.max(k.box.y1, p.box.y1);
      const smaller = Math.min(area, (k.box.x2 - k.box.x1) * (k.box.y2 - k.box.y1));
      return iou(k.box, p.box) >= 0.5 || (w > 0 && h > 0 && (w * h) / smaller >= 0.8);
    });
    if (!duplicate) kept.push(p);
  }
  return kept;
}
