import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, type TestApp } from '../../test-support/testing';

let t: TestApp;
let f: WorkspaceFixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await workspaceFixture(t);
});
afterAll(async () => t.cleanup());

const memberships = () => t.deps.db.selectFrom('memberships').selectAll().orderBy('user_id').execute();
const structures = () => t.deps.db.selectFrom('structures').selectAll().orderBy('id').execute();
const table = (name: 'employees' | 'workplaces' | 'cameras') => t.deps.db.selectFrom(name).selectAll().orderBy('id').execute();
const json = async (response: Response) => ({ status: response.status, body: await response.json() });

describe('users and roles', () => {
  it('lists the organisation’s users with roles and role labels', async () => {
    const { status, body } = await json(await f.call('GET', '/api/v1/admin/users', 'admin'));
    expect(status).toBe(200);
    expect(body.users.map((u: { login: string; role: string }) => [u.login, u.role]).sort()).toEqual([
      ['analyst', 'analyst'],
      ['boss', 'admin'],
      ['marker', 'assessor'],
      ['watcher', 'viewer'],
    ]);
    expect(body.users.find((u: { login: string }) => u.login === 'boss').is_self).toBe(true);
    expect(body.roles).toEqual({ admin: 'Администратор', analyst: 'Аналитик', assessor: 'Разметчик', viewer: 'Наблюдатель' });
  });

  it('creates a user who can sign in with the given role', async () => {
    const { status, body } = await json(
      await f.call('POST', '/api/v1/admin/users', 'admin', {
        login: 'Новичок',
        first_name: 'Пётр',
        last_name: 'Новиков',
        password: 'long-password',
        role: 'assessor',
      }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ login: 'новичок', first_name: 'Пётр', last_name: 'Новиков', role: 'assessor' });
    const cookie = await t.signIn('новичок', 'long-password');
    const me = await (await t.request('/api/v1/whoami', { cookie })).json();
    expect(me).toMatchObject({ role: 'assessor', organization: { id: f.org } });
  });

  it('refuses bad users with 400/409 and creates nothing', async () => {
    const before = await memberships();
    const ok = { login: 'someone', first_name: 'И', last_name: 'Ф', password: 'long-password', role: 'viewer' };
    const cases: [unknown, number, RegExp][] = [
      [{ ...ok, login: '' }, 400, /Заполните все поля/],
      [{ ...ok, password: 'short' }, 400, /не короче 8/],
      [{ ...ok, role: 'boss' }, 400, /role/],
      [{ ...ok, login: 'with space' }, 400, /Логин/],
      [{ ...ok, first_name: 5 }, 400, /first_name/],
      [{ login: 'x', password: 'long-password', role: 'viewer' }, 400, /first_name/],
      [{ ...ok, login: 'analyst' }, 409, /уже существует/],
    ];
    for (const [body, status, message] of cases) {
      const response = await json(await f.call('POST', '/api/v1/admin/users', 'admin', body));
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await memberships()).toEqual(before);
  });

  it('changes a role; refuses to demote or remove the last admin', async () => {
    const analystId = f.users.analyst!;
    const changed = await json(await f.call('PUT', `/api/v1/admin/users/${analystId}`, 'admin', { role: 'viewer' }));
    expect(changed).toMatchObject({ status: 200, body: { role: 'viewer' } });
    await f.call('PUT', `/api/v1/admin/users/${analystId}`, 'admin', { role: 'analyst' });

    const before = await memberships();
    const demote = await json(await f.call('PUT', `/api/v1/admin/users/${f.users.admin}`, 'admin', { role: 'analyst' }));
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toMatch(/хотя бы один администратор/);
    expect((await f.call('PUT', `/api/v1/admin/users/${f.users.admin}`, 'admin', { role: 'главный' })).status).toBe(400);
    expect((await f.call('DELETE', `/api/v1/admin/users/${f.users.admin}`, 'admin')).status).toBe(400);
    expect(await memberships()).toEqual(before);

    // With a second admin, the first may step down; the second then is the last one.
    await f.call('PUT', `/api/v1/admin/users/${analystId}`, 'admin', { role: 'admin' });
    expect((await f.call('PUT', `/api/v1/admin/users/${f.users.admin}`, 'admin', { role: 'analyst' })).status).toBe(200);
    const analystCookie = await t.signIn('analyst', 'secret-pass');
    const last = await t.request(`/api/v1/admin/users/${analystId}`, { method: 'PUT', cookie: analystCookie, body: JSON.stringify({ role: 'viewer' }) });
    expect(last.status).toBe(409);
    // Restore: analyst makes boss admin again, boss demotes analyst.
    await t.request(`/api/v1/admin/users/${f.users.admin}`, { method: 'PUT', cookie: analystCookie, body: JSON.stringify({ role: 'admin' }) });
    expect((await f.call('PUT', `/api/v1/admin/users/${analystId}`, 'admin', { role: 'analyst' })).status).toBe(200);
  });

  it('removes a user from the organisation: no sign-in, login free again, names kept', async () => {
    const { body } = await json(
      await f.call('POST', '/api/v1/admin/users', 'admin', {
        login: 'temp',
        first_name: 'Вре',
        last_name: 'Менный',
        password: 'long-password',
        role: 'viewer',
      }),
    );
    const cookie = await t.signIn('temp', 'long-password');
    const removed = await json(await f.call('DELETE', `/api/v1/admin/users/${body.id}`, 'admin'));
    expect(removed).toEqual({ status: 200, body: { message: 'Пользователь удалён из организации' } });
    expect((await t.request('/api/v1/admin/users', { cookie })).status).toBe(401);
    await expect(t.signIn('temp', 'long-password')).rejects.toThrow();
    const user = await t.deps.db.selectFrom('user').select(['firstName', 'username']).where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(user).toEqual({ firstName: 'Вре', username: null });
    expect(
      (await f.call('POST', '/api/v1/admin/users', 'admin', { login: 'temp', first_name: 'Н', last_name: 'Н', password: 'long-password', role: 'viewer' }))
        .status,
    ).toBe(200);
  });

  it('is for admins only and never touches another organisation', async () => {
    const before = await memberships();
    for (const who of ['analyst', 'assessor', 'viewer'] as const) {
      expect((await f.call('GET', '/api/v1/admin/users', who)).status).toBe(403);
      expect(
        (await f.call('POST', '/api/v1/admin/users', who, { login: 'x1', first_name: 'x', last_name: 'x', password: 'long-password', role: 'admin' })).status,
      ).toBe(403);
      expect((await f.call('PUT', `/api/v1/admin/users/${f.users.viewer}`, who, { role: 'admin' })).status).toBe(403);
    }
    expect((await f.call('GET', '/api/v1/admin/users', null)).status).toBe(401);
    expect((await f.call('PUT', `/api/v1/admin/users/${f.users.viewer}`, 'rival', { role: 'admin' })).status).toBe(404);
    expect((await f.call('DELETE', `/api/v1/admin/users/${f.users.viewer}`, 'rival')).status).toBe(404);
    const rivalList = await (await f.call('GET', '/api/v1/admin/users', 'rival')).json();
    expect(rivalList.users.map((u: { login: string }) => u.login)).toEqual(['rival']);
    expect(await memberships()).toEqual(before);
  });
});

