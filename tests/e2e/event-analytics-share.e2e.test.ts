import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { DEMO_FRAME, insertDemoTracking } from '../support/event-tracking';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * Issue 44, the event-analytics screen's share link, downloads and zone editing in Chromium
 * (docs/event-analytics.md «Ссылка „поделиться“», «PDF и CSV», «Экран»): an analyst shows the figures
 * of a demo structure as a hall, shares them — a link and its QR code —, and a guest without a login
 * opens the link on a 360 px phone: the same figures (as GET /api/v1/event/figures gives them), no
 * writing controls, no videos, no sideways scroll; the guest downloads the CSV of visitors per minute
 * and of dwell and the PDF, read back and compared with the figures. Revoked, the link shows the
 * Russian refusal. Then the analyst edits zones: a polygon's vertex dragged on the plan, the role
 * changed to a stand's zone with its stand, a circle's radius and centre; a polygon redrawn with too
 * few points or crossing sides is refused in Russian and nothing changes. A viewer cannot edit.
 * The finished tracking (two tracks) is written straight into the server's database, as in
 * tests/e2e/event-analytics.e2e.test.ts: the demo's videos show a drawn figure, not people.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
let structureId: number;
const work = mkdtempSync(join(tmpdir(), 'norma-event-share-'));

const square = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];

interface Zone {
  id: number;
  name: string;
  role: 'zone' | 'stand' | 'safe';
  stand_id: number | null;
  shape: { type: 'polygon'; points: [number, number][] } | { type: 'circle'; center: [number, number]; radius: number };
  updated_at: string;
}
interface Figures {
  from: string;
  to: string;
  visitors: number;
  visitors_per_minute: { minute_start: number; visitors: number; entries: number }[];
  dwell: { name: string; visits: number; visitors: number; total_seconds: number }[];
  safe_zone_entries: { name: string; entries: unknown[] }[];
}

const call = async <T>(path: string, init: { method?: string; body?: unknown; who?: string } = {}): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.who === '' ? {} : { cookie: init.who ?? cookie }), 'content-type': 'application/json', origin: server.url },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as T };
};
const ok = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
  const reply = await call<T>(path, init);
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
};
const zones = async () => (await ok<{ zones: Zone[] }>(`/api/v1/event/zones?structure_id=${structureId}`)).zones;
const zoneNamed = async (name: string) => (await zones()).find((z) => z.name === name)!;

let standId: number;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '20' }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'analyst');
  const structures = await ok<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  structureId = structures.find((s) => s.name === 'Участок упаковки')!.id;
  const cameras = await ok<{ id: number }[]>(`/api/v1/cameras?structure_id=${structureId}`);
  const cameraId = cameras[0]!.id;
  const videos = await ok<{ id: number; start_time: string }[]>(`/api/v1/videos?camera_id=${cameraId}`);
  insertDemoTracking(server.dataDir, videos.reduce((a, b) => (b.start_time > a.start_time ? b : a)).id);
  await ok(`/api/v1/event/calibration?camera_id=${cameraId}`, {
    method: 'PUT',
    body: { frame_width: DEMO_FRAME.width, frame_height: DEMO_FRAME.height, image_points: square(64, 36, 576, 324), plan_points: square(0, 0, 10, 5) },
  });
  // The standing person's feet (320, 180) → (5, 2.5) m; the walker goes along y ≈ 0.42 m from x ≈ 0.5 to 8.3 m.
  await ok('/api/v1/event/zone', {
    method: 'POST',
    body: { structure_id: structureId, name: 'Стенд у входа', role: 'stand', shape: { type: 'circle', center: [5, 2.5], radius: 2 } },
  });
  await ok('/api/v1/event/zone', {
    method: 'POST',
    body: { structure_id: structureId, name: 'Проход', role: 'zone', shape: { type: 'polygon', points: square(0, 0, 2, 1) } },
  });
  await ok('/api/v1/event/zone', {
    method: 'POST',
    body: { structure_id: structureId, name: 'Станок', role: 'safe', shape: { type: 'polygon', points: square(6, 0, 7, 1) } },
  });
  const me = await ok<{ organization: { id: number } }>('/api/v1/whoami');
  const saved = await ok<{ stands: { id: number; name: string }[] }>('/api/v1/stands', {
    method: 'POST',
    body: { organization_id: me.organization.id, changed_stands: [{ name: 'Стенд «Упаковка»', kind: 'stand' }] },
  });
  standId = saved.stands.find((s) => s.name === 'Стенд «Упаковка»')!.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function open(login: string, width = 1440, height = 900): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  await signInThroughPage(page, server.url, login);
  // Watched from the hall's screen on: what is checked here is these screens, not the sign-in page.
  const errors = watchErrors(page, { allowHttpErrors: true });
  await page.goto(`${server.url}/#/event-analytics/${structureId}`);
  await page.getByRole('heading', { name: 'Видео камер и поиск людей' }).waitFor();
  return { page, errors };
}

