/**
 * A lunch break of the shift counts once (docs/methodology.md, «Потери»; docs/markup.md, «Заполнить
 * пропуски»): fill gaps leaves it unmarked, the block report's losses leave it out — also when an
 * assessor labels it idle by hand — and the statement's Table 6 lists it once, as the break.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../auth/service';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { insertVideo, markupPlace } from '../../test-support/video-fixtures';

let t: TestApp;
let cookie: string;
let ids: { structure: number; main: number; idle: number; workplace: number; employee: number; video: number };
/** 08:00 in Moscow, 16 November 2026: the shift 08:00–17:00 starts with the video. */
const VIDEO_START = Date.parse('2026-11-16T05:00:00Z');
const HOUR = 3600;
const iso = (seconds: number) => new Date(VIDEO_START + seconds * 1000).toISOString();
const window = { from: '2026-11-15T21:00:00.000Z', to: '2026-11-16T21:00:00.000Z' };

interface Markup {
  id: number;
  start_time: number;
  end_time: number;
  operation_id: number;
  source: string;
}
interface Block {
  type: string;
  title?: string;
  text?: string;
  total?: unknown;
  bars?: { name: string; value: number }[];
}

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps;
  const lead = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Мария', lastName: 'Иванова' });
  const now = Date.now();
  const place = await markupPlace(db, lead.organizationId, now);
  const idle = (
    await db.insertInto('operations').values({ structure_id: place.structureId, name: 'Простой', type: 'idle' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const video = await insertVideo(db, place.cameraId, { filename: 'cam1.mp4', key: 'rec/1/cam1.mp4', start: VIDEO_START, duration: 9 * HOUR, createdAt: now });
  ids = { structure: place.structureId, main: place.operationId, idle, workplace: place.workplaceId, employee: place.employeeId, video };
  cookie = await t.signIn('lead', 'secret-pass');
  const settings = await t.request(`/api/v1/structure/${ids.structure}`, {
    method: 'PUT',
    cookie,
    body: JSON.stringify({
      employee_salary: 60000,
      shifts: [
        { name: 'Дневная', start_time: '08:00', end_time: '17:00', regular_break_duration_min: 60, breaks: [{ start_time: '12:00', end_time: '13:00' }] },
      ],
    }),
  });
  expect(settings.status, await settings.clone().text()).toBe(200);
});
afterAll(async () => t.cleanup());

const url = () => `/api/v1/video_markups/${ids.video}`;
const version = async () => ((await (await t.request(url(), { cookie })).json()) as { version: number }).version;
const row = (start: number, end: number, operation_id = ids.main) => ({
  id: -1,
  operation_id,
  workplace_id: ids.workplace,
  employee_id: ids.employee,
  start_time: start,
  end_time: end,
  comment: null,
});
async function save(method: 'PUT' | 'POST', rows: object[], toDelete: number[] = []): Promise<Markup[]> {
  const body = { video_markups: rows, operation_markups_to_delete: toDelete, video_stamps: [], video_stamps_to_delete: [], base_version: await version() };
  const response = await t.request(url(), { method, cookie, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { video_markups: Markup[] }).video_markups;
}
async function blockReport(): Promise<Block[]> {
  const response = await t.request(`/api/v2/report?structure_id=${ids.structure}&from_time=${window.from}&to_time=${window.to}`, { cookie });
  expect(response.status).toBe(200);
  return ((await response.json()) as { blocks: Block[] }).blocks;
}
async function statement() {
  const response = await t.request(`/api/v1/report?structure_id=${ids.structure}&employee_id=${ids.employee}&from_time=${window.from}&to_time=${window.to}`, {
    cookie,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    breaks: { type: string; start_datetime: string; end_datetime: string; len: number }[];
    losses: { len: number; idle_len: number };
    loading: { regulated_break_time: number };
    notices: string[];
  };
}

describe('a lunch 12:00–13:00 of a shift 08:00–17:00', () => {
  it('is left unmarked by fill gaps, out of the losses and once in Table 6 — also when labelled idle by hand', async () => {
    // 08:00–10:00, 10:10–11:50 and 13:20–17:00 marked: gaps 10:00–10:10 and 11:50–13:20 (over the lunch).
    const filled = await save('POST', [row(0, 2 * HOUR), row(2 * HOUR + 600, 3 * HOUR + 3000), row(5 * HOUR + 1200, 9 * HOUR)]);
    const byFill = filled.filter((m) => m.source === 'fill_gaps');
    expect(byFill.map((m) => [m.start_time, m.end_time, m.operation_id])).toEqual([
      [2 * HOUR, 2 * HOUR + 600, ids.idle],
      // 11:50–12:00 and 13:00–13:20: the gap is split around the lunch, which stays unmarked.
      [3 * HOUR + 3000, 4 * HOUR, ids.idle],
      [5 * HOUR, 5 * HOUR + 1200, ids.idle],
    ]);

    // Idle 10 + 10 + 20 minutes: the lunch hour is not among the losses.
    const pareto = (await blockReport()).find((b) => b.type === 'pareto')!;
    expect(pareto.total).toBe(40);
    const report = await statement();
    expect(report.losses.len).toBe(40 * 60);
    expect(report.loading.regulated_break_time).toBe(60);
    // Table 6: the lunch once, as the regulated break, and no gap (everything else is marked).
    expect(report.breaks).toEqual([{ type: 'regulated', start_datetime: iso(4 * HOUR), end_datetime: iso(5 * HOUR), len: HOUR }]);

    // The assessor labels the lunch idle by hand: still the break, not a loss.
    await save('PUT', [row(4 * HOUR, 5 * HOUR, ids.idle)]);
    const blocks = await blockReport();
    expect(blocks.find((b) => b.type === 'pareto')!.total).toBe(40);
    expect(blocks.find((b) => b.type === 'black_diagram')!.total).toBe(40);
    expect(
      blocks.some((b) => b.type === 'paragraph' && b.text?.includes('Простой внутри регламентированных перерывов смены (1 ч) потерями не считается')),
    ).toBe(true);
    const after = await statement();
    expect(after.losses).toMatchObject({ len: 40 * 60, idle_len: 40 * 60 });
    expect(after.breaks).toEqual([{ type: 'regulated', start_datetime: iso(4 * HOUR), end_datetime: iso(5 * HOUR), len: HOUR }]);
    expect(after.notices.some((n) => n.startsWith('Простой внутри регламентированных перерывов смены (1 ч)'))).toBe(true);
  });
});
