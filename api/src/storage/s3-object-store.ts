import { mkdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';
import { keyPath, localFileWriter, localWorkFiles, type ObjectStore, type StoredObject } from './object-store';

/** Where the bucket is (NORMA_S3_* in config.ts); credentials left out fall back to Bun's S3_* / AWS_* variables. */
export interface S3StoreOptions {
  bucket: string;
  /** e.g. https://s3.eu-central-1.amazonaws.com, http://127.0.0.1:9000 (MinIO); absent: AWS by region. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key, so that several installations can share a bucket ("norma/" → "norma/recordings/…"). */
  prefix?: string;
  virtualHostedStyle?: boolean;
  /** Local folder of this process: work files (uploads in progress, conversions) and downloads for ffprobe. */
  cacheDir: string;
}

/** A key whose file name (or any folder) starts with "." — the work files of the folder store. */
const isWorkKey = (key: string) => key.split('/').some((part) => part.startsWith('.'));

function checkKey(key: string): string {
  if (!key || key.startsWith('/') || key.endsWith('/') || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`Недопустимый ключ хранилища: ${key}`);
  }
  return key;
}

const missing = (err: unknown) => (err as { code?: string })?.code === 'NoSuchKey' || (err as { code?: string })?.code === 'ERR_S3_FILE_NOT_FOUND';

/**
 * The object store on an S3-compatible bucket through Bun's S3 client. Finished objects live in the bucket;
 * work files (keys with a part starting with ".", e.g. `.upload-….part`, `.ingest-….mp4`) live only in this
 * process's cache folder, and `move` from a work key uploads the finished file. `local(key)` downloads an
 * object into the cache for tools that need a path (ffprobe) and reuses the copy while size and date match.
 */
export function s3ObjectStore(options: S3StoreOptions): ObjectStore {
  const client = new Bun.S3Client({
    bucket: options.bucket,
    endpoint: options.endpoint,
    region: options.region,
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    virtualHostedStyle: options.virtualHostedStyle,
  });
  const prefix = options.prefix ? options.prefix.replace(/\/*$/, '/') : '';
  const remote = (key: string) => prefix + checkKey(key);
  const pathOf = (key: string) => keyPath(options.cacheDir, checkKey(key));

  const remoteStat = async (key: string): Promise<StoredObject | null> => {
    try {
      const info = await client.stat(remote(key));
      return { key, size: info.size, modifiedAt: info.lastModified.getTime() };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  };
  const localStat = async (key: string): Promise<StoredObject | null> => {
    const info = await stat(pathOf(key)).catch(() => null);
    return info?.isFile() ? { key, size: info.size, modifiedAt: info.mtimeMs } : null;
  };
  const upload = async (key: string, path: string) => {
    await client.write(remote(key), Bun.file(path));
  };

  return {
    isLocal: false,
    pathOf,
    async local(key) {
      const path = pathOf(key);
      if (isWorkKey(key)) return path;
      const info = await remoteStat(key);
      if (!info) throw Object.assign(new Error(`Нет объекта ${key} в хранилище`), { code: 'ENOENT' });
      const cached = await localStat(key);
      if (cached && cached.size === info.size && Math.floor(cached.modifiedAt) === Math.floor(info.modifiedAt)) return path;
      await mkdir(dirname(path), { recursive: true });
      const part = `${path}.${crypto.randomUUID()}.download`;
      try {
        await Bun.write(part, client.file(remote(key)));
        const when = new Date(info.modifiedAt);
        await utimes(part, when, when);
        await rename(part, path);
      } finally {
        await rm(part, { force: true });
      }
      return path;
    },
    async put(key, data) {
      if (isWorkKey(key)) {
        const path = pathOf(key);
        await mkdir(dirname(path), { recursive: true });
        await Bun.write(path, data);
        return;
      }
      await client.write(remote(key), data);
      await rm(pathOf(key), { force: true });
    },
    async create(key) {
      // Written to the cache first (an upload is never whole in memory), sent to the bucket on close
      // (Bun's client sends a large file as a multipart upload).
      const path = pathOf(key);
      return localFileWriter(path, isWorkKey(key) ? undefined : () => upload(key, path));
    },
    file: (key) => (isWorkKey(key) ? Bun.file(pathOf(key)) : client.file(remote(key))),
    async exists(key) {
      return isWorkKey(key) ? Bun.file(pathOf(key)).exists() : (await remoteStat(key)) !== null;
    },
    async size(key) {
      return (await (isWorkKey(key) ? localStat(key) : remoteStat(key)))?.size ?? null;
    },
    stat: (key) => (isWorkKey(key) ? localStat(key) : remoteStat(key)),
    async remove(key) {
      if (!isWorkKey(key)) await client.delete(remote(key));
      await rm(pathOf(key), { force: true });
    },
    async move(from, to) {
      const source = pathOf(from);
      const target = pathOf(to);
      if (isWorkKey(from)) {
        if (!(await Bun.file(source).exists())) throw Object.assign(new Error(`Нет объекта ${from} в хранилище`), { code: 'ENOENT' });
        if (!isWorkKey(to)) await upload(to, source);
        await mkdir(dirname(target), { recursive: true });
        // The finished file stays as the cached copy of the new object (ffprobe reads it next).
        await rename(source, target);
        if (!isWorkKey(to)) {
          const info = await remoteStat(to);
          if (info) await utimes(target, new Date(info.modifiedAt), new Date(info.modifiedAt));
        }
        return;
      }
      // Bucket to bucket: the bytes are streamed through this process (Bun's client has no server-side copy).
      if (isWorkKey(to)) {
        await mkdir(dirname(target), { recursive: true });
        await Bun.write(target, client.file(remote(from)));
      } else {
        await client.write(remote(to), client.file(remote(from)));
        await rm(target, { force: true });
      }
      await client.delete(remote(from));
      await rm(source, { force: true });
    },
    async list(folder) {
      const base = remote(folder) + '/';
      const found: StoredObject[] = [];
      let continuationToken: string | undefined;
      do {
        const page = await client.list({ prefix: base, continuationToken });
        for (const item of page.contents ?? []) {
          const key = item.key.slice(prefix.length);
          if (isWorkKey(key)) continue;
          found.push({ key, size: item.size ?? 0, modifiedAt: item.lastModified ? new Date(item.lastModified).getTime() : 0 });
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
      return found.sort((a, b) => a.key.localeCompare(b.key));
    },
    // Work files never leave this process's cache folder.
    workFiles: () => localWorkFiles(options.cacheDir),
  };
}
