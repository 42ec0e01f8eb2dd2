import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormCard, NormList } from '../../api/src/contract';
import { num } from '../../pwa/src/screens/reports/format';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * The norm card screen (issue 29) in Chromium on the demo: the approved card with its figures and
 * sources, a new draft from one day of one employee with its basis warnings and differences,
 * parameters recomputing the draft, and approval only for those allowed.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
let assemblyId: number;

const get = async <T>(path: string): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

async function openAs(login: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await signInThroughPage(page, server.url, login);
  await page.goto(`${server.url}/#/norms/${assemblyId}`);
  await page.getByTestId('norm-card').waitFor({ timeout: 60_000 });
  return { page, errors };
}

const figureText = (page: Page, key: string) => page.locator(`[data-testid="norm-figures"] tr[data-key="${key}"] td`).nth(1).textContent();

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'analyst');
  const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  assemblyId = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('norm card screen', () => {
  it('is reached from the structure page and shows the approved card with the figures of the API', async () => {
    const { page, errors } = await openAs('analyst');
    const list = await get<NormList>(`/api/v1/norms?structure_id=${assemblyId}`);
    const card = await get<NormCard>(`/api/v1/norms/${list.versions[0]!.id}`);
    await expect.poll(() => page.getByTestId('norm-versions').textContent(), RETRY).toContain('(действующая)');
    for (const f of card.card.figures.filter((x) => x.unit === 'мин')) await expect.poll(() => figureText(page, f.key), RETRY).toBe(num(f.value, 4));
    await expect.poll(() => page.getByTestId('norm-basis').textContent(), RETRY).toContain(card.card.basis.text);
    expect(await page.getByTestId('norm-approval').textContent()).toContain('Смирнова Ирина');
    // Approved: no parameters to edit, and this analyst has no right to approve.
    expect(await page.getByTestId('norm-params').count()).toBe(0);
    expect(await page.getByTestId('norm-approve').count()).toBe(0);
    // The link on the structure page leads here.
    await page.goto(`${server.url}/#/projects/${assemblyId}`);
    await page.getByRole('link', { name: 'Нормы' }).click();
    await page.waitForURL(new RegExp(`#/norms/${assemblyId}$`));
    await page.getByTestId('norm-card').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a draft from one day of one employee warns about its basis, shows differences and recomputes with a batch', async () => {
    const { page, errors } = await openAs('analyst');
    await page.getByTestId('norm-new').getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Собрать черновик (1)' }).click();
    await expect.poll(() => page.getByTestId('norm-versions').getByRole('button').count(), RETRY).toBe(2);
    await expect.poll(() => page.getByTestId('norm-warnings').textContent(), RETRY).toContain('Основание — один день наблюдений.');
    expect(await page.getByTestId('norm-warnings').textContent()).toContain('Основание — один сотрудник.');
    await expect.poll(() => page.getByTestId('norm-diff').locator('tbody tr').count(), RETRY).toBeGreaterThan(10);

    const params = page.getByTestId('norm-params');
    await params.getByLabel('Размер партии, шт.').fill('20');
    await params.getByLabel('Тпз на партию, мин').fill('12,5');
    await params.getByRole('button', { name: 'Пересчитать' }).click();
    const list = await get<NormList>(`/api/v1/norms?structure_id=${assemblyId}`);
    const draftId = list.versions.find((v) => v.status === 'draft')!.id;
    await expect.poll(async () => (await get<NormCard>(`/api/v1/norms/${draftId}`)).params.batch_prep_minutes, RETRY).toBe(12.5);
    const draft = await get<NormCard>(`/api/v1/norms/${draftId}`);
    const piece = draft.card.figures.find((f) => f.key === 'piece')!.value!;
    const batch = draft.card.figures.find((f) => f.key === 'piece_batch')!.value!;
    expect(batch).toBeCloseTo(piece + 12.5 / 20, 9);
    await expect.poll(() => figureText(page, 'piece_batch'), RETRY).toBe(num(batch, 4));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('the administrator sees the approve button and approves the draft', async () => {
    const { page, errors } = await openAs('admin');
    await page
      .getByTestId('norm-versions')
      .getByRole('button', { name: /черновик/ })
      .click();
    await page.getByTestId('norm-approve').click();
    await expect.poll(() => page.getByTestId('norm-approval').count(), RETRY).toBe(1);
    const list = await get<NormList>(`/api/v1/norms?structure_id=${assemblyId}`);
    expect(list.versions.map((v) => v.status)).toEqual(['approved', 'approved']);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
