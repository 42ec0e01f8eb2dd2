/**
 * Recordings Norma encodes itself (ingest's H.264, the demo clips) keep every frame a vision model
 * samples a reference frame, with only unreferenced frames between (issue 43, «decoding only what the
 * model needs»; docs/vision.md «Кадры, на которые никто не ссылается»). The models sample at
 * SAMPLED_RATE frames per second from each keyframe, so at 25 fps every fifth frame is an I or P frame
 * and the four between are B frames nothing refers to (x264: a fixed count of B frames, no B pyramid,
 * no scene-cut keyframes). A decoder told to skip unreferenced frames then decodes a fifth of the
 * pictures and still gives the sampled ones bit for bit.
 */

/** Frames per second the vision models sample (vision/pipeline.ts DEFAULT_FPS). */
export const SAMPLED_RATE = 5;

/** x264 keeps at most 16 B frames in a row. */
const MAX_STEP = 17;

/**
 * Frames from one sampled frame to the next at `frameRate` (25 fps: 5), when the rate is a whole
 * multiple of SAMPLED_RATE from 2 to 17 steps; otherwise null (the encode keeps x264's defaults).
 */
export function referenceStepFor(frameRate: number | null | undefined): number | null {
  if (!frameRate || !Number.isFinite(frameRate)) return null;
  const step = Math.round(frameRate / SAMPLED_RATE);
  if (step < 2 || step > MAX_STEP || Math.abs(step * SAMPLED_RATE - frameRate) > 1e-3) return null;
  return step;
}

/** The x264 options that make every `step`-th frame from each keyframe a reference frame and the rest unreferenced. */
export function referenceStepEncoding(step: number): string[] {
  return ['-x264-params', `bframes=${step - 1}:b-adapt=0:b-pyramid=none:scenecut=0`];
}

/** What the decoder needs to know of a recording to skip its unreferenced frames safely. */
export interface ReferenceLayout {
  /** The recording's frame rate (ffprobe). */
  frameRate?: number | null;
  /** Set by Norma's own encode (videos.reference_step): every this-many-th frame from each keyframe is a reference. */
  referenceStep?: number | null;
}

/**
 * Whether sampling `fps` frames per second from `startSecond` picks only reference frames of a
 * recording laid out so, which makes skipping the unreferenced ones exact: the start falls on a frame
 * that is a multiple of the step and each sampled frame is a whole number of steps from the last.
 * Keyframes (every 2 s) are multiples of the step too (2 × rate = 2 × SAMPLED_RATE × step).
 */
export function samplesOnlyReferences(layout: ReferenceLayout, startSecond: number, fps: number): boolean {
  const { frameRate, referenceStep } = layout;
  if (!frameRate || !referenceStep || referenceStep < 2 || fps <= 0) return false;
  const framesPerSample = frameRate / fps;
  const startFrame = startSecond * frameRate;
  const whole = (value: number) => Math.abs(value - Math.round(value)) < 1e-3;
  return whole(framesPerSample) && Math.round(framesPerSample) % referenceStep === 0 && whole(startFrame) && Math.round(startFrame) % referenceStep === 0;
}
