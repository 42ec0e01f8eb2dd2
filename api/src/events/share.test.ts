import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashShareKey } from '../auth/share-keys';
import { SHARE_KEY_HEADER } from '../http/client-address';
import { errorMessage as message, eventHall, type EventCallInit, type EventHall } from '../../test-support/event-hall';
import { insertTrackedVideo } from '../../test-support/event-trackings';
import { createTestApp, type TestApp } from '../../test-support/testing';
import type { VideoWorld } from '../../test-support/video-fixtures';

/**
 * The share link of a hall's event analytics (issue 44, docs/event-analytics.md «Ссылка „поделиться“»):
 * POST /api/v1/event/share makes a share key of the kind 'event' for a hall and window; without a login,
 * GET /api/v1/event/shared/{key} gives that window's figures (the same as GET /api/v1/event/figures) and
 * the hall's zones, and nothing else: such a key opens neither the interactive report nor a video, and a
 * report's key does not open the figures. A revoked or unknown key — 404 in Russian. A hall of one
 * calibrated camera (10 pixels a metre) with a finished tracking of one person standing 10 s in a stand's zone.
 */
let t: TestApp;
let hall: EventHall;
let w: VideoWorld;

const T0 = Date.UTC(2026, 10, 16, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const window = { from: iso(T0 - 60_000), to: iso(T0 + 600_000) };

/** A call as a guest unless a cookie is given. */
const send = (path: string, init: EventCallInit = {}) => hall.call(path, { cookie: null, ...init });
const share = (cookie: string, body: unknown = { structure_id: w.structureId, ...window }) => send('/api/v1/event/share', { method: 'POST', cookie, body });
const keyCount = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('share_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

let standZone: number;
let hallVideo: number;

beforeAll(async () => {
  t = await createTestApp();
  hall = await eventHall(t);
  w = hall.w;
  const db = t.deps.db;
  const camera = w.cameraIds[0]!;
  await hall.calibrateSquare(camera, { pixels: 100, metres: 10 });
  // One person standing at (5, 5) m for 10 s: box bottom centre (50, 50) px.
  hallVideo = await insertTrackedVideo(db, camera, { filename: 'hall.mp4', start: T0 }, [
    Array.from({ length: 11 }, (_, s) => [s * 25, s, 45, 30, 10, 20, 0.9]),
  ]);
  standZone = await hall.addZone({ name: 'Стенд 1', role: 'stand', shape: { type: 'circle', center: [5, 5], radius: 1 } });
});
afterAll(async () => t?.cleanup());

describe('POST /api/v1/event/share and GET /api/v1/event/shared/{key}', () => {
  it("gives a key that opens, without a login, exactly the window's figures and the hall's zones", async () => {
    const made = await share(w.cookies.admin);
    expect(made.status).toBe(200);
    const key = (made.body as { hash: string }).hash;
    expect(Buffer.from(key, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const row = await t.deps.db.selectFrom('share_keys').selectAll().where('key', '=', hashShareKey(key)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'event', structure_id: w.structureId, from_time: Date.parse(window.from), to_time: Date.parse(window.to) });

    const shared = await send(`/api/v1/event/shared/${key}`);
    expect(shared.status).toBe(200);
    const figures = await send(
      `/api/v1/event/figures?structure_id=${w.structureId}&from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`,
      {
        cookie: w.cookies.admin,
      },
    );
    const zones = await send(`/api/v1/event/zones?structure_id=${w.structureId}`, { cookie: w.cookies.admin });
    expect(Object.keys(shared.body).sort()).toEqual(['figures', 'from', 'structure_id', 'structure_name', 'time_zone', 'to', 'zones']);
    expect(shared.body).toMatchObject({ structure_id: w.structureId, structure_name: 'Участок', time_zone: 'Europe/Moscow', from: window.from, to: window.to });
    expect(shared.body.figures).toEqual(figures.body);
    expect(shared.body.zones).toEqual(zones.body.zones);
    type Moment = { camera_id: number; video_id: number | null; video_second: number | null; start: number };
    const f = shared.body.figures as {
      visitors: number;
      dwell: { zone_id: number; visits: number; total_seconds: number; inside_seconds: number; visit_moments: Moment[] }[];
    };
    expect(f.visitors).toBe(1);
    const stand = f.dwell.find((d) => d.zone_id === standZone)!;
    expect(stand).toMatchObject({ visits: 1, total_seconds: 10, inside_seconds: 10 });
    // The visit names the video that saw it and its second there: what opens the video at that moment.
    expect(stand.visit_moments).toEqual([expect.objectContaining({ camera_id: w.cameraIds[0], video_id: hallVideo, video_second: 0, start: T0 / 1000 })]);
  });

  it('lets every role that reads reports share, as the interactive report does; refuses a visitor, a foreign hall and a bad window with nothing written', async () => {
    expect((await share(w.cookies.viewer)).status).toBe(200);
    const before = await keyCount();
    expect((await share('')).status).toBe(401);
    expect((await share(w.cookies.rival)).status).toBe(404);
    expect((await share(w.cookies.admin, { structure_id: w.foreignStructureId, ...window })).status).toBe(404);
    const backwards = await share(w.cookies.admin, { structure_id: w.structureId, from: window.to, to: window.from });
    expect(backwards.status).toBe(400);
    expect(message(backwards)).toContain('конец окна должен быть позже начала');
    const long = await share(w.cookies.admin, { structure_id: w.structureId, from: window.from, to: iso(T0 + 8 * 86_400_000) });
    expect(long.status).toBe(400);
    expect(message(long)).toContain('окно не длиннее 7 суток');
    const extra = await share(w.cookies.admin, { structure_id: w.structureId, ...window, camera_id: 1 });
    expect(extra.status).toBe(400);
    expect((await share(w.cookies.admin, { structure_id: w.structureId, from: 'вчера', to: window.to })).status).toBe(400);
    expect(await keyCount()).toBe(before);
  });

  it("keeps the kinds apart: an event key opens no report and no video, a report's key opens no figures", async () => {
    const key = ((await share(w.cookies.admin)).body as { hash: string }).hash;
    const frvQuery = `structure_id=${w.structureId}&from_time=${encodeURIComponent(window.from)}&to_time=${encodeURIComponent(window.to)}`;
    const frv = await send(`/api/v2/frv?${frvQuery}`, { headers: { [SHARE_KEY_HEADER]: key } });
    expect(frv.status).toBe(401);
    expect(message(frv)).toBe('Ссылка недействительна или отозвана');
    expect((await send(`/api/v1/resolve_hash/${key}`)).status).toBe(404);
    const reportKey = (
      (
        await send('/api/v1/generate_hash', {
          method: 'POST',
          cookie: w.cookies.admin,
          body: { structure_id: w.structureId, from_time: window.from, to_time: window.to },
        })
      ).body as { hash: string }
    ).hash;
    const refused = await send(`/api/v1/event/shared/${reportKey}`);
    expect(refused.status).toBe(404);
    expect(message(refused)).toBe('Ссылка недействительна или отозвана');
    // The report's key still opens its report.
    expect((await send(`/api/v1/resolve_hash/${reportKey}`)).status).toBe(200);
  });

  it('stops opening the figures once revoked; an unknown or malformed key gets the same Russian refusal', async () => {
    const key = ((await share(w.cookies.viewer)).body as { hash: string }).hash;
    expect((await send(`/api/v1/event/shared/${key}`)).status).toBe(200);
    // Only its creator or an administrator revokes it.
    const foreign = await send(`/api/v1/share/${key}`, { method: 'DELETE', cookie: w.cookies.assessor });
    expect(foreign.status).toBe(403);
    const revoked = await send(`/api/v1/share/${key}`, { method: 'DELETE', cookie: w.cookies.viewer });
    expect(revoked.status).toBe(200);
    const after = await send(`/api/v1/event/shared/${key}`);
    expect(after.status).toBe(404);
    expect(message(after)).toBe('Ссылка недействительна или отозвана');
    for (const wrong of [`${key.slice(0, -2)}xx`, 'abc']) {
      const reply = await send(`/api/v1/event/shared/${wrong}`);
      expect(reply.status).toBe(404);
      expect(message(reply)).toBe('Ссылка недействительна или отозвана');
    }
  });
});
