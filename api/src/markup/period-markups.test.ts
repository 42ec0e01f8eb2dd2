import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, type TestApp } from '../../test-support/testing';
import type { z } from '@hono/zod-openapi';
import type { PeriodMarkupsReply } from './period-markups.schema';

let t: TestApp;
let f: WorkspaceFixture;
let videoId: number;
let otherCameraVideoId: number;
const at = (time: string) => Date.parse(`2026-11-16T${time}Z`);
const iso = (time: string) => new Date(at(time)).toISOString();
const window = (from = '08:00:00', to = '10:00:00') => `from_time=${iso(from)}&to_time=${iso(to)}`;
let path: string;

type Reply = z.output<typeof PeriodMarkupsReply>;

beforeAll(async () => {
  t = await createTestApp();
  f = await workspaceFixture(t);
  const { db } = t.deps;
  const camera = (camera_key: number) =>
    db
      .insertInto('cameras')
      .values({ structure_id: f.structureId, camera_key, name: `Камера ${camera_key}`, storage_folder: `rec/${camera_key}` })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  const [cam1, cam2] = [await camera(1), await camera(2)];
  const video = (camera_id: number, start: string, name: string) =>
    db
      .insertInto('videos')
      .values({ camera_id, filename: name, storage_key: `rec/${name}`, start_time: at(start), duration: 600, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  // Camera 2 films "Стол 1" (it already holds a markup of it); camera 1 covers the same time.
  otherCameraVideoId = await video(cam1, '09:00:00', 'cam1.mp4');
  videoId = await video(cam2, '09:00:00', 'cam2.mp4');
  await db
    .insertInto('markups')
    .values({
      structure_id: f.structureId,
      operation_id: f.operationId,
      workplace_id: f.workplaceId,
      employee_id: f.employeeId,
      start_time: at('09:00:00'),
      end_time: at('09:01:00'),
      comment: 'с видео',
      video_id: videoId,
      author_id: f.users.assessor,
      created_at: f.now,
      updated_at: f.now,
    })
    .execute();
  await db
    .insertInto('markups')
    .values({
      structure_id: f.structureId,
      operation_id: f.operationId,
      workplace_id: f.workplaceId,
      employee_id: null,
      start_time: at('08:10:00'),
      end_time: at('08:20:00'),
      comment: null,
      video_id: null,
      author_id: f.users.assessor,
      created_at: f.now,
      updated_at: f.now,
    })
    .execute();
  path = `/api/v1/operation_markups?structure_id=${f.structureId}&${window()}`;
});
afterAll(async () => t.cleanup());

const load = async (who: 'admin' | 'analyst' | 'assessor' | 'viewer' = 'assessor') => (await (await f.call('GET', path, who)).json()) as Reply;
const allMarkups = () => t.deps.db.selectFrom('markups').selectAll().orderBy('id').execute();
const versionOf = async (id: number) =>
  (await t.deps.db.selectFrom('videos').select('markup_version').where('id', '=', id).executeTakeFirstOrThrow()).markup_version;

describe('GET /api/v1/operation_markups', () => {
  it('answers rows newest first with their video and a version', async () => {
    const reply = await load('viewer');
    expect(reply.operation_markups.map((r) => r.comment)).toEqual(['с видео', null]);
    expect(reply.operation_markups[0]!.video_id).toBe(videoId);
    expect(reply.version).toMatch(/^2-[0-9a-f]{24}$/);
    expect((await load('viewer')).version).toBe(reply.version);
  });
});

describe('POST /api/v1/operation_markups', () => {
  it('inserts, edits and deletes in one save; the video screen sees the same rows', async () => {
    const before = await load();
    const [withVideo, plain] = before.operation_markups;
    const videoVersion = await versionOf(videoId);
    const response = await f.call('POST', path, 'assessor', {
      base_version: before.version,
      operation_markups: [
        // New, inside both videos' span: linked to camera 2, which films this workplace.
        {
          operation_id: f.operationId,
          workplace_id: f.workplaceId,
          employee_id: f.employeeId,
          start_time: iso('09:02:00'),
          end_time: '2026-11-16T12:03:30+03:00',
          comment: 'новая',
        },
        // Edited within its video: keeps the video.
        { ...withVideo, end_time: iso('09:01:30'), comment: 'длиннее' },
      ],
      operation_markups_to_delete: [plain!.id],
    });
    expect(response.status).toBe(200);
    const reply = (await response.json()) as Reply;
    expect(reply.operation_markups.map((r) => [r.comment, r.start_time, r.end_time, r.video_id])).toEqual([
      ['новая', '2026-11-16T09:02:00.000Z', '2026-11-16T09:03:30.000Z', videoId],
      ['длиннее', '2026-11-16T09:00:00.000Z', '2026-11-16T09:01:30.000Z', videoId],
    ]);
    expect(reply.version).not.toBe(before.version);
    expect(await versionOf(videoId)).toBe(videoVersion + 1);

    const onVideo = await (await f.call('GET', `/api/v1/video_markups/${videoId}`, 'assessor')).json();
    expect(onVideo.video_markups.map((m: { start_time: number; end_time: number; comment: string }) => [m.start_time, m.end_time, m.comment])).toEqual([
      [0, 90, 'длиннее'],
      [120, 210, 'новая'],
    ]);
    const activity = await (await f.call('GET', `/api/v1/activities?video_id=${videoId}&offset=0&limit=5`, 'assessor')).json();
    expect(activity[0].comment).toBe('Разметка изменена в редакторе периода');
  });

  it('links a new row outside every video to none, and a row moved out of its video to the covering one or none', async () => {
    const before = await load();
    const edited = before.operation_markups.find((r) => r.comment === 'длиннее')!;
    const reply = (await (
      await f.call('POST', path, 'analyst', {
        base_version: before.version,
        operation_markups: [
          { operation_id: f.operationId, workplace_id: f.workplaceId, start_time: iso('08:30:00'), end_time: iso('08:40:00'), comment: 'до видео' },
          { ...edited, start_time: iso('08:50:00'), end_time: iso('08:55:00') },
        ],
      })
    ).json()) as Reply;
    expect(reply.operation_markups.find((r) => r.comment === 'до видео')!.video_id).toBeNull();
    expect(reply.operation_markups.find((r) => r.id === edited.id)!.video_id).toBeNull();
    const back = (await (
      await f.call('POST', path, 'analyst', {
        base_version: reply.version,
        operation_markups: [{ ...reply.operation_markups.find((r) => r.id === edited.id)!, start_time: iso('09:00:00'), end_time: iso('09:01:30') }],
      })
    ).json()) as Reply;
    expect(back.operation_markups.find((r) => r.id === edited.id)!.video_id).toBe(videoId);
    expect(otherCameraVideoId).not.toBe(videoId);
  });

  it('refuses a save based on a stale version with 409 and writes nothing', async () => {
    const stale = await load();
    // Meanwhile the video screen changes a row of the window.
    const onVideo = await (await f.call('GET', `/api/v1/video_markups/${videoId}`, 'assessor')).json();
    const first = onVideo.video_markups[0];
    const saved = await f.call('PUT', `/api/v1/video_markups/${videoId}`, 'assessor', {
      video_markups: [{ ...first, comment: 'с экрана видео' }],
      base_version: onVideo.version,
    });
    expect(saved.status).toBe(200);
    const before = await allMarkups();
    const response = await f.call('POST', path, 'assessor', {
      base_version: stale.version,
      operation_markups: [{ ...stale.operation_markups[0]!, comment: 'поверх' }],
    });
    expect(response.status).toBe(409);
    expect((await response.json()).error.message).toMatch(/уже изменили/);
    expect(await allMarkups()).toEqual(before);
  });

  it('makes the video screen’s stale save a 409 after a period save', async () => {
    const onVideo = await (await f.call('GET', `/api/v1/video_markups/${videoId}`, 'assessor')).json();
    const current = await load();
    await f.call('POST', path, 'assessor', {
      base_version: current.version,
      operation_markups: [{ ...current.operation_markups[0]!, comment: 'из редактора' }],
    });
    const response = await f.call('PUT', `/api/v1/video_markups/${videoId}`, 'assessor', {
      video_markups: [{ ...onVideo.video_markups[0], comment: 'устаревшее' }],
      base_version: onVideo.version,
    });
    expect(response.status).toBe(409);
  });

  it('refuses bad rows with 400 naming the row, and changes nothing', async () => {
    const before = await allMarkups();
    const videoVersion = await versionOf(videoId);
    const current = await load();
    const ok = { operation_id: f.operationId, workplace_id: f.workplaceId, start_time: iso('09:10:00'), end_time: iso('09:11:00') };
    const cases: [unknown, RegExp][] = [
      [{ operation_markups: [ok, { ...ok, end_time: iso('09:10:00') }] }, /раньше конца \(строка 2\)/],
      [{ operation_markups: [{ ...ok, start_time: iso('09:00:00'), end_time: '2026-11-18T09:00:00Z' }] }, /длиннее суток/],
      [{ operation_markups: [{ ...ok, operation_id: f.foreignOperationId }] }, /Операция не из этой/],
      [{ operation_markups: [{ ...ok, workplace_id: f.foreignWorkplaceId }] }, /Рабочее место не из этой/],
      [{ operation_markups: [{ ...ok, employee_id: 999999 }] }, /Сотрудник не из этой/],
      [{ operation_markups: [{ ...ok, operation_id: undefined }] }, /operation_id/],
      [{ operation_markups: [{ ...ok, workplace_id: '1' }] }, /workplace_id/],
      [{ operation_markups: [{ ...ok, start_time: '2026-11-16 09:10' }] }, /start_time/],
      [{ operation_markups: [{ ...ok, start_time: '2026-11-16T09:10:00' }] }, /start_time/],
      [{ operation_markups: [], operation_markups_to_delete: [987654] }, /не относятся/],
      [
        { operation_markups: [{ ...ok, id: current.operation_markups[0]!.id }], operation_markups_to_delete: [current.operation_markups[0]!.id] },
        /одновременно/,
      ],
      [{ operation_markups: 'строки' }, /operation_markups/],
    ];
    for (const [body, message] of cases) {
      const response = await f.call('POST', path, 'assessor', { base_version: current.version, ...(body as object) });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await allMarkups()).toEqual(before);
    expect(await versionOf(videoId)).toBe(videoVersion);
  });

  it('checks the window, roles and organisations; nothing changes', async () => {
    const before = await allMarkups();
    const row = { operation_id: f.operationId, workplace_id: f.workplaceId, start_time: iso('09:10:00'), end_time: iso('09:11:00') };
    expect((await f.call('POST', path, 'viewer', { operation_markups: [row] })).status).toBe(403);
    expect((await f.call('POST', path, null, { operation_markups: [row] })).status).toBe(401);
    expect((await f.call('POST', `/api/v1/operation_markups?structure_id=${f.foreignId}&${window()}`, 'admin', { operation_markups: [] })).status).toBe(404);
    expect((await f.call('POST', path, 'rival', { operation_markups: [row] })).status).toBe(404);
    const badWindow = await f.call('POST', `/api/v1/operation_markups?structure_id=${f.structureId}&${window('10:00:00', '08:00:00')}`, 'admin', {
      operation_markups: [row],
    });
    expect(badWindow.status).toBe(400);
    expect((await badWindow.json()).error.message).toContain('to_time');
    expect((await f.call('POST', `/api/v1/operation_markups?${window()}`, 'admin', { operation_markups: [row] })).status).toBe(400);
    // A row id of another organisation's structure is not found in this one.
    const foreignRow = await t.deps.db
      .insertInto('markups')
      .values({
        structure_id: f.foreignId,
        operation_id: f.foreignOperationId,
        workplace_id: f.foreignWorkplaceId,
        employee_id: null,
        start_time: at('09:00:00'),
        end_time: at('09:05:00'),
        comment: null,
        created_at: f.now,
        updated_at: f.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const all = await allMarkups();
    const response = await f.call('POST', path, 'admin', { base_version: (await load()).version, operation_markups: [{ ...row, id: foreignRow.id }] });
    expect(response.status).toBe(400);
    expect(await allMarkups()).toEqual(all);
    expect(all.filter((m) => m.id !== foreignRow.id)).toEqual(before);
  });
});
