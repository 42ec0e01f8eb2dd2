import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { SCENE_OPERATION_NAMES } from '../support/scene-world';
import { codeSpan, prepareCodingScene, type CodingScene } from '../support/vision-coding';
import { sceneOperationAt } from '../../workers/test-support/vision-scene';

/**
 * Issue 14: models save assessors key presses. A model trained through the API on the first half
 * of a 60 s synthetic scene; the second half coded on the markup screen twice by a simulated
 * assessor (tests/support/vision-coding.ts) — by operation keys, and with «Размечать по подсказкам».
 * The longer measurement is `bench/vision-keys.bench.ts` (docs/performance.md).
 */
let scene: CodingScene;
let browser: Browser;

beforeAll(async () => {
  [scene, browser] = await Promise.all([prepareCodingScene(60, 3), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await scene?.cleanup();
});

describe('coding with the model’s suggestions', () => {
  it('takes fewer key presses than coding by keys, and codes the span as well', async () => {
    const byKeys = await codeSpan(browser, scene, scene.freshVideoIds[0]!, 'keys');
    const withSuggestions = await codeSpan(browser, scene, scene.freshVideoIds[1]!, 'suggestions');
    const summary = JSON.stringify({ byKeys: { ...byKeys, log: undefined, trace: undefined }, withSuggestions, truth: scene.schedule });
    // The assessor by keys presses one key per change of the truth, plus play, stop and save.
    expect(byKeys.keys, summary).toBeGreaterThanOrEqual(byKeys.truthSegments);
    expect(byKeys.agreement, summary).toBeGreaterThan(0.85);
    // With suggestions the follow switch codes the settled ones; keys only correct the model.
    expect(withSuggestions.agreement, summary).toBeGreaterThan(0.8);
    expect(withSuggestions.keys + withSuggestions.setupClicks, summary).toBeLessThan(byKeys.keys);
  });

  it('«Анализ» of the markup helper marks the whole video with the model for review; a corrected segment becomes the reviewer’s', async () => {
    const videoId = scene.freshVideoIds[2]!;
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, scene.server.url, 'lead', 'secret-pass');
    await page.goto(`${scene.server.url}/#/video/${videoId}`);
    // The camera's models have loaded once the suggestion choice shows.
    await page.getByTestId('suggestion-panel').waitFor();
    const helper = page.getByTestId('markup-helper');
    await helper.getByRole('button', { name: 'Анализ' }).click();
    const status = helper.getByRole('status');
    await status.filter({ hasText: /записала \d+ отрезк/ }).waitFor();
    const count = Number((await status.textContent())!.match(/записала (\d+) отрезк/)![1]);
    expect(count).toBeGreaterThanOrEqual(5);
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(count);

    // What the model marked agrees with the scene's truth (0.1 s steps over the whole video).
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const get = async <T>(path: string) => (await (await fetch(`${scene.server.url}${path}`, { headers: { cookie } })).json()) as T;
    const { operations } = await get<{ operations: { id: number; name: string }[] }>(`/api/v1/available_operations?video_id=${videoId}`);
    const names = new Map(operations.map((o) => [o.id, o.name]));
    const saved = await get<{ video_markups: { id: number; operation_id: number; start_time: number; end_time: number; source: string }[] }>(
      `/api/v1/video_markups/${videoId}`,
    );
    let agree = 0;
    let steps = 0;
    for (let t = 0.05; t < scene.to; t += 0.1, steps++) {
      const coded = saved.video_markups.find((m) => m.start_time <= t && t < m.end_time);
      const truth = sceneOperationAt(scene.schedule, t);
      if ((coded ? names.get(coded.operation_id) : null) === (truth === 'idle' ? null : SCENE_OPERATION_NAMES[truth])) agree++;
    }
    expect(agree / steps).toBeGreaterThan(0.85);

    // The reviewer corrects the first segment's end and saves: it is theirs, the rest stay the model's.
    const firstRow = page.getByTestId('op-row').first();
    await firstRow.getByRole('button', { name: '1', exact: true }).click();
    await page.keyboard.press('d');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(count - 1);
    const after = await get<typeof saved>(`/api/v1/video_markups/${videoId}`);
    expect(after.video_markups.filter((m) => m.source === 'manual')).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reviews the model’s layer by keyboard: V accepts, X rejects, Shift+V accepts the rest; only accepted segments reach the report', async () => {
    const videoId = scene.freshVideoIds[2]!;
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, scene.server.url, 'lead', 'secret-pass');
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const get = async <T>(path: string) => (await (await fetch(`${scene.server.url}${path}`, { headers: { cookie } })).json()) as T;
    type Saved = { video_markups: { id: number; start_time: number; source: string; confidence?: number | null }[] };
    const before = await get<Saved>(`/api/v1/video_markups/${videoId}`);
    const layer = before.video_markups.filter((m) => m.source === 'model');
    expect(layer.length).toBeGreaterThanOrEqual(4);
    const video = await get<{ start_time: string }>(`/api/v1/video_meta/${videoId}`);
    const start = Date.parse(video.start_time);
    const window = `structure_id=${scene.structureId}&from_time=${new Date(start - 3_600_000).toISOString()}&to_time=${new Date(start + 3_600_000).toISOString()}`;
    const frvIds = async () => (await get<{ items: { id: number }[] }>(`/api/v2/frv?${window}`)).items.map((i) => i.id);
    const reportBefore = await frvIds();
    for (const m of layer) expect(reportBefore).not.toContain(m.id);

    await page.goto(`${scene.server.url}/#/video/${videoId}`);
    const panel = page.getByTestId('model-review');
    await panel.waitFor();
    await expect.poll(() => page.getByTestId('model-review-count').textContent(), RETRY).toContain(String(layer.length));
    // The first model segment: its confidence is shown; V accepts it and moves on to the next one.
    await page.locator('.row-number.from-model').first().click();
    await expect.poll(() => page.getByTestId('model-review-confidence').textContent(), RETRY).toMatch(/^\d+ %$/);
    await page.keyboard.press('v');
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(layer.length - 1);
    // X rejects the segment now under review (the second): it leaves the list.
    const rows = await page.getByTestId('op-row').count();
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('op-row').count(), RETRY).toBe(rows - 1);
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(layer.length - 2);
    // Shift+V accepts every remaining one in the review span (the whole video by default).
    await page.keyboard.press('Shift+V');
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(0);
    await expect.poll(() => panel.count(), RETRY).toBe(0);
    // Undo brings the last step back; redo takes it again; nothing counts before the save.
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(layer.length - 2);
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(() => page.locator('.row-number.from-model').count(), RETRY).toBe(0);
    expect(await frvIds()).toEqual(reportBefore);
    await page.keyboard.press('Control+s');
    await page.getByText('Успешно сохранено!').waitFor();

    const after = await get<Saved>(`/api/v1/video_markups/${videoId}`);
    expect(after.video_markups.filter((m) => m.source === 'model')).toEqual([]);
    const rejected = layer[1]!.id;
    expect(after.video_markups.map((m) => m.id)).not.toContain(rejected);
    const accepted = layer.filter((m) => m.id !== rejected).map((m) => m.id);
    const report = await frvIds();
    for (const id of accepted) expect(report).toContain(id);
    expect(report).not.toContain(rejected);
    expect(errors).toEqual([]);
    await context.close();
  });
});
