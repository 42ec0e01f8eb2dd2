import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { startWorkers } from '../job-registry';
import { videosOverlapping } from '../report/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { START_IN_FUTURE, START_NEEDS_ANALYST, START_OVERLAPS } from './recording-start.service';

/**
 * Issue 41, item 1: a recording's start at upload — found in the name, the container's metadata, or
 * not at all (then asked, never the upload's moment) — and set or moved later with its markups.
 */
let t: TestApp;
let w: VideoWorld;
let analyst: string;
let plain: Uint8Array<ArrayBuffer>;
let dated: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  await registerUser(
    t.deps,
    { login: 'analyst', password: 'secret-pass', firstName: 'Ольга', lastName: 'Аналитик' },
    { organizationId: w.admin.organizationId, role: 'analyst' },
  );
  analyst = await t.signIn('analyst', 'secret-pass');
  const scratch = t.deps.storage.pathOf('scratch');
  await makeClip(join(scratch, 'plain.mp4'), { seconds: 2, faststart: true });
  await makeClip(join(scratch, 'dated.mp4'), { seconds: 2, faststart: true, creationTime: '2026-11-16T06:30:00Z' });
  plain = new Uint8Array(await Bun.file(join(scratch, 'plain.mp4')).arrayBuffer());
  dated = new Uint8Array(await Bun.file(join(scratch, 'dated.mp4')).arrayBuffer());
});
afterAll(async () => t.cleanup());

const upload = (query: string, body: Uint8Array<ArrayBuffer>, cookie = w.cookies.assessor) =>
  t.request(`/api/v1/upload?${query}`, { method: 'POST', cookie, body, headers: { 'content-type': 'video/mp4' } });

const setStart = (videoId: number, start: unknown, cookie: string) =>
  t.request(`/api/v1/videos/${videoId}/start`, { method: 'PUT', cookie, body: JSON.stringify({ start_time: start }) });

const tasks = async () =>
  (
    (await (await t.request(`/api/v1/get_tasks?structure_id=${w.structureId}&limit=100`, { cookie: w.cookies.viewer })).json()) as {
      elements: { video: { id: number; start_time: string; start_source: string; start_confirmed: boolean } }[];
    }
  ).elements;

async function drain() {
  const runner = startWorkers(t.deps, { pollMs: 20 });
  await runner.drain();
  await runner.stop();
}

/** A distinct copy of a clip (a byte flipped at its end), so the camera takes it as another recording. */
const variant = (clip: Uint8Array<ArrayBuffer>, n: number) => {
  const copy = new Uint8Array(clip);
  copy[copy.length - 1 - n] ^= 0xff;
  return copy;
};

