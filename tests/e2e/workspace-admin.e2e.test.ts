import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchErrors, RETRY } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

/**
 * A new customer from nothing: a fresh admin registers, creates a structure with staff and a
 * camera, sets a shift and two operations, marks up a period, opens every report link, and the
 * assessor summary adds up to the markups.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let cookie: string;
let structureId: number;

const get = async <T>(path: string): Promise<T> => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

/** 20 November 2026, Moscow time (the organisation's default zone): 09:00 is 06:00Z. */
const DAY = '20-11-2026';
const from = '2026-11-20T06:00:00.000Z';
const to = '2026-11-20T07:00:00.000Z';

async function toast(page: Page, text: string | RegExp) {
  await page.locator('.toast', { hasText: text }).first().waitFor();
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '0' }), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/#/registration`);
  await page.getByLabel('Логин').fill('direktor');
  await page.getByLabel('Имя', { exact: true }).fill('Ирина');
  await page.getByLabel('Фамилия').fill('Директорова');
  await page.getByLabel('Пароль', { exact: true }).fill('very-secret-1');
  await page.getByLabel('Повторите пароль').fill('very-secret-1');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await page.waitForURL(/#\/projects$/);
  cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  await page.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a new organisation sets up its workspace', () => {
  it('creates a structure with an employee, a workplace and a camera, and a user', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.goto(`${server.url}/#/projects`);
    await page.getByText('Создайте первую структурную единицу').waitFor();
    await page.getByRole('link', { name: 'Администрирование' }).click();
    await page.waitForURL(/#\/admin$/);

    const create = page.getByRole('form', { name: 'Новая структурная единица' });
    await create.getByLabel('Название').fill('Завод');
    await create.getByRole('button', { name: 'Создать' }).click();
    await toast(page, 'Создана структурная единица «Завод»');
    await create.getByLabel('Название').fill('Участок сборки');
    await create.getByLabel('Входит в').selectOption({ label: 'Завод' });
    await create.getByRole('button', { name: 'Создать' }).click();
    await toast(page, 'Создана структурная единица «Участок сборки»');

    // The new structure is selected: add its staff and a camera.
    await page.getByRole('heading', { name: '«Участок сборки»: сотрудники, рабочие места, камеры' }).waitFor();
    await page.getByPlaceholder('Новый сотрудник (ФИО)').fill('Иванов Иван');
    await page.getByTestId('admin-employees').getByRole('button', { name: 'Добавить' }).click();
    await page.getByPlaceholder('Новое рабочее место').fill('Стол 1');
    await page.getByTestId('admin-workplaces').getByRole('button', { name: 'Добавить' }).click();
    await page.getByTestId('admin-employees').getByLabel('Название: Иванов Иван').waitFor();
    await page.getByTestId('admin-workplaces').getByLabel('Название: Стол 1').waitFor();
    await page.getByRole('button', { name: 'Добавить камеру' }).click();
    await page.getByLabel('Камера Камера 1: папка').waitFor();

    // A structure that holds something cannot be deleted; the server says what is inside.
    const row = page.getByTestId('admin-structure-row').filter({ hasText: 'Участок сборки' });
    await row.getByRole('button', { name: 'Удалить' }).click();
    await row.getByRole('button', { name: 'Да' }).click();
    await toast(page, /Удалить можно только пустую структурную единицу/);

    const structures = await get<{ id: number; name: string; parent_id: number | null }[]>('/api/v2/get_all_structures');
    const root = structures.find((s) => s.name === 'Завод')!;
    const leaf = structures.find((s) => s.name === 'Участок сборки')!;
    expect(leaf.parent_id).toBe(root.id);
    structureId = leaf.id;
    expect(await get(`/api/v1/admin/cameras?structure_id=${structureId}`)).toEqual([
      expect.objectContaining({ camera_key: 1, name: 'Камера 1', storage_folder: `recordings/s${structureId}/cam1` }),
    ]);

    // Users: a new assessor; the only admin cannot step down.
    await page.getByRole('tab', { name: 'Пользователи' }).click();
    const userForm = page.getByRole('form', { name: 'Новый пользователь' });
    await userForm.getByLabel('Логин').fill('razmetchik');
    await userForm.getByLabel('Имя').fill('Пётр');
    await userForm.getByLabel('Фамилия').fill('Разметкин');
    await userForm.getByLabel('Пароль').fill('marker-pass-1');
    await userForm.getByLabel('Роль нового пользователя').selectOption('assessor');
    await userForm.getByRole('button', { name: 'Создать пользователя' }).click();
    await toast(page, 'Пользователь razmetchik создан');
    await page.getByLabel('Роль direktor').selectOption('analyst');
    await toast(page, /хотя бы один администратор/);
    await expect.poll(() => page.getByLabel('Роль direktor').inputValue(), RETRY).toBe('admin');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sets a shift and two operations on the projects page', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.goto(`${server.url}/#/projects/${structureId}`);
    await expect.poll(() => page.getByTestId('structure-title').textContent(), RETRY).toBe('Участок сборки');

    const settings = page.getByTestId('settings-card');
    await settings.getByLabel('Число сотрудников').fill('3');
    await settings.getByLabel('Регламентированные перерывы, мин').fill('50');
    await settings.getByRole('button', { name: 'Добавить смену' }).click();
    await settings.getByLabel('Смена 1: название').fill('Дневная');
    await settings.getByLabel('Смена 1: начало').fill('08:00');
    await settings.getByLabel('Смена 1: конец').fill('17:00');
    await settings.getByLabel('Смена 1: перерывы, мин').fill('60');
    await settings.getByRole('switch', { name: 'Отдых считать простоем' }).check();
    await settings.getByRole('button', { name: 'Сохранить параметры' }).click();
    await toast(page, 'Успешно сохранено');
    const saved = await get<Record<string, unknown>>(`/api/v1/structure/${structureId}`);
    expect(saved).toMatchObject({
      employee_count: 3,
      regular_break_duration: 3000,
      rest_in_idle: true,
      shifts: [expect.objectContaining({ name: 'Дневная', start_time: '08:00:00', end_time: '17:00:00', regular_break_duration_min: 60 })],
    });

    const editor = page.getByTestId('operations-editor');
    await editor.getByRole('button', { name: 'Добавить операцию' }).click();
    await editor.getByRole('button', { name: 'Сохранить операции' }).click();
    await editor.getByText('Не хватает имени у одной из операций!').waitFor();
    await editor.getByLabel('Операция 1: название').fill('Сборка узла');
    await editor.getByLabel('Операция 1: точка отсчёта').fill('взял корпус');
    await editor.getByRole('button', { name: 'Добавить операцию' }).click();
    await editor.getByLabel('Операция 2: название').fill('Ожидание деталей');
    await editor.getByLabel('Операция 2: тип').selectOption({ label: 'Простои (нерегламентированные перерывы)' });
    await editor.getByRole('button', { name: 'Сохранить операции' }).click();
    // The settings' «Успешно сохранено» may still be on screen: the saved operations are the state to wait on.
    const savedOperations = async () =>
      (await get<{ operations: { name: string; type: string; reference_point: string }[] }>(`/api/v1/operations?structure_id=${structureId}`)).operations.map(
        (o) => [o.name, o.type, o.reference_point],
      );
    await expect.poll(savedOperations, RETRY).toEqual([
      ['Сборка узла', 'main', 'взял корпус'],
      ['Ожидание деталей', 'idle', ''],
    ]);
    await toast(page, 'Успешно сохранено');

    // After a reload the card shows what was saved.
    await page.reload();
    await expect.poll(() => page.getByTestId('settings-card').getByLabel('Смена 1: название').inputValue(), RETRY).toBe('Дневная');
    await expect.poll(() => page.getByTestId('operation-row').count(), RETRY).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('marks up a period in the period editor', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page, { allowHttpErrors: true });
    await page.goto(`${server.url}/#/edit/${structureId}/${encodeURIComponent(from)}/${encodeURIComponent(to)}`);
    await page.getByRole('heading', { name: 'Редактирование разметки за период' }).waitFor();
    await page.getByText('За этот период разметки нет').waitFor();

    await page.getByRole('button', { name: 'Добавить строку' }).click();
    await page.getByTestId('unsaved').waitFor();
    // The only workplace and the only employee are prefilled; the operation is not.
    await expect.poll(() => page.getByLabel('Строка 1: рабочее место').inputValue(), RETRY).not.toBe('0');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText(/^Данные введены некорректно/).waitFor();

    // Operations are listed alphabetically.
    const options = await page.getByLabel('Строка 1: операция').locator('option').allTextContents();
    expect(options).toEqual(['—', 'Ожидание деталей', 'Сборка узла']);
    await page.getByLabel('Строка 1: операция').selectOption({ label: 'Сборка узла' });
    await page.getByLabel('Строка 1: начало').fill(`${DAY} 09:00:00`);
    await page.getByLabel('Строка 1: конец').fill(`${DAY} 09:30:00`);
    await page.getByLabel('Строка 1: комментарий').fill('первый узел');
    await page.getByRole('button', { name: 'Добавить строку' }).click();
    await page.getByLabel('Строка 1: операция').selectOption({ label: 'Ожидание деталей' });
    await page.getByLabel('Строка 1: начало').fill(`${DAY} 09:20:00`);
    await page.getByLabel('Строка 1: конец').fill(`${DAY} 09:45:00`);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await toast(page, 'Успешно сохранено!');
    await expect.poll(() => page.getByTestId('unsaved').count(), RETRY).toBe(0);

    // Newest first, as saved.
    await page.reload();
    await page.getByTestId('period-row').first().waitFor();
    await expect.poll(() => page.getByLabel('Строка 1: начало').inputValue(), RETRY).toBe(`${DAY} 09:20:00`);
    await expect.poll(() => page.getByLabel('Строка 2: комментарий').inputValue(), RETRY).toBe('первый узел');

    // An operation that markups use cannot be deleted.
    const project = await context.newPage();
    await project.goto(`${server.url}/#/projects/${structureId}`);
    const editor = project.getByTestId('operations-editor');
    await editor.getByTestId('operation-row').first().getByRole('button', { name: 'Удалить' }).click();
    await editor.getByRole('button', { name: 'Сохранить операции' }).click();
    await toast(project, /Нельзя удалить операции, которые есть в разметке: «Сборка узла» \(1 отрезок\)/);
    await project.close();

    // Unsaved changes make the browser ask before closing.
    await page.getByLabel('Строка 1: комментарий').fill('не сохранено');
    const dialog = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type());
        void d.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    await expect(dialog).resolves.toBe('beforeunload');
    expect(errors).toEqual([]);
    if (!page.isClosed()) await page.close();
  });

  it('picks dates on the projects page and follows the edit link and each report link', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/projects/${structureId}`);
    const fromPicker = page.getByTestId('period-from');
    await fromPicker.locator('output', { hasText: DAY }).waitFor();
    await expect.poll(() => fromPicker.getByLabel('С: дата').locator('option').allTextContents(), RETRY).toEqual([DAY]);
    await expect.poll(() => page.getByTestId('period-to').getByLabel('По: дата').locator('option').allTextContents(), RETRY).toEqual([DAY, '21-11-2026']);
    await expect.poll(() => page.getByLabel('Сотрудник').locator('option:checked').textContent(), RETRY).toBe('Иванов Иван');
    await fromPicker.getByLabel('С: час').selectOption('9');
    await page.getByTestId('period-to').getByLabel('По: дата').selectOption('2026-11-20');
    await page.getByTestId('period-to').getByLabel('По: час').selectOption('10');
    await expect.poll(() => fromPicker.locator('output').textContent(), RETRY).toBe(`${DAY} 09:00`);
    await expect.poll(() => page.getByTestId('period-to').locator('output').textContent(), RETRY).toBe(`${DAY} 10:00`);

    const employees = await get<{ id: number }[]>(`/api/v1/employees?structure_id=${structureId}`);
    const f = encodeURIComponent(from);
    const t = encodeURIComponent(to);
    const links: [string, string][] = [
      ['Редактировать разметку', `#/edit/${structureId}/${f}/${t}`],
      ['Отчёт (старый)', `#/statement/${structureId}/${employees[0]!.id}/${f}/${t}`],
      ['Отчёт (новый)', `#/report/${structureId}/${f}/${t}`],
      ['Интерактивный отчёт', `#/interactive/${structureId}/${f}/${t}`],
    ];
    for (const [name, href] of links) {
      const link = page.getByRole('link', { name, exact: true });
      await expect.poll(() => link.getAttribute('href'), RETRY).toBe(href);
      await link.click();
      await page.waitForURL(`${server.url}/${href}`);
      const heading = page.locator('main h1').first();
      await heading.waitFor();
      expect(((await heading.textContent()) ?? '').length, name).toBeGreaterThan(2);
      expect(await heading.textContent()).not.toBe('Страница не найдена');
      await page.goBack();
      await page.getByTestId('period-from').waitFor();
      await expect.poll(() => page.getByTestId('period-from').locator('output').textContent(), RETRY).toBe(`${DAY} 09:00`);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sums the assessor summary to the marked time', async () => {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/summary`);
    await page.getByRole('heading', { name: 'Сводка по разметчикам' }).waitFor();
    await expect.poll(() => page.getByLabel('Бюджет, ₽').inputValue(), RETRY).toBe('100000');
    await page.getByLabel('С: дата (дд-мм-гггг)').fill(DAY);
    await page.getByLabel('С: час').selectOption('0');
    await page.getByLabel('По: дата (дд-мм-гггг)').fill('21-11-2026');
    await page.getByLabel('По: час').selectOption('0');
    await page.getByLabel('Стоимость часа разметки, ₽').fill('1000');
    await page.getByRole('button', { name: 'Рассчитать' }).click();

    // 09:00–09:30 and 09:20–09:45 overlap: the union is 45 minutes.
    const { operation_markups: rows } = await get<{ operation_markups: { start_time: string; end_time: string }[] }>(
      `/api/v1/operation_markups?structure_id=${structureId}&from_time=${encodeURIComponent('2026-11-19T21:00:00Z')}&to_time=${encodeURIComponent('2026-11-20T21:00:00Z')}`,
    );
    const spans = rows.map((r) => [Date.parse(r.start_time), Date.parse(r.end_time)] as const).sort((a, b) => a[0] - b[0]);
    let covered = 0;
    let reach = -Infinity;
    for (const [s, e] of spans) {
      covered += Math.max(0, e - Math.max(s, reach));
      reach = Math.max(reach, e);
    }
    const hours = covered / 3_600_000;
    expect(hours).toBe(0.75);
    const table = page.getByTestId('summary-assessors');
    await table.waitFor();
    await expect.poll(() => table.locator('tbody tr').first().locator('td').allTextContents(), RETRY).toEqual(['Ирина Директорова', '0,75', '750,00']);
    await expect.poll(() => page.getByTestId('summary-total-hours').textContent(), RETRY).toBe('0,75');
    await expect
      .poll(() => page.getByTestId('summary-details').locator('tbody tr').first().locator('td').allTextContents(), RETRY)
      .toEqual(['Ирина Директорова', DAY, 'Стол 1 (Участок сборки)', '0,75', '750,00']);

    // Without an hour cost the budget is split by share of hours: one assessor gets it all.
    await page.getByLabel('Стоимость часа разметки, ₽').fill('');
    await page.getByRole('button', { name: 'Рассчитать' }).click();
    await page
      .getByTestId('summary-total-salary')
      .getByText(/100\s000,00/)
      .waitFor();
    await expect.poll(() => table.locator('tbody td').nth(2).textContent(), RETRY).toMatch(/100\s000,00/);
    await page.getByLabel('Бюджет, ₽').fill('-5');
    await page.getByRole('button', { name: 'Рассчитать' }).click();
    await page.getByText('Бюджет: целое неотрицательное число рублей, без копеек').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
