import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface UploadedEntry {
  /** Where the file was when it was sent. */
  path: string;
  size: number;
  videoId: number | null;
  uploadedAt: string;
  /** `uploaded`: sent by this loader; `on_server`: the server already had it. */
  how: 'uploaded' | 'on_server';
}

export interface SeenEntry {
  size: number;
  modifiedAt: number;
  sha256: string;
}

export interface RefusedEntry {
  size: number;
  modifiedAt: number;
  reason: string;
}

/**
 * What the loader remembers between runs: the content hashes it has delivered (so a file is never
 * sent twice, even renamed or copied again), the hashes of files it has read (so an unchanged file
 * is not hashed on every scan) and files the server refused (not retried until they change).
 */
export interface LoaderState {
  version: 1;
  uploaded: Record<string, UploadedEntry>;
  seen: Record<string, SeenEntry>;
  refused: Record<string, RefusedEntry>;
}

export const emptyState = (): LoaderState => ({ version: 1, uploaded: {}, seen: {}, refused: {} });

/**
 * Reads the state file; a missing file is a fresh start. A damaged one is kept aside (`.broken-…`)
 * and the loader starts afresh: the server still refuses duplicates, so nothing is sent twice.
 */
export async function loadState(path: string, log: (line: string) => void = () => {}): Promise<LoaderState> {
  const file = Bun.file(path);
  if (!(await file.exists())) return emptyState();
  try {
    const data = JSON.parse(await file.text()) as Partial<LoaderState>;
    if (data.version !== 1 || typeof data.uploaded !== 'object' || data.uploaded === null) throw new Error('неизвестный формат');
    return { version: 1, uploaded: data.uploaded, seen: data.seen ?? {}, refused: data.refused ?? {} };
  } catch (err) {
    const aside = `${path}.broken-${Date.now()}`;
    await rename(path, aside).catch(() => {});
    log(`Файл состояния повреждён (${err instanceof Error ? err.message : err}), сохранён как ${aside}; начинаю заново`);
    return emptyState();
  }
}

/** Writes the state atomically (a temporary file, then a rename): a crash never leaves half a file. */
export async function saveState(path: string, state: LoaderState): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 1)}\n`);
  await rename(temporary, path);
}

export function wasDelivered(state: LoaderState, sha256: string): boolean {
  return sha256 in state.uploaded;
}
