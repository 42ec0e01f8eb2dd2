import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleAllows, type Permission, type RoleName } from '../../api/src/auth/permissions';
import { launchBrowser, RETRY, signInThroughPage, watchErrors } from '../support/browser';
import { apiSessionCookie, startServer, type RunningServer } from '../support/server';

/**
 * Issue 28: each demo role sees only the actions the API would let it do. What a role may do is
 * read from the API's own table (api/src/auth/permissions.ts), the one the access check uses, so
 * this test and the server cannot disagree; the screens read it from whoami.
 */
let server: RunningServer;
let browser: Browser;
let structureId: number;
let videoId: number;

const roles: RoleName[] = ['admin', 'analyst', 'assessor', 'viewer'];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ NORMA_DEMO: '1', NORMA_DEMO_VIDEO_SECONDS: '4' }), launchBrowser()]);
  const cookie = await apiSessionCookie(server.url, 'analyst');
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const structures = await get<{ id: number; name: string }[]>('/api/v2/get_all_structures');
  structureId = structures.find((s) => s.name === 'Участок сборки редукторов')!.id;
  const tasks = await get<{ elements: { video: { id: number } }[] }>(`/api/v1/get_tasks?structure_id=${structureId}&option=all&offset=0&limit=30`);
  videoId = tasks.elements[0]!.video.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const shown = (page: Page, role: 'button' | 'link', name: string) => page.getByRole(role, { name, exact: true }).count();

describe.each(roles)('the demo %s', (role) => {
  const may = (permission: Permission) => roleAllows(role, permission);
  const times = (permission: Permission, count = 1) => (may(permission) ? count : 0);

  it('sees on each key screen only the actions the API allows it', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, role);

    // Projects: sync and upload (markup.write), the summary and settings (workspace.write), administration.
    await page.goto(`${server.url}/#/projects/${structureId}`);
    await expect.poll(() => page.getByTestId('structure-title').textContent(), RETRY).toBe('Участок сборки редукторов');
    await page.getByRole('link', { name: 'Несколько камер' }).waitFor();
    expect(await shown(page, 'button', 'Синхронизировать')).toBe(times('markup.write'));
    expect(await shown(page, 'link', 'Загрузить запись')).toBe(times('markup.write'));
    expect(await shown(page, 'link', 'Сводка по разметчикам')).toBe(times('workspace.write'));
    expect(await shown(page, 'link', 'Администрирование')).toBe(times('organization.admin'));
    await page.getByRole('heading', { name: 'Операции' }).first().waitFor();
    expect(await shown(page, 'button', 'Сохранить параметры')).toBe(times('workspace.write'));
    expect(await shown(page, 'button', 'Сохранить операции')).toBe(times('workspace.write'));

    // Tasks: deleting a task is workspace.write.
    await page.goto(`${server.url}/#/markup/${structureId}`);
    const rows = page.getByTestId('task-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.getByRole('button', { name: 'Удалить' }).count()).toBe(times('workspace.write', await rows.count()));

    // Video markup: saving is markup.write; without it the screen only shows.
    await page.goto(`${server.url}/#/video/${videoId}`);
    await page.getByRole('button', { name: 'Скачать TSV' }).first().waitFor();
    expect(await shown(page, 'button', 'Сохранить')).toBe(times('markup.write', 2));
    expect(await shown(page, 'button', 'Завершить')).toBe(times('markup.write', 2));
    expect(await shown(page, 'button', 'Заполнить пропуски')).toBe(times('markup.write', 2));
    expect(await shown(page, 'button', 'Добавить операцию')).toBe(times('markup.write'));
    expect(await shown(page, 'button', 'Сохранить комментарий')).toBe(times('markup.write'));
    // Applying a model (POST /api/v1/start_marker_applying) is workspace.write.
    expect(await shown(page, 'button', 'Анализ')).toBe(times('workspace.write'));
    expect(await page.getByTestId('markup-read-only').count()).toBe(may('markup.write') ? 0 : 1);
    if (!may('markup.write')) {
      const firstRow = page.getByTestId('op-row').first();
      if ((await firstRow.count()) > 0) {
        expect(await firstRow.getByLabel('Операция').isDisabled()).toBe(true);
        expect(await firstRow.getByRole('button', { name: /^Удалить операцию/ }).count()).toBe(0);
      }
      // A shortcut that edits does nothing either: no unsaved badge after Delete or «+».
      await page.keyboard.press('+');
      await page.keyboard.press('Delete');
      expect(await page.getByTestId('unsaved').count()).toBe(0);
    }

    // Map: changing the project is workspace.write.
    await page.goto(`${server.url}/#/ciblock/map`);
    await page.getByRole('heading', { name: 'Редактор карты' }).waitFor();
    await page.getByRole('button', { name: 'Меню проекта' }).waitFor();
    const toolbar = page.getByRole('toolbar', { name: 'Инструменты карты' });
    expect(await toolbar.getByRole('button', { name: 'Удалить всё', exact: true }).count()).toBe(times('workspace.write'));
    expect(await toolbar.getByRole('button', { name: 'Полигон по кадастровому номеру' }).count()).toBe(times('workspace.write'));
    expect(await page.getByText('Только просмотр').count()).toBe(may('workspace.write') ? 0 : 1);

    // Norms: a new draft is workspace.write; who approves is set by the administrator.
    await page.goto(`${server.url}/#/norms/${structureId}`);
    await page.getByTestId('norm-card').waitFor();
    expect(await page.getByTestId('norm-new').count()).toBe(times('workspace.write'));
    expect(await page.getByTestId('norm-approvers').count()).toBe(times('organization.admin'));

    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('screens reached by clicking', () => {
  it('the projects page leads to the new-project upload and the multi-camera player', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInThroughPage(page, server.url, 'assessor');
    await page.getByRole('link', { name: 'Загрузить запись' }).click();
    await page.waitForURL(/#\/project$/);
    await page.locator('main h1').first().waitFor();
    await page.getByTestId('user-name').click();
    await page.waitForURL(/#\/projects$/);
    await page.getByRole('link', { name: 'Несколько камер' }).click();
    await page.waitForURL(/#\/multi-video$/);
    await page.locator('main h1').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
