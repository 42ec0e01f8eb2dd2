import { utimesSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { DEMO_TIME_ZONE_FIXED } from './organization.service';

let t: TestApp;
let w: VideoWorld;
let analystCookie: string;
let demoAdmin: string;
let demoOrganizationId: number;

const organizationRow = (id: number) => t.deps.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const call = (method: string, path: string, cookie: string, body?: unknown) =>
  t.request(path, { method, cookie, body: body === undefined ? undefined : JSON.stringify(body) });
const save = (cookie: string, body: unknown) => call('PUT', '/api/v1/organization', cookie, body);
const preview = (cookie: string, body: unknown) => call('POST', '/api/v1/organization/preview', cookie, body);
const whoami = async (cookie: string) => (await t.request('/api/v1/whoami', { cookie })).json();

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  await registerUser(
    t.deps,
    { login: 'numbers', password: 'secret-pass', firstName: 'А', lastName: 'А' },
    { organizationId: w.admin.organizationId, role: 'analyst' },
  );
  analystCookie = await t.signIn('numbers', 'secret-pass');
  const demo = await t.deps.db
    .insertInto('organizations')
    .values({ name: 'Демо-завод', time_zone: 'Europe/Moscow', is_demo: 1, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  demoOrganizationId = demo.id;
  await registerUser(t.deps, { login: 'demoboss', password: 'secret-pass', firstName: 'Д', lastName: 'Д' }, { organizationId: demo.id, role: 'admin' });
  demoAdmin = await t.signIn('demoboss', 'secret-pass');
  // Recordings of our organisation: two named by the recorders (start read from the name), one not.
  const [camera] = w.cameraIds;
  const recordings = [
    ['cam1_2026-11-15_08-00-00.mp4', 'file_name'],
    ['cam1_2026-11-15_08-10-00_part2.mp4', 'file_name'],
    ['lecture.mp4', 'creation_time'],
  ] as const;
  for (const [filename, source] of recordings) {
    await t.deps.db
      .insertInto('videos')
      .values({
        camera_id: camera!,
        filename,
        storage_key: `recordings/site/old/${filename}`,
        start_time: Date.UTC(2026, 10, 15, 5),
        start_source: source,
        created_at: Date.now(),
      })
      .execute();
  }
});
afterAll(async () => t.cleanup());

describe('who may see and change the organisation', () => {
  it('refuses analysts, assessors, viewers (403) and visitors (401) before reading the body, and changes nothing', async () => {
    const before = await organizationRow(w.admin.organizationId);
    for (const cookie of [analystCookie, w.cookies.assessor, w.cookies.viewer]) {
      expect((await t.request('/api/v1/organization', { cookie })).status).toBe(403);
      expect((await save(cookie, { name: 'Чужое имя', time_zone: 'Asia/Omsk' })).status).toBe(403);
      // A malformed body still gets a 403: access is checked first.
      expect((await save(cookie, { name: '' })).status).toBe(403);
      expect((await preview(cookie, { time_zone: 'Asia/Omsk' })).status).toBe(403);
    }
    expect((await t.request('/api/v1/organization')).status).toBe(401);
    expect((await save('', { name: 'Чужое имя' })).status).toBe(401);
    expect(await organizationRow(w.admin.organizationId)).toEqual(before);
  });

  it('answers the admin with the own organisation only', async () => {
    const own = await (await t.request('/api/v1/organization', { cookie: w.cookies.admin })).json();
    expect(own).toEqual({ id: w.admin.organizationId, name: 'Организация lead', time_zone: 'Europe/Moscow', is_demo: false });
    const rival = await (await t.request('/api/v1/organization', { cookie: w.cookies.rival })).json();
    expect(rival.id).toBe(w.rival.organizationId);
  });
});

describe('bounds', () => {
  it('refuses a bad name or zone with a Russian message and changes nothing', async () => {
    const before = await organizationRow(w.admin.organizationId);
    const cases: [unknown, RegExp][] = [
      [{ name: '' }, /название не может быть пустым/],
      [{ name: '   ' }, /название не может быть пустым/],
      [{ name: 'Я'.repeat(201) }, /не длиннее 200 символов/],
      [{ name: 'Завод\nВосток' }, /управляющих символов/],
      [{ name: 42 }, /название: ожидается строка/],
      [{ time_zone: 'Mars/Olympus' }, /неизвестный часовой пояс «Mars\/Olympus»/],
      [{ time_zone: '+03:00' }, /неизвестный часовой пояс/],
      [{ time_zone: 'Europe/Moscow'.repeat(6) }, /не длиннее 64 символов/],
      [{ name: 'Завод', time_zone: '' }, /укажите часовой пояс/],
      [{ name: 'Завод', owner: 'я' }, /owner/],
    ];
    for (const [body, message] of cases) {
      const response = await save(w.cookies.admin, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).error.message).toMatch(message);
    }
    const bad = await preview(w.cookies.admin, { time_zone: 'Asia/Nowhere' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/неизвестный часовой пояс/);
    expect(await organizationRow(w.admin.organizationId)).toEqual(before);
  });
});

describe('the time zone preview and the change', () => {
  it('says what a new zone changes and saves nothing', async () => {
    const response = await preview(w.cookies.admin, { time_zone: 'Asia/Yekaterinburg' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      time_zone: 'Europe/Moscow',
      new_time_zone: 'Asia/Yekaterinburg',
      offset_change_minutes: 120,
      recordings: 3,
      recordings_from_file_name: 2,
    });
    const now = Date.parse(body.now);
    const text = (zone: string) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(now)
          .map((part) => [part.type, part.value]),
      );
      return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
    };
    expect(body.now_local).toBe(text('Europe/Moscow'));
    expect(body.new_now_local).toBe(text('Asia/Yekaterinburg'));
    expect((await organizationRow(w.admin.organizationId)).time_zone).toBe('Europe/Moscow');
  });

  it('renames and moves the organisation; whoami shows it; the other organisation is untouched', async () => {
    const rivalBefore = await organizationRow(w.rival.organizationId);
    const response = await save(w.cookies.admin, { name: '  Завод «Восток»  ', time_zone: 'Asia/Yekaterinburg' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: w.admin.organizationId, name: 'Завод «Восток»', time_zone: 'Asia/Yekaterinburg', is_demo: false });
    for (const cookie of [w.cookies.admin, w.cookies.viewer]) {
      expect((await whoami(cookie)).organization).toEqual({
        id: w.admin.organizationId,
        name: 'Завод «Восток»',
        time_zone: 'Asia/Yekaterinburg',
        is_demo: false,
      });
    }
    expect(await organizationRow(w.rival.organizationId)).toEqual(rivalBefore);
    // A field left out keeps its value; the zone's spelling is the canonical one.
    expect(await (await save(w.cookies.admin, { time_zone: 'asia/yekaterinburg' })).json()).toMatchObject({
      name: 'Завод «Восток»',
      time_zone: 'Asia/Yekaterinburg',
    });
    // Recordings already registered keep their starts.
    const starts = await t.deps.db.selectFrom('videos').select('start_time').execute();
    expect(starts.map((s) => s.start_time)).toEqual([Date.UTC(2026, 10, 15, 5), Date.UTC(2026, 10, 15, 5), Date.UTC(2026, 10, 15, 5)]);
  });

  it('reads the time in a new recording’s file name in the new zone', async () => {
    const key = 'recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4';
    await makeClip(t.deps.storage.pathOf(key), { faststart: true });
    // A finished file (sync leaves files still being written alone).
    const past = new Date('2026-11-16T07:45:00Z');
    utimesSync(t.deps.storage.pathOf(key), past, past);
    const response = await t.request(`/api/v1/sync_videos?structure_id=${w.structureId}`, { cookie: w.cookies.assessor });
    expect(response.status).toBe(200);
    expect((await response.json()).new_videos).toEqual(['cam1_2026-11-16_09-00-00.mp4']);
    const row = await t.deps.db.selectFrom('videos').select('start_time').where('storage_key', '=', key).executeTakeFirstOrThrow();
    // 09:00 in Yekaterinburg (UTC+5).
    expect(new Date(row.start_time).toISOString()).toBe('2026-11-16T04:00:00.000Z');
  });
});

