import type { Page } from 'playwright-core';

/**
 * Waits until the page has handled what came before and painted it: React commits a key's update,
 * and runs its effects, before the next animation frame. Waiting on that instead of a fixed pause
 * keeps a busy machine from sending the next key to a screen that has not taken the last one yet.
 */
export async function settled(page: Page) {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** Codes operations 1, 2, 3 at 0–5, 5–10, 10–15 s with the keyboard, the video paused, at the workplace of this option (the first by default). */
export async function codeThreeSegments(page: Page, workplaceOption = 1) {
  await page.getByLabel('Рабочее место новых операций').selectOption({ index: workplaceOption });
  await page.locator('.markup-head h1').click();
  for (const key of ['1', 'ArrowRight', '2', 'ArrowRight', '3', 'ArrowRight', 'Enter']) {
    await page.keyboard.press(key);
    await settled(page);
  }
}

/** Opens the markup screen of a video (at `second`, if given) and waits until its video knows its length. */
export async function openVideoMarkup(page: Page, baseUrl: string, videoId: number, second?: number) {
  await page.goto(`${baseUrl}/#/video/${videoId}${second === undefined ? '' : `/${second}`}`);
  await page.locator('video').waitFor();
  await page.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).readyState >= 1);
}
