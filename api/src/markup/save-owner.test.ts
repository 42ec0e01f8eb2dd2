import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, markupPlace } from '../../test-support/video-fixtures';
import { SAVE_OWNER_HEADER, SAVE_OWNER_MISMATCH_MESSAGE } from './save-owner';

/** Issue 24: a save queued offline on a shared device is stored only as the user who queued it. */
let t: TestApp;
let cookies: { lead: string; marker: string };
let videoId: number;
let operationId: number;
let workplaceId: number;

beforeAll(async () => {
  t = await createTestApp();
  const lead = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Мария', lastName: 'Иванова' });
  await registerUser(
    t.deps,
    { login: 'разметчик', password: 'secret-pass', firstName: 'Олег', lastName: 'Петров' },
    { organizationId: lead.organizationId, role: 'assessor' },
  );
  const now = Date.now();
  const place = await markupPlace(t.deps.db, lead.organizationId, now);
  ({ operationId, workplaceId } = place);
  videoId = await insertVideo(t.deps.db, place.cameraId, { filename: 'cam1.mp4', key: 'rec/1/cam1.mp4', start: now, duration: 100, createdAt: now });
  cookies = { lead: await t.signIn('lead', 'secret-pass'), marker: await t.signIn('разметчик', 'secret-pass') };
});
afterAll(async () => t.cleanup());

const url = () => `/api/v1/video_markups/${videoId}`;
const read = async () => (await (await t.request(url(), { cookie: cookies.lead })).json()) as { version: number; video_markups: { author_name: string }[] };
const save = (version: number, saveId: string) => ({
  video_markups: [{ id: -1, operation_id: operationId, workplace_id: workplaceId, employee_id: null, start_time: 0, end_time: 10, comment: null }],
  base_version: version,
  client_save_id: saveId,
});
const put = (cookie: string, body: object, owner?: string) =>
  t.request(url(), { method: 'PUT', cookie, body: JSON.stringify(body), headers: owner === undefined ? undefined : { [SAVE_OWNER_HEADER]: owner } });

describe('the owner of a queued save', () => {
  it('refuses a save queued by another user, changing nothing', async () => {
    const before = await read();
    const response = await put(cookies.lead, save(before.version, 'queued-by-marker-1'), encodeURIComponent('разметчик'));
    expect(response.status).toBe(403);
    expect((await response.json()).error).toEqual({ code: 'save_owner_mismatch', message: SAVE_OWNER_MISMATCH_MESSAGE });
    const after = await read();
    expect(after.version).toBe(before.version);
    expect(after.video_markups).toEqual([]);
  });

  it('stores a save sent in its owner’s session (a Cyrillic login included) as that user’s', async () => {
    const before = await read();
    const response = await put(cookies.marker, save(before.version, 'queued-by-marker-1'), encodeURIComponent('разметчик'));
    expect(response.status).toBe(200);
    const after = await read();
    expect(after.version).toBe(before.version + 1);
    expect(after.video_markups.map((m) => m.author_name)).toEqual(['Олег Петров']);
  });

  it('answers a malformed owner with 400, changing nothing', async () => {
    const before = await read();
    const response = await put(cookies.marker, save(before.version, 'queued-by-marker-2'), '%E0%A4%A');
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain(SAVE_OWNER_HEADER);
    expect((await read()).version).toBe(before.version);
  });
});