describe('the demo organisation', () => {
  it('may be renamed by its admin but keeps its time zone (409 for the change and its preview)', async () => {
    expect(await (await save(demoAdmin, { name: 'Демо: наш завод' })).json()).toMatchObject({
      name: 'Демо: наш завод',
      time_zone: 'Europe/Moscow',
      is_demo: true,
    });
    for (const response of [await save(demoAdmin, { name: 'Другое', time_zone: 'Asia/Omsk' }), await preview(demoAdmin, { time_zone: 'Asia/Omsk' })]) {
      expect(response.status).toBe(409);
      expect((await response.json()).error.message).toBe(DEMO_TIME_ZONE_FIXED);
    }
    expect(await organizationRow(demoOrganizationId)).toMatchObject({ name: 'Демо: наш завод', time_zone: 'Europe/Moscow' });
    // Saving the same zone is no change.
    expect((await save(demoAdmin, { time_zone: 'Europe/Moscow' })).status).toBe(200);
  });

  it('is the only one whoami marks as demo', async () => {
    expect((await whoami(demoAdmin)).organization.is_demo).toBe(true);
    for (const cookie of [w.cookies.admin, w.cookies.rival]) expect((await whoami(cookie)).organization.is_demo).toBe(false);
  });
});

describe('the site’s requests follow the permission table', () => {
  it('whoami grants site.requests to the owner organisation’s admin only, and the API agrees', async () => {
    expect((await whoami(w.cookies.admin)).permissions).toContain('site.requests');
    for (const cookie of [w.cookies.rival, demoAdmin, w.cookies.viewer, analystCookie]) {
      expect((await whoami(cookie)).permissions).not.toContain('site.requests');
      expect((await t.request('/api/v3/feedback', { cookie })).status).toBe(403);
    }
    expect((await t.request('/api/v3/feedback', { cookie: w.cookies.admin })).status).toBe(200);
    // The owner's admin is refused before a bad query is read; another admin too.
    expect((await t.request('/api/v3/feedback?limit=abc', { cookie: w.cookies.rival })).status).toBe(403);
  });

  it('GET /api/v1/instance with a share key speaks of the key’s organisation, not of the installation', async () => {
    expect((await (await t.request('/api/v1/instance')).json()).demo).toBe(true);
    expect((await (await t.request('/api/v1/instance?key=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).json()).demo).toBe(false);
  });
});
