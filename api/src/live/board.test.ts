import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilState } from '../../../tests/support/wait';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, videoWorld, type VideoWorld } from '../../test-support/video-fixtures';
import type { LiveBoardReply } from './board';
import { BOARD_STREAMS_PER_USER } from './board.hub';

/**
 * The live board «Смена сейчас» (issue 45): its state, the push of a label over Server-Sent Events,
 * the share link, and the refusals — on the real app and database (SQLite, and PostgreSQL with
 * NORMA_TEST_DATABASE=postgres).
 */

let t: TestApp;
let w: VideoWorld;
let videoId: number;
const videoStart = Date.now() - 20 * 60_000;

/** An open event stream: its events as they come, read in the background. */
interface EventStream {
  events: { event: string; data: string }[];
  status: number;
  ended: () => boolean;
  close: () => Promise<void>;
}

async function openStream(query: string, cookie?: string): Promise<EventStream> {
  const response = await t.request(`/api/v1/live_board/events?${query}`, { cookie, headers: { accept: 'text/event-stream' } });
  const events: { event: string; data: string }[] = [];
  let ended = response.status !== 200;
  if (response.status === 200) {
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const lines = block.split('\n');
            const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
            const data = lines
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (event) events.push({ event, data });
          }
        }
      } catch {
        // The test closed the stream.
      } finally {
        ended = true;
      }
    })();
    return { events, status: 200, ended: () => ended, close: () => reader.cancel() };
  }
  return { events, status: response.status, ended: () => true, close: async () => {} };
}

const boards = (s: EventStream) => s.events.filter((e) => e.event === 'board').map((e) => JSON.parse(e.data) as LiveBoardReply);
const latest = (s: EventStream) => boards(s).at(-1);

async function writeLabel(startSecond: number, endSecond: number, operationId = w.operationIds.main) {
  const current = (await (await t.request(`/api/v1/video_markups/${videoId}`, { cookie: w.cookies.assessor })).json()) as { version: number };
  const saved = await t.request(`/api/v1/video_markups/${videoId}`, {
    method: 'PUT',
    cookie: w.cookies.assessor,
    body: JSON.stringify({
      video_markups: [{ operation_id: operationId, workplace_id: w.workplaceIds[0], employee_id: w.employeeId, start_time: startSecond, end_time: endSecond }],
      base_version: current.version,
    }),
  });
  expect(saved.status).toBe(200);
}

/** Waits for a state (polled, within the suite's one bound), never for a time. */
const until = (state: () => boolean | Promise<boolean>, message: string) => expect.poll(state, { ...untilState(), message }).toBe(true);

const query = () => `structure_id=${w.structureId}`;

beforeAll(async () => {
  t = await createTestApp();
  w = await videoWorld(t);
  videoId = await insertVideo(t.deps.db, w.cameraIds[0]!, { filename: 'cam1_live.mp4', start: videoStart, duration: 20 * 60 });
});
afterAll(async () => t.cleanup());

