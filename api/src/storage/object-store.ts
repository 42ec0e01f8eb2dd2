import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

/**
 * Where files (video, models, exports) live. The default is a folder under DATA_DIR;
 * an S3-compatible store can implement the same interface for scale-out.
 */
export interface ObjectStore {
  /** Absolute path of a key for local readers (ffprobe, streaming); throws on keys escaping the root. */
  pathOf(key: string): string;
  put(key: string, data: Blob | ArrayBuffer | Uint8Array | string): Promise<void>;
  file(key: string): ReturnType<typeof Bun.file>;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
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
  };
}
