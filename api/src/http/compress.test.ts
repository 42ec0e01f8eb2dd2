import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compressResponses } from './compress';

/** The middleware in front of a few kinds of answers (no database involved: it only sees responses). */
function appWithAnswers() {
  const app = new Hono();
  app.use('*', compressResponses());
  const big = JSON.stringify({ rows: Array.from({ length: 300 }, (_, i) => ({ i, name: `Строка ${i}` })) });
  app.get('/big.json', (c) => c.json(JSON.parse(big)));
  // A streamed answer of unknown length, in small pieces: compressed as it streams, nothing lost.
  app.get('/streamed.json', () => {
    const encoder = new TextEncoder();
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i === 0) controller.enqueue(encoder.encode('['));
        controller.enqueue(encoder.encode(`${i ? ',' : ''}{"i":${i}}`));
        if (++i === 500) {
          controller.enqueue(encoder.encode(']'));
          controller.close();
        }
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/json' } });
  });
  app.get('/partial', () => new Response('x'.repeat(4000), { status: 206, headers: { 'content-type': 'text/plain', 'content-range': 'bytes 0-3999/10000' } }));
  app.get('/video.mp4', () => new Response(new Uint8Array(4000), { headers: { 'content-type': 'video/mp4' } }));
  app.get('/no-transform', () => new Response('y'.repeat(4000), { headers: { 'content-type': 'text/plain', 'cache-control': 'no-transform' } }));
  app.get('/events', () => new Response('data: z\n\n'.repeat(500), { headers: { 'content-type': 'text/event-stream' } }));
  return { app, big };
}

describe('compressResponses', () => {
  it('compresses JSON with br (preferred) or gzip, streamed bodies included', async () => {
    const { app, big } = appWithAnswers();
    const br = await app.request('/big.json', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-length')).toBeNull();
    expect(new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())))).toBe(big);

    const streamed = await app.request('/streamed.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(streamed.headers.get('content-encoding')).toBe('gzip');
    const items = JSON.parse(new TextDecoder().decode(gunzipSync(new Uint8Array(await streamed.arrayBuffer())))) as { i: number }[];
    expect(items.map((item) => item.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it('leaves partial content, video, no-transform answers and server-sent events alone', async () => {
    const { app } = appWithAnswers();
    for (const path of ['/partial', '/video.mp4', '/no-transform', '/events']) {
      const response = await app.request(path, { headers: { 'accept-encoding': 'br, gzip' } });
      expect({ path, encoding: response.headers.get('content-encoding') }).toEqual({ path, encoding: null });
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThanOrEqual(4000);
    }
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(chooseEncoding('br', ['gzip'])).toBeNull();
  });
});
