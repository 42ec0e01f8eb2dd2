import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, makeClip, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import { completionPercentage } from './tasks.service';
import { DUMP_COLUMNS, DUMP_NEEDS_DATE_AND_CAMERA } from './tasks-dump.service';

let t: TestApp;
let w: VideoWorld;
const utc = (iso: string) => Date.parse(iso);
const ids: Record<string, number> = {};
const bulk: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  const [cam1, cam2] = w.cameraIds as [number, number];
  // 32 plain recordings, a minute apart, on camera 1.
  for (let i = 0; i < 32; i++) {
    const start = utc('2026-11-10T05:00:00Z') + i * 60_000;
    bulk.push(
      await insertVideo(t.deps.db, cam1, {
        filename: `cam1_2026-11-10_${String(8 + Math.floor(i / 60)).padStart(2, '0')}-${String(i % 60).padStart(2, '0')}-00.mp4`,
        start,
        duration: 60,
      }),
    );
  }
  ids.covered = await insertVideo(t.deps.db, cam1, {
    filename: 'cam1_2026-11-16_09-00-00.mp4',
    start: utc('2026-11-16T06:00:00Z'),
    duration: 100,
    key: 'recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4',
  });
  ids.third = await insertVideo(t.deps.db, cam2, { filename: 'Запись_склад.mp4', start: utc('2026-11-16T06:30:00Z'), duration: 30, comment: 'склад' });
  ids.percent = await insertVideo(t.deps.db, cam2, { filename: '100%готово.mp4', start: utc('2026-11-15T06:00:00Z'), duration: 10 });
  ids.finished = await insertVideo(t.deps.db, cam2, { filename: 'nounderscore.mp4', start: utc('2026-11-14T06:00:00Z'), duration: 10 });
  ids.queued = await insertVideo(t.deps.db, cam2, { filename: 'cam2_queued.mp4', start: utc('2026-11-20T06:00:00Z'), duration: null, status: 'queued' });
  ids.foreign = await insertVideo(t.deps.db, w.foreignCameraId, { filename: 'foreign.mp4', start: utc('2026-11-16T06:00:00Z'), duration: 10 });
  await makeClip(t.deps.storage.pathOf('recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4'), { seconds: 1 });
  await t.deps.db
    .updateTable('videos')
    .set({ finished: 1, finished_at: utc('2026-11-18T12:00:00Z'), author_id: w.assessor.id })
    .where('id', '=', ids.finished)
    .execute();
  await t.deps.db
    .insertInto('activities')
    .values([
      { video_id: ids.covered, author_id: w.assessor.id, happened_at: utc('2026-11-17T10:00:00Z'), comment: 'Разметка сохранена' },
      { video_id: ids.covered, author_id: w.assessor.id, happened_at: utc('2026-11-17T11:00:00Z'), comment: 'Разметка сохранена' },
      { video_id: ids.finished, author_id: w.assessor.id, happened_at: utc('2026-11-19T10:00:00Z'), comment: 'Комментарий' },
    ])
    .execute();
  const now = Date.now();
  const markup = (
    videoId: number | null,
    from: string,
    to: string,
    extra: Partial<{ comment: string | null; employee_id: number | null; operation_id: number; workplace_id: number }> = {},
  ) => ({
    structure_id: w.structureId,
    operation_id: w.operationIds.main,
    workplace_id: w.workplaceIds[0]!,
    employee_id: w.employeeId,
    start_time: utc(from),
    end_time: utc(to),
    comment: null,
    video_id: videoId,
    author_id: w.assessor.id,
    created_at: now,
    updated_at: now,
    ...extra,
  });
  await t.deps.db
    .insertInto('markups')
    .values([
      // Covered video 06:00:00–06:01:40: 10 s clipped + overlap to 06:00:30, 10 s, 5 s clipped → 45 s of 100.
      markup(ids.covered, '2026-11-16T05:59:50Z', '2026-11-16T06:00:10Z', { comment: 'через начало\tвидео' }),
      markup(ids.covered, '2026-11-16T06:00:05Z', '2026-11-16T06:00:30Z', {
        operation_id: w.operationIds.idle,
        employee_id: null,
        workplace_id: w.workplaceIds[1]!,
      }),
      markup(ids.covered, '2026-11-16T06:01:00Z', '2026-11-16T06:01:10.5Z', { comment: 'две\nстроки' }),
      markup(ids.covered, '2026-11-16T06:01:35Z', '2026-11-16T06:02:00Z'),
      // The third: 10 of 30 s.
      markup(ids.third, '2026-11-16T06:30:10Z', '2026-11-16T06:30:20Z'),
      // On camera 1 on the local date edges: 23:30 on the 16th (in), 00:10 on the 17th (out), 23:59 on the 15th (out).
      markup(bulk[0]!, '2026-11-16T20:30:00Z', '2026-11-16T20:31:00Z', { comment: 'поздно вечером' }),
      markup(bulk[1]!, '2026-11-16T21:10:00Z', '2026-11-16T21:11:00Z'),
      markup(bulk[2]!, '2026-11-15T20:59:00Z', '2026-11-15T21:00:00Z'),
      // No video: not in a camera's record.
      markup(null, '2026-11-16T07:00:00Z', '2026-11-16T07:05:00Z'),
    ])
    .execute();
});
afterAll(async () => t.cleanup());

