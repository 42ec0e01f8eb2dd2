import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, markupPlace } from '../../test-support/video-fixtures';
import { STALE_VERSION_MESSAGE } from './video-markups.service';

let t: TestApp;
let cookie: string;
let viewerCookie: string;
let foreignCookie: string;
let ids: { structure: number; main: number; idle: number; workplace: number; employee: number; video: number; foreignOperation: number };
const VIDEO_START = Date.parse('2026-11-16T06:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps;
  const lead = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Мария', lastName: 'Иванова' });
  await registerUser(
    t.deps,
    { login: 'viewer', password: 'secret-pass', firstName: 'В', lastName: 'В' },
    { organizationId: lead.organizationId, role: 'viewer' },
  );
  await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });
  const now = Date.now();
  const place = await markupPlace(db, lead.organizationId, now);
  const { structureId: structure, operationId: main, workplaceId: workplace, employeeId: employee } = place;
  const other = (
    await db
      .insertInto('structures')
      .values({ organization_id: lead.organizationId, name: 'Другой', parent_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const op = (structure_id: number, name: string, type: 'main' | 'idle') =>
    db
      .insertInto('operations')
      .values({ structure_id, name, type })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  const idle = await op(structure, 'Простой', 'idle');
  const foreignOperation = await op(other, 'Чужая', 'main');
  const video = await insertVideo(db, place.cameraId, { filename: 'cam1.mp4', key: 'rec/1/cam1.mp4', start: VIDEO_START, duration: 100, createdAt: now });
  ids = { structure, main, idle, workplace, employee, video, foreignOperation };
  cookie = await t.signIn('lead', 'secret-pass');
  viewerCookie = await t.signIn('viewer', 'secret-pass');
  foreignCookie = await t.signIn('rival', 'secret-pass');
});
afterAll(async () => t.cleanup());

beforeEach(async () => {
  await t.deps.db.deleteFrom('markups').execute();
  await t.deps.db.deleteFrom('video_stamps').execute();
});

const url = () => `/api/v1/video_markups/${ids.video}`;
const currentVersion = async () => ((await (await t.request(url(), { cookie })).json()) as { version: number }).version;
/** Sends a save; one without base_version is based on the current version (a save must name one). */
const send = async (method: 'PUT' | 'POST', body: object, c = cookie) => {
  const based = 'base_version' in body ? body : { ...body, base_version: await currentVersion() };
  return t.request(url(), { method, cookie: c, body: JSON.stringify(based) });
};
const row = (start: number, end: number, extra: Record<string, unknown> = {}) => ({
  id: -1,
  operation_id: ids.main,
  workplace_id: ids.workplace,
  employee_id: ids.employee,
  start_time: start,
  end_time: end,
  comment: null,
  ...extra,
});
const markupCount = async () => Number((await t.deps.db.selectFrom('markups').select(t.deps.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('video markups', () => {
  it('saves new rows, stores absolute instants, and returns the refreshed list in seconds', async () => {
    const response = await send('PUT', {
      video_markups: [row(12.5, 20), row(0, 10)],
      operation_markups_to_delete: [],
      video_stamps: [{ type: 'note', time: 4, comment: 'смотри' }],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.video_markups.map((m: { start_time: number }) => m.start_time)).toEqual([0, 12.5]);
    expect(body.video_markups[0]).toMatchObject({ end_time: 10, author_name: 'Мария Иванова', source: 'manual', employee_id: ids.employee });
    expect(body.video_stamps).toEqual([expect.objectContaining({ type: 'note', time: 4, comment: 'смотри' })]);
    expect(body.version).toBe(1);
    const stored = await t.deps.db.selectFrom('markups').select(['start_time', 'structure_id']).orderBy('start_time', 'desc').executeTakeFirstOrThrow();
    expect(stored).toEqual({ start_time: VIDEO_START + 12_500, structure_id: ids.structure });
    const activity = await t.deps.db
      .selectFrom('activities')
      .select('comment')
      .where('video_id', '=', ids.video)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(activity.comment).toBe('Разметка сохранена');
  });

  it('updates and deletes only the rows named, leaving others untouched', async () => {
    const first = await (await send('PUT', { video_markups: [row(0, 10), row(10, 20), row(20, 30)] })).json();
    const [a, b, c] = first.video_markups;
    const second = await (
      await send('PUT', { video_markups: [{ ...b, end_time: 25, comment: 'дольше' }], operation_markups_to_delete: [c.id], base_version: first.version })
    ).json();
    expect(second.video_markups.map((m: { id: number; end_time: number }) => [m.id, m.end_time])).toEqual([
      [a.id, 10],
      [b.id, 25],
    ]);
    expect(second.video_markups[1].comment).toBe('дольше');
  });

  it('makes a model’s segment the reviewer’s once they correct it, and leaves the model’s others alone', async () => {
    const first = await (await send('PUT', { video_markups: [row(0, 10), row(10, 20)] })).json();
    await t.deps.db.updateTable('markups').set({ source: 'model', author_id: null }).execute();
    const [a, b] = first.video_markups;
    const reply = await (await send('PUT', { video_markups: [{ ...a, end_time: 9 }] })).json();
    expect(reply.video_markups.map((m: { id: number; source: string; author_name: string | null }) => [m.id, m.source, m.author_name])).toEqual([
      [a.id, 'manual', 'Мария Иванова'],
      [b.id, 'model', null],
    ]);
  });

  it('refuses a save based on an older version with 409 and changes nothing', async () => {
    const first = await (await send('PUT', { video_markups: [row(0, 10)] })).json();
    await send('PUT', { video_markups: [row(10, 20)], base_version: first.version });
    const stale = await send('PUT', { video_markups: [row(30, 40)], base_version: first.version });
    expect(stale.status).toBe(409);
    const body = await stale.json();
    expect(body.error.message).toBe(STALE_VERSION_MESSAGE);
    expect(body.error.details.current_version).toBe(first.version + 1);
    expect(await markupCount()).toBe(2);
  });

  it('applies a repeated client_save_id once (offline outbox replay)', async () => {
    const save = { video_markups: [row(0, 10)], base_version: await currentVersion(), client_save_id: 'outbox-0001-abcd' };
    const once = await (await send('PUT', save)).json();
    const twice = await (await send('PUT', save)).json();
    expect(twice.video_markups).toHaveLength(1);
    expect(twice.version).toBe(once.version);
    expect(await markupCount()).toBe(1);
  });

  it('saves on one version sent at once: one is applied, the others get 409 (PostgreSQL too: save-lock.service.ts)', async () => {
    const base = await currentVersion();
    const replies = await Promise.all([0, 20, 40, 60].map((start) => send('PUT', { video_markups: [row(start, start + 5)], base_version: base })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await markupCount()).toBe(1);
    expect(await currentVersion()).toBe(base + 1);
  });

  it('refuses invalid rows with 400, names the row, and saves none of the batch', async () => {
    const cases: [object, RegExp][] = [
      [{ video_markups: [row(0, 10), row(15, 15)] }, /раньше конца \(строка 2\)/],
      [{ video_markups: [row(5, 3)] }, /раньше конца \(строка 1\)/],
      [{ video_markups: [row(120, 130)] }, /после конца видео/],
      [{ video_markups: [row(0, 10, { operation_id: ids.foreignOperation })] }, /Операция не из этой структурной единицы/],
      [{ video_markups: [row(0, 10, { workplace_id: 999 })] }, /Рабочее место/],
      [{ video_stamps: [{ type: 'bogus', time: 1 }] }, /Неизвестный тип отметки/],
      [{ operation_markups_to_delete: [424242] }, /не относятся к этому видео/],
      [{ video_markups: [{ start_time: 'ноль' }] }, /video_markups/],
    ];
    for (const [body, message] of cases) {
      const response = await send('PUT', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).error.message).toMatch(message);
    }
    expect(await markupCount()).toBe(0);
  });

  it('accepts an operation that runs on past the end of the file', async () => {
    const response = await send('PUT', { video_markups: [row(90, 130)] });
    expect(response.status).toBe(200);
    expect((await response.json()).video_markups[0].end_time).toBe(130);
  });

  it('fills every gap with the idle operation of the neighbour’s workplace and employee', async () => {
    const response = await send('POST', { video_markups: [row(10, 20), row(30, 95)] });
    expect(response.status).toBe(200);
    const rows = (await response.json()).video_markups as { start_time: number; end_time: number; operation_id: number; source: string; employee_id: number }[];
    expect(rows.map((r) => [r.start_time, r.end_time])).toEqual([
      [0, 10],
      [10, 20],
      [20, 30],
      [30, 95],
      [95, 100],
    ]);
    const filled = rows.filter((r) => r.source === 'fill_gaps');
    expect(filled).toHaveLength(3);
    for (const r of filled) expect(r).toMatchObject({ operation_id: ids.idle, employee_id: ids.employee });
  });

  it('downloads the markup as TSV with local times', async () => {
    await send('PUT', { video_markups: [row(0, 10.25, { comment: 'с\tтабуляцией' })] });
    const response = await t.request(`${url()}?format=tsv`, { cookie });
    expect(response.headers.get('content-type')).toContain('text/tab-separated-values');
    const lines = (await response.text()).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.split('\t')).toEqual([
      '1',
      'Сборка',
      'Основная (оперативная) работа',
      'Стол 1',
      'Алексеев',
      '0.000',
      '10.250',
      '2026-11-16 09:00:00',
      '2026-11-16 09:00:10',
      '10.250',
      'с табуляцией',
    ]);
  });

  it('writes a text a spreadsheet would run as a formula as plain text in the TSV', async () => {
    await send('PUT', { video_markups: [row(0, 5, { comment: '=HYPERLINK("http://evil.example","Открыть")' }), row(5, 6, { comment: '-1+2' })] });
    const lines = (await (await t.request(`${url()}?format=tsv`, { cookie })).text()).trim().split('\n');
    expect(lines[1]!.split('\t').at(-1)).toBe(`'=HYPERLINK("http://evil.example","Открыть")`);
    expect(lines[2]!.split('\t').at(-1)).toBe(`'-1+2`);
    // Numbers stay numbers.
    expect(lines[2]!.split('\t')[5]).toBe('5.000');
  });

  it('lets a viewer read but not write, and hides other organisations’ videos', async () => {
    expect((await t.request(url(), { cookie: viewerCookie })).status).toBe(200);
    expect((await send('PUT', { video_markups: [row(0, 1)] }, viewerCookie)).status).toBe(403);
    expect((await t.request(url(), { cookie: foreignCookie })).status).toBe(404);
    expect((await send('PUT', { video_markups: [row(0, 1)] }, foreignCookie)).status).toBe(404);
    expect(await markupCount()).toBe(0);
  });
});

describe('a save answering with its changes (?reply=changes)', () => {
  const sendChanges = async (method: 'PUT' | 'POST', body: object, query = 'reply=changes') => {
    const based = 'base_version' in body ? body : { ...body, base_version: await currentVersion() };
    return t.request(`${url()}?${query}`, { method, cookie, body: JSON.stringify(based) });
  };
  type Row = { id: number; start_time: number; end_time: number; source: string };
  const spans = (rows: Row[]) => rows.map((m) => [m.start_time, m.end_time, m.source]);
  /** An unreviewed model segment of the workplace on the video, written as the applying job writes it. */
  const modelRow = async (start: number, end: number) => {
    const now = Date.now();
    return (
      await t.deps.db
        .insertInto('markups')
        .values({
          structure_id: ids.structure,
          operation_id: ids.main,
          workplace_id: ids.workplace,
          employee_id: ids.employee,
          start_time: VIDEO_START + start * 1000,
          end_time: VIDEO_START + end * 1000,
          comment: 'Модель',
          video_id: ids.video,
          author_id: null,
          source: 'model',
          confidence: 0.9,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };

  it('answers the new row and the model row it clipped, and nothing unrelated', async () => {
    const first = await (await send('PUT', { video_markups: [row(0, 10), row(60, 70)] })).json();
    const model = await modelRow(20, 50);
    const response = await sendChanges('PUT', { video_markups: [row(30, 40)], base_version: first.version });
    expect(response.status).toBe(200);
    const body = await response.json();
    // The new row, and the two pieces of the model segment left around it; the rows at 0 and 60 did not change.
    expect(spans(body.video_markups)).toEqual([
      [20, 30, 'model'],
      [30, 40, 'manual'],
      [40, 50, 'model'],
    ]);
    expect(body.deleted_markup_ids).toEqual([model]);
    expect(body.video_stamps).toEqual([]);
    expect(body).toMatchObject({ base_version: first.version, version: first.version + 1, complete: false, deleted_stamp_ids: [] });
    // What the changes describe is what the whole markup now is.
    const whole = await (await t.request(url(), { cookie })).json();
    expect(spans(whole.video_markups)).toEqual([
      [0, 10, 'manual'],
      [20, 30, 'model'],
      [30, 40, 'manual'],
      [40, 50, 'model'],
      [60, 70, 'manual'],
    ]);
    expect(whole.version).toBe(body.version);
    const unchanged = first.video_markups.map((m: Row) => m.id);
    expect(body.video_markups.filter((m: Row) => unchanged.includes(m.id))).toEqual([]);
  });

  it('answers an edited row, a new stamp and the ids deleted, and the full reply stays the default', async () => {
    const first = await (await send('PUT', { video_markups: [row(0, 10), row(10, 20), row(20, 30)] })).json();
    const [a, b, c] = first.video_markups;
    const body = await (
      await sendChanges('PUT', {
        video_markups: [{ ...b, end_time: 15 }],
        operation_markups_to_delete: [c.id],
        video_stamps: [{ type: 'note', time: 3, comment: 'вот' }],
        base_version: first.version,
      })
    ).json();
    expect(body.video_markups.map((m: Row) => [m.id, m.end_time])).toEqual([[b.id, 15]]);
    expect(body.deleted_markup_ids).toEqual([c.id]);
    expect(body.video_stamps).toEqual([expect.objectContaining({ type: 'note', time: 3, comment: 'вот', author_name: 'Мария Иванова' })]);
    const removed = await (await sendChanges('PUT', { video_stamps_to_delete: [body.video_stamps[0].id], base_version: body.version })).json();
    expect(removed).toMatchObject({ video_markups: [], video_stamps: [], deleted_stamp_ids: [body.video_stamps[0].id], version: body.version + 1 });
    const full = await (await send('PUT', { video_markups: [{ ...a, comment: 'полный' }] })).json();
    expect(full.video_markups).toHaveLength(2);
    expect(full).not.toHaveProperty('deleted_markup_ids');
  });

  it('answers a replayed save with the whole markup, marked complete, and an empty save with no change', async () => {
    await send('PUT', { video_markups: [row(0, 10)] });
    const save = { video_markups: [row(10, 20)], base_version: await currentVersion(), client_save_id: 'outbox-0002-abcd' };
    const once = await (await sendChanges('PUT', save)).json();
    expect(once.video_markups).toHaveLength(1);
    const twice = await (await sendChanges('PUT', save)).json();
    expect(twice).toMatchObject({ complete: true, version: once.version, deleted_markup_ids: [] });
    expect(spans(twice.video_markups)).toEqual([
      [0, 10, 'manual'],
      [10, 20, 'manual'],
    ]);
    const empty = await (await sendChanges('PUT', { base_version: once.version })).json();
    expect(empty).toMatchObject({ video_markups: [], deleted_markup_ids: [], base_version: once.version, version: once.version, complete: false });
  });

  it('answers the idle rows that filling gaps wrote', async () => {
    const first = await (await send('PUT', { video_markups: [row(0, 40), row(60, 100)] })).json();
    const body = await (await sendChanges('POST', { video_markups: [], base_version: first.version })).json();
    expect(body.video_markups.map((m: Row & { operation_id: number }) => [m.start_time, m.end_time, m.source, m.operation_id])).toEqual([
      [40, 60, 'fill_gaps', ids.idle],
    ]);
    expect(body.version).toBe(first.version + 1);
  });

  it('refuses an unknown reply kind with 400 and writes nothing', async () => {
    const response = await sendChanges('PUT', { video_markups: [row(0, 10)] }, 'reply=diff');
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/reply/);
    expect(await markupCount()).toBe(0);
  });
});

describe('lookups by video', () => {
  it('lists operations with type colours, stamp types, workplaces and employees by video_id', async () => {
    const ops = await (await t.request(`/api/v1/available_operations?video_id=${ids.video}`, { cookie })).json();
    expect(ops.operations.map((o: { name: string }) => o.name)).toEqual(['Простой', 'Сборка']);
    expect(ops.operations[1].color).toBe(ops.operation_types.main.color);
    expect(ops.video_stamp_types.map((s: { type: string }) => s.type).sort()).toEqual(['note', 'product']);
    expect(await (await t.request(`/api/v1/workplaces?video_id=${ids.video}`, { cookie })).json()).toEqual([{ id: ids.workplace, name: 'Стол 1' }]);
    expect(await (await t.request(`/api/v1/employees?video_id=${ids.video}`, { cookie })).json()).toEqual([{ id: ids.employee, name: 'Алексеев' }]);
    expect((await t.request(`/api/v1/available_operations?structure_id=${ids.structure}`, { cookie })).status).toBe(200);
    expect((await t.request('/api/v1/available_operations', { cookie })).status).toBe(400);
  });
});
