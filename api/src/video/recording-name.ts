import type { LocalParts } from '../time-zone';

/** File extensions taken for recordings when a camera folder is scanned (everything else is ignored). */
export const RECORDING_EXTENSIONS = ['mp4', 'm4v', 'mov', 'mkv', 'webm', 'avi', 'ts', 'mts', 'm2ts', '3gp', 'flv', 'wmv', 'mpg', 'mpeg'];

/**
 * Extensions an upload takes: the containers whose bytes the media library recognises
 * (workers/src/media/container.ts: MP4/MOV/3GP, MKV/WebM, AVI, MPEG-TS/M2TS). FLV, WMV and MPEG-PS
 * are found by a sync but refused by the container check, so an upload refuses them at once.
 */
export const UPLOAD_EXTENSIONS = ['mp4', 'm4v', 'mov', '3gp', 'mkv', 'webm', 'avi', 'ts', 'mts', 'm2ts'];

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function isRecordingName(name: string): boolean {
  return RECORDING_EXTENSIONS.includes(extensionOf(name));
}

export const baseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/**
 * The local start written into a recording's name by the recorders: `cam{N}_YYYY-MM-DD_HH-MM-SS.ext`
 * (anything may follow the seconds before the extension: `cam2_2026-11-16_09-00-03_part1.mp4`).
 * Returns null for names that do not follow the pattern or name an impossible time.
 */
export function startFromName(name: string): (LocalParts & { camera: number }) | null {
  const match = /^cam(\d+)_(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})-(\d{2})(?:[^/]*)?\.[A-Za-z0-9]+$/i.exec(name);
  if (!match) return null;
  const [camera, year, month, day, hour, minute, second] = match.slice(1).map(Number) as number[];
  const check = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month! - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return null;
  }
  return { camera: camera!, year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! };
}

/** A container creation time worth believing: parseable, after 2000 and not in the future. */
export function plausibleCreationTime(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return null;
  if (instant < Date.UTC(2000, 0, 1) || instant > now + 86_400_000) return null;
  return instant;
}
