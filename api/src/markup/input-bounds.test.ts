import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, testsOnPostgres, type TestApp } from '../../test-support/testing';
import { findOutOfBoundsRows } from './bounds-check.service';
import { SAVE_ID_OTHER_USER_MESSAGE, SAVE_ID_REUSED_MESSAGE } from './video-markups.service';

/** Issue 10 items 1, 2, 6, 7: bounded instants and durations, strict ids and dates, write rights, mandatory versions. */

let t: TestApp;
let f: WorkspaceFixture;
let cameraId: number;
const VIDEO_ID = 16;
const OTHER_VIDEO_ID = 10;
let unknownDurationId: number;
const at = (iso: string) => Date.parse(iso);
const VIDEO_START = at('2026-11-16T12:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  f = await workspaceFixture(t);
  const { db } = t.deps;
  cameraId = (
    await db
      .insertInto('cameras')
      .values({ structure_id: f.structureId, camera_key: 1, name: 'Камера 1', storage_folder: 'rec/1' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const video = (values: { id?: number; filename: string; duration: number | null; status: 'ready' | 'queued'; start: number }) =>
    db
      .insertInto('videos')
      .values({
        ...(values.id ? { id: values.id } : {}),
        camera_id: cameraId,
        filename: values.filename,
        storage_key: `rec/1/${values.filename}`,
        start_time: values.start,
        duration: values.duration,
        status: values.status,
        created_at: f.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  // Ids 16 and 10: what "0x10", " 16" and "1e1" would name if read loosely.
  await video({ id: VIDEO_ID, filename: 'cam1-a.mp4', duration: 100, status: 'ready', start: VIDEO_START });
  await video({ id: OTHER_VIDEO_ID, filename: 'cam1-b.mp4', duration: 100, status: 'ready', start: VIDEO_START - 3_600_000 });
  unknownDurationId = await video({ filename: 'cam1-c.mp4', duration: null, status: 'queued', start: VIDEO_START + 3_600_000 });
});
afterAll(async () => t.cleanup());

const markupsUrl = (id: number | string = VIDEO_ID) => `/api/v1/video_markups/${id}`;
const readMarkups = async (id: number = VIDEO_ID) =>
  (await (await f.call('GET', markupsUrl(id), 'assessor')).json()) as { version: number; video_markups: unknown[] };
const row = (start: number, end: number) => ({
  id: -1,
  operation_id: f.operationId,
  workplace_id: f.workplaceId,
  employee_id: f.employeeId,
  start_time: start,
  end_time: end,
});
const markupCount = async () => Number((await t.deps.db.selectFrom('markups').select(t.deps.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const versionOf = async (id: number) =>
  (await t.deps.db.selectFrom('videos').select('markup_version').where('id', '=', id).executeTakeFirstOrThrow()).markup_version;
const activityCount = async (id: number) =>
  Number((await t.deps.db.selectFrom('activities').select(t.deps.db.fn.countAll().as('n')).where('video_id', '=', id).executeTakeFirstOrThrow()).n);
const insertMarkup = (start: number, end: number) =>
  t.deps.db
    .insertInto('markups')
    .values({
      structure_id: f.structureId,
      operation_id: f.operationId,
      workplace_id: f.workplaceId,
      employee_id: f.employeeId,
      start_time: start,
      end_time: end,
      comment: 'вне границ',
      video_id: VIDEO_ID,
      author_id: null,
      created_at: f.now,
      updated_at: f.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

describe('bounded instants and durations', () => {
  it('refuses end_time 1e12 s, 1e308 s and a segment over 24 h with 400, changing nothing', async () => {
    const markupsBefore = await markupCount();
    for (const [id, end] of [
      [VIDEO_ID, 1e12],
      [VIDEO_ID, 1e308],
      [VIDEO_ID, 90_000],
      [unknownDurationId, 1e12],
      [unknownDurationId, 86_401],
    ] as const) {
      const { version } = await readMarkups(id);
      const response = await f.call('PUT', markupsUrl(id), 'assessor', { video_markups: [row(0, end)], base_version: version });
      expect(response.status, `${id} ${end}`).toBe(400);
      expect((await response.json()).error.message, `${id} ${end}`).toMatch(/end_time|суток/);
      expect(await versionOf(id)).toBe(version);
    }
    // The same through fill gaps (POST), which once wrote an infinite idle segment.
    const { version } = await readMarkups();
    expect((await f.call('POST', markupsUrl(), 'assessor', { video_markups: [row(0, 1e308)], base_version: version })).status).toBe(400);
    expect(await markupCount()).toBe(markupsBefore);
    // An operation may still run on past the end of its file into the camera's next one.
    const runsOn = await f.call('PUT', markupsUrl(), 'assessor', { video_markups: [row(90, 130)], base_version: version });
    expect(runsOn.status).toBe(200);
    await t.deps.db.deleteFrom('markups').execute();
  });

  // An infinite instant (stored by SQLite as REAL in an INTEGER column) cannot exist in PostgreSQL's BIGINT.
  it.skipIf(testsOnPostgres())('answers report dates from the rows, bounded, even for rows stored out of bounds', async () => {
    const dates = async () => {
      const response = await f.call('GET', `/api/v1/report/dates?structure_id=${f.structureId}`, 'viewer');
      expect(response.status).toBe(200);
      return ((await response.json()) as { dates: string[] }).dates;
    };
    // 400 days long: the old walk listed every one of its 401 days.
    const long = await insertMarkup(at('2026-11-16T12:00:00Z'), at('2026-11-16T12:00:00Z') + 400 * 86_400_000);
    expect(await dates()).toEqual(['2026-11-16', '2026-11-17']);
    // An end of 1e12 s and an infinite one (1e308 s once stored as infinity) count only for their first day.
    const huge = await insertMarkup(at('2026-12-01T12:00:00Z'), at('2026-12-01T12:00:00Z') + 1e15);
    const infinite = await insertMarkup(at('2026-12-20T12:00:00Z'), Infinity);
    expect(await dates()).toEqual(['2026-11-16', '2026-11-17', '2026-12-01', '2026-12-02', '2026-12-20', '2026-12-21']);

    // The period editor, the video screen and the dump still answer for windows these rows overlap.
    const window = `structure_id=${f.structureId}&from_time=2026-12-20T00:00:00Z&to_time=2026-12-25T00:00:00Z`;
    const period = await f.call('GET', `/api/v1/operation_markups?${window}`, 'viewer');
    expect(period.status).toBe(200);
    const periodRows = ((await period.json()) as { operation_markups: { id: number; end_time: string }[] }).operation_markups;
    expect(periodRows.find((r) => r.id === infinite)!.end_time).toBe('2026-12-21T12:00:00.000Z');
    expect((await f.call('GET', markupsUrl(), 'viewer')).status).toBe(200);
    const dump = await f.call('GET', `/api/v1/dump?structure_id=${f.structureId}&camera_key=1&date=2026-12-20`, 'viewer');
    expect(dump.status).toBe(200);
    expect((await dump.text()).trim().split('\n')).toHaveLength(2);
    await t.deps.db.deleteFrom('markups').where('id', 'in', [long, huge, infinite]).execute();
  });

  it('refuses period windows longer than 366 days and instants outside 2000–2100', async () => {
    const path = (from: string, to: string) => `/api/v1/operation_markups?structure_id=${f.structureId}&from_time=${from}&to_time=${to}`;
    expect((await f.call('GET', path('2026-01-01T00:00:00Z', '2027-01-02T00:00:01Z'), 'viewer')).status).toBe(400);
    expect((await f.call('GET', path('1970-01-01T00:00:00Z', '1970-01-02T00:00:00Z'), 'viewer')).status).toBe(400);
    expect((await f.call('GET', path('2200-01-01T00:00:00Z', '2200-01-02T00:00:00Z'), 'viewer')).status).toBe(400);
    expect((await f.call('GET', path('2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'), 'viewer')).status).toBe(200);
  });
});

describe('POST /api/v1/set_duration', () => {
  const durationOf = async (id: number) => (await t.deps.db.selectFrom('videos').select('duration').where('id', '=', id).executeTakeFirstOrThrow()).duration;

  it('needs write rights: a viewer gets 403 and nothing changes', async () => {
    const response = await f.call('POST', '/api/v1/set_duration', 'viewer', { video_id: unknownDurationId, duration: 60 });
    expect(response.status).toBe(403);
    expect(await durationOf(unknownDurationId)).toBeNull();
  });

  it('refuses a huge, non-decimal or over-24-hour duration with 400, and one longer than the probed file', async () => {
    for (const duration of [1e308, 1e12, 86_401, '1e3', '0x10', ' 60', '60.0']) {
      const response = await f.call('POST', '/api/v1/set_duration', 'assessor', { video_id: unknownDurationId, duration });
      expect(response.status, String(duration)).toBe(400);
      expect((await response.json()).error.message, String(duration)).toContain('duration');
    }
    expect(await durationOf(unknownDurationId)).toBeNull();
    const tooLong = await f.call('POST', '/api/v1/set_duration', 'assessor', { video_id: VIDEO_ID, duration: 150 });
    expect(tooLong.status).toBe(400);
    expect(await durationOf(VIDEO_ID)).toBe(100);
  });

  it('stores a bounded duration of a video not probed yet, and keeps a probed one', async () => {
    const set = await f.call('POST', '/api/v1/set_duration', 'assessor', { video_id: unknownDurationId, duration: 90 });
    expect(await set.json()).toEqual({ video_id: unknownDurationId, duration: 90 });
    expect(await durationOf(unknownDurationId)).toBe(90);
    const shorter = await f.call('POST', '/api/v1/set_duration', 'assessor', { video_id: VIDEO_ID, duration: 60 });
    expect(await shorter.json()).toEqual({ video_id: VIDEO_ID, duration: 100 });
    await t.deps.db.updateTable('videos').set({ duration: null }).where('id', '=', unknownDurationId).execute();
  });
});

describe('strict ids and dates', () => {
  it('refuses "0x10", "1e1", " 16" and other loose ids with 400 and deletes nothing', async () => {
    for (const id of ['0x10', '1e1', '%2016', '16.0', '016', '+16', '9007199254740993']) {
      const response = await f.call('DELETE', `/api/v1/task/${id}`, 'admin');
      expect(response.status, id).toBe(400);
      expect((await f.call('GET', markupsUrl(id), 'viewer')).status, id).toBe(400);
    }
    const left = await t.deps.db.selectFrom('videos').select('id').where('id', 'in', [VIDEO_ID, OTHER_VIDEO_ID]).orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual([OTHER_VIDEO_ID, VIDEO_ID]);
    for (const query of [`structure_id=0x${f.structureId.toString(16)}`, `structure_id=${f.structureId}e0`, `structure_id=%20${f.structureId}`]) {
      expect((await f.call('GET', `/api/v1/report/dates?${query}`, 'viewer')).status, query).toBe(400);
      expect((await f.call('GET', `/api/v1/get_tasks?${query}`, 'viewer')).status, query).toBe(400);
    }
    expect((await f.call('GET', `/api/v1/get_tasks?structure_id=${f.structureId}&limit=1e1`, 'viewer')).status).toBe(400);
    // Hand-written id readers too (administration paths, structure_id in a JSON body).
    const spare = (await t.deps.db.insertInto('employees').values({ structure_id: f.structureId, name: 'Запасной' }).returning('id').executeTakeFirstOrThrow())
      .id;
    expect((await f.call('DELETE', `/api/v1/admin/employees/0x${spare.toString(16)}`, 'admin')).status).toBe(400);
    expect((await f.call('DELETE', `/api/v1/admin/employees/${spare}e0`, 'admin')).status).toBe(400);
    expect(await t.deps.db.selectFrom('employees').select('id').where('id', '=', spare).executeTakeFirst()).toEqual({ id: spare });
    await t.deps.db.deleteFrom('employees').where('id', '=', spare).execute();
    expect((await f.call('GET', `/api/v1/other_videos?video_id=${VIDEO_ID}&current_second=1e3`, 'viewer')).status).toBe(400);
    expect((await f.call('GET', `/api/v1/report/dates?structure_id=${f.structureId}`, 'viewer')).status).toBe(200);
  });

  it('reads structure_id in a JSON body strictly before the body is validated, and creates nothing', async () => {
    const loose = [`0x${f.structureId.toString(16)}`, `${f.structureId}e0`, ` ${f.structureId}`, `${f.structureId}.0`, -f.structureId, 0];
    const calls: [path: string, role: 'admin' | 'analyst', body: Record<string, unknown>][] = [
      ['/api/v1/generate_hash', 'analyst', { from_time: '2026-03-01T00:00:00Z', to_time: '2026-03-02T00:00:00Z' }],
      [
        '/api/v1/event/zone',
        'analyst',
        {
          name: 'Зона',
          kind: 'zone',
          polygon: [
            [0, 0],
            [1, 0],
            [1, 1],
          ],
        },
      ],
      ['/api/v1/admin/cameras', 'admin', { camera_key: 'cam4', storage_folder: 'strict-ids' }],
    ];
    const counts = async () =>
      Promise.all(
        (['share_keys', 'event_zones', 'cameras'] as const).map(async (table) =>
          Number(
            (
              await t.deps.db
                .selectFrom(table)
                .select((e) => e.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      );
    const before = await counts();
    for (const [path, role, body] of calls) {
      for (const structure_id of loose) {
        const response = await f.call('POST', path, role, { ...body, structure_id });
        expect(response.status, `${path} ${structure_id}`).toBe(400);
        expect((await response.json()).error.message, `${path} ${structure_id}`).toBe('structure_id: ожидается целое положительное число десятичными цифрами');
      }
      const missing = await f.call('POST', path, role, body);
      expect(missing.status, path).toBe(400);
      expect((await missing.json()).error.message, path).toBe('Не указан параметр structure_id');
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses dates that do not exist, like 2026-02-30', async () => {
    const period = await f.call(
      'GET',
      `/api/v1/operation_markups?structure_id=${f.structureId}&from_time=2026-02-30T00:00:00Z&to_time=2026-03-05T00:00:00Z`,
      'viewer',
    );
    expect(period.status).toBe(400);
    expect((await period.json()).error.message).toContain('from_time');
    const report = await f.call(
      'GET',
      `/api/v1/report/products?structure_id=${f.structureId}&from_time=2026-02-28T00:00:00Z&to_time=2026-02-29T10:00:00Z`,
      'viewer',
    );
    expect(report.status).toBe(400);
    expect((await f.call('GET', `/api/v1/dump?structure_id=${f.structureId}&camera_key=1&date=2026-02-30`, 'viewer')).status).toBe(400);
    expect((await f.call('GET', `/api/v1/dump?structure_id=${f.structureId}&camera_key=1&date=1900-01-01`, 'viewer')).status).toBe(400);
  });
});

describe('mandatory versions and save ids', () => {
  it('refuses a video save without base_version, changing nothing', async () => {
    const before = await versionOf(VIDEO_ID);
    const response = await f.call('PUT', markupsUrl(), 'assessor', { video_markups: [row(0, 10)] });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain('base_version');
    expect(await markupCount()).toBe(0);
    expect(await versionOf(VIDEO_ID)).toBe(before);
  });

  it('keeps the version on an empty save', async () => {
    const { version } = await readMarkups();
    const activities = await activityCount(VIDEO_ID);
    const response = await f.call('PUT', markupsUrl(), 'assessor', { base_version: version, client_save_id: 'empty-save-0001' });
    expect(response.status).toBe(200);
    expect((await response.json()).version).toBe(version);
    expect(await versionOf(VIDEO_ID)).toBe(version);
    expect(await activityCount(VIDEO_ID)).toBe(activities);
  });

  it('replays a client_save_id only for the same user and payload; otherwise refuses it', async () => {
    const { version } = await readMarkups();
    const save = { video_markups: [row(0, 10)], base_version: version, client_save_id: 'outbox-key-0001' };
    const first = await f.call('PUT', markupsUrl(), 'assessor', save);
    expect(first.status).toBe(200);
    const saved = (await first.json()) as { version: number };
    expect(saved.version).toBe(version + 1);

    const changed = await f.call('PUT', markupsUrl(), 'assessor', { ...save, video_markups: [row(20, 30)] });
    expect(changed.status).toBe(400);
    expect((await changed.json()).error.message).toBe(SAVE_ID_REUSED_MESSAGE);
    const otherUser = await f.call('PUT', markupsUrl(), 'analyst', save);
    expect(otherUser.status).toBe(400);
    expect((await otherUser.json()).error.message).toBe(SAVE_ID_OTHER_USER_MESSAGE);
    expect(await markupCount()).toBe(1);
    expect(await versionOf(VIDEO_ID)).toBe(version + 1);

    const replay = await f.call('PUT', markupsUrl(), 'assessor', save);
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { version: number }).version).toBe(version + 1);
    expect(await markupCount()).toBe(1);
    await t.deps.db.deleteFrom('markups').execute();
  });

  it('refuses a period save without base_version, and an empty one changes no version', async () => {
    const path = `/api/v1/operation_markups?structure_id=${f.structureId}&from_time=2026-11-16T12:00:00Z&to_time=2026-11-16T13:00:00Z`;
    const ok = { operation_id: f.operationId, workplace_id: f.workplaceId, start_time: '2026-11-16T12:00:00Z', end_time: '2026-11-16T12:00:10Z' };
    const before = await versionOf(VIDEO_ID);
    const refused = await f.call('POST', path, 'assessor', { operation_markups: [ok] });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toContain('base_version');
    expect(await markupCount()).toBe(0);
    const { version } = (await (await f.call('GET', path, 'assessor')).json()) as { version: string };
    const empty = await f.call('POST', path, 'assessor', { base_version: version });
    expect(empty.status).toBe(200);
    expect(((await empty.json()) as { version: string }).version).toBe(version);
    // A row outside the window would escape the window's version check.
    const outside = await f.call('POST', path, 'assessor', {
      base_version: version,
      operation_markups: [{ ...ok, start_time: '2026-11-17T12:00:00Z', end_time: '2026-11-17T12:00:10Z' }],
    });
    expect(outside.status).toBe(400);
    expect(await versionOf(VIDEO_ID)).toBe(before);
    expect(await markupCount()).toBe(0);
  });
});

describe('startup check of stored bounds', () => {
  // An infinite instant (stored by SQLite as REAL in an INTEGER column) cannot exist in PostgreSQL's BIGINT.
  it.skipIf(testsOnPostgres())('finds markups, stamps and videos stored out of bounds, and nothing when all is in bounds', async () => {
    const { db } = t.deps;
    await db.deleteFrom('markups').execute();
    await db.deleteFrom('video_stamps').execute();
    expect((await findOutOfBoundsRows(db)).total).toBe(0);
    const fine = await insertMarkup(VIDEO_START, VIDEO_START + 60_000);
    const long = await insertMarkup(VIDEO_START, VIDEO_START + 1e15);
    const infinite = await insertMarkup(VIDEO_START, Infinity);
    const ancient = await insertMarkup(at('1970-01-01T00:00:00Z'), at('1970-01-01T00:01:00Z'));
    const stamp = (
      await db
        .insertInto('video_stamps')
        .values({
          structure_id: f.structureId,
          video_id: VIDEO_ID,
          type: 'note',
          at: at('2300-01-01T00:00:00Z'),
          comment: '',
          employee_id: null,
          author_id: null,
          created_at: f.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db.updateTable('videos').set({ duration: Infinity }).where('id', '=', OTHER_VIDEO_ID).execute();
    const summary = await findOutOfBoundsRows(db);
    expect(summary.markups).toEqual({ count: 3, ids: [long, infinite, ancient] });
    expect(summary.markups.ids).not.toContain(fine);
    expect(summary.videoStamps).toEqual({ count: 1, ids: [stamp] });
    expect(summary.videos).toEqual({ count: 1, ids: [OTHER_VIDEO_ID] });
    expect(summary.total).toBe(5);
    await db.updateTable('videos').set({ duration: 100 }).where('id', '=', OTHER_VIDEO_ID).execute();
    await db.deleteFrom('markups').execute();
    await db.deleteFrom('video_stamps').execute();
  });
});
