/**
 * The built PWA (pwa/dist, which `npm test` builds first) against issue 12's "fast first load":
 * the landing page, login and the shared report load no canvas, chart, PDF, XLSX or QR code;
 * every text file has its .br and .gz copy; no source maps; the JS of the landing page and of the
 * markup screen stays within its gzip budget. Reads dist/.vite/chunks.json (pwa/vite.config.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunkClosure, loadChunkGraph, screenChunk } from '../support/pwa-chunks.ts';

const dist = resolve(import.meta.dirname, '..', '..', 'pwa', 'dist');

/** Libraries that only some screens need (docs/performance.md, «Быстрая первая загрузка»). */
const HEAVY = ['konva', 'react-konva', 'jspdf', 'jspdf-autotable', 'svg2pdf.js', 'exceljs', 'qrcode', 'uplot', 'html2canvas'];
const heavyIn = (modules: string[]) => [...new Set(modules.flatMap((id) => HEAVY.filter((name) => id.includes(`node_modules/${name}/`))))].sort();

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

describe('built PWA: what each first screen loads', () => {
  const graph = loadChunkGraph(dist);

  it('the entry chunk (landing page, login) loads none of the heavy libraries, and has the landing and login screens in it', () => {
    const landing = chunkClosure(graph, [graph.entry]);
    expect(landing.modules).toContain('pwa/src/screens/landing/LandingScreen.tsx');
    expect(landing.modules).toContain('pwa/src/screens/login/LoginScreen.tsx');
    expect(heavyIn(landing.modules)).toEqual([]);
  });

  it('the shared report (/#/demo/{key}) loads none of them either; QR, PDF and XLSX come only when asked for', () => {
    const report = chunkClosure(graph, [graph.entry, screenChunk(graph, 'pwa/src/screens/reports/interactive/InteractiveScreen.tsx')]);
    expect(heavyIn(report.modules)).toEqual([]);
    // The libraries are in the build, loaded on demand (the graph really lists library modules).
    expect(heavyIn(chunkClosure(graph, [graph.entry], { dynamic: true }).modules)).toEqual([...HEAVY].sort());
  });

  it('the markup screen brings none of them (its timeline is drawn on plain canvases), and stays within 250 KB of gzip JS with the entry; the landing page within 120 KB', () => {
    const markup = chunkClosure(graph, [graph.entry, screenChunk(graph, 'pwa/src/screens/video-markup/VideoMarkupScreen.tsx')]);
    expect(heavyIn(markup.modules)).toEqual([]);
    const gzipBytes = (files: string[]) => files.reduce((sum, file) => sum + statSync(join(dist, `${file}.gz`)).size, 0);
    expect(gzipBytes(chunkClosure(graph, [graph.entry]).files)).toBeLessThanOrEqual(120 * 1024);
    expect(gzipBytes(markup.files)).toBeLessThanOrEqual(250 * 1024);
  });
});

describe('built PWA: compiled ahead where it all runs at once', () => {
  const graph = loadChunkGraph(dist);
  const HINT = '//# allFunctionsCalledOnLoad\n';
  const hinted = (file: string) => readFileSync(join(dist, file), 'utf8').startsWith(HINT);

  it("the entry, what it imports and the markup screen start with V8's compile hint, in the served brotli and gzip copies too; other screens do not", () => {
    const entryChunk = graph.chunks.get(graph.entry)!;
    const markup = screenChunk(graph, 'pwa/src/screens/video-markup/VideoMarkupScreen.tsx');
    const marked = [graph.entry, ...entryChunk.imports, markup];
    expect(marked.length).toBeGreaterThanOrEqual(3);
    expect(marked.filter((file) => !hinted(file))).toEqual([]);
    const shell = marked.reduce((largest, file) => (statSync(join(dist, file)).size > statSync(join(dist, largest)).size ? file : largest));
    expect(
      brotliDecompressSync(readFileSync(join(dist, `${shell}.br`)))
        .toString('utf8')
        .startsWith(HINT),
    ).toBe(true);
    expect(
      gunzipSync(readFileSync(join(dist, `${shell}.gz`)))
        .toString('utf8')
        .startsWith(HINT),
    ).toBe(true);
    // Not every file: compiling a screen nobody opened would only cost.
    const report = screenChunk(graph, 'pwa/src/screens/reports/interactive/InteractiveScreen.tsx');
    expect(hinted(report)).toBe(false);
    expect([...graph.chunks.keys()].filter((file) => existsSync(join(dist, file)) && hinted(file)).length).toBe(marked.length);
  });
});

describe('built PWA: the page itself', () => {
  const page = readFileSync(join(dist, 'index.html'), 'utf8');

  it("draws the header's mark inline, the favicon's own file: an SVG <img> is a document of its own, made on the main thread", () => {
    const mark = readFileSync(resolve(dist, '..', 'public', 'icons', 'favicon.svg'), 'utf8').trim();
    // The landing page prerendered into index.html has the header.
    expect(page).toContain(`<span class="brand-mark" aria-hidden="true">${mark}</span>`);
    expect(page).not.toMatch(/<img[^>]+\.svg"[^>]*width="28"/);
  });
});

describe('built PWA: files as served', () => {
  const files = filesUnder(dist).map((file) => file.slice(dist.length + 1));

  it('has no source maps', () => {
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    // Nor a pointer to one left in a script.
    const scripts = files.filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((file) => readFileSync(join(dist, file), 'utf8').includes('sourceMappingURL='))).toEqual([]);
  });

  it('has a .br and a .gz copy beside every script, style sheet, index.html and sw.js of 1 KB or more', () => {
    // Smaller files get a copy only where it comes out smaller (a 100-byte script may not).
    const text = files.filter((file) => /\.(js|css|html|webmanifest)$/.test(file) && !file.startsWith('.vite/') && statSync(join(dist, file)).size >= 1024);
    expect(text).toEqual(expect.arrayContaining(['index.html', 'sw.js']));
    const missing = text.filter((file) => !existsSync(join(dist, `${file}.br`)) || !existsSync(join(dist, `${file}.gz`)));
    expect(missing).toEqual([]);
    // And each copy is smaller than its file.
    const copies = files.filter((file) => /\.(br|gz)$/.test(file));
    expect(copies.filter((copy) => statSync(join(dist, copy)).size >= statSync(join(dist, copy.slice(0, -3))).size)).toEqual([]);
  });
});
