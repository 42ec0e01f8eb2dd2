import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { PosedHuman } from '@norma/workers/vision';

/**
 * MoveNet in Chromium through the app's own build (issue 25, docs/vision.md «Детектор людей»),
 * shared by tests/e2e/pose-detector.e2e.test.ts and bench/pose-detector.bench.ts: a page of the
 * running app imports the built pose-detector chunk (the one the stands screen loads on demand),
 * opens the detector on a backend and runs it on RGB frames. Every URL the page asked for is kept,
 * so a caller can check that the model came from the app and nothing from elsewhere.
 */
export interface BrowserDetection {
  backend: string;
  runs: { people: PosedHuman[]; milliseconds: number }[];
  requests: string[];
}

/** The built chunk of pwa/src/ml/pose-detector.ts, as the app serves it. */
export function poseDetectorChunk(): string {
  const assets = join(import.meta.dirname, '..', '..', 'pwa', 'dist', 'assets');
  const chunk = readdirSync(assets).find((f) => /^pose-detector-[\w-]+\.js$/.test(f));
  if (!chunk) throw new Error('pose-detector chunk missing in pwa/dist/assets: build the PWA first');
  return `/assets/${chunk}`;
}

const RUN_IN_PAGE = `async ({ chunk, frames, backend }) => {
  const { PoseDetector } = await import(chunk);
  const detector = await PoseDetector.open({ backend });
  try {
    const runs = [];
    for (const frame of frames) {
      const rgb = Uint8Array.from(atob(frame.rgb), (c) => c.charCodeAt(0));
      const rgba = new Uint8ClampedArray(frame.width * frame.height * 4);
      for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
        rgba[j] = rgb[i];
        rgba[j + 1] = rgb[i + 1];
        rgba[j + 2] = rgb[i + 2];
        rgba[j + 3] = 255;
      }
      runs.push(await detector.detect(new ImageData(rgba, frame.width, frame.height)));
    }
    return { backend: detector.backend, runs };
  } finally {
    detector.close();
  }
}`;

export async function detectInBrowser(
  browser: Browser,
  baseUrl: string,
  frames: { rgb: Uint8Array; width: number; height: number }[],
  backend?: 'webgpu' | 'webgl' | 'wasm',
): Promise<BrowserDetection> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('worker', (worker) => requests.push(worker.url()));
  try {
    await page.goto(`${baseUrl}/`);
    // A string, not a function: the test runner rewrites `import()` inside functions it compiles.
    const argument = {
      chunk: poseDetectorChunk(),
      frames: frames.map((f) => ({ rgb: Buffer.from(f.rgb).toString('base64'), width: f.width, height: f.height })),
      backend,
    };
    const result = (await page.evaluate(`(${RUN_IN_PAGE})(${JSON.stringify(argument)})`)) as Omit<BrowserDetection, 'requests'>;
    return { ...result, requests };
  } finally {
    await context.close();
  }
}
