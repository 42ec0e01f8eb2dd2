import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LineScenarios, NormCard, NormList } from '../../api/src/contract';
import { num, pct } from '../../pwa/src/screens/reports/format';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * The line balance (issue 42, METHODOLOGY §7 «Line balance») in Chromium on the demo, by keyboard
 * only: the assembly's three benches each make the whole reducer, so the screen first says they are
 * not a line and shows each bench's Нвыр; the analyst then builds a line — orders the stations with
 * Alt+↑/↓ and «Ниже», puts each operation on a station with ←/→, takes a bench off the line — and the
 * figures follow, computed here by hand from the card's work content; the line is saved, and after
 * a reload it is the same line. Its PDF prints no buttons.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
let assemblyId: number;
const workDir = mkdtempSync(join(tmpdir(), 'norma-line-'));

const get = async <T>(path: string): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'analyst');
  const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  assemblyId = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

/** The figures a line must show, by the formulas of METHODOLOGY §7 (not by the screen's own code). */
function expected(line: NormCard['card']['line'], stations: number[], place: Map<number, number>, demand: number) {
  const work = line.operations.filter((o) => o.category !== 'loss');
  const sums = stations.map((id) => work.filter((o) => place.get(o.operation_id) === id).reduce((a, o) => a + o.minutes, 0));
  const total = sums.reduce((a, b) => a + b, 0);
  const cycle = Math.max(...sums);
  const takt = line.available_minutes / demand;
  return {
    total: `${num(total, 3)} мин`,
    cycle: `${num(cycle, 3)} мин`,
    takt: `${num(takt, 3)} мин`,
    efficiency: pct((total / (stations.length * cycle)) * 100, 1),
    delay: pct((1 - total / (stations.length * cycle)) * 100, 1),
    minimum: String(Math.ceil(total / takt - 1e-9)),
  };
}

async function shown(page: Page) {
  const text = async (id: string) => (await page.getByTestId(id).textContent())!;
  return {
    total: await text('line-total'),
    cycle: await text('line-cycle'),
    takt: await text('line-takt'),
    efficiency: await text('line-efficiency'),
    delay: await text('line-delay'),
    minimum: await text('line-min-stations'),
  };
}

const order = (page: Page) => page.getByTestId('line-order-item').evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-station-id'))));
/** The station an operation's block stands on; 0 when it is off the line. */
const stationOf = (page: Page, operationId: number) =>
  page
    .locator(`[data-operation-id="${operationId}"]`)
    .evaluate((el) => Number(el.closest('[data-testid="line-station"]')?.getAttribute('data-workplace-id') ?? 0));
const focusedOperation = (page: Page) => page.evaluate(() => Number(document.activeElement?.getAttribute('data-operation-id') ?? 0));
const focusedStation = (page: Page) => page.evaluate(() => Number(document.activeElement?.getAttribute('data-station-id') ?? 0));

