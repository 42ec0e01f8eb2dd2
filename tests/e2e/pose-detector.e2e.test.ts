import type { Browser } from 'playwright-core';
import { matchFrame } from '@norma/workers/vision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { detectInBrowser } from '../support/pose-browser';
import { startServer, type RunningServer } from '../support/server';
import { VTEST_MISSING, vtestFixture, vtestFrames } from '../support/vtest';

/**
 * The browser's person detector (issue 25, docs/vision.md «Детектор людей»): the app's own build
 * runs MoveNet in a Web Worker on a hand-labelled frame of vtest.avi on wasm and finds the labelled
 * people; the model files and the wasm come from the app itself, nothing from anywhere else.
 * (WebGPU is not run here: on Chromium's software adapter MoveNet's shaders took over five minutes
 * to compile; bench/pose-detector.bench.ts measures WebGPU on a real GPU when one is lent.)
 */
let server: RunningServer;
let browser: Browser;

describe.skipIf(VTEST_MISSING)('MoveNet in Chromium from the app', () => {
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const backend of ['wasm'] as const)
    it(`finds the labelled people on a frame (${backend})`, async () => {
      const fixture = vtestFixture();
      const labelled = fixture.frames.find((f) => f.frame === 125)!;
      const [rgb] = await vtestFrames([labelled.frame], fixture.width, fixture.height);
      const detection = await detectInBrowser(browser, server.url, [{ rgb: rgb!, width: fixture.width, height: fixture.height }], backend);
      expect(detection.backend).toBe(backend);
      const [run] = detection.runs;
      const counts = matchFrame(labelled.people, run!.people);
      expect(counts.people).toBe(7);
      expect(counts.truePositives).toBeGreaterThanOrEqual(6);
      expect(counts.falsePositives).toBeLessThanOrEqual(1);
      expect(run!.people.every((p) => p.keypoints.length === 17)).toBe(true);
      // Served by the app: both model files were fetched from it, and no request left it.
      expect(detection.requests.filter((url) => /\/assets\/movenet-multipose-[\w-]+\.(json|bin)$/.test(url))).toHaveLength(2);
      expect(detection.requests.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
    });
});
