import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NormCard, NormList } from '../../api/src/contract';
import { num } from '../../pwa/src/screens/reports/format';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * The norm card screen lets the engineer do what the card asks (issue 42, METHODOLOGY §7): an
 * operation added to the unit that has no measurements makes the card «не рассчитано», approval is
 * refused with the server's own message (not the «черновик изменили» panel), a time typed by hand
 * with its source calculates the card, and then it is approved.
 */
let server: RunningServer;
let browser: Browser;
let cookie: string;
let assemblyId: number;

const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  cookie = await apiSessionCookie(server.url, 'analyst');
  const structures = await call<{ id: number; name: string }[]>('GET', '/api/v2/get_all_structures');
  assemblyId = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('norm card inputs', () => {
  it('an operation without measurements: added to the unit, refused with the server message, timed by hand (1,25 мин, МТМ), approved', async () => {
    // An operation of the structure that no markup has: the analyst adds it to the structure.
    const ops = await call<{ operations: { id: number; name: string }[] }>('POST', '/api/v1/operations', {
      structure_id: assemblyId,
      changed_operations: [{ name: 'Контроль упаковки', type: 'main', reference_point: '' }],
      operations_to_delete: [],
    });
    const added = ops.operations.find((o) => o.name === 'Контроль упаковки')!;
    // A draft from one shift-day of one employee, built by the analyst through the API.
    const dates = await call<{ dates: string[]; employees: Record<string, number[]> }>('GET', `/api/v1/report/dates?structure_id=${assemblyId}`);
    const date = dates.dates[0]!;
    const draft = await call<NormCard>('POST', `/api/v1/norms?structure_id=${assemblyId}`, { windows: [{ employee_id: dates.employees[date]![0]!, date }] });
    expect(draft.card.not_calculated).toBeNull();

    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'admin');
    await page.goto(`${server.url}/#/norms/${assemblyId}`);
    await page.getByTestId('norm-card').waitFor();
    await page
      .getByTestId('norm-versions')
      .getByRole('button', { name: /черновик/ })
      .click();
    await expect.poll(() => page.getByTestId('norm-revision').textContent(), RETRY).toContain(`ревизия ${draft.revision} `);

    // Add the operation to the unit and recompute: the card says it is not calculated.
    const params = page.getByTestId('norm-params');
    await params.getByLabel('Добавить операцию в единицу').selectOption(String(added.id));
    await params.getByRole('button', { name: 'Пересчитать' }).click();
    await expect
      .poll(async () => (await call<NormCard>('GET', `/api/v1/norms/${draft.id}`)).card.not_calculated, RETRY)
      .toBe('не рассчитано: нет замеров «Контроль упаковки»');
    const missing = await call<NormCard>('GET', `/api/v1/norms/${draft.id}`);
    await expect.poll(() => page.getByTestId('norm-not-calculated').textContent(), RETRY).toContain('не рассчитано: нет замеров «Контроль упаковки»');
    await expect.poll(() => page.getByTestId('norm-warnings').textContent(), RETRY).toContain('введите их время вручную с источником');
    expect(await page.locator(`[data-testid="norm-operations"] tr[data-operation-id="${added.id}"]`).textContent()).toContain('нет замеров');

    // Approval is refused with the server's message, not as a draft changed meanwhile.
    const override = page.locator('textarea[name="override_comment"]');
    if (missing.card.unstable.length > 0) await override.fill('Выбросы — смена оснастки');
    await page.getByTestId('norm-approve').click();
    await expect.poll(() => page.getByTestId('norm-refused').textContent(), RETRY).toBe('Нельзя утвердить: не рассчитано: нет замеров «Контроль упаковки»');
    expect(await page.getByTestId('norm-changed').count()).toBe(0);
    expect((await call<NormCard>('GET', `/api/v1/norms/${draft.id}`)).status).toBe('draft');

    // A bad time is refused in Russian before anything is sent.
    const manual = page.getByTestId('norm-manual-times');
    await manual.getByLabel('Время «Контроль упаковки», мин').fill('0');
    await page.getByTestId('norm-params').getByRole('button', { name: 'Пересчитать' }).click();
    await expect
      .poll(() => page.getByTestId('norm-params').getByRole('alert').textContent(), RETRY)
      .toContain('Время «Контроль упаковки»: число минут больше 0');
    expect((await call<NormCard>('GET', `/api/v1/norms/${draft.id}`)).revision).toBe(missing.revision);

    // The time by hand: 1,25 min by МТМ, with a note; the card is calculated and shows its source.
    await manual.getByLabel('Время «Контроль упаковки», мин').fill('1,25');
    await manual.getByLabel('Источник времени «Контроль упаковки»').selectOption({ label: 'МТМ' });
    await manual.getByLabel('Примечание к «Контроль упаковки»').fill('карта МТМ-7');
    await page.getByTestId('norm-params').getByRole('button', { name: 'Пересчитать' }).click();
    await expect
      .poll(async () => (await call<NormCard>('GET', `/api/v1/norms/${draft.id}`)).params.manual_times, RETRY)
      .toEqual([{ operation_id: added.id, minutes: 1.25, source: 'mtm', note: 'карта МТМ-7' }]);
    const entered = await call<NormCard>('GET', `/api/v1/norms/${draft.id}`);
    expect(entered.card.not_calculated).toBeNull();
    expect(entered.card.operations.find((o) => o.operation_id === added.id)).toMatchObject({ time_source: 'manual', t_reg_minutes: 1.25 });
    const row = page.locator(`[data-testid="norm-operations"] tr[data-operation-id="${added.id}"]`);
    await expect.poll(() => row.textContent(), RETRY).toContain('введено вручную: МТМ (карта МТМ-7)');
    expect(await row.locator('td').nth(2).textContent()).toBe(num(1.25, 3));
    const figureText = (key: string) => page.locator(`[data-testid="norm-figures"] tr[data-key="${key}"] td`).nth(1).textContent();
    for (const f of entered.card.figures.filter((x) => x.unit === 'мин' && x.value !== null))
      await expect.poll(() => figureText(f.key), RETRY).toBe(num(f.value, 4));
    expect(await page.getByTestId('norm-not-calculated').count()).toBe(0);

    // Approved now.
    if (entered.card.unstable.length > 0) await override.fill('Выбросы — смена оснастки');
    await page.getByTestId('norm-approve').click();
    await expect.poll(() => page.getByTestId('norm-approval').count(), RETRY).toBe(1);
    expect(await page.getByTestId('norm-refused').count()).toBe(0);
    expect(await call<NormCard>('GET', `/api/v1/norms/${draft.id}`)).toMatchObject({ status: 'approved', revision: entered.revision });
    // The one refused approval is the browser's only complaint.
    expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
    await context.close();
  });

  it('the shift and the per-employee rating are set on the card; a rating out of 50–200 % is refused before sending', async () => {
    const dates = await call<{ dates: string[]; employees: Record<string, number[]> }>('GET', `/api/v1/report/dates?structure_id=${assemblyId}`);
    const date = dates.dates[0]!;
    const employee = dates.employees[date]![0]!;
    const draft = await call<NormCard>('POST', `/api/v1/norms?structure_id=${assemblyId}`, { windows: [{ employee_id: employee, date }] });
    const settings = await call<{ shifts: { name: string }[] }>('GET', `/api/v1/structure/${assemblyId}`);
    const list = await call<NormList>('GET', `/api/v1/norms?structure_id=${assemblyId}`);
    expect(list.versions[0]!.id).toBe(draft.id);

    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'analyst');
    await page.goto(`${server.url}/#/norms/${assemblyId}`);
    await expect.poll(() => page.getByTestId('norm-params').count(), RETRY).toBe(1);
    const params = page.getByTestId('norm-params');
    const shift = params.getByLabel('Смена нормы');
    // The default says which shift the API chose; every shift of the structure is offered.
    await expect.poll(() => shift.locator('option').first().textContent(), RETRY).toBe(`Самая частая в основании («${draft.card.balance.shift_name}»)`);
    expect(await shift.locator('option').allTextContents()).toEqual([expect.any(String), ...settings.shifts.map((s) => s.name)]);

    const name = draft.windows[0]!.employee_name;
    const rating = page.getByTestId('norm-employee-ratings').getByLabel(`Оценка темпа «${name}», %`);
    await rating.fill('250');
    await params.getByRole('button', { name: 'Пересчитать' }).click();
    await expect.poll(() => params.getByRole('alert').textContent(), RETRY).toBe(`Оценка темпа «${name}»: число от 50 до 200 %`);
    expect((await call<NormCard>('GET', `/api/v1/norms/${draft.id}`)).revision).toBe(draft.revision);

    const other = settings.shifts.map((s) => s.name).find((n) => n !== draft.card.balance.shift_name) ?? settings.shifts[0]!.name;
    await rating.fill('110');
    await shift.selectOption(other);
    await params.getByRole('button', { name: 'Пересчитать' }).click();
    await expect
      .poll(async () => (await call<NormCard>('GET', `/api/v1/norms/${draft.id}`)).params.employee_ratings, RETRY)
      .toEqual([{ employee_id: employee, rating_percent: 110 }]);
    const saved = await call<NormCard>('GET', `/api/v1/norms/${draft.id}`);
    expect(saved.params.shift_name).toBe(other);
    expect(saved.card.balance.shift_name).toBe(other);
    const figureText = (key: string) => page.locator(`[data-testid="norm-figures"] tr[data-key="${key}"] td`).nth(1).textContent();
    await expect.poll(() => figureText('shift'), RETRY).toBe(num(saved.card.figures.find((f) => f.key === 'shift')!.value, 4));
    await expect.poll(() => figureText('norm_time'), RETRY).toBe(num(saved.card.figures.find((f) => f.key === 'norm_time')!.value, 4));
    expect(errors).toEqual([]);
    await context.close();
  });
});