const tasks = (query: string, cookie = w.cookies.viewer) => t.request(`/api/v1/get_tasks?structure_id=${w.structureId}&${query}`, { cookie });
const names = (body: { elements: { video: { filename: string } }[] }) => body.elements.map((e) => e.video.filename);

describe('completion percentage', () => {
  it('is the union of the segments clipped to the video, over its duration', () => {
    const ms = (spans: [number, number][]) => spans.map(([start, end]) => ({ start_time: start * 1000, end_time: end * 1000 }));
    expect(
      completionPercentage(
        ms([
          [0, 10],
          [5, 15],
          [20, 25],
          [24, 30],
        ]),
        0,
        100,
      ),
    ).toBe(25);
    expect(
      completionPercentage(
        ms([
          [-10, 5],
          [95, 120],
        ]),
        0,
        100,
      ),
    ).toBe(10);
    expect(completionPercentage(ms([[200, 300]]), 0, 100)).toBe(0);
    expect(completionPercentage([{ start_time: 0, end_time: 1000 }], 0, 3)).toBe(33.3);
    expect(completionPercentage([{ start_time: 0, end_time: 5000 }], 0, null)).toBe(0);
    expect(completionPercentage([{ start_time: -5000, end_time: 50000 }], 0, 10)).toBe(100);
  });
});

