/**
 * buildPdf in Chromium (issue 42): every character a PDF prints is drawn with a font that has its
 * glyph — Montserrat where it has one, DejaVu Sans for what it lacks («Σ») — in text, table cells,
 * chart texts and the footer; and no control of the screen (button, [role=button], data-pdf-skip)
 * is printed. pdf.ts is bundled by Vite as the app bundles it (the fonts as `?inline` modules) and
 * run in Debian's Chromium; the PDF's content streams are read back here: for each shown string its
 * font and glyph ids, the characters through the font's ToUnicode map. Glyph 0 (or a character that
 * is not there at all, as jsPDF drops what a font lacks) fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { pdfFallbackFont } from '../../build-plugins/pdf-fallback-font';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchErrors } from '../../../tests/support/browser';

const LINE = 'Σt ≤ 3 × 4 — Нвр №1 «итог»';
const SIGNS = '≥ − … ° ± → ⌈4,739⌉';

/** The print layout: every kind of part, each with the line, and controls inside a text and a table. */
const LAYOUT = `
<div id="layout">
  <h1 data-pdf="title">${LINE}</h1>
  <p data-pdf="text">${LINE} <button type="button">Открыть</button></p>
  <p data-pdf="text">${SIGNS}<span data-pdf-skip>Открыть</span></p>
  <h2 data-pdf="heading">Σ по местам</h2>
  <table data-pdf="table">
    <thead><tr><th>Σt, мин</th><th>Итог</th><th><span class="visually-hidden">Действия</span></th></tr></thead>
    <tbody>
      <tr><td>${LINE}</td><td>Смена 1 <button type="button">Открыть</button></td><td><button type="button">Открыть</button></td></tr>
      <tr><td>Сборка</td><td>${SIGNS}</td><td><span role="button" tabindex="0">Открыть</span></td></tr>
    </tbody>
  </table>
  <div data-pdf="chart">
    <svg class="chart" viewBox="0 0 300 40" width="600" height="80"><text x="4" y="18" font-family="Montserrat" font-size="14">Σt = 12 мин</text><text x="150" y="36" text-anchor="middle" font-family="Montserrat" font-weight="bold" font-size="10">⌈Σ⌉ итог</text></svg>
  </div>
</div>`;

/** A PDF's shown strings: font (its /BaseFont) and glyph ids, with the characters its ToUnicode map gives them. */
interface Shown {
  font: string;
  glyphs: number[];
  text: string;
}

