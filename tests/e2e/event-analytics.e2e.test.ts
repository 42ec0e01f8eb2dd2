import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_FIGURES_CHARS } from '../../api/src/events/figures.service';
import { secondsText, toLocalInput } from '../../pwa/src/state/eventAnalytics';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { DEMO_FRAME, DEMO_TRACKS, insertDemoTracking, insertTracking } from '../support/event-tracking';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * Issue 44, the screen «Аналитика мероприятия» in Chromium (docs/event-analytics.md «Экран»): an
 * analyst opens a demo structure as a hall, sees its camera's video with a finished tracking,
 * calibrates the camera on its frame (a bad calibration shows the API's Russian message and saves
 * nothing), adds a stand's zone, shows the figures of the default window — two visitors, the stand's
 * dwell row — and downloads the tracks in MOTChallenge. The finished tracking (two tracks) is written
 * straight into the server's database as the tracking job commits it (as api/src/events/figures.test.ts
 * does): the demo's videos show a drawn figure, not people. At 360 px the body does not scroll sideways;
 * a viewer sees the figures but no writing controls. A long window (more stored track text than
 * STORED_FIGURES_CHARS): «пересчитывается» while the job computes, then its stored figures; a zone
 * renamed — the old figures marked stale while the job computes again, then the new ones.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
let structureId: number;
let cameraId: number;
let cameraName: string;
let videoId: number;

const IMAGE = [
  [64, 36],
  [576, 36],
  [576, 324],
  [64, 324],
] as const;
const PLAN = [
  [0, 0],
  [10, 0],
  [10, 5],
  [0, 5],
] as const;

const get = async <T>(path: string, who = cookie): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie: who } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '20' }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'analyst');
  const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  structureId = structures.find((s) => s.name === 'Участок упаковки')!.id;
  const cameras = await get<{ id: number; name: string }[]>(`/api/v1/cameras?structure_id=${structureId}`);
  [cameraId, cameraName] = [cameras[0]!.id, cameras[0]!.name];
  const videos = await get<{ id: number; start_time: string }[]>(`/api/v1/videos?camera_id=${cameraId}`);
  // The newest video: the screen's default window is its day.
  videoId = videos.reduce((a, b) => (b.start_time > a.start_time ? b : a)).id;
  insertDemoTracking(server.dataDir, videoId);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(login: string, width = 1440, height = 900): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = watchErrors(page, { allowHttpErrors: true });
  await signInThroughPage(page, server.url, login);
  // The API calls the screen makes (paths with their queries), in the order they were sent.
  const requests: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) requests.push(`${url.pathname}${url.search}`);
  });
  await page.goto(`${server.url}/#/event-analytics/${structureId}`);
  await page.getByRole('heading', { name: 'Видео камер и поиск людей' }).waitFor();
  return { page, errors, requests };
}

/** Clicks the four calibration points on the camera's frame (frame pixels → the drawn frame's box). */
async function clickFramePoints(page: Page) {
  const frame = page.getByTestId('calibration-frame').first();
  await frame.waitFor();
  const box = (await frame.boundingBox())!;
  for (const [x, y] of IMAGE) await frame.click({ position: { x: (x / DEMO_FRAME.width) * box.width, y: (y / DEMO_FRAME.height) * box.height } });
}

async function typePlan(page: Page, plan: readonly (readonly number[])[]) {
  for (const [i, [x, y]] of plan.entries()) {
    await page
      .getByLabel(`Точка ${i + 1}, x на плане, м`)
      .first()
      .fill(String(x));
    await page
      .getByLabel(`Точка ${i + 1}, y на плане, м`)
      .first()
      .fill(String(y));
  }
}

