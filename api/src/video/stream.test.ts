import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { parseRange } from './stream';
import { insertVideo, makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

let t: TestApp;
let w: VideoWorld;
let videoId: number;
let bytes: Uint8Array;
const key = 'recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4';

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  await makeClip(t.deps.storage.pathOf(key), { seconds: 6, faststart: true });
  bytes = new Uint8Array(await t.deps.storage.file(key).arrayBuffer());
  videoId = await insertVideo(t.deps.db, w.cameraIds[0]!, {
    filename: 'cam1_2026-11-16_09-00-00.mp4',
    start: Date.parse('2026-11-16T06:00:00Z'),
    duration: 6,
    key,
  });
});
afterAll(async () => t.cleanup());

const get = (headers: Record<string, string> = {}, cookie = w.cookies.viewer, id = videoId) => t.request(`/api/v1/video?video_id=${id}`, { cookie, headers });
const body = async (response: Response) => new Uint8Array(await response.arrayBuffer());

describe('parseRange', () => {
  it('reads the forms of RFC 9110 and clips to the file', () => {
    expect(parseRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseRange('bytes=90-1000', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('Bytes = 5 - 6', 100)).toEqual({ start: 5, end: 6 });
  });
  it('tells unsatisfiable ranges from ones to ignore', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=200-300', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 100)).toBeNull();
    expect(parseRange('bytes=abc', 100)).toBeNull();
    expect(parseRange('bytes=-', 100)).toBeNull();
    expect(parseRange('items=0-5', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
  });
});

describe('GET /api/v1/video', () => {
  it('sends the whole file with 200, its length, type, ETag and Accept-Ranges', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('etag')).toMatch(/^".+"$/);
    expect(await body(response)).toEqual(bytes);
  });

  it('sends the first, a middle and the last byte with 206 and Content-Range', async () => {
    const size = bytes.length;
    const middle = Math.floor(size / 2);
    for (const [range, start, end] of [
      ['bytes=0-0', 0, 0],
      [`bytes=${middle}-${middle}`, middle, middle],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
      [`bytes=${middle}-${middle + 4095}`, middle, middle + 4095],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ['bytes=-100', size - 100, size - 1],
    ] as const) {
      const response = await get({ range });
      expect(response.status, range).toBe(206);
      expect(response.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(await body(response), range).toEqual(bytes.slice(start, end + 1));
    }
  });

  it('answers 416 with Content-Range: bytes */size for a range outside the file', async () => {
    for (const range of [`bytes=${bytes.length}-`, `bytes=${bytes.length + 10}-${bytes.length + 20}`, 'bytes=-0']) {
      const response = await get({ range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
      expect((await response.json()).error.code).toBe('range_not_satisfiable');
    }
  });

  it('ignores a malformed or multi-part Range header and sends the whole file', async () => {
    for (const range of ['bytes=abc', 'bytes=9-2', 'lines=1-2', 'bytes=0-1,4-5']) {
      const response = await get({ range });
      expect(response.status, range).toBe(200);
      expect((await body(response)).length).toBe(bytes.length);
    }
  });

  it('answers 304 to a matching If-None-Match and honours If-Range', async () => {
    const etag = (await get()).headers.get('etag')!;
    expect((await get({ 'if-none-match': etag })).status).toBe(304);
    expect((await get({ 'if-none-match': '"something-else"' })).status).toBe(200);
    const same = await get({ range: 'bytes=0-9', 'if-range': etag });
    expect(same.status).toBe(206);
    const changed = await get({ range: 'bytes=0-9', 'if-range': '"an-old-version"' });
    expect(changed.status).toBe(200);
    expect((await body(changed)).length).toBe(bytes.length);
  });

  it('answers HEAD with the headers only', async () => {
    const response = await t.request(`/api/v1/video?video_id=${videoId}`, { method: 'HEAD', cookie: w.cookies.viewer });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
  });

  it('carries the security headers on 206, 304 and 416 answers too', async () => {
    const etag = (await get()).headers.get('etag')!;
    for (const response of [await get({ range: 'bytes=0-9' }), await get({ 'if-none-match': etag }), await get({ range: `bytes=${bytes.length}-` })]) {
      expect(response.headers.get('content-security-policy'), String(response.status)).toContain("default-src 'self'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('content-encoding')).toBeNull();
    }
  });

  it('refuses the very next Range request after a sign-out or a removed membership', async () => {
    const member = await registerUser(
      t.deps,
      { login: 'seeker', password: 'secret-pass', firstName: 'С', lastName: 'П' },
      { organizationId: w.admin.organizationId, role: 'viewer' },
    );
    const first = await t.signIn('seeker', 'secret-pass');
    expect((await get({ range: 'bytes=0-9' }, first)).status).toBe(206);
    expect((await t.request('/api/v1/leave', { cookie: first })).status).toBe(200);
    expect((await get({ range: 'bytes=0-9' }, first)).status).toBe(401);

    const second = await t.signIn('seeker', 'secret-pass');
    expect((await get({ range: 'bytes=10-19' }, second)).status).toBe(206);
    await t.deps.db.deleteFrom('memberships').where('user_id', '=', member.id).execute();
    expect((await get({ range: 'bytes=10-19' }, second)).status).toBe(401);
  });

  it('refuses a video whose camera moved to another organisation on the next request', async () => {
    const key = 'recordings/site/cam3/moved.mp4';
    await makeClip(t.deps.storage.pathOf(key), { seconds: 1, faststart: true });
    const moved = await insertVideo(t.deps.db, w.cameraIds[2]!, { filename: 'moved.mp4', start: Date.parse('2026-11-16T10:00:00Z'), duration: 1, key });
    expect((await get({ range: 'bytes=0-9' }, w.cookies.viewer, moved)).status).toBe(206);
    await t.deps.db.updateTable('cameras').set({ structure_id: w.foreignStructureId }).where('id', '=', w.cameraIds[2]!).execute();
    try {
      const refused = await get({ range: 'bytes=0-9' }, w.cookies.viewer, moved);
      expect(refused.status).toBe(404);
      expect((await refused.json()).error.message).toBe('Структурная единица не найдена');
    } finally {
      await t.deps.db.updateTable('cameras').set({ structure_id: w.structureId }).where('id', '=', w.cameraIds[2]!).execute();
    }
  });

  it('gives a replaced file a new ETag and length at once', async () => {
    const key = 'recordings/site/cam4/replaced.mp4';
    const path = t.deps.storage.pathOf(key);
    await makeClip(path, { seconds: 1, faststart: true });
    const id = await insertVideo(t.deps.db, w.cameraIds[3]!, { filename: 'replaced.mp4', start: Date.parse('2026-11-16T11:00:00Z'), duration: 1, key });
    const before = await get({}, w.cookies.viewer, id);
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag')!;
    writeFileSync(path, new Uint8Array(1234).fill(7));
    const after = await get({ 'if-none-match': etag }, w.cookies.viewer, id);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.headers.get('content-length')).toBe('1234');
    expect(await body(after)).toEqual(new Uint8Array(1234).fill(7));
  });

  it('checks access: 401 without a session, 404 for another organisation, 400 for a bad id, 404 for a missing file', async () => {
    expect((await get({}, '')).status).toBe(401);
    expect((await get({}, w.cookies.rival)).status).toBe(404);
    expect((await t.request('/api/v1/video', { cookie: w.cookies.viewer })).status).toBe(400);
    expect((await t.request('/api/v1/video?video_id=x', { cookie: w.cookies.viewer })).status).toBe(400);
    expect((await t.request('/api/v1/video?video_id=987654', { cookie: w.cookies.viewer })).status).toBe(404);
    const ghost = await insertVideo(t.deps.db, w.cameraIds[1]!, { filename: 'ghost.mp4', start: Date.now(), duration: 1 });
    const response = await get({}, w.cookies.viewer, ghost);
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toContain('Файл видео не найден');
  });
});