describe('GET /api/v1/get_tasks', () => {
  it('lists ready videos, newest recordings first, 30 a page by default, with the total', async () => {
    const first = await (await tasks('')).json();
    expect(first.total).toBe(36);
    expect(first.elements).toHaveLength(30);
    expect(names(first).slice(0, 4)).toEqual(['Запись_склад.mp4', 'cam1_2026-11-16_09-00-00.mp4', '100%готово.mp4', 'nounderscore.mp4']);
    expect(names(first)).not.toContain('cam2_queued.mp4');
    const second = await (await tasks('offset=30&limit=30')).json();
    expect(second.total).toBe(36);
    expect(second.elements).toHaveLength(6);
    expect(new Set([...names(first), ...names(second)]).size).toBe(36);
    expect(names(second).at(-1)).toBe('cam1_2026-11-10_08-00-00.mp4');
  });

  it('gives each row its video, status (finished, completion, time) and author', async () => {
    const body = await (await tasks('limit=4')).json();
    const [third, covered, percent, finished] = body.elements;
    expect(covered).toEqual({
      video: {
        id: ids.covered,
        filename: 'cam1_2026-11-16_09-00-00.mp4',
        comment: '',
        damage: null,
        start_time: '2026-11-16T06:00:00.000Z',
        start_source: 'file_name',
        start_confirmed: true,
      },
      status: { finished: false, completion_percentage: 45.5, happened_at: '2026-11-17T11:00:00.000Z' },
      author: null,
    });
    expect(third.status).toEqual({ finished: false, completion_percentage: 33.3, happened_at: null });
    expect(third.video.comment).toBe('склад');
    expect(percent.status.completion_percentage).toBe(0);
    expect(finished).toEqual({
      // Inserted without a start source: the column's default, a start read from the name and confirmed.
      video: {
        id: ids.finished,
        filename: 'nounderscore.mp4',
        comment: '',
        damage: null,
        start_time: '2026-11-14T06:00:00.000Z',
        start_source: 'file_name',
        start_confirmed: true,
      },
      status: { finished: true, completion_percentage: 0, happened_at: '2026-11-18T12:00:00.000Z' },
      author: { first_name: 'Мария', last_name: 'Разметчица' },
    });
  });

  it('filters finished and unfinished', async () => {
    const finished = await (await tasks('option=finished')).json();
    expect(finished.total).toBe(1);
    expect(names(finished)).toEqual(['nounderscore.mp4']);
    const unfinished = await (await tasks('option=unfinished&limit=100')).json();
    expect(unfinished.total).toBe(35);
    expect(names(unfinished)).not.toContain('nounderscore.mp4');
  });

  it('finds a case-insensitive substring of the file name, Latin or Cyrillic, with % and _ taken literally', async () => {
    const latin = await (await tasks(`filename_pattern=${encodeURIComponent('CAM1_2026-11-10_08-0')}`)).json();
    expect(latin.total).toBe(10);
    expect(names(latin)[0]).toBe('cam1_2026-11-10_08-09-00.mp4');
    const cyrillic = await (await tasks(`filename_pattern=${encodeURIComponent('запись')}`)).json();
    expect(names(cyrillic)).toEqual(['Запись_склад.mp4']);
    expect(cyrillic.total).toBe(1);
    const percent = await (await tasks(`filename_pattern=${encodeURIComponent('%')}`)).json();
    expect(names(percent)).toEqual(['100%готово.mp4']);
    const underscore = await (await tasks(`filename_pattern=_&limit=100`)).json();
    expect(underscore.total).toBe(34);
    expect(names(underscore)).not.toContain('nounderscore.mp4');
    const pagedCyrillic = await (await tasks(`filename_pattern=${encodeURIComponent('Ё')}&offset=0`)).json();
    expect(pagedCyrillic).toEqual({ elements: [], total: 0 });
    const finishedOnly = await (await tasks('option=finished&filename_pattern=cam1')).json();
    expect(finishedOnly).toEqual({ elements: [], total: 0 });
  });

  it('refuses bad parameters with 400 and other organisations with 404', async () => {
    for (const query of ['limit=101', 'limit=0', 'offset=-1', 'option=done', 'limit=abc']) {
      expect((await tasks(query)).status, query).toBe(400);
    }
    expect((await t.request('/api/v1/get_tasks', { cookie: w.cookies.viewer })).status).toBe(400);
    expect((await t.request(`/api/v1/get_tasks?structure_id=${w.foreignStructureId}`, { cookie: w.cookies.viewer })).status).toBe(404);
    expect((await tasks('', '')).status).toBe(401);
  });
});

