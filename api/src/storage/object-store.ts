import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * Where files (video, models, exports) live. The default is a folder under DATA_DIR;
 * an S3-compatible store can implement the same interface for scale-out.
 */
export interface ObjectStore {
  /** Absolute path of a key for local readers (ffprobe, streaming); throws on keys escaping the root. */
  pathOf(key: string): string;
  put(key: string, data: Blob | ArrayBuffer | Uint8Array | string): Promise<void>;
  /** A new object written chunk by chunk (uploads: never whole in memory); replaces what is there. */
  create(key: string): Promise<ObjectWriter>;
  file(key: string): ReturnType<typeof Bun.file>;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number | null>;
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

export function folderObjectStore(root: string): ObjectStore {
  const pathOf = (key: string) => {
    const path = normalize(join(root, key));
    if (!path.startsWith(normalize(root) + sep)) throw new Error(`Недопустимый ключ хранилища: ${key}`);
    return path;
  };
  return {
    pathOf,
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await Bun.write(path, data);
    },
    async create(key) {
      const path = pathOf(key);
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
        },
      };
    },
    file: (key) => Bun.file(pathOf(key)),
    exists: (key) => Bun.file(pathOf(key)).exists(),
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return null;
      }
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
    async workFiles() {
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
    },
  };
}
