import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, type TestApp } from '../../test-support/testing';
import { DOCUMENT_THREAD_URL } from '../threads/document-read';
import { startDocumentThread } from './document-threads';
import { MAX_REPORTED_ISSUES } from './errors';

/*
 * The server reads large documents (drawings, markup saves) on a thread of its own (main.ts): a bad
 * body is refused from there in the usual form, a good one is saved as before, and the access check
 * still comes first.
 */
let t: TestApp;
let w: WorkspaceFixture;
let stop: () => void;

beforeAll(async () => {
  t = await createTestApp();
  w = await workspaceFixture(t);
  stop = startDocumentThread(DOCUMENT_THREAD_URL);
});
afterAll(async () => {
  stop();
  await t.cleanup();
});

const line = (coordinates: unknown[]) => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { type: 'road' } }],
});

describe('document thread', () => {
  it('refuses a drawing of bad points with one short 400, saves a good one, and checks access first', async () => {
    expect((await w.call('POST', '/api/v1/projects/create', 'analyst', { name: 'План' })).status).toBe(200);
    const bad = await w.call('POST', '/api/v1/projects/last/save', 'analyst', line(Array(70_000).fill(['x'])));
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toContain('точка 0');
    expect(body.error.details.length).toBeLessThanOrEqual(MAX_REPORTED_ISSUES);
    // A viewer is refused before the body is read at all.
    expect((await w.call('POST', '/api/v1/projects/last/save', 'viewer', line(Array(70_000).fill(['x'])))).status).toBe(403);
    const drawing = line([
      [30.1, 59.9],
      [30.2, 59.95],
    ]);
    const good = await w.call('POST', '/api/v1/projects/last/save', 'analyst', drawing);
    expect(good.status).toBe(200);
    // The thread's text is stored and answered as it is: read back, it is the drawing sent.
    expect((await good.json()).drawn_feature_collection).toEqual(drawing);
    const project = await (await w.call('GET', '/api/v1/projects/last/get', 'analyst')).json();
    expect(project.drawn_feature_collection).toEqual(drawing);
    // The first drawing fixes the reference at its centre, worked out on the thread.
    expect(project.crs.kind).toBe('local');
    expect(project.crs.lon).toBeCloseTo(30.15, 9);
    expect(project.crs.lat).toBeCloseTo(59.925, 9);
  });

  it('refuses 20 000 bad markup rows with at most five problems named, and a body that is not JSON', async () => {
    const rows = Array(20_000).fill({ operation_id: 'x', workplace_id: 'x', start_time: 'x', end_time: 'x' });
    const response = await w.call(
      'POST',
      `/api/v1/operation_markups?structure_id=${w.structureId}&from_time=2026-11-16T00:00:00Z&to_time=2026-11-17T00:00:00Z`,
      'analyst',
      {
        base_version: 'x',
        operation_markups: rows.slice(0, 5000),
      },
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.details.length).toBeLessThanOrEqual(MAX_REPORTED_ISSUES);
    expect(body.error.message).toMatch(/и ещё ошибок: \d+/);
    const notJson = await t.request('/api/v1/projects/last/save', { method: 'POST', body: '{"type":', cookie: w.cookies.analyst });
    expect(notJson.status).toBe(400);
    // The thread's own wording: the body was read there, not in place.
    expect((await notJson.json()).error.message).toContain('тело не JSON');
  });
});