/** Reads what jsPDF writes: objects, Flate streams, Type0 fonts with Identity-H (two-byte glyph ids in hex strings). */
function shownStrings(pdf: Buffer): Shown[] {
  const source = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream: string | null }>();
  // Object by object, a stream sliced by its /Length: a font's bytes may hold «endobj» themselves.
  const header = /(\d+) 0 obj\s*/g;
  for (let match = header.exec(source); match; match = header.exec(source)) {
    const from = match.index + match[0].length;
    const end = source.indexOf('endobj', from);
    const streamAt = source.slice(from, end).search(/stream\r?\n/);
    if (streamAt < 0) {
      objects.set(Number(match[1]), { dict: source.slice(from, end), stream: null });
      continue;
    }
    const dict = source.slice(from, from + streamAt);
    const start = from + streamAt + source.slice(from + streamAt).indexOf('\n') + 1;
    const length = Number(/\/Length (\d+)/.exec(dict)![1]);
    const raw = Buffer.from(source.slice(start, start + length), 'latin1');
    objects.set(Number(match[1]), { dict, stream: (dict.includes('/FlateDecode') ? inflateSync(raw) : raw).toString('latin1') });
    header.lastIndex = source.indexOf('endobj', start + length);
  }
  // Fonts: resource name → base font and glyph → text.
  const fonts = new Map<string, { name: string; toUnicode: Map<number, string> }>();
  for (const { dict } of objects.values()) {
    const resources = /\/Font\s*<<([^>]*)>>/.exec(dict);
    if (!resources) continue;
    for (const [, key, ref] of resources[1]!.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const font = objects.get(Number(ref))!.dict;
      const name = /\/BaseFont\s*\/([^\s/]+)/.exec(font)?.[1] ?? '?';
      const toUnicode = new Map<number, string>();
      const cmapRef = /\/ToUnicode\s+(\d+) 0 R/.exec(font)?.[1];
      const cmap = cmapRef ? (objects.get(Number(cmapRef))!.stream ?? '') : '';
      for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
        for (const [, glyph, unicode] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
          toUnicode.set(parseInt(glyph!, 16), String.fromCharCode(...unicode!.match(/.{4}/g)!.map((u) => parseInt(u, 16))));
        }
      }
      fonts.set(key!, { name, toUnicode });
    }
  }
  const shown: Shown[] = [];
  for (const { stream } of objects.values()) {
    if (!stream || !/\bTf\b/.test(stream)) continue;
    let font = '';
    for (const [, fontKey, hex] of stream.matchAll(/\/(\w+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (fontKey) {
        font = fontKey;
        continue;
      }
      const known = fonts.get(font);
      const glyphs = (hex!.match(/.{4}/g) ?? []).map((g) => parseInt(g, 16));
      shown.push({ font: known?.name ?? font, glyphs, text: glyphs.map((g) => known?.toUnicode.get(g) ?? '\u0000').join('') });
    }
  }
  return shown;
}

let browser: Browser;
const files = new Map<string, string | Uint8Array>();
const work = mkdtempSync(join(tmpdir(), 'norma-pdf-glyphs-'));

beforeAll(async () => {
  // pdf.ts as the app bundles it: a one-line entry that hands buildPdf to the page.
  const pdfModule = resolve(import.meta.dirname, 'pdf.ts');
  const result = (await build({
    configFile: false,
    root: resolve(import.meta.dirname, '..', '..'),
    logLevel: 'warn',
    plugins: [
      pdfFallbackFont(),
      {
        name: 'pdf-entry',
        resolveId: (id) => (id === 'pdf-entry' ? '\0pdf-entry' : null),
        load: (id) => (id === '\0pdf-entry' ? `import { buildPdf } from ${JSON.stringify(pdfModule)};\nwindow.buildPdf = buildPdf;\n` : null),
      },
    ],
    build: {
      write: false,
      target: 'es2022',
      minify: false,
      modulePreload: false,
      rolldownOptions: { input: 'pdf-entry', output: { entryFileNames: 'entry.js' } },
    },
  })) as Rolldown.RolldownOutput;
  for (const item of result.output) files.set(item.fileName, item.type === 'chunk' ? item.code : item.source);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('PDF glyphs and controls', () => {
  it('draws every character of «Σt ≤ 3 × 4 — Нвр №1 «итог»» with a font that has it, Montserrat for all it has; prints no button', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.route('http://pdf.test/**', (route) => {
      const path = new URL(route.request().url()).pathname.slice(1);
      if (path === '') {
        return route.fulfill({
          contentType: 'text/html; charset=utf-8',
          body: `<!doctype html><html lang="ru"><head><meta charset="utf-8"><style>.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}</style></head><body>${LAYOUT}<script type="module" src="/entry.js"></script></body></html>`,
        });
      }
      const file = files.get(path);
      return file === undefined ? route.fulfill({ status: 404, body: '' }) : route.fulfill({ contentType: 'text/javascript', body: Buffer.from(file) });
    });
    await page.goto('http://pdf.test/');
    await page.waitForFunction(() => 'buildPdf' in window);
    const base64 = await page.evaluate(async () => {
      const build = (window as unknown as { buildPdf: (root: HTMLElement, footer: string) => Promise<{ blob: Blob }> }).buildPdf;
      const { blob } = await build(document.getElementById('layout')!, 'Σ Отчёт');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    });
    // The layout on the screen is as it was: the controls are still there and shown.
    expect(await page.getByRole('button', { name: 'Открыть' }).count()).toBe(4);
    expect(await page.locator('button').first().isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();

    const pdf = Buffer.from(base64, 'base64');
    const shown = shownStrings(pdf);
    const all = shown.map((s) => s.text).join('');
    // No glyph 0 and no character the font cannot map back.
    expect(shown.filter((s) => s.glyphs.includes(0) || s.text.includes('\u0000'))).toEqual([]);
    // Every character of the line and the signs is shown…
    for (const ch of new Set((LINE + SIGNS + 'Отчёт').replace(/\s/g, ''))) expect(all, ch).toContain(ch);
    // …in Montserrat wherever Montserrat has it, and only «Σ», «⌈», «⌉» (which it lacks) in DejaVu Sans.
    const faceOf = (ch: string) => new Set(shown.filter((s) => s.text.includes(ch)).map((s) => s.font.replace(/^\w{6}\+/, '')));
    for (const ch of new Set((LINE + SIGNS).replace(/\s/g, ''))) {
      const faces = [...faceOf(ch)];
      expect(faces.length, ch).toBeGreaterThan(0);
      for (const face of faces) expect(face, ch).toMatch('Σ⌈⌉'.includes(ch) ? /^DejaVuSans/ : /^Montserrat/);
    }
    // Σ in each kind of part: title, text, heading, table head and body, both chart texts, footer.
    expect(shown.filter((s) => s.text.includes('Σ')).length).toBeGreaterThanOrEqual(8);
    // The chart's texts: «Σ» in DejaVu Sans beside the rest in Montserrat.
    const chartRun = (text: string) => shown.find((s) => s.text === text)?.font.replace(/^\w{6}\+/, '');
    expect(chartRun('t = 12 мин')).toMatch(/^Montserrat/);
    expect(chartRun(' итог')).toMatch(/^Montserrat/);
    expect(chartRun('⌈Σ⌉')).toMatch(/^DejaVuSans/);
    // No control printed: no «Открыть», and the controls-only column is gone (its hidden header too).
    expect(all).not.toContain('Открыть');
    expect(all).not.toContain('Действия');
    expect(all).toContain('Смена 1');
    expect(all).toContain('Сборка');

    // A PDF reader agrees: poppler's text has the line whole, and both faces are embedded.
    const file = join(work, 'glyphs.pdf');
    writeFileSync(file, pdf);
    const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(LINE);
    expect(text.stdout).not.toContain('Открыть');
    const fonts = spawnSync('pdffonts', [file], { encoding: 'utf8' }).stdout;
    expect(fonts).toMatch(/Montserrat/);
    expect(fonts).toMatch(/DejaVuSans/);
  });
});