describe('GET /api/v1/live_board and its event stream', () => {
  it('gives each workplace of the structure, with no operation before any label', async () => {
    const response = await t.request(`/api/v1/live_board?${query()}`, { cookie: w.cookies.viewer });
    expect(response.status).toBe(200);
    const board = (await response.json()) as LiveBoardReply;
    expect(board.structure_name).toBe('Участок');
    expect(board.read_only).toBe(false);
    expect(board.workplaces.map((p) => p.name)).toEqual(['Стол № 1', 'Стол № 2', 'Стол № 3']);
    expect(board.workplaces.every((p) => p.current === null && p.shift.work_seconds === 0)).toBe(true);
  });

  it('pushes the new state when a label is stored, then a model layer row, and measures the lag', async () => {
    const stream = await openStream(query(), w.cookies.viewer);
    expect(stream.status).toBe(200);
    await until(() => boards(stream).length >= 1, 'the first board event');
    const lags: number[] = [];
    // Three labels one after another, each a new current operation of «Стол № 1».
    for (const [k, [from, to]] of [
      [60, 300],
      [300, 420],
      [420, 600],
    ].entries()) {
      const stored = Date.now();
      await writeLabel(from!, to!, k === 1 ? w.operationIds.idle : w.operationIds.main);
      const since = videoStart + from! * 1000;
      await until(() => latest(stream)?.workplaces[0]?.current?.since === since, `the board event of label ${k + 1}`);
      lags.push(Date.now() - stored);
    }
    const place = latest(stream)!.workplaces[0]!;
    expect(place.current).toMatchObject({ operation_name: 'Сборка', source: 'human', employee_name: 'Иванов Иван' });
    // The report core's balance of the shift so far: 4 + 3 min of work, 2 min of idle (a loss).
    expect(place.shift.work_seconds).toBe(240 + 180);
    expect(place.shift.observed_seconds).toBe(540);
    expect(place.shift.loss_seconds).toBe(120);
    expect(place.shift.load_percent).toBeGreaterThan(0);
    expect(place.camera_ids).toEqual([w.cameraIds[0]]);
    console.info(`live board push lag (label stored → event), ms: ${lags.join(', ')}`);

    // The model layer's row (as a live camera's labelling writes it) becomes the current operation.
    const modelStart = videoStart + 650_000;
    await t.deps.db
      .insertInto('markups')
      .values({
        structure_id: w.structureId,
        operation_id: w.operationIds.idle,
        workplace_id: w.workplaceIds[0]!,
        employee_id: null,
        start_time: modelStart,
        end_time: modelStart + 30_000,
        comment: null,
        video_id: videoId,
        source: 'model',
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
    await until(() => latest(stream)?.workplaces[0]?.current?.source === 'model', 'the model layer row on the board');
    expect(latest(stream)!.workplaces[0]!.current).toMatchObject({ operation_name: 'Ожидание', since: modelStart });
    expect(latest(stream)!.workplaces[0]!.shift.model_seconds).toBe(30);
    await stream.close();
  });

  it('refuses without a session, another organisation’s structure, a bad parameter, and a sixth stream of one user', async () => {
    const anonymous = await t.request(`/api/v1/live_board?${query()}`);
    expect(anonymous.status).toBe(401);
    const foreign = await t.request(`/api/v1/live_board?structure_id=${w.foreignStructureId}`, { cookie: w.cookies.viewer });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toMatch(/не найдена/);
    const bad = await t.request('/api/v1/live_board?structure_id=abc', { cookie: w.cookies.viewer });
    expect(bad.status).toBe(400);
    expect((await openStream(query())).status).toBe(401);

    const open: EventStream[] = [];
    for (let i = 0; i < BOARD_STREAMS_PER_USER; i++) open.push(await openStream(query(), w.cookies.admin));
    expect(open.map((s) => s.status)).toEqual(Array(BOARD_STREAMS_PER_USER).fill(200));
    const refused = await t.request(`/api/v1/live_board/events?${query()}`, { cookie: w.cookies.admin });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/слишком много досок/);
    // Closing one frees its place.
    await open.pop()!.close();
    await until(async () => {
      const again = await openStream(query(), w.cookies.admin);
      if (again.status === 200) open.push(again);
      return again.status === 200;
    }, 'a stream after one was closed');
    for (const s of open) await s.close();
  });

  it('closes a signed-in stream when its session ends', async () => {
    const cookie = await t.signIn('watcher', 'secret-pass');
    const stream = await openStream(query(), cookie);
    await until(() => boards(stream).length >= 1, 'the first board event');
    expect((await t.request('/api/v1/leave', { cookie })).status).toBe(200);
    await until(() => stream.events.some((e) => e.event === 'closed') && stream.ended(), 'the stream closed after sign-out');
    expect(JSON.parse(stream.events.find((e) => e.event === 'closed')!.data).message).toMatch(/Сеанс завершён/);
  });
});

describe('the board’s share link', () => {
  it('opens the board read-only for a guest, only its own structure, and stops when revoked', async () => {
    const made = await t.request('/api/v1/live_board/share', {
      method: 'POST',
      cookie: w.cookies.viewer,
      body: JSON.stringify({ structure_id: w.structureId }),
    });
    expect(made.status).toBe(200);
    const { key } = (await made.json()) as { key: string };

    const guest = await t.request(`/api/v1/live_board?key=${key}`);
    expect(guest.status).toBe(200);
    const board = (await guest.json()) as LiveBoardReply;
    expect(board).toMatchObject({ structure_id: w.structureId, read_only: true });
    expect(board.workplaces[0]!.current).not.toBeNull();
    expect((await t.request(`/api/v1/live_board?key=${key}&structure_id=${w.otherStructureId}`)).status).toBe(403);

    // The key opens the board only: not a report window, not a video.
    const from = encodeURIComponent(new Date(videoStart).toISOString());
    const to = encodeURIComponent(new Date(videoStart + 3_600_000).toISOString());
    expect((await t.request(`/api/v2/frv?structure_id=${w.structureId}&from_time=${from}&to_time=${to}&key=${key}`)).status).toBe(401);
    // And a report's key does not open the board.
    const report = await t.request('/api/v1/generate_hash', {
      method: 'POST',
      cookie: w.cookies.viewer,
      body: JSON.stringify({
        structure_id: w.structureId,
        from_time: new Date(videoStart).toISOString(),
        to_time: new Date(videoStart + 3_600_000).toISOString(),
      }),
    });
    const reportKey = ((await report.json()) as { hash: string }).hash;
    expect((await t.request(`/api/v1/live_board?key=${reportKey}`)).status).toBe(401);

    const stream = await openStream(`key=${key}`);
    expect(stream.status).toBe(200);
    await until(() => boards(stream).length >= 1, 'the guest’s first board event');
    expect(latest(stream)!.read_only).toBe(true);
    expect((await t.request(`/api/v1/share/${key}`, { method: 'DELETE', cookie: w.cookies.viewer })).status).toBe(200);
    await until(() => stream.events.some((e) => e.event === 'closed') && stream.ended(), 'the guest stream closed after revocation');

    const revoked = await t.request(`/api/v1/live_board?key=${key}`);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { message: string } }).error.message).toBe('Ссылка недействительна или отозвана');
    expect((await openStream(`key=${key}`)).status).toBe(401);
  });

  it('lets only a user with the report right of the structure make a link', async () => {
    expect((await t.request('/api/v1/live_board/share', { method: 'POST', body: JSON.stringify({ structure_id: w.structureId }) })).status).toBe(401);
    const foreign = await t.request('/api/v1/live_board/share', {
      method: 'POST',
      cookie: w.cookies.viewer,
      body: JSON.stringify({ structure_id: w.foreignStructureId }),
    });
    expect(foreign.status).toBe(404);
    const extra = await t.request('/api/v1/live_board/share', {
      method: 'POST',
      cookie: w.cookies.viewer,
      body: JSON.stringify({ structure_id: w.structureId, to: 1 }),
    });
    expect(extra.status).toBe(400);
  });
});
