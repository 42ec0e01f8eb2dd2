/**
 * Report engine in Chromium: the same cases as report-engine.bench.ts (report-engine-cases.ts),
 * WASM core vs the TypeScript reference, run inside a headless Chromium page.
 *   node_modules/.bin/bun bench/report-engine-browser.bench.ts   (build core-wasm first)
 * The page is bundled by Vite (as the PWA is, target es2022) into a temporary folder, served on
 * loopback by Bun, and driven by playwright-core with Debian's Chromium.
 * Writes bench/results/report-engine-browser.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../tests/support/browser.ts';
import type { Case } from './report-engine-cases.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const work = mkdtempSync(join(tmpdir(), 'norma-bench-browser-'));

try {
  // 1. Bundle a page that runs the cases with both engines.
  writeFileSync(
    join(work, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script type="module" src="./page.ts"></script></body></html>',
  );
  writeFileSync(
    join(work, 'page.ts'),
    [
      `import * as wasm from ${JSON.stringify(join(root, 'core-wasm/src/index.ts'))};`,
      `import * as reference from ${JSON.stringify(join(root, 'core-wasm/test-support/reference.ts'))};`,
      `import { runCases } from ${JSON.stringify(join(here, 'report-engine-cases.ts'))};`,
      'await wasm.loadCore();',
      '(window as any).runBench = () => runCases(wasm, reference, (line) => console.log(line));',
      '(window as any).benchReady = true;',
    ].join('\n'),
  );
  writeFileSync(
    join(work, 'vite.config.mjs'),
    `export default { root: ${JSON.stringify(work)}, logLevel: 'warn', build: { target: 'es2022', outDir: ${JSON.stringify(join(work, 'dist'))}, emptyOutDir: true, minify: true }, server: { fs: { allow: [${JSON.stringify(root)}, ${JSON.stringify(work)}] } } };\n`,
  );
  const build = Bun.spawnSync([join(root, 'node_modules', '.bin', 'vite'), 'build', '--config', join(work, 'vite.config.mjs')], {
    cwd: root,
    stdout: 'inherit',
    stderr: 'inherit',
  });
  if (build.exitCode !== 0) throw new Error(`vite build failed (${build.exitCode})`);

  // 2. Serve it on loopback.
  const dist = normalize(join(work, 'dist'));
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const target = normalize(join(dist, path === '/' ? 'index.html' : decodeURIComponent(path)));
      if (!target.startsWith(dist + sep)) return new Response('forbidden', { status: 403 });
      const file = Bun.file(target);
      return (await file.exists()) ? new Response(file, { headers: { 'content-type': file.type } }) : new Response('not found', { status: 404 });
    },
  });

  // 3. Run it in Chromium.
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    page.on('console', (message) => console.log(`[chromium] ${message.text()}`));
    page.on('pageerror', (error) => console.error(`[chromium] ${error.message}`));
    await page.goto(`http://127.0.0.1:${server.port}/`);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true, undefined, { timeout: 60_000 });
    const cases = (await page.evaluate(() => (window as unknown as { runBench: () => Case[] }).runBench())) as Case[];
    const runtime = `chromium ${browser.version()}`;
    const out = join(here, 'results', 'report-engine-browser.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ name: 'report-engine-browser', date: new Date().toISOString(), runtime, cases }, null, 2) + '\n');
    console.log(`written ${out}`);
  } finally {
    await browser.close();
    server.stop(true);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
