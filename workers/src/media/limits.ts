/**
 * What a recording may be and what a media process may take (DESIGN.md «Media safety»; docs/video-storage.md
 * «Границы записи»). A few hundred bytes can declare a picture of 8192² or three days of video: the
 * bounds are checked on the header, before anything is decoded, and every ffmpeg/ffprobe process
 * runs under a wall-time and an address-space cap that fit the file, so that a file which lies in
 * its header still cannot hold a job slot or the machine's memory.
 */

export interface MediaLimits {
  /** Largest picture side, pixels (NORMA_MEDIA_MAX_SIDE). */
  maxSide: number;
  /** Largest picture, pixels (NORMA_MEDIA_MAX_PIXELS): 4096×3072 takes a 12 Mp fisheye camera. */
  maxPixels: number;
  /** Highest frame rate, frames a second (NORMA_MEDIA_MAX_FPS). */
  maxFps: number;
  /** Longest recording, seconds (NORMA_MEDIA_MAX_SECONDS), declared or read. */
  maxSeconds: number;
  /**
   * Wall time a conversion or decode may take, as a multiple of the recording's length at the work of
   * 1080p 25 fps (NORMA_MEDIA_TIME_FACTOR): 4 lets a 1-hour 1080p file take 4 hours, a 4K one 16.
   */
  timeFactor: number;
  /** Address space of an ffmpeg process: this much plus `memoryPerPixel` per pixel of the picture (NORMA_MEDIA_MEMORY_MB). */
  memoryBaseBytes: number;
  /** Bytes of address space per pixel of the picture (decoder and encoder frames, x264's look-ahead). */
  memoryPerPixel: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  maxSide: 4096,
  maxPixels: 4096 * 3072,
  maxFps: 120,
  maxSeconds: 24 * 3600,
  timeFactor: 4,
  memoryBaseBytes: 768 * 1024 ** 2,
  memoryPerPixel: 400,
};

let current: MediaLimits = DEFAULT_MEDIA_LIMITS;

/** Sets the limits of this process (the API and the workers process read them from the environment at start). */
export function configureMediaLimits(limits: MediaLimits): void {
  current = limits;
}

export function mediaLimits(): MediaLimits {
  return current;
}

/** A valid recording that is outside the bounds, or a process stopped at its cap: retrying the same file will not help. */
export class MediaRefusedError extends Error {}

/** What the header says about the recording, as far as the bounds care. */
export interface RecordingShape {
  width: number | null;
  height: number | null;
  frameRate: number | null;
  durationSeconds: number;
}

const number = (value: number, digits = 0) => value.toLocaleString('ru-RU', { maximumFractionDigits: digits });
/** Hours as a person reads them in a message: «72 ч», «1,5 ч». */
export const hours = (seconds: number) => `${number(seconds / 3600, 1)} ч`;

/** Throws MediaRefusedError, in plain Russian, when the header describes a recording outside the bounds. */
export function checkBounds(shape: RecordingShape, limits: MediaLimits = current): void {
  const { width, height, frameRate, durationSeconds } = shape;
  if (width && height) {
    if (Math.max(width, height) > limits.maxSide || width * height > limits.maxPixels)
      throw new MediaRefusedError(
        `Кадр ${width}×${height} больше допустимого: сторона до ${number(limits.maxSide)} пикселей, площадь до ${number(limits.maxPixels / 1e6, 1)} Мп`,
      );
  }
  if (frameRate && frameRate > limits.maxFps)
    throw new MediaRefusedError(`Частота ${number(frameRate, 1)} кадров в секунду больше допустимой (${number(limits.maxFps)})`);
  if (durationSeconds > limits.maxSeconds)
    throw new MediaRefusedError(`Запись длиной ${hours(durationSeconds)} длиннее допустимой (${hours(limits.maxSeconds)})`);
}

/** What one media process may take: wall time, address space and how politely it shares the processor. */
export interface ProcessCaps {
  wallSeconds: number;
  memoryBytes: number;
  /** `nice` value (0: as the server; higher yields the processor to others). */
  niceness: number;
}

/** Pixels a second of 1080p at 25 fps: the unit of work of the time cap. */
const FULL_HD_RATE = 1920 * 1080 * 25;

/** Work of a span of video relative to the same span of 1080p at 25 fps (never below 1: small files still start processes). */
function workShare(width: number, height: number, frameRate: number): number {
  return Math.max(1, (width * height * Math.min(Math.max(frameRate, 1), 1000)) / FULL_HD_RATE);
}

/** Caps of a probe (header or packet count): a fixed memory and a time that grows with the length read. */
export function probeCaps(durationSeconds = 0, limits: MediaLimits = current): ProcessCaps {
  return { wallSeconds: 120 + Math.min(durationSeconds, limits.maxSeconds) / 4, memoryBytes: limits.memoryBaseBytes, niceness: 0 };
}

/** A recording's picture and rate as the caps see it; unknown parts are taken at the bounds' largest. */
export interface SourceShape {
  width?: number | null;
  height?: number | null;
  frameRate?: number | null;
}

/** Caps of decoding `seconds` of a source (a conversion, or frames for vision). */
export function decodeCaps(seconds: number, source: SourceShape, limits: MediaLimits = current, niceness = 0): ProcessCaps {
  const known = source.width && source.height;
  const pixels = known ? source.width! * source.height! : limits.maxPixels;
  const share = workShare(known ? source.width! : 1920, known ? source.height! : 1080, source.frameRate ?? 25);
  return {
    wallSeconds: Math.ceil(120 + limits.timeFactor * Math.min(Math.max(seconds, 0), limits.maxSeconds) * share),
    memoryBytes: Math.ceil(limits.memoryBaseBytes + pixels * limits.memoryPerPixel),
    niceness,
  };
}

/** A conversion longer than this much 1080p25 work yields the processor to short ones (another organisation's small upload). */
const LONG_CONVERSION_SECONDS = 60;

/**
 * Niceness of a conversion: every job's media work yields to the server itself (5), and a long one
 * yields to the short ones too (15), so that one organisation's big upload does not make another's
 * small one wait for the processor.
 */
export function conversionNiceness(durationSeconds: number, source: SourceShape): number {
  const share = workShare(source.width ?? 1920, source.height ?? 1080, source.frameRate ?? 25);
  return durationSeconds * share > LONG_CONVERSION_SECONDS ? 15 : 5;
}