describe('POST /api/v1/task/{videoId}/finish', () => {
  it('marks the task finished once, with the finisher as author and an activity', async () => {
    const response = await t.request(`/api/v1/task/${ids.third}/finish`, { method: 'POST', cookie: w.cookies.assessor });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Задача завершена' });
    const row = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', ids.third!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ finished: 1, author_id: w.assessor.id });
    expect(Math.abs(row.finished_at! - Date.now())).toBeLessThan(5000);
    expect((await t.request(`/api/v1/task/${ids.third}/finish`, { method: 'POST', cookie: w.cookies.admin })).status).toBe(200);
    const again = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', ids.third!).executeTakeFirstOrThrow();
    expect(again).toMatchObject({ finished_at: row.finished_at, author_id: w.assessor.id });
    const activities = await (await t.request(`/api/v1/activities?video_id=${ids.third}`, { cookie: w.cookies.viewer })).json();
    expect(activities).toEqual([expect.objectContaining({ author_name: 'Мария Разметчица', comment: 'Задача завершена' })]);
    const listed = await (await tasks('option=finished')).json();
    expect(listed.elements[0].status).toEqual({ finished: true, completion_percentage: 33.3, happened_at: new Date(row.finished_at!).toISOString() });
  });

  it('refuses viewers, other organisations, bad ids and videos still processing', async () => {
    const finish = (id: number | string, cookie = w.cookies.assessor) => t.request(`/api/v1/task/${id}/finish`, { method: 'POST', cookie });
    expect((await finish(ids.covered!, w.cookies.viewer)).status).toBe(403);
    expect((await finish(ids.foreign!)).status).toBe(404);
    expect((await finish('abc')).status).toBe(400);
    expect((await finish(ids.queued!)).status).toBe(409);
    const rows = await t.deps.db.selectFrom('videos').select('finished').where('id', 'in', [ids.covered!, ids.foreign!, ids.queued!]).execute();
    expect(rows.map((r) => r.finished)).toEqual([0, 0, 0]);
  });
});