describe('line balance by keyboard', () => {
  it('parallel benches are not a line; a line built by keys gives the figures of its stations, is saved and kept after a reload', async () => {
    const list = await get<NormList>(`/api/v1/norms?structure_id=${assemblyId}`);
    const card = await get<NormCard>(`/api/v1/norms/${list.versions[0]!.id}`);
    const line = card.card.line;
    const [s1, s2, s3] = line.workplaces as [(typeof line.workplaces)[number], (typeof line.workplaces)[number], (typeof line.workplaces)[number]];
    expect(line.workplaces).toHaveLength(3);
    const work = line.operations.filter((o) => o.category !== 'loss');
    expect(work).toHaveLength(3);
    const [a, b, c] = work as [(typeof work)[number], (typeof work)[number], (typeof work)[number]];
    // Each bench's own Нвыр (its Топ from the measurements done at it), as the API computed it.
    const benchRows = line.benches!;
    expect(benchRows.map((b) => b.workplace_id)).toEqual(line.workplaces.map((w) => w.id));

    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'analyst');
    await page.goto(`${server.url}/#/norms/${assemblyId}/line/${card.id}`);

    // Until a line is built the benches are parallel: no line efficiency, each bench's own Топ and Нвыр.
    await expect.poll(() => page.getByTestId('line-not-a-line').textContent(), RETRY).toContain('это не линия; баланс линии не считается');
    expect(await page.getByTestId('line-efficiency').count()).toBe(0);
    const benches = page.getByTestId('line-benches').locator('tbody tr');
    expect(await benches.locator('td:first-child').allTextContents()).toEqual(line.workplaces.map((w) => w.name));
    expect(await page.getByTestId('bench-output').allTextContents()).toEqual(benchRows.map((b) => (b.output === null ? 'не рассчитано' : num(b.output, 0))));
    expect(await page.getByTestId('bench-output-exact').allTextContents()).toEqual(
      benchRows.map((b) => (b.output_exact === null ? '—' : num(b.output_exact, 3))),
    );
    expect(await page.getByTestId('bench-top').allTextContents()).toEqual(benchRows.map((b) => (b.top_minutes === null ? '—' : num(b.top_minutes, 3))));

    // Build a line: every bench a station in the card's order, no operation on it yet.
    await page.getByRole('button', { name: 'Построить линию' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => order(page), RETRY).toEqual([s1.id, s2.id, s3.id]);
    for (const o of work) expect(await stationOf(page, o.operation_id)).toBe(0);

    // Order the stations: Alt+↑ twice on the third puts it first; «Ниже» on the first bench puts it last.
    await page.locator(`[data-testid="line-order-item"][data-station-id="${s3.id}"]`).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => order(page), RETRY).toEqual([s1.id, s3.id, s2.id]);
    await expect.poll(() => focusedStation(page), RETRY).toBe(s3.id);
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => order(page), RETRY).toEqual([s3.id, s1.id, s2.id]);
    await page.getByRole('button', { name: `Станцию «${s1.name}» ниже` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => order(page), RETRY).toEqual([s3.id, s2.id, s1.id]);

    // Operations onto stations with →: a on the first (s3), b on the second (s2), c on the third (s1).
    const demand = Number((await page.getByTestId('line-demand').inputValue()).replace(',', '.'));
    const place = new Map<number, number>();
    const stations = [s3.id, s2.id, s1.id];
    for (const [k, op] of [a, b, c].entries()) {
      await page.locator(`[data-operation-id="${op.operation_id}"]`).focus();
      for (let step = 0; step <= k; step++) {
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => stationOf(page, op.operation_id), RETRY).toBe(stations[step]);
        await expect.poll(() => focusedOperation(page), RETRY).toBe(op.operation_id);
      }
      place.set(op.operation_id, stations[k]!);
    }
    await expect.poll(() => shown(page), RETRY).toEqual(expected(line, stations, place, demand));
    expect(await page.getByTestId('line-unplaced').count()).toBe(0);

    // b one station on, next to c; then the emptied bench s2 taken off the line: two stations.
    await page.locator(`[data-operation-id="${b.operation_id}"]`).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => stationOf(page, b.operation_id), RETRY).toBe(s1.id);
    place.set(b.operation_id, s1.id);
    await expect.poll(() => shown(page), RETRY).toEqual(expected(line, stations, place, demand));
    await page.getByRole('button', { name: `Убрать «${s2.name}» из линии` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => order(page), RETRY).toEqual([s3.id, s1.id]);
    const two = [s3.id, s1.id];

    // Demand typed: takt = available time / demand, minimum stations ⌈Σt / takt⌉.
    await page.getByTestId('line-demand').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('300');
    await page.keyboard.press('Tab');
    const want = expected(line, two, place, 300);
    await expect.poll(() => shown(page), RETRY).toEqual(want);
    expect(await page.getByTestId('line-n').textContent()).toBe('2');

    // Saved by keys, kept by the API as built.
    await page.getByLabel('Название сценария').focus();
    await page.keyboard.type('Стол 3, затем стол 1');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await get<LineScenarios>(`/api/v1/norms/${card.id}/line_scenarios`)).scenarios.map((s) => [s.name, s.stations, s.demand]), RETRY)
      .toEqual([['Стол 3, затем стол 1', two, 300]]);
    const saved = (await get<LineScenarios>(`/api/v1/norms/${card.id}/line_scenarios`)).scenarios[0]!;
    expect(new Map(saved.assignment.map((x) => [x.operation_id, x.workplace_id]))).toEqual(place);

    // After a reload the saved line is the line.
    await page.reload();
    await expect.poll(() => order(page), RETRY).toEqual(two);
    for (const [op, station] of place) expect(await stationOf(page, op)).toBe(station);
    await expect.poll(() => shown(page), RETRY).toEqual(want);

    // Its PDF: the figures and stations, no button's caption.
    const event = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF баланса' }).click();
    const file = join(workDir, 'line.pdf');
    await (await event).saveAs(file);
    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text.status, text.stderr).toBe(0);
    const pdf = text.stdout.replace(/\u00a0/g, ' ');
    expect(pdf).toContain(want.efficiency.replace(/\u00a0/g, ' '));
    expect(pdf).toContain(s3.name);
    expect(pdf).toContain('Стол 3, затем стол 1');
    for (const caption of ['Открыть', 'Выше', 'Ниже', 'Убрать', 'Сохранить', 'Построить линию', 'XLSX', 'CSV']) expect(pdf).not.toContain(caption);

    // Back to parallel benches: not a line again.
    await page.getByRole('button', { name: 'Не линия: рабочие места параллельно' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('line-not-a-line').isVisible(), RETRY).toBe(true);
    expect(await page.getByTestId('bench-output').count()).toBe(3);
    expect(errors).toEqual([]);
    await context.close();
  });
});
