import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, testsOnPostgres, type TestApp } from '../../test-support/testing';
import { insertVideo, markupPlace } from '../../test-support/video-fixtures';
import { DISK_FULL_MESSAGE } from '../http/errors';

/**
 * Issue 39: a markup save on a full disk answers 507 «Недостаточно места на сервере» (docs/architecture.md,
 * «Нет места на диске»), not 500, and the database keeps the markup as it was.
 *
 * SQLite: a real SQLITE_FULL — the database may not grow by a page (max_page_count). A plain INSERT
 * that hits it makes SQLite roll the whole transaction back by itself, so the save's ROLLBACK then
 * fails («cannot rollback - no transaction is active»): that error used to reach the user as a 500.
 * PostgreSQL: its own disk_full error (SQLSTATE 53100, «could not extend file»), raised by a trigger.
 */

let t: TestApp;
let cookie: string;
let place: Awaited<ReturnType<typeof markupPlace>>;
let videoId: number;
const VIDEO_START = Date.parse('2026-11-16T06:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  const lead = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Мария', lastName: 'Иванова' });
  place = await markupPlace(t.deps.db, lead.organizationId);
  videoId = await insertVideo(t.deps.db, place.cameraId, { filename: 'cam1.mp4', key: 'rec/1/cam1.mp4', start: VIDEO_START, duration: 3600 });
  cookie = await t.signIn('lead', 'secret-pass');
});
afterAll(async () => t.cleanup());

/** From now on the database cannot take a page more (SQLite) or refuses rows as a full disk does (PostgreSQL). */
async function fillDisk() {
  const { db } = t.deps;
  if (testsOnPostgres()) {
    await sql
      .raw(
        `CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
           RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device' USING ERRCODE = 'disk_full';
         END $$`,
      )
      .execute(db);
    await sql.raw('CREATE TRIGGER test_disk_full BEFORE INSERT ON markups FOR EACH ROW EXECUTE FUNCTION test_disk_full()').execute(db);
    return;
  }
  const pages = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(db)).rows[0]!.page_count;
  await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(db);
}

async function freeDisk() {
  const { db } = t.deps;
  if (testsOnPostgres()) {
    await sql.raw('DROP TRIGGER IF EXISTS test_disk_full ON markups').execute(db);
    await sql.raw('DROP FUNCTION IF EXISTS test_disk_full()').execute(db);
    return;
  }
  await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
}
afterEach(freeDisk);

/** A comment of 2000 letters (4000 bytes): a hundred of them need new pages of the database. */
const LONG_COMMENT = 'ж'.repeat(2000);

const videoUrl = () => `/api/v1/video_markups/${videoId}`;
const videoMarkups = async () =>
  (await (await t.request(videoUrl(), { cookie })).json()) as { version: number; video_markups: { id: number; comment: string | null }[] };
const videoRow = (start: number, extra: Record<string, unknown> = {}) => ({
  id: -1,
  operation_id: place.operationId,
  workplace_id: place.workplaceId,
  employee_id: place.employeeId,
  start_time: start,
  end_time: start + 10,
  comment: LONG_COMMENT,
  ...extra,
});
const saveVideo = (body: object) =>
  t.request(videoUrl(), { method: 'PUT', cookie, body: JSON.stringify({ video_stamps: [], operation_markups_to_delete: [], ...body }) });

const periodUrl = () =>
  `/api/v1/operation_markups?structure_id=${place.structureId}&from_time=${new Date(VIDEO_START).toISOString()}&to_time=${new Date(VIDEO_START + 3_600_000).toISOString()}`;
const periodMarkups = async () =>
  (await (await t.request(periodUrl(), { cookie })).json()) as { version: string; operation_markups: { id: number; comment: string | null }[] };

describe('a markup save on a full disk', () => {
  it('on the video screen answers 507 with the Russian message, also when its ROLLBACK fails, and changes nothing', async () => {
    const first = await saveVideo({ base_version: (await videoMarkups()).version, video_markups: [videoRow(0, { comment: 'было' })] });
    expect(first.status).toBe(200);
    const before = await videoMarkups();
    expect(before.video_markups).toHaveLength(1);

    await fillDisk();
    // The saved row edited first (a write that must be undone), then a hundred new rows that do not fit.
    const rows = [{ ...videoRow(0), id: before.video_markups[0]!.id, comment: 'стало' }, ...Array.from({ length: 100 }, (_, i) => videoRow(20 + i * 10))];
    const full = await saveVideo({ base_version: before.version, video_markups: rows });
    expect(full.status).toBe(507);
    expect(await full.json()).toEqual({ error: { code: 'insufficient_storage', message: DISK_FULL_MESSAGE } });
    await freeDisk();

    expect(await videoMarkups()).toEqual(before);
    if (!testsOnPostgres()) expect((await sql<{ quick_check: string }>`PRAGMA quick_check`.execute(t.deps.db)).rows).toEqual([{ quick_check: 'ok' }]);
    // Space again: the same save goes through.
    const again = await saveVideo({ base_version: before.version, video_markups: rows });
    expect(again.status).toBe(200);
    expect((await videoMarkups()).video_markups).toHaveLength(101);
  });

  it('in the period editor answers 507 with the Russian message and changes nothing', async () => {
    const before = await periodMarkups();
    await fillDisk();
    const rows = Array.from({ length: 100 }, (_, i) => ({
      operation_id: place.operationId,
      workplace_id: place.workplaceId,
      employee_id: place.employeeId,
      start_time: new Date(VIDEO_START + 2_000_000 + i * 10_000).toISOString(),
      end_time: new Date(VIDEO_START + 2_000_000 + i * 10_000 + 5_000).toISOString(),
      comment: LONG_COMMENT,
    }));
    const full = await t.request(periodUrl(), { method: 'POST', cookie, body: JSON.stringify({ base_version: before.version, operation_markups: rows }) });
    expect(full.status).toBe(507);
    expect((await full.json()).error).toEqual({ code: 'insufficient_storage', message: DISK_FULL_MESSAGE });
    await freeDisk();
    expect(await periodMarkups()).toEqual(before);
  });
});
