import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { codeSpan, prepareCodingScene, type CodingScene } from '../support/vision-coding';

/**
 * Issue 14: models save assessors key presses. A model trained through the API on the first half
 * of a 60 s synthetic scene; the second half coded on the markup screen twice by a simulated
 * assessor (tests/support/vision-coding.ts) — by operation keys, and with «Размечать по подсказкам».
 * The longer measurement is `bench/vision-keys.bench.ts` (docs/performance.md).
 */
let scene: CodingScene;
let browser: Browser;

beforeAll(async () => {
  [scene, browser] = await Promise.all([prepareCodingScene(60), launchBrowser()]);
}, 360_000);
afterAll(async () => {
  await browser?.close();
  await scene?.cleanup();
});

describe('coding with the model’s suggestions', () => {
  it('takes fewer key presses than coding by keys, and codes the span as well', async () => {
    const byKeys = await codeSpan(browser, scene, scene.freshVideoIds[0]!, 'keys');
    const withSuggestions = await codeSpan(browser, scene, scene.freshVideoIds[1]!, 'suggestions');
    const summary = JSON.stringify({ byKeys: { ...byKeys, log: undefined }, withSuggestions: { ...withSuggestions, log: withSuggestions.log } });
    // The assessor by keys presses one key per change of the truth, plus play, stop and save.
    expect(byKeys.keys, summary).toBeGreaterThanOrEqual(byKeys.truthSegments);
    expect(byKeys.agreement, summary).toBeGreaterThan(0.85);
    // With suggestions the follow switch codes the settled ones; keys only correct the model.
    expect(withSuggestions.agreement, summary).toBeGreaterThan(0.8);
    expect(withSuggestions.keys + withSuggestions.setupClicks, summary).toBeLessThan(byKeys.keys);
  }, 300_000);
});
