import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashShareKey } from '../auth/share-keys';
import { SHARE_KEY_HEADER } from '../http/client-address';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertMarkupRows, insertVideo, makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

let t: TestApp;
let w: VideoWorld;
const at = (local: string) => Date.parse(`${local}+03:00`);
const iso = (local: string) => new Date(at(local)).toISOString();
const window = { from: iso('2026-11-16T09:00:00'), to: iso('2026-11-16T10:00:00') };
const video = {} as Record<'inWindow' | 'laterSameDay' | 'noMarkup' | 'otherStructure', number>;
const clipKey = 'recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4';

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  const { db } = t.deps;
  await makeClip(t.deps.storage.pathOf(clipKey), { seconds: 4, faststart: true });
  video.inWindow = await insertVideo(t.deps.db, w.cameraIds[0]!, {
    filename: 'cam1_2026-11-16_09-00-00.mp4',
    start: at('2026-11-16T09:00:00'),
    duration: 4,
    key: clipKey,
  });
  video.laterSameDay = await insertVideo(t.deps.db, w.cameraIds[0]!, {
    filename: 'cam1_2026-11-16_11-00-00.mp4',
    start: at('2026-11-16T11:00:00'),
    duration: 4,
  });
  video.noMarkup = await insertVideo(t.deps.db, w.cameraIds[1]!, { filename: 'cam2_2026-11-16_09-30-00.mp4', start: at('2026-11-16T09:30:00'), duration: 4 });
  const otherCamera = (
    await db
      .insertInto('cameras')
      .values({ structure_id: w.otherStructureId, camera_key: 1, name: 'К', storage_folder: 'other/cam1' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  video.otherStructure = await insertVideo(t.deps.db, otherCamera, { filename: 'other.mp4', start: at('2026-11-16T09:00:00'), duration: 4 });
  const place = { structure_id: w.structureId, operation_id: w.operationIds.main, workplace_id: w.workplaceIds[0]!, employee_id: w.employeeId };
  await insertMarkupRows(db, place, [
    [at('2026-11-16T09:00:01'), at('2026-11-16T09:00:03')],
    [at('2026-11-16T11:00:00'), at('2026-11-16T11:00:03')],
  ]);
});
afterAll(async () => t.cleanup());

const generate = async (cookie: string, body: Record<string, unknown> = { structure_id: w.structureId, from_time: window.from, to_time: window.to }) =>
  t.request('/api/v1/generate_hash', { method: 'POST', cookie, body: JSON.stringify(body) });
const newKey = async (cookie = w.cookies.viewer) => ((await (await generate(cookie)).json()) as { hash: string }).hash;
const frv = (query: string, init: { cookie?: string; headers?: Record<string, string> } = {}) => t.request(`/api/v2/frv?${query}`, init);
const windowQuery = (structureId = w.structureId, from = window.from, to = window.to) =>
  `structure_id=${structureId}&from_time=${encodeURIComponent(from)}&to_time=${encodeURIComponent(to)}`;

describe('POST /api/v1/generate_hash and GET /api/v1/resolve_hash/{key}', () => {
  it('gives a fresh key of at least 128 random bits, stores only its hash, and resolves it without a login', async () => {
    const response = await generate(w.cookies.viewer);
    expect(response.status).toBe(200);
    const { hash } = (await response.json()) as { hash: string };
    expect(Buffer.from(hash, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(await newKey()).not.toBe(hash);
    const rows = await t.deps.db.selectFrom('share_keys').select(['key', 'structure_id', 'from_time', 'to_time']).execute();
    expect(rows.map((r) => r.key)).toContain(hashShareKey(hash));
    expect(rows.map((r) => r.key)).not.toContain(hash);

    const resolved = await t.request(`/api/v1/resolve_hash/${hash}`);
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toEqual({
      structure_id: w.structureId,
      from_time: window.from,
      to_time: window.to,
      structure_name: 'Участок',
      time_zone: 'Europe/Moscow',
    });
  });

  it('refuses a visitor without a login, a foreign structure, a bad window and an unknown key', async () => {
    expect((await generate('')).status).toBe(401);
    expect((await generate(w.cookies.viewer, { structure_id: w.foreignStructureId, from_time: window.from, to_time: window.to })).status).toBe(404);
    expect((await generate(w.cookies.viewer, { structure_id: w.structureId, from_time: window.to, to_time: window.from })).status).toBe(400);
    expect((await t.request('/api/v1/resolve_hash/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await t.request('/api/v1/resolve_hash/not a key')).status).toBe(404);
  });
});

describe('what a share key opens', () => {
  let key: string;
  beforeAll(async () => {
    key = await newKey();
  });

  it('reads GET /api/v2/frv of its window without a login, by query or header, the same as a signed-in user', async () => {
    const asUser = await (await frv(windowQuery(), { cookie: w.cookies.viewer })).json();
    const byQuery = await frv(`${windowQuery()}&key=${key}`);
    expect(byQuery.status).toBe(200);
    expect(await byQuery.json()).toEqual(asUser);
    const byHeader = await frv(windowQuery(), { headers: { [SHARE_KEY_HEADER]: key } });
    expect(byHeader.status).toBe(200);
    const body = (await byHeader.json()) as { items: { video_segments: { video_id: number }[] }[] };
    expect(body.items).toHaveLength(1);
    expect(body.items[0]!.video_segments.map((s) => s.video_id)).toEqual([video.inWindow]);
    // A part of the window is still the same report.
    expect((await frv(`${windowQuery(w.structureId, window.from, iso('2026-11-16T09:30:00'))}&key=${key}`)).status).toBe(200);
  });

  it('plays the videos its report maps into the window, with Range', async () => {
    const whole = await t.request(`/api/v1/video?video_id=${video.inWindow}&key=${key}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    const part = await t.request(`/api/v1/video?video_id=${video.inWindow}&key=${key}`, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(10);
  });

  it('refuses another structure, a wider window and videos the report does not map', async () => {
    expect((await frv(`${windowQuery(w.otherStructureId)}&key=${key}`)).status).toBe(403);
    expect((await frv(`${windowQuery(w.foreignStructureId)}&key=${key}`)).status).toBe(403);
    expect((await frv(`${windowQuery(w.structureId, window.from, iso('2026-11-16T12:00:00'))}&key=${key}`)).status).toBe(403);
    expect((await frv(`${windowQuery(w.structureId, iso('2026-11-16T08:59:00'), window.to)}&key=${key}`)).status).toBe(403);
    for (const id of [video.laterSameDay, video.noMarkup, video.otherStructure]) {
      expect((await t.request(`/api/v1/video?video_id=${id}&key=${key}`)).status).toBe(403);
    }
  });

  it('opens no other call', async () => {
    const refused = [
      `/api/v1/report?${windowQuery()}&employee_id=${w.employeeId}&key=${key}`,
      `/api/v2/report?${windowQuery()}&key=${key}`,
      `/api/v3/compute-report?${windowQuery()}&key=${key}`,
      `/api/v1/report/dates?structure_id=${w.structureId}&key=${key}`,
      `/api/v1/video_meta/${video.inWindow}?key=${key}`,
      `/api/v1/other_videos?video_id=${video.inWindow}&current_second=1&key=${key}`,
      `/api/v1/activities?video_id=${video.inWindow}&offset=0&limit=5&key=${key}`,
      `/api/v1/get_tasks?structure_id=${w.structureId}&option=all&offset=0&limit=30&key=${key}`,
      `/api/v1/operation_markups?${windowQuery()}&key=${key}`,
      `/api/v2/get_all_structures?key=${key}`,
    ];
    for (const path of refused) {
      const response = await t.request(path, { headers: { [SHARE_KEY_HEADER]: key } });
      expect([401, 403], path).toContain(response.status);
    }
    const sneak = await t.request('/api/v1/generate_hash', {
      method: 'POST',
      headers: { [SHARE_KEY_HEADER]: key },
      body: JSON.stringify({ structure_id: w.structureId, from_time: window.from, to_time: window.to }),
    });
    expect(sneak.status).toBe(401);
  });
});

describe('DELETE /api/v1/share/{key}', () => {
  it('lets the creator or an admin revoke a key; a revoked key opens nothing', async () => {
    const key = await newKey(w.cookies.viewer);
    expect((await t.request(`/api/v1/share/${key}`, { method: 'DELETE', cookie: w.cookies.assessor })).status).toBe(403);
    expect((await t.request(`/api/v1/share/${key}`, { method: 'DELETE', cookie: w.cookies.rival })).status).toBe(404);
    expect((await t.request(`/api/v1/share/${key}`, { method: 'DELETE' })).status).toBe(401);
    expect((await frv(`${windowQuery()}&key=${key}`)).status).toBe(200);

    const revoked = await t.request(`/api/v1/share/${key}`, { method: 'DELETE', cookie: w.cookies.viewer });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ message: 'Ссылка отозвана' });
    expect((await frv(`${windowQuery()}&key=${key}`)).status).toBe(401);
    expect((await t.request(`/api/v1/video?video_id=${video.inWindow}&key=${key}`)).status).toBe(401);
    expect((await t.request(`/api/v1/resolve_hash/${key}`)).status).toBe(404);

    const other = await newKey(w.cookies.assessor);
    expect((await t.request(`/api/v1/share/${other}`, { method: 'DELETE', cookie: w.cookies.admin })).status).toBe(200);
    expect((await frv(`${windowQuery()}&key=${other}`)).status).toBe(401);
  });
});