/** A CSV as the reports write it: BOM, `;`, CRLF; fields here hold no `;` or quotes. */
function readCsv(file: string): string[][] {
  const text = readFileSync(file, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  expect(text).toContain('\r\n');
  return text
    .slice(1)
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(';'));
}
const decimal = (n: number) => String(n).replace('.', ',');

async function download(page: Page, click: () => Promise<void>, name: string): Promise<string> {
  const event = page.waitForEvent('download');
  await click();
  const file = join(work, name);
  await (await event).saveAs(file);
  return file;
}

describe('sharing the figures (issue 44)', () => {
  it('a guest opens the link on a phone: the same figures read-only, CSV and PDF that match them; revoked, the Russian refusal', async () => {
    const { page, errors } = await open('analyst');
    await page.getByRole('button', { name: 'Показать' }).click();
    await expect.poll(() => page.getByTestId('tile-visitors').locator('strong').textContent(), RETRY).toBe('2');
    await page.getByTestId('event-share').getByRole('button', { name: 'Поделиться' }).click();
    const linkField = page.getByTestId('event-share-link');
    await expect.poll(() => linkField.inputValue(), RETRY).toMatch(/\/#\/event-share\/[A-Za-z0-9_-]{32}$/);
    const link = await linkField.inputValue();
    expect(await page.getByTestId('event-share-qr').locator('svg').count()).toBe(1);
    const key = link.split('/').pop()!;

    // The key opens exactly the figures of the window shown, as the analyst's own call gives them.
    const shown = (await call<{ figures: Figures }>(`/api/v1/event/shared/${key}`, { who: '' })).body.figures;
    const figures = await ok<Figures>(
      `/api/v1/event/figures?structure_id=${structureId}&from=${encodeURIComponent(shown.from)}&to=${encodeURIComponent(shown.to)}`,
    );
    expect(shown).toEqual(figures);
    expect(figures.visitors).toBe(2);

    // A guest on a phone: no login, no writing controls, no videos, nothing scrolls sideways.
    const guest = await browser.newContext({ viewport: { width: 360, height: 740 }, acceptDownloads: true });
    const phone = await guest.newPage();
    const guestErrors = watchErrors(phone);
    await phone.goto(link);
    await expect.poll(() => phone.getByTestId('shared-hall').textContent(), RETRY).toBe('Участок упаковки');
    await expect.poll(() => phone.getByTestId('tile-visitors').locator('strong').textContent(), RETRY).toBe('2');
    const dwell = phone.getByTestId('dwell-row').filter({ hasText: 'Стенд у входа' });
    await expect.poll(() => dwell.locator('td').allTextContents(), RETRY).toEqual(expect.arrayContaining(['Стенд у входа', 'Стенд', '1', '12 с']));
    for (const name of ['Найти людей', 'Сохранить калибровку', 'Поделиться', 'Добавить зону', 'Показать']) {
      expect(await phone.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await phone.getByRole('button', { name: /^Изменить зону/ }).count()).toBe(0);
    expect(await phone.locator('video').count()).toBe(0);
    expect(await phone.locator('a[href*="/video/"]').count()).toBe(0);
    expect(await phone.locator('input:not([type="checkbox"]), select').count()).toBe(0);
    await expect.poll(() => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), RETRY).toBeLessThanOrEqual(0);

    // CSV of visitors per minute and of dwell, read back: the figures' numbers, decimal commas.
    const perMinute = readCsv(await download(phone, () => phone.getByRole('button', { name: 'CSV: Посетители в минуту' }).click(), 'per-minute.csv'));
    expect(perMinute[0]).toEqual(['Минута', 'Посетителей', 'Вошли']);
    expect(perMinute.slice(1).map((row) => row.slice(1))).toEqual(figures.visitors_per_minute.map((m) => [String(m.visitors), String(m.entries)]));
    const dwellCsv = readCsv(await download(phone, () => phone.getByRole('button', { name: 'CSV: Время в зонах' }).click(), 'dwell.csv'));
    expect(dwellCsv[0]!.slice(0, 5)).toEqual(['Зона', 'Роль', 'Визитов', 'Посетителей', 'Всего, с']);
    expect(dwellCsv.slice(1).map((row) => [row[0], row[2], row[3], row[4]])).toEqual(
      figures.dwell.map((d) => [d.name, String(d.visits), String(d.visitors), decimal(d.total_seconds)]),
    );
    const summary = readCsv(await download(phone, () => phone.getByRole('button', { name: 'CSV: Сводка' }).click(), 'summary.csv'));
    expect(summary).toContainEqual(['Посетителей', String(figures.visitors)]);
    const safe = readCsv(await download(phone, () => phone.getByRole('button', { name: 'CSV: Входы в безопасные зоны' }).click(), 'safe.csv'));
    expect(safe.length - 1).toBe(figures.safe_zone_entries.reduce((n, z) => n + z.entries.length, 0));

    // The PDF: as many pages as the screen says, Montserrat embedded, the figures in its text.
    if (spawnSync('pdftotext', ['-v']).error)
      throw new Error('Для проверки PDF нужен poppler-utils из Debian (apt-get install poppler-utils); .ci/run ставит его сам');
    const pdf = await download(phone, () => phone.getByRole('button', { name: 'Скачать PDF' }).click(), 'figures.pdf');
    const status = phone.getByTestId('event-pdf-status');
    await expect.poll(() => status.textContent(), RETRY).toMatch(/^PDF готов/);
    const info = spawnSync('pdfinfo', [pdf], { encoding: 'utf8' });
    expect(info.status, info.stderr).toBe(0);
    expect(Number(/Pages:\s+(\d+)/.exec(info.stdout)?.[1])).toBe(Number(await status.getAttribute('data-pages')));
    expect(spawnSync('pdffonts', [pdf], { encoding: 'utf8' }).stdout).toMatch(/Montserrat/);
    const text = spawnSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('Аналитика мероприятия: Участок упаковки');
    expect(text).toMatch(new RegExp(`Посетителей ${figures.visitors}\\b`));
    for (const title of ['Посетители в минуту', 'Время в зонах', 'Входы в безопасные зоны']) expect(text).toContain(title);
    for (const d of figures.dwell) expect(text).toContain(d.name);
    expect(guestErrors).toEqual([]);

    // Revoked by the analyst: the link shows the Russian refusal, and a made-up key the same.
    await page.getByRole('button', { name: 'Отозвать ссылку' }).click();
    await page.getByTestId('event-share-revoked').waitFor();
    const refused = await guest.newPage();
    const refusedErrors = watchErrors(refused, { allowHttpErrors: true });
    await refused.goto(link);
    await expect.poll(() => refused.getByRole('alert').first().textContent(), RETRY).toBe('Ссылка недействительна или отозвана');
    expect(await refused.getByTestId('tile-visitors').count()).toBe(0);
    await refused.goto(`${server.url}/#/event-share/${'x'.repeat(32)}`);
    await expect.poll(() => refused.getByRole('alert').first().textContent(), RETRY).toBe('Ссылка недействительна или отозвана');
    expect(refusedErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await guest.close();
    await page.context().close();
  });
});

/** The plan of a zone form: its svg box and viewBox, to turn plan metres into page pixels and back. */
async function planOf(form: Locator) {
  const svg = form.getByTestId('plan-view');
  await svg.scrollIntoViewIfNeeded();
  const box = (await svg.boundingBox())!;
  const [minX, minY, width, height] = (await svg.getAttribute('viewBox'))!.split(' ').map(Number) as [number, number, number, number];
  return {
    toPage: ([x, y]: [number, number]) => ({ x: box.x + ((x - minX) / width) * box.width, y: box.y + ((y - minY) / height) * box.height }),
    toPlan: ({ x, y }: { x: number; y: number }): [number, number] => [minX + ((x - box.x) / box.width) * width, minY + ((y - box.y) / box.height) * height],
  };
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
}

describe('editing zones (issue 44)', () => {
  it('drags a vertex, changes the role and stand, the radius and centre; refuses a bad shape in Russian with nothing changed', async () => {
    const { page, errors } = await open('analyst', 1024, 768);
    await expect.poll(() => page.getByTestId('zone-row').count(), RETRY).toBe(3);

    // The polygon «Проход»: its third vertex (2, 1) dragged to about (3, 2), made a stand's zone of «Стенд «Упаковка»».
    await page.getByRole('button', { name: 'Изменить зону Проход' }).click();
    const form = page.getByTestId('zone-edit-form');
    await form.waitFor();
    expect(await form.getByLabel('Название').inputValue()).toBe('Проход');
    await expect.poll(() => form.getByTestId('plan-handle').count(), RETRY).toBe(4);
    let plan = await planOf(form);
    const target = plan.toPage([3, 2]);
    await drag(page, plan.toPage([2, 1]), target);
    const expected = plan.toPlan(target);
    await form.getByLabel('Роль').selectOption('stand');
    await form.getByLabel('Стенд зоны', { exact: true }).selectOption({ label: 'Стенд «Упаковка»' });
    await form.getByRole('button', { name: 'Сохранить зону' }).click();
    await expect.poll(async () => (await zoneNamed('Проход')).role, RETRY).toBe('stand');
    const moved = await zoneNamed('Проход');
    expect(moved.stand_id).toBe(standId);
    expect(moved.shape.type).toBe('polygon');
    const points = (moved.shape as { points: [number, number][] }).points;
    expect(points).toHaveLength(4);
    expect([points[0], points[1], points[3]]).toEqual([
      [0, 0],
      [2, 0],
      [0, 1],
    ]);
    expect(Math.abs(points[2]![0] - expected[0])).toBeLessThanOrEqual(0.05);
    expect(Math.abs(points[2]![1] - expected[1])).toBeLessThanOrEqual(0.05);
    expect(Math.abs(points[2]![0] - 3)).toBeLessThanOrEqual(0.3);
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('zone-row').filter({ hasText: 'Стенд «Упаковка»' }).count(), RETRY).toBe(1);

    // The circle «Стенд у входа»: radius 3 typed, centre dragged from (5, 2.5) to about (6, 3).
    await page.getByRole('button', { name: 'Изменить зону Стенд у входа' }).click();
    const circleForm = page.getByTestId('zone-edit-form');
    await circleForm.waitFor();
    await circleForm.getByLabel('Радиус, м').fill('3');
    plan = await planOf(circleForm);
    const centreTarget = plan.toPage([6, 3]);
    await drag(page, plan.toPage([5, 2.5]), centreTarget);
    const centreExpected = plan.toPlan(centreTarget);
    await circleForm.getByRole('button', { name: 'Сохранить зону' }).click();
    await expect.poll(async () => ((await zoneNamed('Стенд у входа')).shape as { radius: number }).radius, RETRY).toBe(3);
    const circle = (await zoneNamed('Стенд у входа')).shape as { center: [number, number] };
    expect(Math.abs(circle.center[0] - centreExpected[0])).toBeLessThanOrEqual(0.05);
    expect(Math.abs(circle.center[1] - centreExpected[1])).toBeLessThanOrEqual(0.05);

    // «Станок» redrawn: two points are refused by the form; a bow tie (crossing sides) by the API, in Russian; nothing changes.
    const before = await zoneNamed('Станок');
    await page.getByRole('button', { name: 'Изменить зону Станок' }).click();
    const safeForm = page.getByTestId('zone-edit-form');
    await safeForm.waitFor();
    await safeForm.getByRole('button', { name: 'Перерисовать' }).click();
    expect(await safeForm.getByTestId('plan-handle').count()).toBe(0);
    plan = await planOf(safeForm);
    const svg = safeForm.getByTestId('plan-view');
    const clickAt = async (p: [number, number]) => {
      const at = plan.toPage(p);
      const box = (await svg.boundingBox())!;
      await svg.click({ position: { x: at.x - box.x, y: at.y - box.y } });
    };
    await clickAt([6, 0]);
    await clickAt([8, 1]);
    await expect.poll(() => safeForm.getByTestId('plan-handle').count(), RETRY).toBe(2);
    await safeForm.getByRole('button', { name: 'Сохранить зону' }).click();
    await expect.poll(() => safeForm.getByRole('alert').textContent(), RETRY).toBe('Нажмите на плане не меньше трёх точек многоугольника');
    await clickAt([8, 0]);
    await clickAt([6, 1]);
    await expect.poll(() => safeForm.getByTestId('plan-handle').count(), RETRY).toBe(4);
    await safeForm.getByRole('button', { name: 'Сохранить зону' }).click();
    await expect.poll(() => safeForm.getByRole('alert').textContent(), RETRY).toContain('Стороны многоугольника пересекаются');
    expect(await zoneNamed('Станок')).toEqual(before);
    await safeForm.getByRole('button', { name: 'Отменить правку' }).click();
    await safeForm.waitFor({ state: 'detached' });
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('a viewer has no zone editing, and the API refuses it', async () => {
    const { page } = await open('viewer', 1024, 768);
    await expect.poll(() => page.getByTestId('zone-row').count(), RETRY).toBe(3);
    expect(await page.getByRole('button', { name: /^Изменить зону/ }).count()).toBe(0);
    expect(await page.getByTestId('zone-edit-form').count()).toBe(0);
    const viewer = await apiSessionCookie(server.url, 'viewer');
    const zone = await zoneNamed('Станок');
    const refused = await call<{ error: { message: string } }>(`/api/v1/event/zone/${zone.id}`, {
      method: 'PUT',
      who: viewer,
      body: { name: 'Чужая правка', role: zone.role, stand_id: null, shape: zone.shape },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/[А-Яа-яЁё]/);
    expect((await zoneNamed('Станок')).name).toBe('Станок');
    await page.context().close();
  });
});
