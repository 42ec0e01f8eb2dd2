import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_KEYS_TOO_OFTEN, tooManyLiveShareKeys } from '../auth/share-keys';
import { configFromEnv } from '../config';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { videoWorld, type VideoWorld } from '../../test-support/video-fixtures';

/*
 * Issue 39, finding 3: anyone, a viewer too, could create share keys without limit (100 in 0.2 s).
 * A user now holds at most `livePerUser` live keys and creates at most `perHour` an hour
 * (NORMA_SHARE_KEYS_PER_USER, NORMA_SHARE_KEYS_PER_HOUR); beyond either the answer says so in
 * Russian and no key is written.
 */

let t: TestApp;
let w: VideoWorld;
let burst: TestApp;
let burstWorld: VideoWorld;

beforeAll(async () => {
  t = await createTestApp({ shareKeys: { livePerUser: 3, perHour: 5 } });
  w = await videoWorld(t);
  burst = await createTestApp({ shareKeys: { livePerUser: 1000, perHour: 5 } });
  burstWorld = await videoWorld(burst);
});
afterAll(async () => {
  await t?.cleanup();
  await burst?.cleanup();
});

const generate = (app: TestApp, world: VideoWorld, cookie: string) =>
  app.request('/api/v1/generate_hash', {
    method: 'POST',
    cookie,
    body: JSON.stringify({ structure_id: world.structureId, from_time: '2026-11-16T06:00:00Z', to_time: '2026-11-16T07:00:00Z' }),
  });
const keysOf = async (app: TestApp, userId: string) =>
  (await app.deps.db.selectFrom('share_keys').select(['key', 'revoked_at']).where('created_by', '=', userId).execute()).map((r) => r.key).sort();
const viewerId = async (app: TestApp) => (await app.deps.db.selectFrom('user').select('id').where('username', '=', 'watcher').executeTakeFirstOrThrow()).id;
const revoke = async (key: string, cookie: string) => expect((await t.request(`/api/v1/share/${key}`, { method: 'DELETE', cookie })).status).toBe(200);

describe('share keys per user', () => {
  it('the defaults are far above what a user makes by hand: 1000 live keys, 20 new ones an hour', () => {
    expect(configFromEnv({}).shareKeys).toEqual({ livePerUser: 1000, perHour: 20 });
    expect(configFromEnv({ NORMA_SHARE_KEYS_PER_USER: '50', NORMA_SHARE_KEYS_PER_HOUR: '0' }).shareKeys).toEqual({ livePerUser: 50, perHour: 20 });
  });

  it('past the live keys a user may hold: 409 in Russian and nothing written; revoking one frees a place', async () => {
    const viewer = await viewerId(t);
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await generate(t, w, w.cookies.viewer);
      expect(response.status).toBe(200);
      keys.push(((await response.json()) as { hash: string }).hash);
    }
    const held = await keysOf(t, viewer);
    expect(held).toHaveLength(3);

    const refused = await generate(t, w, w.cookies.viewer);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toEqual({ code: 'conflict', message: tooManyLiveShareKeys(3) });
    expect(await keysOf(t, viewer)).toEqual(held);
    // Another user of the same organisation is not held up by the viewer's keys.
    expect((await generate(t, w, w.cookies.assessor)).status).toBe(200);

    await revoke(keys[0]!, w.cookies.viewer);
    expect((await generate(t, w, w.cookies.viewer)).status).toBe(200);
    expect(await keysOf(t, viewer)).toHaveLength(4);
  });

  it('past the new keys a user may create in an hour: 429 with Retry-After in Russian and nothing written', async () => {
    const viewer = await viewerId(t);
    // Four made by the viewer in the test above (the refused one is not counted); the fifth is the last of the hour.
    const live = await t.deps.db.selectFrom('share_keys').select('key').where('created_by', '=', viewer).where('revoked_at', 'is', null).execute();
    expect(live).toHaveLength(3);
    await t.deps.db
      .updateTable('share_keys')
      .set({ revoked_at: Date.now() })
      .where(
        'key',
        'in',
        live.slice(0, 2).map((r) => r.key),
      )
      .execute();
    expect((await generate(t, w, w.cookies.viewer)).status).toBe(200);
    const held = await keysOf(t, viewer);

    const refused = await generate(t, w, w.cookies.viewer);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await refused.json()).error).toEqual({ code: 'rate_limited', message: SHARE_KEYS_TOO_OFTEN });
    expect(await keysOf(t, viewer)).toEqual(held);
  });

  it('a burst of creations sent at once gets exactly the hourly number of keys', async () => {
    const viewer = await viewerId(burst);
    const answers = await Promise.all(Array.from({ length: 12 }, () => generate(burst, burstWorld, burstWorld.cookies.viewer)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    expect(await keysOf(burst, viewer)).toHaveLength(5);
  });
});