describe('the upload answers the start it found and where from', () => {
  it('from the name, in the organisation’s zone', async () => {
    const response = await upload(`camera_id=${w.cameraIds[0]}&filename=cam1_2026-11-16_09-00-00.mp4`, plain);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      start_time: '2026-11-16T06:00:00.000Z',
      start_source: 'file_name',
      start_confirmed: false,
      suggested_start_time: null,
    });
  });

  it('from the container’s creation time', async () => {
    const response = await upload(`camera_id=${w.cameraIds[1]}&filename=phone.mov`, dated);
    expect(await response.json()).toMatchObject({ start_time: '2026-11-16T06:30:00.000Z', start_source: 'creation_time', start_confirmed: false });
  });

  it('unknown when neither tells it: no start, the sender’s file time only as a suggestion, and not offered for markup or counted', async () => {
    const fileTime = Date.parse('2026-11-16T07:00:00Z');
    const response = await upload(`camera_id=${w.cameraIds[2]}&filename=clip.mp4&file_time=${fileTime}`, plain);
    const result = await response.json();
    expect(result).toMatchObject({ start_time: null, start_source: 'unknown', start_confirmed: false, suggested_start_time: '2026-11-16T07:00:00.000Z' });
    await drain();
    const row = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', result.video_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('ready');
    expect((await tasks()).map((e) => e.video.id)).not.toContain(result.video_id);
    const spans = await videosOverlapping(t.deps.db, w.structureId, row.start_time - 3_600_000, row.start_time + 3_600_000);
    expect(spans.map((s) => s.id)).not.toContain(result.video_id);
    // Its markup cannot be saved against a start nobody gave.
    const markups = await t.request(`/api/v1/video_markups/${result.video_id}`, { cookie: w.cookies.assessor });
    expect(markups.status).toBe(409);
    expect((await markups.json()).error.message).toMatch(/^Начало этой записи не указано/);

    // The task list names it to be given a start (the organisation's own only).
    const withoutStart = async (cookie: string) => t.request(`/api/v1/recordings_without_start?structure_id=${w.structureId}`, { cookie });
    const listed = await (await withoutStart(w.cookies.viewer)).json();
    expect(listed).toEqual([expect.objectContaining({ id: result.video_id, filename: 'clip.mp4', camera_key: 3, status: 'ready' })]);
    expect((await withoutStart(w.cookies.rival)).status).toBe(404);

    // The uploader gives it: the recording is a task at that time, and counts there.
    const given = await setStart(result.video_id, '2026-11-16T07:00:00Z', w.cookies.assessor);
    expect(given.status).toBe(200);
    expect(await given.json()).toEqual({ video_id: result.video_id, start_time: '2026-11-16T07:00:00.000Z', start_source: 'manual', start_confirmed: true });
    const task = (await tasks()).find((e) => e.video.id === result.video_id);
    expect(task?.video).toMatchObject({ start_time: '2026-11-16T07:00:00.000Z', start_source: 'manual', start_confirmed: true });
    const counted = await videosOverlapping(t.deps.db, w.structureId, Date.parse('2026-11-16T06:00:00Z'), Date.parse('2026-11-16T08:00:00Z'));
    expect(counted.map((s) => s.id)).toContain(result.video_id);
    expect(await (await withoutStart(w.cookies.viewer)).json()).toEqual([]);
  });

  it('a sender’s file time outside the plausible range is no suggestion; one outside the calendar is a 400', async () => {
    const early = await upload(`camera_id=${w.cameraIds[3]}&filename=old.mp4&file_time=0`, variant(plain, 1));
    expect((await early.json()).suggested_start_time).toBeNull();
    for (const bad of ['abc', '-5', '1e12', '99999999999999999']) {
      expect((await upload(`camera_id=${w.cameraIds[3]}&filename=x.mp4&file_time=${bad}`, variant(plain, 2))).status, bad).toBe(400);
    }
  });
});

