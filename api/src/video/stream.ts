import { statSync } from 'node:fs';
import { contentDisposition } from '../http/content-disposition';
import { errorBody } from '../http/errors';
import type { ObjectStore } from '../storage/object-store';

export type ByteRange = { start: number; end: number };

/**
 * One `Range: bytes=…` header against a file of `size` bytes (RFC 9110 §14):
 * a range (end inclusive); 'unsatisfiable' (→ 416); or null when the header is to be ignored
 * (malformed, another unit, or several ranges — then the whole file is sent with 200).
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | null {
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return null;
  const specs = match[1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (specs.length !== 1) return null;
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]!);
  if (!spec || (spec[1] === '' && spec[2] === '')) return null;
  if (spec[1] === '') {
    const suffix = Number(spec[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(spec[1]);
  if (spec[2] !== '' && Number(spec[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1);
  return { start, end };
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** What the answers about one stored file share: validators and the fixed headers, built once per version of the file. */
interface FileFacts {
  size: number;
  modifiedAt: number;
  downloadName: string;
  etag: string;
  lastModified: string;
  /** The headers of every answer about this file but 416, without Content-Range and Content-Length. */
  headers: Record<string, string>;
}

/** Per storage key; a changed size, modification time or name builds new facts. Bounded: cleared when full. */
const factsByKey = new Map<string, FileFacts>();
const FACTS_MAX = 1000;

function factsOf(key: string, size: number, modifiedAt: number, downloadName: string): FileFacts {
  const known = factsByKey.get(key);
  if (known && known.size === size && known.modifiedAt === modifiedAt && known.downloadName === downloadName) return known;
  const etag = `"${size.toString(36)}-${Math.floor(modifiedAt).toString(36)}"`;
  const lastModified = new Date(Math.floor(modifiedAt / 1000) * 1000).toUTCString();
  const facts: FileFacts = {
    size,
    modifiedAt,
    downloadName,
    etag,
    lastModified,
    headers: {
      'accept-ranges': 'bytes',
      etag,
      'last-modified': lastModified,
      'content-type': 'video/mp4',
      'cache-control': 'private, no-cache',
      'content-disposition': contentDisposition(downloadName, { inline: true }),
    },
  };
  if (factsByKey.size >= FACTS_MAX) factsByKey.clear();
  factsByKey.set(key, facts);
  return facts;
}

/**
 * Serves a stored video with HTTP Range, so that the browser can seek anywhere at once:
 * 206 + Content-Range for a range, 200 for the whole file, 304 for a matching If-None-Match,
 * 416 for an unsatisfiable range. The bytes are streamed from the file, never read whole.
 * The file is stat-ed on every request (a replaced file gets a new ETag at once); the strings
 * derived from its size, time and name are reused while they stay the same.
 */
export async function serveStoredVideo(storage: ObjectStore, key: string, request: Request, downloadName: string): Promise<Response> {
  let info: { size: number; modifiedAt: number } | null;
  try {
    // Synchronous: a local stat takes microseconds, a trip through the thread pool far longer (every seek pays it).
    // A bucket answers a HEAD request instead (its file(key).slice is a Range request).
    const local = storage.isLocal ? statSync(storage.pathOf(key)) : null;
    info = local ? { size: local.size, modifiedAt: local.mtimeMs } : await storage.stat(key);
    if (!info) throw new Error('no such object');
  } catch {
    return Response.json(errorBody('not_found', 'Файл видео не найден в хранилище'), { status: 404 });
  }
  const { size, etag, lastModified, headers } = factsOf(key, info.size, info.modifiedAt, downloadName);
  if (etagMatches(request.headers.get('if-none-match') ?? undefined, etag)) return new Response(null, { status: 304, headers });

  const rangeHeader = request.headers.get('range');
  const ifRange = request.headers.get('if-range');
  // If-Range: the range only applies to the representation the client already has part of.
  const rangeApplies =
    rangeHeader !== null && (ifRange === null || (ifRange.startsWith('"') || ifRange.startsWith('W/') ? ifRange === etag : ifRange === lastModified));
  const file = storage.file(key);
  // A bucket's file is no Response body with headers in Bun: its stream is (a slice's stream is a Range GET).
  const body = (blob: Blob) => (storage.isLocal ? blob : blob.stream());
  if (rangeApplies) {
    const range = parseRange(rangeHeader!, size);
    if (range === 'unsatisfiable') {
      return new Response(JSON.stringify(errorBody('range_not_satisfiable', `Запрошенный диапазон вне файла (размер ${size} байт)`)), {
        status: 416,
        headers: { ...headers, 'content-range': `bytes */${size}`, 'content-type': 'application/json' },
      });
    }
    if (range) {
      return new Response(body(file.slice(range.start, range.end + 1)), {
        status: 206,
        headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${size}`, 'content-length': String(range.end - range.start + 1) },
      });
    }
  }
  return new Response(body(file), { status: 200, headers: { ...headers, 'content-length': String(size) } });
}
