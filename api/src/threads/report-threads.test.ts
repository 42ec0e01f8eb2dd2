import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentRequester } from '../http/fair-share';
import { SHARE_KEY_HEADER } from '../http/client-address';
import { insertMarkupRows } from '../../test-support/video-fixtures';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { requesterTurns, startReportThreads, type ReportTask, type ReportThreads, type Waiting } from './report-threads';

/*
 * The server computes wide reports and norm cards on threads of their own (main.ts): the same answers as in place,
 * errors included, from the thread's own connection to the same database.
 */
let t: TestApp;
let w: WorkspaceFixture;
let threads: ReportThreads;

beforeAll(async () => {
  t = await createTestApp();
  w = await workspaceFixture(t);
  const at = (iso: string) => Date.parse(`${iso}Z`);
  const place = { structure_id: w.structureId, operation_id: w.operationId, workplace_id: w.workplaceId, employee_id: w.employeeId };
  await insertMarkupRows(t.deps.db, place, [
    [at('2026-11-16T09:00:00'), at('2026-11-16T09:05:00')],
    [at('2026-11-16T10:00:00'), at('2026-11-16T10:30:00')],
  ]);
  // Big reports' work: ten days in October with 300 cycles of a minute each.
  const cycles: [number, number][] = [];
  for (let day = 1; day <= 10; day++)
    for (let i = 0; i < 300; i++) {
      const start = Date.UTC(2026, 9, day, 8) + i * 90_000;
      cycles.push([start, start + 60_000]);
    }
  for (let i = 0; i < cycles.length; i += 500) await insertMarkupRows(t.deps.db, place, cycles.slice(i, i + 500));
  threads = startReportThreads(t.config, 1);
});
afterAll(async () => {
  threads.close();
  await t.cleanup();
});

describe('report threads', () => {
  it('answer /api/v2/report, /api/v2/frv and /api/v1/report as computed in place, and their errors alike', async () => {
    const window = `from_time=2026-11-16T00:00:00Z&to_time=2026-11-17T00:00:00Z`;
    const paths = [
      `/api/v2/report?structure_id=${w.structureId}&${window}`,
      `/api/v2/frv?structure_id=${w.structureId}&${window}`,
      `/api/v1/report?structure_id=${w.structureId}&employee_id=${w.employeeId}&${window}`,
      `/api/v1/report?structure_id=${w.structureId}&employee_id=999999&${window}`,
    ];
    const read = async (path: string) => {
      const response = await t.request(path, { cookie: w.cookies.analyst });
      return { status: response.status, body: await response.json() };
    };
    const inPlace = [];
    for (const path of paths) inPlace.push(await read(path));
    expect(inPlace.map((r) => r.status)).toEqual([200, 200, 200, 404]);
    expect(JSON.stringify(inPlace[0]!.body)).toContain('Цех');
    t.deps.reportThreads = threads;
    try {
      for (const [i, path] of paths.entries()) expect(await read(path), path).toEqual(inPlace[i]);
    } finally {
      t.deps.reportThreads = undefined;
    }
  });

  it('build a norm card and answer /api/v1/norm_fulfilment as computed in place', async () => {
    const windows = [{ employee_id: w.employeeId, from_time: '2026-11-16T00:00:00Z', to_time: '2026-11-17T00:00:00Z' }];
    const build = async () => {
      const response = await t.request(`/api/v1/norms?structure_id=${w.structureId}`, {
        method: 'POST',
        cookie: w.cookies.analyst,
        body: JSON.stringify({ windows }),
      });
      return { status: response.status, body: await response.json() };
    };
    const fulfilment = async () => {
      const response = await t.request(`/api/v1/norm_fulfilment?structure_id=${w.structureId}&from_time=2026-11-16T00:00:00Z&to_time=2026-11-17T00:00:00Z`, {
        cookie: w.cookies.analyst,
      });
      return { status: response.status, body: await response.json() };
    };
    const inPlace = await build();
    expect(inPlace.status).toBe(201);
    expect(inPlace.body.card.operations.map((o: { name: string }) => o.name)).toEqual(['Сборка']);
    const inPlaceFulfilment = await fulfilment();
    expect(inPlaceFulfilment.status).toBe(200);
    expect(inPlaceFulfilment.body.rows).toHaveLength(1);
    const sent: string[] = [];
    t.deps.reportThreads = { run: (task) => (sent.push(task.task), threads.run(task)), answer: threads.answer, close: () => undefined };
    try {
      const threaded = await build();
      expect(threaded.status).toBe(201);
      expect(threaded.body.version).toBe(inPlace.body.version + 1);
      expect(threaded.body.card).toEqual(inPlace.body.card);
      expect(await fulfilment()).toEqual(inPlaceFulfilment);
      expect(sent).toEqual(['normCard', 'normFulfilment']);
    } finally {
      t.deps.reportThreads = undefined;
    }
  });
});

