import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';

/** A built PWA as pwa/vite.config.ts writes it: each text file with its .br and .gz copies. */
const script = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i, name: `Операция ${i}` })))};\n`;
const page = '<!doctype html><html lang="ru"><title>Norma</title><script type="module" src="/assets/app-Ab12.js"></script></html>';
let pwaDir: string;
beforeAll(() => {
  pwaDir = mkdtempSync(join(tmpdir(), 'norma-pwa-'));
  mkdirSync(join(pwaDir, 'assets'));
  mkdirSync(join(pwaDir, '.vite'));
  const files: Record<string, string> = { 'index.html': page, 'sw.js': script, 'assets/app-Ab12.js': script };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(pwaDir, name), text);
    writeFileSync(join(pwaDir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(pwaDir, `${name}.gz`), gzipSync(text));
  }
  // Left in a folder by an older build or copied by hand: still never served.
  writeFileSync(join(pwaDir, 'assets', 'app-Ab12.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  writeFileSync(join(pwaDir, '.vite', 'manifest.json'), '{}');
  // A file with no compressed copies goes out as it is.
  writeFileSync(join(pwaDir, 'assets', 'plain-Cd34.css'), 'body{margin:0}');
});
afterAll(() => rmSync(pwaDir, { recursive: true, force: true }));

let t: TestApp;
afterEach(async () => t?.cleanup());

const bytes = async (response: Response) => new Uint8Array(await response.arrayBuffer());
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe('PWA files: precompressed copies by Accept-Encoding', () => {
  it('sends the .br copy to a client that accepts br, the .gz copy to one that accepts only gzip, the file itself otherwise', async () => {
    t = await createTestApp({ pwaDir });
    const chrome = await t.request('/assets/app-Ab12.js', { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(chrome.status).toBe(200);
    expect(chrome.headers.get('content-encoding')).toBe('br');
    expect(chrome.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(chrome.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(chrome.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Security headers (http/security-headers.ts) stay on a compressed answer.
    expect(chrome.headers.get('x-content-type-options')).toBe('nosniff');
    expect(text(brotliDecompressSync(await bytes(chrome)))).toBe(script);

    const gzipOnly = await t.request('/assets/app-Ab12.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipOnly.headers.get('content-encoding')).toBe('gzip');
    expect(text(gunzipSync(await bytes(gzipOnly)))).toBe(script);

    const brRefused = await t.request('/assets/app-Ab12.js', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0.8' } });
    expect(brRefused.headers.get('content-encoding')).toBe('gzip');

    const asked: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }];
    for (const headers of asked) {
      const plain = await t.request('/assets/app-Ab12.js', { headers });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await plain.text()).toBe(script);
    }
  });

  it('compresses index.html (also for deep links) and sw.js, which are revalidated every time instead of long-cached', async () => {
    t = await createTestApp({ pwaDir });
    for (const path of ['/', '/projects/7']) {
      const index = await t.request(path, { headers: { 'accept-encoding': 'br' } });
      expect(index.headers.get('content-encoding')).toBe('br');
      expect(index.headers.get('content-type')).toMatch(/^text\/html/);
      expect(index.headers.get('cache-control')).toBe('no-cache');
      expect(text(brotliDecompressSync(await bytes(index)))).toBe(page);
    }
    const worker = await t.request('/sw.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(worker.headers.get('content-encoding')).toBe('gzip');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    // Revalidation: the same file in the same encoding is a 304; the tag differs per encoding.
    const etag = worker.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await t.request('/sw.js', { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const otherEncoding = await t.request('/sw.js', { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(otherEncoding.status).toBe(200);
    expect(otherEncoding.headers.get('etag')).not.toBe(etag);
    const css = await t.request('/assets/plain-Cd34.css', { headers: { 'accept-encoding': 'br' } });
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(await css.text()).toBe('body{margin:0}');
  });

  it('serves no source maps (ours or the API docs’), no compressed copies by their own name and nothing from dot folders', async () => {
    t = await createTestApp({ pwaDir });
    const paths = ['/assets/app-Ab12.js.map', '/assets/app-Ab12.js.br', '/assets/app-Ab12.js.gz', '/.vite/manifest.json', '/api/docs/swagger-ui-bundle.js.map'];
    for (const path of paths) {
      const response = await t.request(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(await response.text()).not.toContain('secret.ts');
    }
  });
});

describe('API answers: compressed on the fly', () => {
  it('compresses a JSON answer above 1 KB for a client that accepts it, leaves it alone otherwise', async () => {
    t = await createTestApp({ pwaDir });
    const plain = await t.request('/api/openapi.json');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    const document = await plain.text();
    expect(document.length).toBeGreaterThan(1024);

    const br = await t.request('/api/openapi.json', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/^application\/json/);
    const compressed = await bytes(br);
    expect(compressed.length).toBeLessThan(document.length / 3);
    expect(text(brotliDecompressSync(compressed))).toBe(document);

    const gzip = await t.request('/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(text(gunzipSync(await bytes(gzip)))).toBe(document);
  });

  it('leaves a JSON answer under 1 KB as it is, and compresses the API docs scripts', async () => {
    t = await createTestApp({ pwaDir });
    const small = await t.request('/api/v1/instance', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect((await small.text()).length).toBeLessThan(1024);

    const docs = await t.request('/api/docs/swagger-ui-bundle.js', { headers: { 'accept-encoding': 'br' } });
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-encoding')).toBe('br');
    expect(text(brotliDecompressSync(await bytes(docs)))).toContain('SwaggerUIBundle');
  });
});
