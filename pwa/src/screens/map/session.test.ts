import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import type { MapFeature, MapFeatureCollection, MapProject } from '../../api/types';
import { HISTORY_CAPACITY, MapSession, snapshotDiff } from './session';

const feature = (name: string) =>
  ({ type: 'Feature', geometry: { type: 'Point', coordinates: [37, 55] }, properties: { type: 'object', name } }) as unknown as MapFeature;
const fc = (...names: string[]): MapFeatureCollection => ({ type: 'FeatureCollection', features: names.map(feature) });

/** A project whose drawing, network and labels are named by the letters given. */
const project = (drawn: string[], general: string[] = [], info: string[] = []) =>
  ({
    id: 7,
    name: 'Квартал',
    is_processing: false,
    updated_at: 1,
    drawn_feature_collection: fc(...drawn),
    general_feature_collection: fc(...general),
    info_feature_collection: fc(...info),
    drawing_feature_collection: fc(...drawn, ...general),
  }) as unknown as MapProject;

const names = (c: MapFeatureCollection) => c.features.map((f) => f.properties.name);

/** The API as the session sees it: the project it answers, every save's body, a save that fails on request. */
function fakeServer(first: MapProject) {
  const server = { current: first, saves: [] as Array<Record<string, unknown>>, failSave: false, clears: [] as MapProject[] };
  vi.spyOn(api, 'get').mockImplementation(((path: string) => {
    if (path === '/api/v1/projects/list') return Promise.resolve({ current_id: 7, projects: [{ id: 7, name: 'Квартал' }] });
    return Promise.resolve(server.current);
  }) as typeof api.get);
  vi.spyOn(api, 'post').mockImplementation(((path: string, init?: { body?: Record<string, unknown> }) => {
    if (path === '/api/v1/html_menu') return Promise.resolve({ styles: {}, types: [], html_menu: '', zone_min_radius: 50 });
    if (path === '/api/v1/projects/last/clear') server.current = server.clears.shift()!;
    if (path === '/api/v1/projects/last/save') {
      if (server.failSave) return Promise.reject(new Error('отказ'));
      const body = init!.body!;
      server.saves.push(body);
      const restore = body.restore as { general_feature_collection: MapFeatureCollection; info_feature_collection: MapFeatureCollection } | undefined;
      server.current = {
        ...server.current,
        drawn_feature_collection: { type: 'FeatureCollection', features: body.features as MapFeature[] },
        ...(restore ?? {}),
      };
    }
    return Promise.resolve(server.current);
  }) as typeof api.post);
  return server;
}

async function started(first: MapProject) {
  const server = fakeServer(first);
  const session = new MapSession();
  session.start();
  await vi.waitFor(() => expect(session.busy).toBeNull());
  return { session, server };
}

afterEach(() => vi.restoreAllMocks());

describe('a map history step', () => {
  it('holds the drawing always, and the network and labels only when they changed', () => {
    const before = { drawn: fc('a'), general: fc('g'), info: fc('i') };
    expect(snapshotDiff(before, { ...before, general: fc('g') }).map((c) => c.key)).toEqual(['drawn']);
    expect(snapshotDiff(before, { drawn: fc('a', 'b'), general: fc('h'), info: fc('i') })).toEqual([
      { key: 'drawn', before: fc('a'), after: fc('a', 'b') },
      { key: 'general', before: fc('g'), after: fc('h') },
    ]);
  });
});

describe('the map’s session', () => {
  it('opens the current project with the catalogue and an empty history', async () => {
    const { session } = await started(project(['a']));
    expect(session.project && names(session.project.drawn_feature_collection)).toEqual(['a']);
    expect(session.loaded).toBe(session.project);
    expect(session.catalogue).not.toBeNull();
    expect(session.projects?.current_id).toBe(7);
    expect([session.canUndo, session.canRedo]).toEqual([false, false]);
  });

  it('a save is a step; undo re-saves the state before it with its network and labels, redo the one after', async () => {
    const { session, server } = await started(project(['a'], ['g'], ['i']));
    await session.saveDrawn([feature('a'), feature('b')]);
    expect(session.canUndo).toBe(true);
    expect(session.loaded && names(session.loaded.drawn_feature_collection)).toEqual(['a']);

    await session.undo();
    expect(server.saves.at(-1)).toMatchObject({
      features: [{ properties: { name: 'a' } }],
      restore: { general_feature_collection: fc('g'), info_feature_collection: fc('i') },
    });
    expect(names(session.loaded!.drawn_feature_collection)).toEqual(['a']);
    expect([session.canUndo, session.canRedo]).toEqual([false, true]);

    await session.redo();
    expect(names(session.loaded!.drawn_feature_collection)).toEqual(['a', 'b']);
    expect([session.canUndo, session.canRedo]).toEqual([true, false]);
  });

  it('undo after delete all brings back the drawing and the network the server had', async () => {
    const { session, server } = await started(project(['a'], ['g1', 'g2'], ['i']));
    server.clears.push(project([]));
    await session.clearAll();
    expect(names(session.loaded!.general_feature_collection)).toEqual([]);
    await session.undo();
    expect(names(session.loaded!.drawn_feature_collection)).toEqual(['a']);
    expect(names(session.loaded!.general_feature_collection)).toEqual(['g1', 'g2']);
    expect(names(session.loaded!.info_feature_collection)).toEqual(['i']);
  });

  it(`keeps ${HISTORY_CAPACITY} states: ${HISTORY_CAPACITY - 1} undos back and no further`, async () => {
    const { session } = await started(project(['0']));
    for (let i = 1; i <= 12; i++) await session.saveDrawn([feature(String(i))]);
    const seen: string[] = [];
    while (session.canUndo) {
      await session.undo();
      seen.push(names(session.loaded!.drawn_feature_collection)[0]!);
    }
    expect(seen).toEqual(['11', '10', '9', '8', '7', '6', '5', '4', '3']);
    // A new save after undo drops the redo tail.
    await session.saveDrawn([feature('x')]);
    expect(session.canRedo).toBe(false);
  });

  it('an undo whose save fails moves nothing', async () => {
    const { session, server } = await started(project(['a']));
    await session.saveDrawn([feature('b')]);
    server.failSave = true;
    await session.undo();
    expect([session.canUndo, session.canRedo]).toEqual([true, false]);
    expect(session.busy).toBeNull();
    server.failSave = false;
    await session.undo();
    expect(names(session.loaded!.drawn_feature_collection)).toEqual(['a']);
  });

  it('answers that come after the screen closed change nothing', async () => {
    const server = fakeServer(project(['a']));
    const session = new MapSession();
    const stop = session.start();
    stop();
    await vi.waitFor(() => expect(vi.mocked(api.post)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(session.catalogue).toBeNull();
    expect(session.project).toBeNull();
    expect(server.saves).toEqual([]);
  });
});
