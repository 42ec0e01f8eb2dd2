import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * Where files (video, models, exports) live. The default is a folder under DATA_DIR; an
 * S3-compatible bucket (s3-object-store.ts) implements the same interface for scale-out (docs/deployment.md).
 */
export interface ObjectStore {
  /** True when `pathOf(key)` is the object itself (folder store); false for a bucket, where it is a local cache path. */
  readonly isLocal: boolean;
  /**
   * Absolute local path for a key; throws on keys escaping the root. Folder store: the object itself. S3 store: the
   * path in its local cache folder — a file written there becomes the object only through `move` from a work key.
   * Readers that need a file on disk (ffprobe) call `local(key)`.
   */
  pathOf(key: string): string;
  /** A local file with the object's bytes for tools that need a path (ffprobe): the file itself, or a cached download. */
  local(key: string): Promise<string>;
  put(key: string, data: Blob | ArrayBuffer | Uint8Array | string): Promise<void>;
  /** A new object written chunk by chunk (uploads: never whole in memory); replaces what is there. */
  create(key: string): Promise<ObjectWriter>;
  /** The object's bytes, read lazily; `slice` reads a range only (a Range request on S3). */
  file(key: string): Blob;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number | null>;
  /** Size and modification time, or null when there is no such object. */
  stat(key: string): Promise<StoredObject | null>;
  remove(key: string): Promise<void>;
  /** Moves an object to another key (replacing what is there). */
  move(from: string, to: string): Promise<void>;
  /** Objects under a folder key, recursively; names starting with "." (work files) are skipped. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Keys of the work files (names starting with ".") anywhere in the store, e.g. `.upload-….part`. */
  workFiles(): Promise<string[]>;
}

export interface ObjectWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** Flushes and closes; safe to call again. */
  close(): Promise<void>;
}

export interface StoredObject {
  key: string;
  size: number;
  /** Last modification, ms since epoch. */
  modifiedAt: number;
}

/** The path of `key` under `root`; throws on keys that would escape it. */
export function keyPath(root: string, key: string): string {
  const path = normalize(join(root, key));
  if (!path.startsWith(normalize(root) + sep)) throw new Error(`Недопустимый ключ хранилища: ${key}`);
  return path;
}

/** Keys of the work files (names starting with ".") under a local folder, "/"-separated, sorted. */
export async function localWorkFiles(root: string): Promise<string[]> {
  const base = normalize(root);
  const found: string[] = [];
  const walk = async (folder: string) => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && entry.name.startsWith('.')) found.push(relative(base, path).split(sep).join('/'));
    }
  };
  await walk(base);
  return found.sort();
}

/** A file written chunk by chunk (creating its folder); `afterClose` runs once, after the file is closed. */
export async function localFileWriter(path: string, afterClose?: () => Promise<void>): Promise<ObjectWriter> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'w');
  let closed = false;
  return {
    async write(chunk) {
      await handle.write(chunk);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
      await afterClose?.();
    },
  };
}

export function folderObjectStore(root: string): ObjectStore {
  const pathOf = (key: string) => keyPath(root, key);
  return {
    isLocal: true,
    pathOf,
    async local(key) {
      const path = pathOf(key);
      await stat(path); // rejects (ENOENT) when there is no such object, as on S3
      return path;
    },
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await Bun.write(path, data);
    },
    create: (key) => localFileWriter(pathOf(key)),
    file: (key) => Bun.file(pathOf(key)),
    exists: (key) => Bun.file(pathOf(key)).exists(),
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return null;
      }
    },
    async stat(key) {
      const info = await stat(pathOf(key)).catch(() => null);
      return info?.isFile() ? { key, size: info.size, modifiedAt: info.mtimeMs } : null;
    },
    remove: (key) => rm(pathOf(key), { force: true }),
    async move(from, to) {
      const target = pathOf(to);
      await mkdir(dirname(target), { recursive: true });
      await rename(pathOf(from), target);
    },
    async list(prefix) {
      const base = normalize(root);
      const found: StoredObject[] = [];
      const walk = async (folder: string) => {
        let entries;
        try {
          entries = await readdir(folder, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          if (entry.name.startsWith('.')) continue;
          const path = join(folder, entry.name);
          if (entry.isDirectory()) await walk(path);
          else if (entry.isFile()) {
            const info = await stat(path).catch(() => null);
            if (info) found.push({ key: relative(base, path).split(sep).join('/'), size: info.size, modifiedAt: info.mtimeMs });
          }
        }
      };
      await walk(pathOf(prefix));
      return found.sort((a, b) => a.key.localeCompare(b.key));
    },
    workFiles: () => localWorkFiles(root),
  };
}