describe('structures', () => {
  it('creates, renames and moves structures, with counts of what they hold', async () => {
    const created = await json(await f.call('POST', '/api/v1/admin/structures', 'admin', { name: ' Склад ', parent_id: f.rootId }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Склад', parent_id: f.rootId, children: 0, employees: 0, cameras: 0, markups: 0 });
    const root = await json(await f.call('POST', '/api/v1/admin/structures', 'admin', { name: 'Второй завод' }));
    expect(root.body.parent_id).toBeNull();
    const moved = await json(
      await f.call('PUT', `/api/v1/admin/structures/${created.body.id}`, 'admin', { name: 'Склад готовой продукции', parent_id: root.body.id }),
    );
    expect(moved.body).toMatchObject({ name: 'Склад готовой продукции', parent_id: root.body.id });
    const toRoot = await json(await f.call('PUT', `/api/v1/admin/structures/${created.body.id}`, 'admin', { parent_id: null }));
    expect(toRoot.body.parent_id).toBeNull();
    const list = await (await f.call('GET', '/api/v1/admin/structures', 'admin')).json();
    expect(list.find((s: { id: number }) => s.id === f.structureId)).toMatchObject({ employees: 1, workplaces: 1 });
    expect(list.find((s: { id: number }) => s.id === f.rootId)).toMatchObject({ children: 1 });
    // The tree of the projects page sees them.
    const tree = await (await f.call('GET', '/api/v2/get_all_structures', 'viewer')).json();
    expect(tree.map((s: { name: string }) => s.name)).toContain('Склад готовой продукции');
  });

  it('refuses cycles, foreign parents and bad names; changes nothing', async () => {
    const before = await structures();
    const cases: [string, string, unknown, number, RegExp][] = [
      ['PUT', `/api/v1/admin/structures/${f.rootId}`, { parent_id: f.structureId }, 400, /внутрь неё самой/],
      ['PUT', `/api/v1/admin/structures/${f.rootId}`, { parent_id: f.rootId }, 400, /самой себя/],
      ['PUT', `/api/v1/admin/structures/${f.structureId}`, { parent_id: f.foreignId }, 404, /Родительская/],
      ['PUT', `/api/v1/admin/structures/${f.structureId}`, { name: '   ' }, 400, /name/],
      ['PUT', `/api/v1/admin/structures/${f.foreignId}`, { name: 'Моё' }, 404, /не найдена/],
      ['POST', '/api/v1/admin/structures', { name: 'Внутри чужого', parent_id: f.foreignId }, 404, /Родительская/],
      ['POST', '/api/v1/admin/structures', { parent_id: null }, 400, /name/],
      ['POST', '/api/v1/admin/structures', { name: 'Цех', parent_id: 'корень' }, 400, /parent_id/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const response = await json(await f.call(method, path, 'admin', body));
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(response.body.error.message).toMatch(message);
    }
    for (const who of ['analyst', 'viewer'] as const) {
      expect((await f.call('POST', '/api/v1/admin/structures', who, { name: 'X' })).status).toBe(403);
      expect((await f.call('DELETE', `/api/v1/admin/structures/${f.structureId}`, who)).status).toBe(403);
    }
    expect(await structures()).toEqual(before);
  });

  it('deletes only an empty structure, saying what is left', async () => {
    const before = await structures();
    const refused = await json(await f.call('DELETE', `/api/v1/admin/structures/${f.structureId}`, 'admin'));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('Удалить можно только пустую структурную единицу, а в «Цех» есть: 1 сотрудник, 1 рабочее место.');
    const parent = await json(await f.call('DELETE', `/api/v1/admin/structures/${f.rootId}`, 'admin'));
    expect(parent.body.error.message).toMatch(/1 дочерняя единица/);
    expect((await f.call('DELETE', `/api/v1/admin/structures/${f.foreignId}`, 'admin')).status).toBe(404);
    expect(await structures()).toEqual(before);

    const empty = await (await f.call('POST', '/api/v1/admin/structures', 'admin', { name: 'Пустой', parent_id: f.rootId })).json();
    await f.call('PUT', `/api/v1/structure/${empty.id}`, 'admin', { shifts: [{ name: 'Дневная', start_time: '08:00', end_time: '17:00' }] });
    await f.call('POST', '/api/v1/operations', 'admin', { structure_id: empty.id, changed_operations: [{ name: 'Работа', type: 'main' }] });
    expect(await json(await f.call('DELETE', `/api/v1/admin/structures/${empty.id}`, 'admin'))).toEqual({
      status: 200,
      body: { message: 'Структурная единица удалена' },
    });
    expect(await structures()).toEqual(before);
  });
});

describe('employees and workplaces', () => {
  it('adds, renames and deletes; the workspace lists see them', async () => {
    for (const kind of ['employees', 'workplaces'] as const) {
      const created = await json(await f.call('POST', `/api/v1/admin/${kind}`, 'admin', { structure_id: f.structureId, name: 'Новый' }));
      expect(created.status).toBe(200);
      const renamed = await json(await f.call('PUT', `/api/v1/admin/${kind}/${created.body.id}`, 'admin', { name: 'Переименованный' }));
      expect(renamed.body).toEqual({ id: created.body.id, name: 'Переименованный' });
      const list = await (await f.call('GET', `/api/v1/${kind}?structure_id=${f.structureId}`, 'viewer')).json();
      expect(list.map((x: { name: string }) => x.name)).toContain('Переименованный');
      expect((await f.call('DELETE', `/api/v1/admin/${kind}/${created.body.id}`, 'admin')).status).toBe(200);
    }
  });

  it('refuses to delete one that markups name (409), and bad input; changes nothing', async () => {
    await t.deps.db
      .insertInto('markups')
      .values({
        structure_id: f.structureId,
        operation_id: f.operationId,
        workplace_id: f.workplaceId,
        employee_id: f.employeeId,
        start_time: f.now - 1000,
        end_time: f.now,
        comment: null,
        created_at: f.now,
        updated_at: f.now,
      })
      .execute();
    const before = { employees: await table('employees'), workplaces: await table('workplaces') };
    const employee = await json(await f.call('DELETE', `/api/v1/admin/employees/${f.employeeId}`, 'admin'));
    expect(employee.status).toBe(409);
    expect(employee.body.error.message).toMatch(/есть в разметке \(1 отрезок\)/);
    expect((await f.call('DELETE', `/api/v1/admin/workplaces/${f.workplaceId}`, 'admin')).status).toBe(409);
    const cases: [string, string, unknown, number][] = [
      ['POST', '/api/v1/admin/employees', { name: 'Без структуры' }, 400],
      ['POST', '/api/v1/admin/employees', { structure_id: f.structureId, name: '' }, 400],
      ['POST', '/api/v1/admin/workplaces', { structure_id: f.structureId, name: 12 }, 400],
      ['POST', '/api/v1/admin/workplaces', { structure_id: f.foreignId, name: 'Захват' }, 404],
      ['PUT', `/api/v1/admin/employees/${f.employeeId}`, { name: '' }, 400],
      ['PUT', '/api/v1/admin/employees/999999', { name: 'Никто' }, 404],
      ['PUT', '/api/v1/admin/employees/abc', { name: 'Никто' }, 400],
      ['DELETE', `/api/v1/admin/workplaces/${f.foreignWorkplaceId}`, undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      expect((await f.call(method, path, 'admin', body)).status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
    }
    expect((await f.call('POST', '/api/v1/admin/employees', 'analyst', { structure_id: f.structureId, name: 'X' })).status).toBe(403);
    expect((await f.call('DELETE', `/api/v1/admin/workplaces/${f.foreignWorkplaceId}`, 'rival')).status).toBe(200);
    expect({ employees: await table('employees'), workplaces: (await table('workplaces')).filter((w) => w.id !== f.foreignWorkplaceId) }).toEqual({
      employees: before.employees,
      workplaces: before.workplaces.filter((w) => w.id !== f.foreignWorkplaceId),
    });
  });
});

describe('cameras', () => {
  it('adds, lists, changes and deletes cameras', async () => {
    const created = await json(
      await f.call('POST', '/api/v1/admin/cameras', 'admin', {
        structure_id: f.structureId,
        camera_key: 1,
        name: 'Камера у входа',
        storage_folder: '/recordings/цех/cam1/',
      }),
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ camera_key: 1, storage_folder: 'recordings/цех/cam1', videos: 0 });
    const changed = await json(await f.call('PUT', `/api/v1/admin/cameras/${created.body.id}`, 'admin', { camera_key: 3, name: 'Камера 3' }));
    expect(changed.body).toMatchObject({ camera_key: 3, name: 'Камера 3', storage_folder: 'recordings/цех/cam1' });
    const list = await (await f.call('GET', `/api/v1/admin/cameras?structure_id=${f.structureId}`, 'admin')).json();
    expect(list.map((c: { camera_key: number }) => c.camera_key)).toEqual([3]);
    expect((await f.call('DELETE', `/api/v1/admin/cameras/${created.body.id}`, 'admin')).status).toBe(200);
  });

  it('keeps keys 1–4 unique per structure and folders unique; refuses cameras with videos; changes nothing', async () => {
    const cam = await (
      await f.call('POST', '/api/v1/admin/cameras', 'admin', { structure_id: f.structureId, camera_key: 2, name: 'Камера 2', storage_folder: 'rec/c2' })
    ).json();
    await t.deps.db
      .insertInto('videos')
      .values({ camera_id: cam.id, filename: 'a.mp4', storage_key: 'rec/c2/a.mp4', start_time: f.now, duration: 10, created_at: f.now })
      .execute();
    const before = await table('cameras');
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/api/v1/admin/cameras', { structure_id: f.structureId, camera_key: 2, name: 'Дубль', storage_folder: 'rec/other' }, 409, /№ 2/],
      ['POST', '/api/v1/admin/cameras', { structure_id: f.structureId, camera_key: 5, name: 'Пятая', storage_folder: 'rec/c5' }, 400, /camera_key/],
      ['POST', '/api/v1/admin/cameras', { structure_id: f.structureId, camera_key: '1', name: 'Строкой', storage_folder: 'rec/c1' }, 400, /camera_key/],
      ['POST', '/api/v1/admin/cameras', { structure_id: f.structureId, camera_key: 1, name: 'Та же папка', storage_folder: 'rec/c2' }, 409, /папка/],
      ['POST', '/api/v1/admin/cameras', { structure_id: f.structureId, camera_key: 1, name: 'Внутри', storage_folder: 'rec/c2/sub' }, 409, /папка/],
      ['POST', '/api/v1/admin/cameras', { structure_id: f.structureId, camera_key: 1, name: 'Снаружи', storage_folder: '../etc' }, 400, /storage_folder/],
      ['POST', '/api/v1/admin/cameras', { structure_id: f.structureId, camera_key: 1, name: 'Без папки' }, 400, /storage_folder/],
      ['POST', '/api/v1/admin/cameras', { structure_id: f.foreignId, camera_key: 1, name: 'Чужая', storage_folder: 'rec/x' }, 404, /не найдена/],
      ['DELETE', `/api/v1/admin/cameras/${cam.id}`, undefined, 409, /1 видео/],
      ['PUT', '/api/v1/admin/cameras/999999', { name: 'Нет' }, 404, /не найдена/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const response = await json(await f.call(method, path, 'admin', body));
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(response.body.error.message).toMatch(message);
    }
    expect((await f.call('PUT', `/api/v1/admin/cameras/${cam.id}`, 'rival', { name: 'Моя' })).status).toBe(404);
    expect((await f.call('GET', `/api/v1/admin/cameras?structure_id=${f.structureId}`, 'analyst')).status).toBe(403);
    // Another organisation may not take this folder either.
    const rivalCam = await f.call('POST', '/api/v1/admin/cameras', 'rival', {
      structure_id: f.foreignId,
      camera_key: 1,
      name: 'Чужая',
      storage_folder: 'rec/c2',
    });
    expect(rivalCam.status).toBe(409);
    expect(await table('cameras')).toEqual(before);
  });
});
