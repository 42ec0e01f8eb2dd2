import { appearanceOf, scaleBox } from '../src/tracking/appearance';
import type { Detection } from '../src/tracking/byte-tracker';
import { decodeFrames } from '../src/vision/frames';

/**
 * The recorded MoveNet people of vtest.avi (vtest-detections.ts) with their appearance
 * (workers/src/tracking/appearance.ts): the clip decoded once at its own size and rate (768×576,
 * 10 fps, a couple of seconds) and each recorded box's colour histograms taken from its frame, as the
 * tracking job takes them from the frame it detected on. Computed at test time, not stored: the
 * decode is fast and the pixels are the video's own.
 */
export async function withAppearance(
  file: string,
  frames: Detection[][],
  width: number,
  height: number,
  fps: number,
  /** The picture the job takes the colours from (MoveNet's input size; the boxes scaled to it), the video's size by default. */
  picture: { width: number; height: number } = { width, height },
): Promise<Detection[][]> {
  const out: Detection[][] = [];
  const source = { width, height };
  const sampling = {
    startSecond: 0,
    endSecond: frames.length / fps,
    fps,
    width: picture.width,
    height: picture.height,
    pixelFormat: 'rgb24' as const,
    source: { width, height, frameRate: fps },
  };
  await decodeFrames(file, sampling, (rgb, index) => {
    const pixels = { rgb, width: picture.width, height: picture.height };
    out.push((frames[index] ?? []).map((d) => ({ ...d, feature: appearanceOf(pixels, scaleBox(d.box, source, picture)) ?? undefined })));
  });
  if (out.length !== frames.length) throw new Error(`vtest.avi: ${out.length} кадров вместо ${frames.length}`);
  return out;
}