describe('event analytics screen (issue 44)', () => {
  it('calibrates, adds a zone, shows the visitors and the dwell row, downloads the MOT tracks, opens a visit on its video', async () => {
    const { page, errors, requests } = await open('analyst');
    const row = page.getByTestId('tracking-row').filter({ hasText: 'готов' });
    await expect.poll(() => row.count(), RETRY).toBe(1);
    expect(await row.textContent()).toContain('треков: 2');
    // The tracking state of every video of the hall came in one call, none per video.
    expect(requests).toContain(`/api/v1/event/trackings?structure_id=${structureId}`);
    expect(requests.filter((r) => r.startsWith('/api/v1/event/tracking?'))).toEqual([]);

    // A calibration whose plan points lie on one line: the API's Russian message beside the form, nothing saved.
    await clickFramePoints(page);
    await typePlan(page, [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    const card = page.getByTestId('calibration-card').first();
    await card.getByRole('button', { name: 'Сохранить калибровку' }).click();
    const alert = card.getByRole('alert');
    await expect.poll(() => alert.textContent(), RETRY).toMatch(/на плане/);
    expect(await get(`/api/v1/event/calibration?camera_id=${cameraId}`)).toEqual({ calibration: null });

    // The right plan points: saved with the frame's own size and the clicked points (to a pixel of the drawn frame).
    await typePlan(page, PLAN);
    await card.getByRole('button', { name: 'Сохранить калибровку' }).click();
    type Saved = { calibration: { frame_width: number; frame_height: number; image_points: number[][]; plan_points: number[][] } | null };
    await expect.poll(async () => (await get<Saved>(`/api/v1/event/calibration?camera_id=${cameraId}`)).calibration !== null, RETRY).toBe(true);
    const saved = (await get<Saved>(`/api/v1/event/calibration?camera_id=${cameraId}`)).calibration!;
    expect(saved).toMatchObject({ frame_width: DEMO_FRAME.width, frame_height: DEMO_FRAME.height, plan_points: PLAN });
    saved.image_points.forEach((p, i) => {
      expect(Math.abs(p[0]! - IMAGE[i]![0])).toBeLessThanOrEqual(2);
      expect(Math.abs(p[1]! - IMAGE[i]![1])).toBeLessThanOrEqual(2);
    });

    // A stand's zone: a circle of 2 m around the plan point of the standing person's feet (320, 180) → (5, 2.5).
    const form = page.getByTestId('zone-form');
    await form.getByLabel('Название').fill('Стенд у входа');
    await form.getByLabel('Роль').selectOption('stand');
    await form.getByLabel('Центр x, м').fill('5');
    await form.getByLabel('Центр y, м').fill('2.5');
    await form.getByLabel('Радиус, м').fill('2');
    await form.getByRole('button', { name: 'Добавить зону' }).click();
    await expect
      .poll(async () => (await get<{ zones: { name: string; role: string }[] }>(`/api/v1/event/zones?structure_id=${structureId}`)).zones, RETRY)
      .toEqual([expect.objectContaining({ name: 'Стенд у входа', role: 'stand' })]);
    await expect.poll(() => page.getByTestId('zone-row').count(), RETRY).toBe(1);

    // The figures of the default window (the day of the tracked video): two visitors, one 12 s visit of the stand.
    await page.getByRole('button', { name: 'Показать' }).click();
    await expect.poll(() => page.getByTestId('tile-visitors').locator('strong').textContent(), RETRY).toBe('2');
    const dwell = page.getByTestId('dwell-row').filter({ hasText: 'Стенд у входа' });
    await expect.poll(() => dwell.locator('td').allTextContents(), RETRY).toEqual(expect.arrayContaining(['Стенд у входа', 'Стенд', '1', '12 с']));
    // Every second inside the zone (passes shorter than a visit too) beside the visits: the figures the screen asked for.
    const shown = await get<{ dwell: { name: string; total_seconds: number; inside_seconds: number }[] }>(
      requests.findLast((r) => r.startsWith('/api/v1/event/figures?'))!,
    );
    const stand = shown.dwell.find((d) => d.name === 'Стенд у входа')!;
    expect(stand.inside_seconds).toBeGreaterThanOrEqual(stand.total_seconds);
    expect(await dwell.getByTestId('dwell-inside').textContent()).toBe(secondsText(stand.inside_seconds));
    // The plan's heat map is painted (cells with presence are coloured).
    const painted = () =>
      page
        .getByTestId('event-figures')
        .getByTestId('plan-heat')
        .evaluate((canvas: HTMLCanvasElement) => {
          const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
          let cells = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) cells++;
          return cells;
        });
    await expect.poll(painted, RETRY).toBeGreaterThan(0);
    // The calibrated camera is no longer among those listed with the hint to calibrate.
    expect(await page.getByTestId('uncalibrated-camera').allTextContents()).not.toContain(cameraName);

    // The MOT download: one line per stored point, frames from 1.
    const event = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Скачать треки (MOT)' }).click();
    const download = await event;
    expect(download.suggestedFilename()).toMatch(/\.mot\.txt$/);
    const text = await readFile((await download.path())!, 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines).toHaveLength(DEMO_TRACKS.standing.length + DEMO_TRACKS.walking.length);
    expect(lines[0]!.split(',').slice(0, 2)).toEqual(['1', '1']);

    // A phone: the body does not scroll sideways (tables scroll in their own box).
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), RETRY).toBeLessThanOrEqual(0);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);

    // The stand's visit opens the tracked video at its moment: the person stands there from the video's second 0.
    await page.setViewportSize({ width: 1440, height: 900 });
    await dwell.getByTestId('dwell-visits').locator('summary').click();
    const visit = dwell.getByTestId('dwell-visit').getByRole('link');
    await visit.click();
    await expect.poll(() => page.url(), RETRY).toMatch(new RegExp(`/video/${videoId}/0$`));
    await page.context().close();
  });

  it('«Найти людей» starts the tracking job, shows its state, «Отменить» cancels it', async () => {
    const { page } = await open('analyst', 1024, 768);
    const idle = page.getByTestId('tracking-row').filter({ hasText: 'не запускали' }).first();
    await idle.waitFor();
    const filename = (await idle.locator('td').first().textContent())!;
    const row = page.getByTestId('tracking-row').filter({ hasText: filename });
    await row.getByRole('button', { name: 'Найти людей' }).click();
    // Queued or running: the cancel button replaces the start one while the job is active.
    await row.getByRole('button', { name: 'Отменить' }).click();
    await expect.poll(() => row.getByTestId('tracking-state').textContent(), RETRY).toMatch(/^отменён/);
    expect(await row.getByRole('button', { name: 'Найти людей' }).count()).toBe(1);
    await page.context().close();
  });

  it('a long window: «пересчитывается» while the job computes, then the stored figures; stale after a zone edit, then fresh', async () => {
    // The camera's calibration and the stand's zone of the first test (set here when this test runs alone).
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if ((await get<{ calibration: unknown }>(`/api/v1/event/calibration?camera_id=${cameraId}`)).calibration === null) {
      const calibration = { frame_width: DEMO_FRAME.width, frame_height: DEMO_FRAME.height, image_points: IMAGE, plan_points: PLAN };
      expect((await send('PUT', `/api/v1/event/calibration?camera_id=${cameraId}`, calibration)).status).toBe(200);
    }
    type Zones = { zones: { id: number; name: string; role: string; stand_id: number | null; shape: unknown }[] };
    if (!(await get<Zones>(`/api/v1/event/zones?structure_id=${structureId}`)).zones.some((z) => z.name === 'Стенд у входа')) {
      const zone = { structure_id: structureId, name: 'Стенд у входа', role: 'stand', shape: { type: 'circle', center: [5, 2.5], radius: 2 } };
      expect((await send('POST', '/api/v1/event/zone', zone)).status).toBe(200);
    }
    // Many walkers on another video of the hall: more stored track text than a request computes itself.
    const cameras = await get<{ id: number }[]>(`/api/v1/cameras?structure_id=${structureId}`);
    const videos = (await Promise.all(cameras.map((c) => get<{ id: number; start_time: string }[]>(`/api/v1/videos?camera_id=${c.id}`)))).flat();
    const other = videos.find((v) => v.id !== videoId)!;
    const walkers = Array.from({ length: 520 }, (_, k) =>
      Array.from({ length: 100 }, (_, i) => [i * 5, i * 0.2, 40.25 + ((k * 37 + i * 5) % 540), 100.5 + ((k * 17) % 200), 20.5, 40.5, 0.875]),
    );
    expect(walkers.reduce((sum, t) => sum + JSON.stringify(t).length, 0)).toBeGreaterThan(STORED_FIGURES_CHARS);
    insertTracking(server.dataDir, other.id, walkers);

    const { page, requests } = await open('analyst');
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/event/figures') statuses.push(r.status());
    });
    // Every text the stored figures' note shows, as the page draws it (the job may end between two reads).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenNotes: string[] }).seenNotes = seen;
      new MutationObserver(() => {
        const note = document.querySelector('[data-testid="figures-store"]');
        const figures = document.querySelector('[data-testid="figures"]');
        const text = `${note?.getAttribute('data-state') ?? ''}|${note?.textContent ?? ''}|${figures?.className ?? ''}`;
        if (note && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const seenNotes = () => page.evaluate(() => (window as unknown as { seenNotes: string[] }).seenNotes);
    // The seven days up to the end of the default window (the tracked video's day).
    const windowForm = page.getByRole('form', { name: 'Окно времени' });
    const end = new Date(await windowForm.getByLabel('По', { exact: true }).inputValue());
    await windowForm.getByLabel('С', { exact: true }).fill(toLocalInput(new Date(end.getTime() - 7 * 86_400_000)));
    await page.getByRole('button', { name: 'Показать' }).click();
    const note = page.getByTestId('figures-store');
    await expect.poll(() => note.getAttribute('data-state'), RETRY).toBe('fresh');
    expect(statuses[0]).toBe(202);
    const computing = await seenNotes();
    expect(
      computing.some((n) => n.startsWith('computing|') && n.includes('Окно пересчитывается')),
      computing.join(' / '),
    ).toBe(true);
    // The stored figures: the walkers and the two demo people.
    await expect.poll(() => page.getByTestId('tile-visitors').locator('strong').textContent(), RETRY).toBe(String(walkers.length + 2));
    expect(await note.textContent()).toContain('посчитаны задачей и сохранены');

    // A zone renamed: the same window shows the old figures, marked stale, while the job computes again.
    const { zones } = await get<Zones>(`/api/v1/event/zones?structure_id=${structureId}`);
    const zone = zones.find((z) => z.name === 'Стенд у входа')!;
    const renamed = await send('PUT', `/api/v1/event/zone/${zone.id}`, {
      name: 'Стенд у входа, правка',
      role: zone.role,
      stand_id: zone.stand_id,
      shape: zone.shape,
    });
    expect(renamed.status).toBe(200);
    const shownBefore = (await seenNotes()).length;
    await page.getByRole('button', { name: 'Показать' }).click();
    await expect.poll(() => page.getByTestId('dwell-row').filter({ hasText: 'Стенд у входа, правка' }).count(), RETRY).toBe(1);
    await expect.poll(() => note.getAttribute('data-state'), RETRY).toBe('fresh');
    const afterEdit = (await seenNotes()).slice(shownBefore);
    // Stale: the old figures kept on screen (marked), the note saying the window is being recomputed.
    expect(
      afterEdit.some((n) => n.startsWith('computing|') && n.includes('Цифры устарели') && n.includes('пересчитывается') && n.endsWith('|figures-stale')),
      afterEdit.join(' / '),
    ).toBe(true);
    expect(statuses.slice(1).filter((s) => s !== 200)).toEqual([]);
    expect(requests.filter((r) => r.startsWith('/api/v1/jobs/')).length).toBeGreaterThan(0);
    await page.context().close();
  });

  it('a viewer reads the figures without writing controls', async () => {
    const { page } = await open('viewer', 1024, 768);
    await page.getByRole('button', { name: 'Показать' }).click();
    await expect.poll(() => page.getByTestId('tile-visitors').locator('strong').textContent(), RETRY).toMatch(/^\d+$/);
    expect(await page.getByRole('button', { name: 'Найти людей' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Сохранить калибровку' }).count()).toBe(0);
    expect(await page.getByTestId('zone-form').count()).toBe(0);
    await page.context().close();
  });
});
