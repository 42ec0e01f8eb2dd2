/** Pure helpers of the multi-video player: which file covers an instant, and where in it. */
export interface CameraVideo {
  id: number;
  filename: string;
  start: number;
  /** seconds */
  duration: number;
}

export function videoAt(videos: CameraVideo[], instant: number): CameraVideo | null {
  return videos.find((v) => instant >= v.start && instant < v.start + v.duration * 1000) ?? null;
}

/** The span [first start, last end] of the recordings of one local day, or null. */
export function daySpan(videos: CameraVideo[]): { from: number; to: number } | null {
  if (videos.length === 0) return null;
  return { from: Math.min(...videos.map((v) => v.start)), to: Math.max(...videos.map((v) => v.start + v.duration * 1000)) };
}

/** Whether a player should seek: its position differs from the shared clock by more than the tolerance. */
export const DRIFT_TOLERANCE_SECONDS = 0.5;
export function needsSeek(currentTime: number, wanted: number): boolean {
  return Math.abs(currentTime - wanted) > DRIFT_TOLERANCE_SECONDS;
}

/**
 * A player's caption: «Камера 2 · Вход», but a camera already named after its number («Камера 1»,
 * «камера 1 (обзорная)») is shown by its name alone, not «Камера 1 · Камера 1» (issue 28).
 */
export function cameraCaption(cameraKey: number, name: string): string {
  const label = `Камера ${cameraKey}`;
  const trimmed = name.trim();
  if (!trimmed) return label;
  return new RegExp(`^камера\\s*(№\\s*)?${cameraKey}(?!\\d)`, 'i').test(trimmed) ? trimmed : `${label} · ${trimmed}`;
}
