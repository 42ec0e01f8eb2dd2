import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMarkupRows } from '../../test-support/video-fixtures';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { startReportThreads, type ReportThreads } from './report-threads';

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
    t.deps.reportThreads = { run: (task) => (sent.push(task.task), threads.run(task)), close: () => undefined };
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
