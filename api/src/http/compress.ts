import { Readable, pipeline } from 'node:stream';
import { constants, createBrotliCompress } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

/** The encodings this server produces, best first. */
export type ContentCoding = 'br' | 'gzip';

/**
 * The best of `offered` that the client's Accept-Encoding allows (q > 0), or null for identity.
 * No header means identity: a client that did not ask never gets a compressed body.
 */
export function chooseEncoding(acceptEncoding: string | null | undefined, offered: readonly ContentCoding[] = ['br', 'gzip']): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: ContentCoding | null = null;
  let bestWeight = 0;
  for (const coding of offered) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  return best;
}

/** Adds Accept-Encoding to Vary (once): caches must keep one copy per encoding. */
export function varyOnEncoding(headers: Headers) {
  const vary = headers.get('vary');
  if (vary === '*' || (vary && /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary))) return;
  headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Text worth compressing: JSON, HTML, CSS, JS, TSV/CSV, SVG, XML. Not server-sent events (a
 * compressor holds events back), not video, images, archives, PDF or XLSX (compressed already).
 */
const COMPRESSIBLE_TYPE = /^\s*(text\/(?!event-stream)[\w.+-]+|application\/([\w.-]+\+)?(json|javascript|xml|manifest\+json)|image\/svg\+xml)\s*(;|$)/i;

/** Brotli at quality 5: about gzip's speed (≈20 ms per MB of JSON) at a third smaller output; 11 is 150× slower. */
const BROTLI_QUALITY = 5;

function compressed(body: ReadableStream<Uint8Array>, coding: ContentCoding): ReadableStream<Uint8Array> {
  if (coding === 'gzip') return body.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
  // Bun's CompressionStream('brotli') compresses at quality 11, too slow per request.
  const brotli = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
  // pipeline: an error of the source ends the compressed stream too (the client sees a cut answer).
  pipeline(Readable.fromWeb(body as never), brotli, () => {});
  return Readable.toWeb(brotli) as unknown as ReadableStream<Uint8Array>;
}

/** The first `threshold` bytes of a body (or all of it, when shorter), and whether it ended there. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, threshold: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < threshold) {
    const { done, value } = await reader.read();
    if (done) return { chunks, size, ended: true };
    chunks.push(value);
    size += value.byteLength;
  }
  return { chunks, size, ended: false };
}

function joined(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The read head followed by the rest of the body, as one stream. */
function rejoined(head: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  const pending = [...head];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending.shift();
      if (next) return controller.enqueue(next);
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * Compresses text answers (API JSON above all) on the fly for a client that accepts br or gzip,
 * when they are at least `threshold` bytes (below that, headers cost more than is saved). Leaves
 * alone: answers already encoded (the PWA's precompressed files, static.ts), partial content
 * (206: video Range requests), HEAD, `Cache-Control: no-transform`, and non-text types. A body of
 * unknown length is read only up to the threshold before deciding, so a streamed answer stays
 * streamed. docs/performance.md, «Быстрая первая загрузка».
 */
export function compressResponses({ threshold = 1024 }: { threshold?: number } = {}): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // Cheapest tests first; `res.body` last: reading it wraps a file or string body in a stream object.
    if (res.status < 200 || res.status === 204 || res.status === 206 || res.status === 304 || c.req.method === 'HEAD') return;
    if (res.headers.has('content-encoding') || res.headers.has('content-range')) return;
    if (!COMPRESSIBLE_TYPE.test(res.headers.get('content-type') ?? '') || !res.body) return;
    if (/(^|,)\s*no-transform\s*(,|$)/i.test(res.headers.get('cache-control') ?? '')) return;
    // The answer depends on Accept-Encoding from here on, even when this one goes out as it is.
    varyOnEncoding(res.headers);
    const coding = chooseEncoding(c.req.header('accept-encoding'));
    if (!coding) return;
    const declared = res.headers.get('content-length');
    if (declared !== null && Number(declared) < threshold) return;

    const reader = res.body.getReader();
    const head = await readHead(reader, threshold);
    if (head.ended && head.size < threshold) {
      c.res = new Response(joined(head.chunks, head.size), res);
      return;
    }
    c.res = new Response(compressed(rejoined(head.chunks, reader), coding), res);
    // Hono's `c.res =` keeps the old headers: the length is the uncompressed one, drop it.
    c.res.headers.delete('content-length');
    c.res.headers.set('content-encoding', coding);
    const etag = c.res.headers.get('etag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('etag', `W/${etag}`);
  };
}