describe('PUT /api/v1/videos/{videoId}/start', () => {
  let videoId: number;
  let markupIds: number[];
  const start = Date.parse('2026-11-17T06:00:00Z');

  beforeAll(async () => {
    const response = await upload(`camera_id=${w.cameraIds[3]}&filename=cam4_2026-11-17_09-00-00.mp4`, variant(plain, 3));
    videoId = (await response.json()).video_id;
    await drain();
  });

  it('the uploader confirms the start found; the source stays and an activity says so', async () => {
    const response = await setStart(videoId, new Date(start).toISOString(), w.cookies.assessor);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ start_source: 'file_name', start_confirmed: true });
    const activities = await (await t.request(`/api/v1/activities?video_id=${videoId}`, { cookie: w.cookies.viewer })).json();
    expect(activities[0].comment).toBe('Начало записи подтверждено: 2026-11-17 09:00:00');
  });

  it('refuses the viewer (403), the assessor once confirmed (403), another organisation (404), and bad starts (400), changing nothing', async () => {
    const iso = '2026-11-17T05:00:00Z';
    expect((await setStart(videoId, iso, w.cookies.viewer)).status).toBe(403);
    const assessor = await setStart(videoId, iso, w.cookies.assessor);
    expect(assessor.status).toBe(403);
    expect((await assessor.json()).error.message).toBe(START_NEEDS_ANALYST);
    expect((await setStart(videoId, iso, w.cookies.rival)).status).toBe(404);
    expect((await setStart(videoId, iso, '')).status).toBe(401);
    const future = await setStart(videoId, new Date(Date.now() + 3 * 86_400_000).toISOString(), w.cookies.admin);
    expect(future.status).toBe(400);
    expect((await future.json()).error.message).toBe(START_IN_FUTURE);
    for (const bad of ['1999-12-31T23:00:00Z', '2026-02-30T10:00:00Z', 'вчера', 42, null]) {
      const response = await setStart(videoId, bad, w.cookies.admin);
      expect(response.status, String(bad)).toBe(400);
      expect((await response.json()).error.message).toMatch(/[а-я]/);
    }
    expect((await t.request(`/api/v1/videos/987654/start`, { method: 'PUT', cookie: w.cookies.admin, body: JSON.stringify({ start_time: iso }) })).status).toBe(
      404,
    );
    const row = await t.deps.db.selectFrom('videos').select(['start_time', 'start_source']).where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(row).toEqual({ start_time: start, start_source: 'file_name' });
  });

  it('an analyst moves it: every markup and stamp moves by the same delta, the markup version rises, an activity notes old → new', async () => {
    const now = Date.now();
    const base = { structure_id: w.structureId, operation_id: w.operationIds.main, workplace_id: w.workplaceIds[0]!, employee_id: w.employeeId };
    markupIds = [];
    for (const [from, to, source] of [
      [10, 40, 'manual'],
      [50, 70, 'model'],
    ] as const) {
      const row = await t.deps.db
        .insertInto('markups')
        .values({ ...base, start_time: start + from * 1000, end_time: start + to * 1000, video_id: videoId, source, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      markupIds.push(row.id);
    }
    await t.deps.db
      .insertInto('video_stamps')
      .values({ structure_id: w.structureId, video_id: videoId, type: 'note', at: start + 5000, created_at: now })
      .execute();
    const before = await t.deps.db.selectFrom('videos').select('markup_version').where('id', '=', videoId).executeTakeFirstOrThrow();
    const later = start + 90 * 60_000;
    const response = await setStart(videoId, new Date(later).toISOString(), analyst);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ start_time: new Date(later).toISOString(), start_source: 'manual', start_confirmed: true });
    const rows = await t.deps.db.selectFrom('markups').select(['start_time', 'end_time']).where('id', 'in', markupIds).orderBy('start_time').execute();
    expect(rows).toEqual([
      { start_time: later + 10_000, end_time: later + 40_000 },
      { start_time: later + 50_000, end_time: later + 70_000 },
    ]);
    const stamp = await t.deps.db.selectFrom('video_stamps').select('at').where('video_id', '=', videoId).executeTakeFirstOrThrow();
    expect(stamp.at).toBe(later + 5000);
    const after = await t.deps.db.selectFrom('videos').select('markup_version').where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(after.markup_version).toBe(before.markup_version + 1);
    // The markup screen reads the markups at the same seconds of the video.
    const read = await (await t.request(`/api/v1/video_markups/${videoId}`, { cookie: w.cookies.assessor })).json();
    expect(JSON.stringify(read)).toContain('"start_time":10');
    const activities = await (await t.request(`/api/v1/activities?video_id=${videoId}`, { cookie: w.cookies.viewer })).json();
    expect(activities[0].comment).toBe('Начало записи изменено: 2026-11-17 09:00:00 → 2026-11-17 10:30:00');
  });

  it('refuses (409) a start that would overlap another recording of the same camera, changing nothing', async () => {
    const other = await upload(`camera_id=${w.cameraIds[3]}&filename=cam4_2026-11-17_12-00-00.mp4`, variant(plain, 4));
    expect(other.status).toBe(200);
    await drain();
    const overlapping = await setStart(videoId, '2026-11-17T09:00:01Z', analyst);
    expect(overlapping.status).toBe(409);
    expect((await overlapping.json()).error.message).toBe(`${START_OVERLAPS}: cam4_2026-11-17_12-00-00.mp4`);
    const rows = await t.deps.db.selectFrom('markups').select('start_time').where('id', 'in', markupIds).orderBy('start_time').execute();
    expect(rows[0]!.start_time).toBe(start + 90 * 60_000 + 10_000);
  });
});
