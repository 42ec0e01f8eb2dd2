import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';

/**
 * The containers the server takes (its UPLOAD_EXTENSIONS, api/src/video/recording-name.ts; the loader is a
 * program of its own and cannot import the server): camera and phone files, converted there.
 */
export const UPLOAD_EXTENSIONS = ['.mp4', '.m4v', '.mov', '.3gp', '.mkv', '.webm', '.avi', '.ts', '.mts', '.m2ts'];

export interface FoundFile {
  path: string;
  /** Path inside the watched folder, with "/" separators (for logs). */
  name: string;
  size: number;
  modifiedAt: number;
}

export interface ScanOptions {
  /** Files changed more recently than this may still be being written, ms. */
  settleMs: number;
  /** Skipped (the state file, when it lives in the watched folder). */
  ignore?: string[];
  now?: number;
}

/**
 * The recordings in a folder and its subfolders that are ready to send: a video container the server
 * takes (UPLOAD_EXTENSIONS), not hidden, not empty,
 * and unchanged for `settleMs` (a recorder may still be writing a newer one). Oldest first.
 */
export async function scanFolder(folder: string, options: ScanOptions): Promise<FoundFile[]> {
  const now = options.now ?? Date.now();
  const ignore = new Set((options.ignore ?? []).map((p) => resolve(p)));
  const found: FoundFile[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      if (!entry.isFile() || ignore.has(resolve(path))) continue;
      if (!UPLOAD_EXTENSIONS.some((ext) => entry.name.toLowerCase().endsWith(ext))) continue;
      const info = await stat(path).catch(() => null);
      if (!info || info.size === 0) continue;
      const age = now - info.mtimeMs;
      if (age >= 0 && age < options.settleMs) continue;
      found.push({ path, name: relative(folder, path).split(sep).join('/'), size: info.size, modifiedAt: info.mtimeMs });
    }
  };
  await walk(folder);
  return found.sort((a, b) => a.modifiedAt - b.modifiedAt || a.name.localeCompare(b.name));
}

/** Names of video files in the folder that the server would refuse (a container it does not take), for a one-time warning. */
export async function unsupportedFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && !e.name.startsWith('.') && /\.(flv|wmv|asf|mpg|mpeg|vob|dav|h264|h265)$/i.test(e.name)).map((e) => e.name);
}