/*
 * Issue 39, finding 3 after fair share: the report thread's queue was first come, first served, so a
 * viewer's report waited behind every big task one user's flood had queued. Now the waiting tasks take
 * turns by requester: another user's waits for the task running, not for the flood.
 */
describe('report threads take turns by requester', () => {
  const october = { from: Date.UTC(2026, 9, 1), to: Date.UTC(2026, 9, 11) };
  const big = (): ReportTask => ({ task: 'frv', structureId: w.structureId, ...october });
  const small = (): ReportTask => ({
    task: 'statement',
    structureId: w.structureId,
    employeeId: w.employeeId,
    from: Date.parse('2026-11-16T00:00:00Z'),
    to: Date.parse('2026-11-17T00:00:00Z'),
    details: false,
  });

  it("with one thread, one user's small report runs before the second of another user's queued big reports; each user's keep their order", async () => {
    const done: string[] = [];
    const send = (label: string, task: ReportTask, requester: string) => threads.run(task, requester).then(() => done.push(label));
    // All sent at once, A's first: A1 goes to the thread, the rest wait. One thread runs one task at a
    // time, so the order they finish in is the order they started in.
    await Promise.all([
      send('A1', big(), 'user:a'),
      send('A2', big(), 'user:a'),
      send('A3', big(), 'user:a'),
      send('B1', small(), 'user:b'),
      send('A4', big(), 'user:a'),
      send('B2', small(), 'user:b'),
    ]);
    expect(done).toEqual(['A1', 'B1', 'A2', 'B2', 'A3', 'A4']);
  });

  it("a requester that comes while another's tasks wait goes next, not after them", async () => {
    const done: string[] = [];
    const send = (label: string, task: ReportTask, requester: string) => threads.run(task, requester).then(() => done.push(label));
    // C comes the moment A1 is answered, A2 already on the thread and A3 waiting: C's task is next, before A3.
    let c: Promise<unknown> = Promise.resolve();
    const a1 = send('A1', big(), 'user:a').then(() => (c = send('C1', small(), 'address:198.51.100.7')));
    await Promise.all([a1, send('A2', big(), 'user:a'), send('A3', big(), 'user:a')]);
    await c;
    expect(done).toEqual(['A1', 'A2', 'C1', 'A3']);
  });

  it("the requester is fair share's: a user, the same user through a share key of theirs, and the builder of a norm card", async () => {
    const window = { from_time: '2026-11-16T00:00:00Z', to_time: '2026-11-17T00:00:00Z' };
    const keyResponse = await t.request('/api/v1/generate_hash', {
      method: 'POST',
      cookie: w.cookies.analyst,
      body: JSON.stringify({ structure_id: w.structureId, ...window }),
    });
    expect(keyResponse.status).toBe(200);
    const key = ((await keyResponse.json()) as { hash: string }).hash;
    const seen: string[] = [];
    // What the threads take turns by: the requester given, else the one of the request being served.
    t.deps.reportThreads = {
      run: (task, requester) => (seen.push(`${task.task} ${requester ?? currentRequester()}`), threads.run(task, requester)),
      answer: (task, coding, requester) => (seen.push(`${task.task} ${requester ?? currentRequester()}`), threads.answer(task, coding, requester)),
      close: () => undefined,
    };
    try {
      const query = `structure_id=${w.structureId}&from_time=${window.from_time}&to_time=${window.to_time}`;
      expect((await t.request(`/api/v2/frv?${query}`, { cookie: w.cookies.analyst })).status).toBe(200);
      expect((await t.request(`/api/v2/frv?${query}`, { headers: { [SHARE_KEY_HEADER]: key }, ip: '203.0.113.9' })).status).toBe(200);
      expect((await t.request(`/api/v2/report?${query}`, { cookie: w.cookies.viewer })).status).toBe(200);
      const built = await t.request(`/api/v1/norms?structure_id=${w.structureId}`, {
        method: 'POST',
        cookie: w.cookies.analyst,
        body: JSON.stringify({ windows: [{ employee_id: w.employeeId, ...window }] }),
      });
      expect(built.status).toBe(201);
      expect(seen).toEqual([
        `frv user:${w.users.analyst}`,
        `frv user:${w.users.analyst}`,
        `blockReport user:${w.users.viewer}`,
        `normCard user:${w.users.analyst}`,
      ]);
    } finally {
      t.deps.reportThreads = undefined;
    }
  });

  it('compress the answer on the thread for a client that accepts it: the same JSON as computed in place', async () => {
    const path = `/api/v2/frv?structure_id=${w.structureId}&from_time=2026-10-01T00:00:00Z&to_time=2026-10-11T00:00:00Z`;
    const inPlace = await (await t.request(path, { cookie: w.cookies.analyst })).text();
    expect(inPlace.length).toBeGreaterThan(10_000);
    t.deps.reportThreads = threads;
    try {
      for (const [coding, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const response = await t.request(path, { cookie: w.cookies.analyst, headers: { 'accept-encoding': coding } });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-encoding')).toBe(coding);
        expect(response.headers.get('vary')).toBe('Accept-Encoding');
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(decode(Buffer.from(await response.arrayBuffer())).toString('utf8')).toBe(inPlace);
      }
      const plain = await t.request(path, { cookie: w.cookies.analyst });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(inPlace);
    } finally {
      t.deps.reportThreads = undefined;
    }
  });
});

/*
 * Issue 47, finding 4: a bystander's one-day report waited for one of the floods' month-long tasks to end.
 * An express thread takes only the task of a requester with nothing on the threads.
 */
describe('the express thread', () => {
  const waitingTask = (requester: string, label: string): Waiting & { label: string } => ({
    label,
    requester,
    task: { task: 'frv', structureId: 1, from: 0, to: 1 },
    coding: null,
    resolve: () => undefined,
    reject: () => undefined,
  });
  const labelOf = (task: Waiting | undefined) => (task as { label?: string } | undefined)?.label;

  it('takes a task only of a requester with nothing running; the regular threads take turns as before', () => {
    const turns = requesterTurns();
    turns.add(waitingTask('user:a', 'A1'));
    turns.add(waitingTask('user:a', 'A2'));
    expect(labelOf(turns.take())).toBe('A1');
    // A has one running: the express thread leaves A2 waiting.
    expect(turns.take(true)).toBeUndefined();
    turns.add(waitingTask('user:b', 'B1'));
    expect(labelOf(turns.take(true))).toBe('B1');
    // Both have one running now; B's next is not for the express thread either.
    turns.add(waitingTask('user:b', 'B2'));
    expect(turns.take(true)).toBeUndefined();
    // A regular thread takes the one served longest ago: A.
    expect(labelOf(turns.take())).toBe('A2');
    turns.finished('user:b');
    expect(labelOf(turns.take(true))).toBe('B2');
    // Nothing running but two in line: one who keeps tasks going, not a bystander.
    turns.add(waitingTask('user:c', 'C1'));
    turns.add(waitingTask('user:c', 'C2'));
    expect(turns.take(true)).toBeUndefined();
    expect(labelOf(turns.take())).toBe('C1');
  });

  it('leaves the task of a requester with other heavy requests in flight at the fair share, though none is on the threads', () => {
    const turns = requesterTurns();
    let floodAlone = false;
    // A flooder's one waiting task, nothing of theirs on the threads: their other requests wait at the fair share.
    turns.add({ ...waitingTask('user:f', 'F1'), alone: () => floodAlone });
    turns.add({ ...waitingTask('user:b', 'B1'), alone: () => true });
    expect(labelOf(turns.take(true))).toBe('B1');
    expect(turns.take(true)).toBeUndefined();
    // Asked again at each take: the flooder's others ended, this one is a bystander's now.
    floodAlone = true;
    expect(labelOf(turns.take(true))).toBe('F1');
  });

  it('answers as the regular thread does, with a flood of big reports and a small one at once', async () => {
    const withExpress = startReportThreads(t.config, 1, 1);
    try {
      const big: ReportTask = { task: 'frv', structureId: w.structureId, from: Date.UTC(2026, 9, 1), to: Date.UTC(2026, 9, 11) };
      const small: ReportTask = { task: 'frv', structureId: w.structureId, from: Date.parse('2026-11-16T00:00:00Z'), to: Date.parse('2026-11-17T00:00:00Z') };
      const [alone, aloneSmall] = [await threads.run(big, 'user:x'), await threads.run(small, 'user:x')];
      const answers = await Promise.all([
        withExpress.run(big, 'user:a'),
        withExpress.run(big, 'user:a'),
        withExpress.run(small, 'user:b'),
        withExpress.run(big, 'user:a'),
      ]);
      expect(answers).toEqual([alone, alone, aloneSmall, alone]);
      expect(aloneSmall).toContain('Цех');
    } finally {
      withExpress.close();
    }
  });
});