describe('GET /api/v1/dump', () => {
  const dump = (query: string, cookie = w.cookies.viewer) => t.request(`/api/v1/dump?structure_id=${w.structureId}&${query}`, { cookie });

  it('is a TSV attachment: a header, then one line per markup of that camera’s videos on that local date', async () => {
    const response = await dump('camera_key=1&date=2026-11-16&format=tsv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/tab-separated-values; charset=utf-8');
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toContain('attachment; filename="worktime-camera1-2026-11-16.tsv"');
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe('Учёт времени — Участок — камера 1 — 2026-11-16.tsv');
    const lines = (await response.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    lines.pop();
    expect(lines[0]).toBe(DUMP_COLUMNS.join('\t'));

    // The expected lines, built from the markup rows themselves.
    const markups = await t.deps.db
      .selectFrom('markups')
      .innerJoin('videos', 'videos.id', 'markups.video_id')
      .select([
        'markups.id',
        'markups.start_time',
        'markups.end_time',
        'markups.comment',
        'markups.operation_id',
        'markups.workplace_id',
        'markups.employee_id',
        'videos.filename',
        'videos.camera_id',
      ])
      .orderBy('markups.start_time')
      .execute();
    const moscowDay = (ms: number) => new Date(ms + 3 * 3600_000).toISOString().slice(0, 10);
    const local = (ms: number) => new Date(ms + 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const names = {
      operation: {
        [w.operationIds.main]: ['Сборка', 'Основная (оперативная) работа'],
        [w.operationIds.idle]: ['Ожидание', 'Простои (нерегламентированные перерывы)'],
      } as Record<number, [string, string]>,
      workplace: Object.fromEntries(w.workplaceIds.map((id, i) => [id, `Стол № ${i + 1}`])),
    };
    const expected = markups
      .filter((m) => m.camera_id === w.cameraIds[0] && moscowDay(m.start_time) === '2026-11-16')
      .map((m) =>
        [
          m.filename,
          names.operation[m.operation_id]![0],
          names.operation[m.operation_id]![1],
          names.workplace[m.workplace_id],
          m.employee_id ? 'Иванов Иван' : '',
          local(m.start_time),
          local(m.end_time),
          String((m.end_time - m.start_time) / 1000),
          (m.comment ?? '').replace(/[\t\n]/g, ' '),
        ].join('\t'),
      );
    expect(expected).toHaveLength(5);
    expect(lines.slice(1)).toEqual(expected);
    // Spot-check one line by hand: the fractional duration and the cleaned comment.
    expect(lines[3]).toBe(
      'cam1_2026-11-16_09-00-00.mp4\tСборка\tОсновная (оперативная) работа\tСтол № 1\tИванов Иван\t2026-11-16 09:01:00\t2026-11-16 09:01:10\t10.5\tдве строки',
    );
    expect(lines[5]).toContain('\t2026-11-16 23:30:00\t2026-11-16 23:31:00\t60\tпоздно вечером');
    for (const line of lines) expect(line.split('\t')).toHaveLength(DUMP_COLUMNS.length);
  });

  it('has only the header for a camera or date without markups', async () => {
    expect(await (await dump('camera_key=4&date=2026-11-16')).text()).toBe(`${DUMP_COLUMNS.join('\t')}\n`);
    expect(await (await dump('camera_key=1&date=2026-11-18')).text()).toBe(`${DUMP_COLUMNS.join('\t')}\n`);
  });

  it('needs a date and a camera (the spec text), valid ones, and the user’s own structure', async () => {
    for (const query of ['date=2026-11-16', 'camera_key=1', '', 'camera_key=&date=', 'camera_key=1&date=']) {
      const response = await dump(query);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error.message, query).toBe(DUMP_NEEDS_DATE_AND_CAMERA);
    }
    for (const query of [
      'camera_key=5&date=2026-11-16',
      'camera_key=1&date=16.11.2026',
      'camera_key=1&date=2026-02-30',
      'camera_key=1&date=2026-11-16&format=csv',
    ]) {
      expect((await dump(query)).status, query).toBe(400);
    }
    expect((await t.request(`/api/v1/dump?structure_id=${w.foreignStructureId}&camera_key=1&date=2026-11-16`, { cookie: w.cookies.viewer })).status).toBe(404);
    expect((await dump('camera_key=1&date=2026-11-16', '')).status).toBe(401);
  });
});

describe('DELETE /api/v1/task/{id}', () => {
  it('is for analysts and admins of the organisation only', async () => {
    expect((await t.request(`/api/v1/task/${ids.covered}`, { method: 'DELETE', cookie: w.cookies.assessor })).status).toBe(403);
    expect((await t.request(`/api/v1/task/${ids.foreign}`, { method: 'DELETE', cookie: w.cookies.admin })).status).toBe(404);
    expect((await t.request('/api/v1/task/abc', { method: 'DELETE', cookie: w.cookies.admin })).status).toBe(400);
    expect(await t.deps.storage.exists('recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4')).toBe(true);
  });

  it('removes the video and its file; its markups stay without a video; its activity goes', async () => {
    const markupsBefore = await t.deps.db.selectFrom('markups').select('id').where('video_id', '=', ids.covered!).execute();
    expect(markupsBefore).toHaveLength(4);
    const response = await t.request(`/api/v1/task/${ids.covered}`, { method: 'DELETE', cookie: w.cookies.admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Задача удалена' });
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', ids.covered!).executeTakeFirst()).toBeUndefined();
    expect(await t.deps.storage.exists('recordings/site/cam1/cam1_2026-11-16_09-00-00.mp4')).toBe(false);
    const markupsAfter = await t.deps.db
      .selectFrom('markups')
      .select(['id', 'video_id'])
      .where(
        'id',
        'in',
        markupsBefore.map((m) => m.id),
      )
      .execute();
    expect(markupsAfter.map((m) => m.video_id)).toEqual([null, null, null, null]);
    expect(await t.deps.db.selectFrom('activities').select('id').where('video_id', '=', ids.covered!).execute()).toEqual([]);
    expect((await (await tasks('')).json()).total).toBe(35);
    expect((await t.request(`/api/v1/task/${ids.covered}`, { method: 'DELETE', cookie: w.cookies.admin })).status).toBe(404);
  });
});
