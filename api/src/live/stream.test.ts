import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { streamOfCamera } from './service';

/** A camera's stream settings (issue 45) on a real app and database; the check of a real stream is in recorder.test.ts (one RTSP server per run). */

let t: TestApp;
let w: VideoWorld;
const SECRET = 'pa55-Word';

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
});

afterAll(async () => {
  await t?.cleanup();
});

const put = (cameraId: number, body: unknown, cookie = w.cookies.admin) =>
  t.request(`/api/v1/camera/${cameraId}/stream`, { method: 'PUT', cookie, body: JSON.stringify(body) });
const get = (cameraId: number, cookie = w.cookies.admin) => t.request(`/api/v1/camera/${cameraId}/stream`, { cookie });

describe('camera stream settings', () => {
  it('stores the address whole and returns it masked; the masked form sent back keeps the password', async () => {
    const cam = w.cameraIds[0]!;
    expect(await (await get(cam)).json()).toBeNull();
    const saved = await put(cam, { url: `rtsp://viewer:${SECRET}@10.0.0.7:554/Streaming/101`, retention_days: 30 });
    expect(saved.status).toBe(200);
    const text = await saved.text();
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text)).toMatchObject({
      url: 'rtsp://viewer:***@10.0.0.7:554/Streaming/101',
      enabled: true,
      segment_seconds: 300,
      retention_days: 30,
      retention_gb: null,
      state: 'offline',
      recording: false,
    });
    expect((await streamOfCamera(t.deps.db, cam))!.url).toBe(`rtsp://viewer:${SECRET}@10.0.0.7:554/Streaming/101`);

    // The settings form sends back what it was given: the password stays.
    const again = await put(cam, { url: 'rtsp://viewer:***@10.0.0.7:554/Streaming/101', segment_seconds: 120 });
    expect(again.status).toBe(200);
    expect((await streamOfCamera(t.deps.db, cam))!).toMatchObject({ url: `rtsp://viewer:${SECRET}@10.0.0.7:554/Streaming/101`, segment_seconds: 120 });
    const read = await (await get(cam, w.cookies.viewer)).text();
    expect(read).not.toContain(SECRET);
    expect(JSON.parse(read).url).toBe('rtsp://viewer:***@10.0.0.7:554/Streaming/101');

    // Another host with *** is not given the stored password.
    await put(cam, { url: 'rtsp://viewer:***@10.0.0.8/Streaming/101' });
    expect((await streamOfCamera(t.deps.db, cam))!.url).toBe('rtsp://viewer:***@10.0.0.8/Streaming/101');
  });

  it('refuses other schemes, a missing host, an over-long address and bounds, with a Russian message, storing nothing', async () => {
    const cam = w.cameraIds[1]!;
    const cases: [unknown, RegExp][] = [
      [{ url: 'http://10.0.0.7/stream' }, /только адреса rtsp:\/\/ и rtsps:\/\//],
      [{ url: 'file:///etc/passwd' }, /только адреса rtsp/],
      [{ url: 'rtsp:///path' }, /[а-я]/],
      [{ url: 'rtsp://' }, /[а-я]/],
      [{ url: 'не адрес' }, /[а-я]/],
      [{ url: `rtsp://10.0.0.7/${'a'.repeat(1100)}` }, /[а-я]/],
      [{ url: 'rtsp://10.0.0.7/x', segment_seconds: 4 }, /segment_seconds/],
      [{ url: 'rtsp://10.0.0.7/x', segment_seconds: 5.5 }, /segment_seconds/],
      [{ url: 'rtsp://10.0.0.7/x', segment_seconds: 901 }, /segment_seconds/],
      [{ url: 'rtsp://10.0.0.7/x', retention_days: 0 }, /retention_days/],
      [{ url: 'rtsp://10.0.0.7/x', retention_days: 366 }, /retention_days/],
      [{ url: 'rtsp://10.0.0.7/x', offline_alert_seconds: 9 }, /offline_alert_seconds/],
      [{ url: 'rtsp://10.0.0.7/x', offline_alert_seconds: 86_401 }, /offline_alert_seconds/],
      [{ url: 'rtsp://10.0.0.7/x', extra: 1 }, /[а-я]/],
    ];
    for (const [body, message] of cases) {
      const response = await put(cam, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await response.json()).error.message).toMatch(message);
    }
    expect(await streamOfCamera(t.deps.db, cam)).toBeUndefined();
    // rtsps is accepted.
    expect((await put(cam, { url: 'rtsps://10.0.0.7:322/live' })).status).toBe(200);
  });

  it('checks access before the body: an assessor, a rival and a missing camera change nothing', async () => {
    const cam = w.cameraIds[2]!;
    expect((await put(cam, { url: 'http://bad' }, w.cookies.assessor)).status).toBe(403);
    // Another organisation's camera is not found, as every structure-scoped call answers.
    expect((await put(cam, { url: 'rtsp://10.0.0.7/x' }, w.cookies.rival)).status).toBe(404);
    expect((await put(w.foreignCameraId, { url: 'rtsp://10.0.0.7/x' })).status).toBe(404);
    expect((await put(999_999, { url: 'rtsp://10.0.0.7/x' })).status).toBe(404);
    expect((await t.request(`/api/v1/camera/${cam}/stream`, { method: 'PUT', body: '{}' })).status).toBe(401);
    expect(await streamOfCamera(t.deps.db, cam)).toBeUndefined();
  });
});
