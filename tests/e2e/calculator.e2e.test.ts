import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;
const password = 'calculator-secret';

/** Self-registration: each user gets an organisation of their own and is its admin. */
async function register(login: string) {
  const response = await fetch(`${server.url}/api/v2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ login, password, first_name: 'Тест', last_name: login }),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  // The first organisation owns the calculator's settings (docs/calculator.md); the second does not.
  await register('owner');
  await register('stranger');
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The worked example of docs/calculator.md. */
async function fillExample(page: Page) {
  await page.getByLabel('Тип производства').selectOption('series');
  await page.getByLabel('Сотрудников').fill('20');
  await page.getByLabel('Смен в сутки').fill('2');
  await page.getByLabel('Рабочих дней в месяце').fill('21');
  await page.getByLabel('Часов в смене').fill('8');
  await page.getByLabel('Средняя зарплата, ₽/мес.').fill('60000');
  await page.getByLabel('Рабочих мест вне обзора камер').fill('4');
}

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent();
const digits = (value: string | null) => Number((value ?? '').replace(/\D/g, ''));

describe('productivity calculator in Chromium', () => {
  it('a visitor without sign-in fills the form and sees the outputs, both graphs and the failures; no admin panels', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.goto(`${server.url}/#/calculator`);
    await page.getByRole('heading', { name: 'Калькулятор производительности' }).waitFor();
    await page.getByTestId('calc-incomplete').waitFor();

    await fillExample(page);
    await expect.poll(() => text(page, 'calc-measurements-req'), RETRY).toBe('15');
    await expect.poll(() => text(page, 'calc-stability'), RETRY).toBe('2');
    await expect.poll(async () => digits(await text(page, 'calc-final-cost')), RETRY).toBe(285433);
    expect(digits(await text(page, 'calc-save-month'))).toBe(234000);
    expect(digits(await text(page, 'calc-save-year'))).toBe(2808000);
    expect(await text(page, 'calc-terms')).toBe('12');
    expect(await text(page, 'calc-cameras')).toBe('2');
    expect(digits(await text(page, 'calc-overall'))).toBe(750);
    // uPlot drew both graphs.
    await page.getByTestId('calc-savings-graph').locator('canvas').waitFor();
    await page.getByTestId('calc-measurement-graph').locator('canvas').waitFor();

    // The under-10-seconds switch changes the normative Ку: series, ≤ 10 s → 2.5.
    await page.getByLabel(/Средняя операция короче/).check();
    await expect.poll(() => text(page, 'calc-stability'), RETRY).toBe('2,5');

    // A call the server refuses is shown, with its Russian message (the original only logged it).
    await page.getByLabel('Рабочих мест вне обзора камер').fill('11');
    await expect.poll(() => page.locator('.calculator-form [role=alert]').textContent(), RETRY).toMatch(/Расчёт не выполнен: .*не может быть больше/);
    await expect.poll(() => page.getByTestId('calc-outputs').count(), RETRY).toBe(0);

    expect(await page.getByTestId('calc-admin').count()).toBe(0);
    expect(await page.getByTestId('calc-private').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('another organisation’s admin gets no panels', async () => {
    const page = await browser.newPage();
    await signInThroughPage(page, server.url, 'stranger', password);
    await page.goto(`${server.url}/#/calculator`);
    await fillExample(page);
    await expect.poll(async () => digits(await text(page, 'calc-final-cost')), RETRY).toBe(285433);
    expect(await page.getByTestId('calc-admin').count()).toBe(0);
    expect(await page.getByTestId('calc-private').count()).toBe(0);
    await page.close();
  });

  it('the owner’s admin changes a default and the outputs move; the change persists', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'owner', password);
    await page.goto(`${server.url}/#/calculator`);
    await fillExample(page);
    await expect.poll(async () => digits(await text(page, 'calc-final-cost')), RETRY).toBe(285433);
    await expect.poll(async () => digits(await text(page, 'calc-private-total')), RETRY).toBe(285433);

    const panel = page.getByTestId('calc-panel-defaults');
    await panel.locator('summary').click();
    await panel.getByLabel(/Стоимость часа разметчика/).fill('1000');
    await panel.getByRole('button', { name: 'Сохранить' }).click();
    await expect.poll(() => panel.getByRole('status').textContent(), RETRY).toBe('Успешно сохранено (1)');
    // 80 markup hours × 500 ₽ more, with the percentages and the tax: 335 465 ₽ (formulas.test.ts).
    await expect.poll(async () => digits(await text(page, 'calc-final-cost')), RETRY).toBe(335465);

    await page.reload();
    await fillExample(page);
    await expect.poll(async () => digits(await text(page, 'calc-final-cost')), RETRY).toBe(335465);
    await page.getByTestId('calc-panel-defaults').locator('summary').click();
    expect(
      await page
        .getByTestId('calc-panel-defaults')
        .getByLabel(/Стоимость часа разметчика/)
        .inputValue(),
    ).toBe('1000');
    expect(errors).toEqual([]);
    await page.close();
  });
});
