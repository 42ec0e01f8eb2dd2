import type { Box } from './kalman';

/**
 * A person's appearance for the tracker (docs/event-analytics.md «Трекер», «Внешность»): colour
 * histograms of the upper body (shoulders to hips) and the lower body (hips to ankles), each on the
 * middle of the box's width so that the background beside the person weighs little. A pixel goes to
 * one of 8 hues × 2 brightnesses when it is coloured, else to one of 4 greys (black, dark, light,
 * white): dark trousers, a red jacket, a white hood differ, and light from above moving over a
 * person does not move a pixel across many bins. Each half's histogram is normalised and square
 * rooted, and the two halves are put together with equal weight, so the dot product of two features
 * is the mean Bhattacharyya coefficient of the halves — 1 for the same colours, 0 for disjoint ones.
 */
export type Appearance = Float32Array;

const HUES = 12;
const VALUES = 4;
const GREYS = 8;
const PART_BINS = HUES * VALUES + GREYS;
/** Body stripes as shares of the box height (the top of the head and the feet left out: hair and the floor, not clothes). */
const PARTS: [number, number][] = [
  [0.1, 0.3],
  [0.3, 0.5],
  [0.5, 0.7],
  [0.7, 0.9],
];
export const APPEARANCE_SIZE = PARTS.length * PART_BINS;
/** The middle of the width taken (a person's box is wider than the body where the arms swing). */
const WIDTH_SHARE = 0.6;
/** A pixel with max − min of its channels below this is grey. */
const CHROMA_FLOOR = 12;
/** Fewer pixels than this in a half: no appearance (too small to say anything). */
const MIN_PIXELS = 12;

/** A picture: RGB bytes, row by row. */
export interface Picture {
  rgb: Uint8Array;
  width: number;
  height: number;
}

function bin(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  if (chroma < CHROMA_FLOOR) return HUES * VALUES + ((max * GREYS) >> 8);
  let hue: number;
  if (max === r) hue = (g - b) / chroma;
  else if (max === g) hue = 2 + (b - r) / chroma;
  else hue = 4 + (r - g) / chroma;
  const h = Math.floor(((hue + 6) % 6) * (HUES / 6)) % HUES;
  return h * VALUES + ((max * VALUES) >> 8);
}

/**
 * The appearance of the person in `box` (pixels of the picture's own size; the caller scales a
 * source-pixel box), or null when the box is too small or outside the picture.
 */
export function appearanceOf(picture: Picture, box: Box): Appearance | null {
  const out = new Float32Array(APPEARANCE_SIZE);
  const h = box.y2 - box.y1;
  const w = box.x2 - box.x1;
  const x1 = Math.max(0, Math.round(box.x1 + (w * (1 - WIDTH_SHARE)) / 2));
  const x2 = Math.min(picture.width, Math.round(box.x2 - (w * (1 - WIDTH_SHARE)) / 2));
  for (const [p, [from, to]] of PARTS.entries()) {
    const y1 = Math.max(0, Math.round(box.y1 + h * from));
    const y2 = Math.min(picture.height, Math.round(box.y1 + h * to));
    if (x2 - x1 < 2 || (y2 - y1) * (x2 - x1) < MIN_PIXELS) return null;
    const offset = p * PART_BINS;
    for (let y = y1; y < y2; y++) {
      let i = (y * picture.width + x1) * 3;
      for (let x = x1; x < x2; x++, i += 3) out[offset + bin(picture.rgb[i]!, picture.rgb[i + 1]!, picture.rgb[i + 2]!)]! += 1;
    }
    normalise(out, offset, PART_BINS);
  }
  return out;
}

/** Square-rooted and scaled so that the stripe's squares sum to 1 / stripes (the whole feature's to 1). */
function normalise(v: Float32Array, offset: number, length: number) {
  let sum = 0;
  for (let i = offset; i < offset + length; i++) sum += v[i]!;
  if (sum <= 0) return;
  for (let i = offset; i < offset + length; i++) v[i] = Math.sqrt(v[i]! / sum / PARTS.length);
}

/** Similarity of two appearances: the mean Bhattacharyya coefficient of the stripes, 0…1. */
export function similarity(a: Appearance, b: Appearance): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** A track's appearance after one more sighting: an exponential moving average (BoT-SORT's 0.9), renormalised. */
export function blend(track: Appearance, seen: Appearance, keep: number): Appearance {
  const out = new Float32Array(track.length);
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = keep * track[i]! + (1 - keep) * seen[i]!;
    norm += out[i]! * out[i]!;
  }
  const n = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= n;
  return out;
}

/** A source-pixel box in the pixels of a picture decoded at another size. */
export function scaleBox(box: Box, source: { width: number; height: number }, picture: { width: number; height: number }): Box {
  const sx = picture.width / source.width;
  const sy = picture.height / source.height;
  return { x1: box.x1 * sx, y1: box.y1 * sy, x2: box.x2 * sx, y2: box.y2 * sy };
}
