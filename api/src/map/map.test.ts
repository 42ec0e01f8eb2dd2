import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import DxfParser from 'dxf-parser';
import { registerUser } from '../auth/service';
import { startWorkers } from '../job-registry';
import { createTestApp, type TestApp } from '../../test-support/testing';
// Test-only LibreDWG reader (GPL, devDependency): reads back the DWG the export writes.
import { readDwg } from '../../../workers/test-support/dwg-read-back';
import { dwgHolds } from '../../../workers/test-support/dwg-bytes';
// The two string forms, as the writer's own unit tests pin them down (workers/src/map/dwg/write.test.ts).
import { encodeCp1251, encodeDwgText } from '../../../workers/src/map/dwg/cp1251';
import { mapType, placeNamesCatalog, waterSource } from '@norma/workers/map';

let t: TestApp;
let admin: string;
let viewer: string;
let stranger: string;
const password = 'long-password';

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerUser(t.deps, { login: 'planner', password, firstName: 'Пётр', lastName: 'Планировщик' });
  await registerUser(t.deps, { login: 'watcher', password, firstName: 'Вера', lastName: 'Зритель' }, { organizationId: owner.organizationId, role: 'viewer' });
  await registerUser(t.deps, { login: 'outsider', password, firstName: 'Семён', lastName: 'Чужой' });
  admin = await t.signIn('planner', password);
  viewer = await t.signIn('watcher', password);
  stranger = await t.signIn('outsider', password);
});
afterAll(async () => t.cleanup());

const call = async (method: 'GET' | 'POST', path: string, cookie?: string, body?: unknown) => {
  const response = await t.request(path, { method, cookie, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};
const projectsRows = () => t.deps.db.selectFrom('map_projects').selectAll().orderBy('id').execute();

const square = (lon: number, lat: number, d = 0.01) => ({
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [lon, lat],
        [lon + d, lat],
        [lon + d, lat + d],
        [lon, lat + d],
        [lon, lat],
      ],
    ],
  },
  properties: { type: 'area', type_id: 10 },
});
const road = {
  type: 'Feature',
  geometry: {
    type: 'LineString',
    coordinates: [
      [30.3, 59.93],
      [30.31, 59.93],
    ],
  },
  properties: { type: 'road', type_id: 1, sides_count: 2, is_fixed: true },
};

describe('projects', () => {
  it('has no current project before one is created', async () => {
    expect((await call('GET', '/api/v1/projects/list', admin)).body).toEqual({ projects: [], current_id: null });
    expect((await call('GET', '/api/v1/projects/last/meta', admin)).status).toBe(404);
    expect((await call('GET', '/api/v1/projects/last/get', admin)).status).toBe(404);
  });

  it('needs sign-in, and a viewer may read but not create', async () => {
    expect((await call('GET', '/api/v1/projects/list')).status).toBe(401);
    expect((await call('POST', '/api/v1/projects/create', viewer, { name: 'x' })).status).toBe(403);
    expect(await projectsRows()).toHaveLength(0);
  });

  it('refuses a bad name and creates nothing', async () => {
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 5 }]) {
      const { status, body: reply } = await call('POST', '/api/v1/projects/create', admin, body);
      expect(status).toBe(400);
      expect(reply.error.message).toMatch(/name/);
    }
    expect(await projectsRows()).toHaveLength(0);
  });

  it('creates projects, the new one becomes current, and saves a drawing', async () => {
    const first = await call('POST', '/api/v1/projects/create', admin, { name: 'Квартал «Север»' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: 'Квартал «Север»',
      is_processing: false,
      golden: null,
      drawn_feature_collection: { type: 'FeatureCollection', features: [] },
    });
    const second = await call('POST', '/api/v1/projects/create', admin, { name: 'Второй' });
    const list = await call('GET', '/api/v1/projects/list', admin);
    expect(list.body).toEqual({
      projects: [
        { id: first.body.id, name: 'Квартал «Север»' },
        { id: second.body.id, name: 'Второй' },
      ],
      current_id: second.body.id,
    });

    const saved = await call('POST', '/api/v1/projects/last/save', admin, { type: 'FeatureCollection', features: [square(30.3, 59.93), road] });
    expect(saved.status).toBe(200);
    expect(saved.body.drawn_feature_collection.features).toHaveLength(2);
    expect(saved.body.drawing_feature_collection.features).toHaveLength(2);
    const meta = await call('GET', '/api/v1/projects/last/meta', admin);
    expect(meta.body).toMatchObject({ id: second.body.id, feature_counts: { area: 1, road: 1, zone: 0, object: 0, block: 0, info: 0 }, is_processing: false });

    // The viewer of the same organisation sees the projects; the other organisation sees none.
    expect((await call('GET', '/api/v1/projects/list', viewer)).body.projects).toHaveLength(2);
    expect((await call('GET', '/api/v1/projects/list', stranger)).body).toEqual({ projects: [], current_id: null });
    expect((await call('POST', '/api/v1/projects/last/set', stranger, { project_id: first.body.id })).status).toBe(404);
  });

  it('refuses malformed drawings and keeps the stored one', async () => {
    const before = await projectsRows();
    const bad = [
      { type: 'FeatureCollection' },
      { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [200, 10] }, properties: { type: 'object' } }] },
      { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [[1, 2]] }, properties: { type: 'road' } }] },
      { type: 'FeatureCollection', features: [{ ...square(30, 60), properties: { type: 'block' } }] },
      { type: 'FeatureCollection', features: [{ ...square(30, 60), properties: { type: 'lake' } }] },
      '{"type":',
    ];
    for (const body of bad) expect((await call('POST', '/api/v1/projects/last/save', admin, body)).status).toBe(400);
    // A name longer than the bound: 400 with a Russian message (issue 46).
    const long = await call('POST', '/api/v1/projects/last/save', admin, {
      type: 'FeatureCollection',
      features: [{ ...square(30, 60), properties: { type: 'area', name: 'я'.repeat(501) } }],
    });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('название — не длиннее 500 символов');
    expect((await call('POST', '/api/v1/projects/last/save', viewer, { type: 'FeatureCollection', features: [] })).status).toBe(403);
    expect(await projectsRows()).toEqual(before);
  });

  it('refuses a drawn zone under the smallest radius (50 m) with a Russian 400 and keeps the stored drawing (issue 46)', async () => {
    const zone = (radius: number | undefined, name?: string) => ({
      ...square(30.3, 59.93, 0.002),
      properties: { type: 'zone', type_id: 20, ...(radius === undefined ? {} : { radius }), ...(name ? { name } : {}) },
    });
    const save = (features: unknown[]) => call('POST', '/api/v1/projects/last/save', admin, { type: 'FeatureCollection', features });
    // The editor learns the bound with the type catalogue.
    expect((await call('POST', '/api/v1/html_menu', viewer, { type: 'zone' })).body.zone_min_radius).toBe(50);
    const before = await projectsRows();
    const named = await save([square(30.31, 59.93), zone(12.4, 'Школа № 1')]);
    expect(named.status).toBe(400);
    expect(JSON.stringify(named.body)).toContain('зона «Школа № 1»: радиус 12,4 м — меньше наименьшего, 50 м');
    const unnamed = await save([zone(500), zone(0)]);
    expect(unnamed.status).toBe(400);
    expect(JSON.stringify(unnamed.body)).toContain('зона (объект 2): радиус 0 м');
    expect((await save([zone(49.9)])).status).toBe(400);
    expect(await projectsRows()).toEqual(before);
    // From 50 m on, and a zone polygon without a radius (its type's catchment), are kept.
    const kept = await save([zone(50, 'Детский сад'), zone(undefined)]);
    expect(kept.status).toBe(200);
    expect(kept.body.drawn_feature_collection.features.map((f: { properties: { radius?: number } }) => f.properties.radius)).toEqual([50, undefined]);
  });

  it('keeps a zone under 50 m saved before the rule: saved again untouched → 200, resized, moved or new → 400 in the validation form (issue 46)', async () => {
    const start = await call('GET', '/api/v1/projects/last/get', admin);
    // A circle of 12.4 m around (30.3, 59.93), as a project saved before the smallest radius holds it.
    const circle = (lon: number, lat: number, radius: number) => {
      const ring = Array.from({ length: 65 }, (_, i) => {
        const a = ((i % 64) / 64) * 2 * Math.PI;
        return [lon + (radius * Math.cos(a)) / (111_320 * Math.cos((lat * Math.PI) / 180)), lat + (radius * Math.sin(a)) / 111_320];
      });
      return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { type: 'zone', type_id: 20, radius, name: 'Старая зона' } };
    };
    const old = circle(30.3, 59.93, 12.4);
    const stored = { type: 'FeatureCollection', features: [square(30.31, 59.93), old] };
    await t.deps.db
      .updateTable('map_projects')
      // small_zones NULL: a project from before migration 0037, whose small zones are not recorded yet.
      .set({ drawn_feature_collection: JSON.stringify(stored), small_zones: null })
      .where('id', '=', start.body.id)
      .execute();
    // What the editor sends back: coordinates rounded to 7 decimals, the radius to whole metres.
    const roundTrip = {
      ...old,
      geometry: { type: 'Polygon', coordinates: old.geometry.coordinates.map((ring) => ring.map((p) => p.map((v) => Math.round(v * 1e7) / 1e7))) },
      properties: { ...old.properties, radius: 12 },
    };
    const save = (features: unknown[]) => call('POST', '/api/v1/projects/last/save', admin, { type: 'FeatureCollection', features });
    // A road drawn in last month's project: the zone nobody touched does not stop the save.
    const again = await save([square(30.31, 59.93), roundTrip, road]);
    expect(again.status).toBe(200);
    expect(
      again.body.drawn_feature_collection.features.map((f: { properties: { type: string; radius?: number } }) => f.properties.radius ?? f.properties.type),
    ).toEqual(['area', 12, 'road']);
    const before = await projectsRows();
    const refusal = (status: number, body: { error: { code: string; message: string; details: unknown } }, which: string) => {
      expect(status).toBe(400);
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.message).toBe(`Некорректные данные запроса — features: ${which} — меньше наименьшего, 50 м`);
      expect(body.error.details).toEqual([expect.objectContaining({ code: 'custom', path: ['features'], message: `${which} — меньше наименьшего, 50 м` })]);
    };
    // The same zone, another radius under 50 m.
    const resized = await save([square(30.31, 59.93), circle(30.3, 59.93, 30), road]);
    refusal(resized.status, resized.body, 'зона «Старая зона»: радиус 30 м');
    // The same radius, the centre moved 5 m east.
    const moved = await save([square(30.31, 59.93), circle(30.30009, 59.93, 12), road]);
    refusal(moved.status, moved.body, 'зона «Старая зона»: радиус 12 м');
    // A new small zone beside the kept one: only the new one is named.
    const added = await save([square(30.31, 59.93), roundTrip, road, { ...circle(30.305, 59.93, 20), properties: { type: 'zone', type_id: 20, radius: 20 } }]);
    refusal(added.status, added.body, 'зона (объект 4): радиус 20 м');
    expect(await projectsRows()).toEqual(before);
    // The property form marks the old zone so the planner finds it; a zone from 50 m on is not marked.
    const marked = await call('POST', '/api/v1/html_menu', viewer, { ...roundTrip.properties });
    expect(marked.body.html_menu).toContain('Радиус 12 м — меньше наименьшего радиуса 50 м — перерисуйте');
    expect((await call('POST', '/api/v1/html_menu', viewer, { type: 'zone', type_id: 20, radius: 50 })).body.html_menu).not.toContain('перерисуйте');

    // Deleted and saved, then undone (the editor saves the earlier drawing again): the project held the zone, it comes back.
    expect((await save([square(30.31, 59.93), road])).status).toBe(200);
    const undone = await save([square(30.31, 59.93), roundTrip, road]);
    expect(undone.status).toBe(200);
    expect(undone.body.drawn_feature_collection.features.map((f: { properties: { radius?: number } }) => f.properties.radius)).toEqual([
      undefined,
      12,
      undefined,
    ]);
    // The same after «Удалить всё»; a changed zone is still refused once the old one is gone.
    expect((await call('POST', '/api/v1/projects/last/clear', admin)).status).toBe(200);
    const changed = await save([circle(30.3, 59.93, 30)]);
    refusal(changed.status, changed.body, 'зона «Старая зона»: радиус 30 м');
    expect((await save([roundTrip])).status).toBe(200);
    // What the project held is the server's own record: a body that claims more is not heard.
    const claimed = await call('POST', '/api/v1/projects/last/save', admin, {
      type: 'FeatureCollection',
      features: [circle(30.301, 59.93, 10)],
      small_zones: [[30.301, 59.93, 10]],
    });
    expect(claimed.status).toBe(400);
    // The later tests start from the drawing this one found.
    expect((await call('POST', '/api/v1/projects/last/save', admin, start.body.drawn_feature_collection)).status).toBe(200);
  });

  it('two saves of one version at once: a queued pair stores exactly one and answers the other 409, an online pair stores the later (issue 46)', async () => {
    const start = await call('GET', '/api/v1/projects/last/get', admin);
    const save = (body: unknown) => call('POST', '/api/v1/projects/last/save', admin, body);
    for (let round = 0; round < 6; round += 1) {
      const current = await call('GET', '/api/v1/projects/last/get', admin);
      const base = { project_id: current.body.id, updated_at: current.body.updated_at };
      // Two offline drawings queued on the same version: the second to be written would overwrite the first unseen.
      const answers = await Promise.all(
        [0, 1].map((i) => save({ type: 'FeatureCollection', features: [square(30.32 + i * 0.01, 59.94 + round * 0.001)], base })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const [stored, lost] = answers[0].status === 200 ? answers : [answers[1], answers[0]];
      expect(lost.body.error.message).toMatch(/изменён на сервере/);
      const now = await call('GET', '/api/v1/projects/last/get', admin);
      expect(now.body.drawn_feature_collection).toEqual(stored.body.drawn_feature_collection);
      expect(now.body.updated_at).toBe(stored.body.updated_at);
      expect(now.body.updated_at).toBeGreaterThan(base.updated_at);
    }
    for (let round = 0; round < 3; round += 1) {
      // Online saves carry no base: both are stored, one after the other, each a new version.
      const answers = await Promise.all([0, 1].map((i) => save({ type: 'FeatureCollection', features: [square(30.32 + i * 0.01, 59.95)] })));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers[0].body.updated_at).not.toBe(answers[1].body.updated_at);
      const later = answers[0].body.updated_at > answers[1].body.updated_at ? answers[0] : answers[1];
      expect((await call('GET', '/api/v1/projects/last/get', admin)).body.drawn_feature_collection).toEqual(later.body.drawn_feature_collection);
    }
    // The later tests start from the drawing this one found.
    expect((await save(start.body.drawn_feature_collection)).status).toBe(200);
  });

  it('a save queued offline applies once: its resend is a no-op, a changed project or another project is a 409 that changes nothing', async () => {
    const start = await call('GET', '/api/v1/projects/last/get', admin);
    const base = { project_id: start.body.id, updated_at: start.body.updated_at };
    const queued = { type: 'FeatureCollection', features: [square(30.32, 59.94)], base };
    const first = await call('POST', '/api/v1/projects/last/save', admin, queued);
    expect(first.status).toBe(200);
    expect(first.body.updated_at).toBeGreaterThanOrEqual(base.updated_at);
    // The first answer was lost, the same save comes again: nothing new is written.
    const resend = await call('POST', '/api/v1/projects/last/save', admin, queued);
    expect(resend.status).toBe(200);
    expect(resend.body.updated_at).toBe(first.body.updated_at);
    expect(resend.body.drawn_feature_collection).toEqual(first.body.drawn_feature_collection);
    const before = await projectsRows();
    // Another drawing on the old version: changed on the server meanwhile.
    const stale = await call('POST', '/api/v1/projects/last/save', admin, { ...queued, features: [square(30.33, 59.94)] });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toMatch(/изменён на сервере/);
    const elsewhere = await call('POST', '/api/v1/projects/last/save', admin, { ...queued, base: { ...base, project_id: base.project_id + 1000 } });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error.message).toMatch(/сменился/);
    // Someone else's queued save in this session: refused, nothing stored.
    const response = await t.request('/api/v1/projects/last/save', {
      method: 'POST',
      cookie: admin,
      headers: { 'x-norma-save-owner': encodeURIComponent('watcher') },
      body: JSON.stringify({ ...queued, base: { project_id: base.project_id, updated_at: first.body.updated_at }, features: [] }),
    });
    expect(response.status).toBe(403);
    expect(await projectsRows()).toEqual(before);
    // The later tests start from the drawing this one found.
    expect((await call('POST', '/api/v1/projects/last/save', admin, start.body.drawn_feature_collection)).status).toBe(200);
  });

  it('stores and reads back exactly the drawing that was sent, and draws it with the generated network', async () => {
    const drawn = {
      type: 'FeatureCollection',
      features: [
        { ...square(30.31, 59.94), id: 'участок-1', properties: { type: 'area', type_id: 10, name: 'Квартал «Юг»', note: null, floors: 3, is_fixed: true } },
        { type: 'Feature', id: 7, geometry: { type: 'Point', coordinates: [30.3, 59.9, 12.5] }, properties: { type: 'object', radius: 250 } },
        {
          type: 'Feature',
          geometry: {
            type: 'MultiLineString',
            coordinates: [
              [
                [30.1, 59.9],
                [30.2, 59.95],
              ],
              [
                [-179.5, -89.25],
                [180, 90],
              ],
            ],
          },
          properties: { type: 'road', sides_count: 2 },
        },
      ],
    };
    const row = (await projectsRows()).find((r) => r.name === 'Второй')!;
    await t.deps.db
      .updateTable('map_projects')
      .set({ general_feature_collection: JSON.stringify({ type: 'FeatureCollection', features: [{ ...square(31, 60), properties: { type: 'block' } }] }) })
      .where('id', '=', row.id)
      .execute();
    const before = (await call('GET', '/api/v1/projects/last/get', admin)).body;
    const saved = await call('POST', '/api/v1/projects/last/save', admin, drawn);
    expect(saved.status).toBe(200);
    expect(saved.body.updated_at).toBeGreaterThanOrEqual(before.updated_at);
    expect(saved.body.drawn_feature_collection).toEqual(drawn);
    const project = (await call('GET', '/api/v1/projects/last/get', admin)).body;
    expect(project).toEqual(saved.body);
    expect(project.drawn_feature_collection).toEqual(drawn);
    expect(project.drawing_feature_collection.features).toEqual([...drawn.features, { ...square(31, 60), properties: { type: 'block' } }]);
    // The reference fixed by the project's first drawing stays.
    expect(project.crs).toEqual(before.crs);
    expect(JSON.parse((await projectsRows()).find((r) => r.id === row.id)!.drawn_feature_collection)).toEqual(drawn);

    // Keys the schema does not know are dropped, as the validator always did; an empty drawing leaves the network drawn alone.
    const extra = await call('POST', '/api/v1/projects/last/save', admin, {
      type: 'FeatureCollection',
      features: [{ ...drawn.features[1], bbox: [1, 2] }],
      note: 'x',
    });
    expect(extra.body.drawn_feature_collection).toEqual({ type: 'FeatureCollection', features: [drawn.features[1]] });
    const empty = await call('POST', '/api/v1/projects/last/save', admin, { type: 'FeatureCollection', features: [] });
    expect(empty.body.drawing_feature_collection.features).toEqual([{ ...square(31, 60), properties: { type: 'block' } }]);
    // Back to the drawing the tests below expect, without the network.
    const none = { type: 'FeatureCollection', features: [] };
    const back = await call('POST', '/api/v1/projects/last/save', admin, {
      ...before.drawn_feature_collection,
      restore: { general_feature_collection: none, info_feature_collection: none },
    });
    expect(back.body.drawing_feature_collection).toEqual(before.drawing_feature_collection);
  });

  it('switches the current project per user and deletes only when more than one exists', async () => {
    const [first, second] = await projectsRows();
    expect((await call('POST', '/api/v1/projects/last/set', admin, { project_id: first.id })).body.name).toBe('Квартал «Север»');
    expect((await call('GET', '/api/v1/projects/list', admin)).body.current_id).toBe(first.id);
    // Another user's current project is their own.
    expect((await call('GET', '/api/v1/projects/list', viewer)).body.current_id).toBe(first.id);
    await call('POST', '/api/v1/projects/last/set', viewer, { project_id: second.id });
    expect((await call('GET', '/api/v1/projects/list', admin)).body.current_id).toBe(first.id);

    expect((await call('POST', '/api/v1/projects/delete', admin, { delete_id: first.id, new_id: first.id })).status).toBe(400);
    expect((await call('POST', '/api/v1/projects/delete', admin, { delete_id: first.id, new_id: 99999 })).status).toBe(404);
    expect((await call('POST', '/api/v1/projects/delete', stranger, { delete_id: first.id, new_id: second.id })).status).toBe(400);
    expect(await projectsRows()).toHaveLength(2);
    const deleted = await call('POST', '/api/v1/projects/delete', admin, { delete_id: first.id, new_id: second.id });
    expect(deleted.body).toEqual({ projects: [{ id: second.id, name: 'Второй' }], current_id: second.id });
    const last = await call('POST', '/api/v1/projects/delete', admin, { delete_id: second.id, new_id: second.id });
    expect(last.status).toBe(400);
    expect(await projectsRows()).toHaveLength(1);
  });

  it('stores the golden standard, clears, and queues an algorithm that marks the project processing', async () => {
    const golden = await call('POST', '/api/v1/projects/last/golden', admin);
    expect(golden.status).toBe(200);
    expect(golden.body.golden.features).toHaveLength(2);
    const cleared = await call('POST', '/api/v1/projects/last/clear', admin);
    expect(cleared.body.drawn_feature_collection.features).toHaveLength(0);
    expect(cleared.body.golden.features).toHaveLength(2);
    expect((await call('POST', '/api/v1/projects/last/golden', admin)).status).toBe(400);

    expect((await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'road_gen_magic' })).status).toBe(400);
    const queued = await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'road_gen_grid' });
    expect(queued.status).toBe(200);
    const job = await t.deps.db.selectFrom('jobs').selectAll().where('id', '=', queued.body.job_id).executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toMatchObject({ algo_tag: 'road_gen_grid' });
    expect((await call('GET', '/api/v1/projects/last/meta', admin)).body).toMatchObject({ is_processing: true, job_id: queued.body.job_id });
    // While processing nothing else changes the project.
    expect((await call('POST', '/api/v1/projects/last/save', admin, { type: 'FeatureCollection', features: [] })).status).toBe(409);
    expect((await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'road_gen_grid' })).status).toBe(409);
    await t.deps.db.updateTable('map_projects').set({ is_processing: 0, job_id: null }).execute();
    await t.deps.db.deleteFrom('jobs').execute();
  });
});

describe('menus and GIS', () => {
  it('html_menu gives the escaped form, the types and the styles', async () => {
    const { status, body } = await call('POST', '/api/v1/html_menu', viewer, { type: 'road', type_id: 2, name: '<script>' });
    expect(status).toBe(200);
    expect(body.meta).toEqual({ width: 240 });
    expect(body.html_menu).toContain('<option value="2" selected>Районная улица</option>');
    expect(body.html_menu).toContain('name="sides_count"');
    expect(body.html_menu).not.toContain('<script>');
    // The name field (issue 46), bounded, with the feature's name escaped.
    expect(body.html_menu).toContain('<input type="text" name="name" maxlength="200" autocomplete="off" value="&lt;script&gt;">');
    expect(body.styles['1']).toMatchObject({ name: 'Магистральная улица', color: expect.stringMatching(/^#/) });
    const roadTypes = body.types.filter((x: { feature_type: string }) => x.feature_type === 'road');
    expect(roadTypes.every((x: { sides_count?: number; is_fixed?: boolean }) => x.sides_count !== undefined && x.is_fixed !== undefined)).toBe(true);
    expect(body.types.find((x: { feature_type: string }) => x.feature_type === 'zone').capacity).toBeGreaterThan(0);
    expect(body.types.find((x: { feature_type: string }) => x.feature_type === 'area').block_spacing).toBeGreaterThan(0);
    const zone = await call('POST', '/api/v1/html_menu', viewer, { type: 'zone', capacity: 321 });
    expect(zone.body.html_menu).toContain('value="321"');
    expect((await call('POST', '/api/v1/html_menu', viewer, { type: 'lake' })).status).toBe(400);
    expect((await call('POST', '/api/v1/html_menu', undefined, { type: 'road' })).status).toBe(401);
  });

  it('gis html_menu, a polygon by coordinates, and Russian 400s on bad rows', async () => {
    expect((await call('POST', '/api/v1/gis/html_menu', viewer, { type: 'coords' })).body).toMatchObject({
      meta: { width: 240 },
      html_menu: expect.stringContaining('textarea'),
    });
    expect((await call('POST', '/api/v1/gis/html_menu', viewer, { type: 'xyz' })).status).toBe(400);
    const params = encodeURIComponent('30.30\t59.93\n30.32\t59.93\n30.32\t59.94\n');
    const { status, body } = await call('GET', `/api/v1/gis/coords?params=${params}`, viewer);
    expect(status).toBe(200);
    expect(body.features).toHaveLength(1);
    expect(body.features[0].properties.type).toBe('area');
    expect(body.features[0].geometry.coordinates[0]).toEqual([
      [30.3, 59.93],
      [30.32, 59.93],
      [30.32, 59.94],
      [30.3, 59.93],
    ]);
    for (const bad of ['30.3\t59.9', '30.3\tabc\n1\t2\n3\t4', '300\t10\n1\t2\n3\t4', '1\t1\n1\t1\n1\t1']) {
      const reply = await call('GET', `/api/v1/gis/coords?params=${encodeURIComponent(bad)}`, viewer);
      expect(reply.status).toBe(400);
      expect(reply.body.error.message).toMatch(/[а-я]/);
    }
  });

  it('finds demo parcels by cadastral number, refuses unknown ones, imports GeoJSON (admin only)', async () => {
    const found = await call('GET', `/api/v1/gis/code?params=${encodeURIComponent('78:31:0001001:1\n78:31:0001001:2')}`, viewer);
    expect(found.status).toBe(200);
    expect(found.body.features.map((f: { properties: { cadastral_number: string } }) => f.properties.cadastral_number)).toEqual([
      '78:31:0001001:1',
      '78:31:0001001:2',
    ]);
    // The demo rectangle 78:31:0001001:2 is built by arithmetic (30.315 + 0.01 = 30.325000000000003):
    // every coordinate comes rounded to 7 decimals, which the drawing accepts.
    expect(found.body.features[1].geometry.coordinates[0]).toEqual([
      [30.315, 59.93],
      [30.325, 59.93],
      [30.325, 59.935],
      [30.315, 59.935],
      [30.315, 59.93],
    ]);
    const decimals = (v: number) => (String(v).split('.')[1] ?? '').length;
    for (const f of found.body.features as Array<{ geometry: { coordinates: number[][][] } }>)
      expect(Math.max(...f.geometry.coordinates.flat(2).map(decimals))).toBeLessThanOrEqual(7);
    const unknown = await call('GET', `/api/v1/gis/code?params=${encodeURIComponent('77:01:0000001:1')}`, viewer);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Участок с кадастровым номером 77:01:0000001:1 не найден');
    expect((await call('GET', '/api/v1/gis/code?params=abc', viewer)).status).toBe(400);

    const parcels = { type: 'FeatureCollection', features: [{ ...square(37.6, 55.7), properties: { cadastral_number: '77:01:0000001:1' } }] };
    expect((await call('POST', '/api/v1/gis/cadastre/import', viewer, parcels)).status).toBe(403);
    const bad = { type: 'FeatureCollection', features: [{ ...square(37.6, 55.7), properties: {} }] };
    expect((await call('POST', '/api/v1/gis/cadastre/import', admin, bad)).status).toBe(400);
    expect((await call('POST', '/api/v1/gis/cadastre/import', admin, parcels)).body).toEqual({ imported: 1 });
    expect((await call('GET', `/api/v1/gis/code?params=${encodeURIComponent('77:01:0000001:1')}`, viewer)).status).toBe(200);
  });
});

describe('basemap', () => {
  it('serves a PMTiles v3 archive with HTTP Range that the pmtiles reader opens', async () => {
    const whole = await t.request('/api/v1/map/basemap.pmtiles');
    expect(whole.status).toBe(200);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const head = await t.request('/api/v1/map/basemap.pmtiles', { headers: { range: 'bytes=0-126' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-126/${bytes.byteLength}`);
    expect(new TextDecoder().decode((await head.arrayBuffer()).slice(0, 7))).toBe('PMTiles');
    expect((await t.request('/api/v1/map/basemap.pmtiles', { headers: { range: `bytes=${bytes.byteLength + 5}-` } })).status).toBe(416);

    const source = {
      getKey: () => 'basemap',
      getBytes: async (offset: number, length: number) => {
        const r = await t.request('/api/v1/map/basemap.pmtiles', { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
        return { data: await r.arrayBuffer() };
      },
    };
    const archive = new PMTiles(source);
    const header = await archive.getHeader();
    expect(header).toMatchObject({ specVersion: 3, tileType: 1, minZoom: 0, maxZoom: 6 });
    // Saint Petersburg at zoom 6 is on land: the tile exists.
    expect((await archive.getZxy(6, 37, 18))?.data.byteLength).toBeGreaterThan(0);

    const style = await call('GET', '/api/v1/map/style.json');
    expect(style.body.sources.basemap.url).toMatch(/^pmtiles:\/\/http:\/\/localhost(:\d+)?\/api\/v1\/map\/basemap\.pmtiles$/);
    expect(style.body.zoom).toBe(12);
    expect(JSON.stringify(style.body)).not.toMatch(/glyphs|sprite|https:/);
    // Town names in the page's own font: no glyphs URL, so maplibre draws them from Montserrat.
    expect(style.body.layers.find((l: { id: string }) => l.id === 'places')).toMatchObject({
      type: 'symbol',
      'source-layer': 'places',
      layout: { 'text-field': ['get', 'name'], 'text-font': ['Montserrat'] },
    });
    // Water between land and borders, in the sea's colour: lakes filled, rivers as lines.
    const layers = style.body.layers as Array<{ id: string; type: string; 'source-layer'?: string; paint: Record<string, unknown> }>;
    expect(layers.map((l) => l.id)).toEqual(['sea', 'land', 'lakes', 'rivers', 'borders', 'places']);
    const sea = layers[0]!.paint['background-color'];
    expect(layers.find((l) => l.id === 'lakes')).toMatchObject({ type: 'fill', 'source-layer': 'lakes', paint: { 'fill-color': sea } });
    expect(layers.find((l) => l.id === 'rivers')).toMatchObject({ type: 'line', 'source-layer': 'rivers', paint: { 'line-color': sea } });
    // GeoNames (CC BY 4.0) and GSHHG are credited exactly when the archive carries their data
    // (Debian's libgeonames-common and gmt-gshhg-high).
    const withNames = placeNamesCatalog() !== null;
    const withWater = waterSource() !== null;
    const metadata = (await archive.getMetadata()) as { attribution: string; vector_layers: Array<{ id: string }> };
    expect(metadata.vector_layers.some((l) => l.id === 'places')).toBe(withNames);
    expect(metadata.vector_layers.filter((l) => l.id === 'lakes' || l.id === 'rivers')).toHaveLength(withWater ? 2 : 0);
    expect(style.body.sources.basemap.attribution).toBe(metadata.attribution);
    expect(metadata.attribution).toBe(['Natural Earth', ...(withWater ? ['GSHHG (LGPL-3.0)'] : []), ...(withNames ? ['GeoNames (CC BY 4.0)'] : [])].join(', '));
  });

  it("serves the operator's own style (NORMA_MAP_STYLE) with {origin} filled in; a broken file is a 500 with a Russian message", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'norma-style-'));
    const file = join(dir, 'city.json');
    const own = {
      version: 8,
      sources: { city: { type: 'vector', url: 'pmtiles://{origin}/api/v1/map/basemap.pmtiles' } },
      layers: [{ id: 'streets', type: 'line', source: 'city', 'source-layer': 'roads' }],
    };
    writeFileSync(file, JSON.stringify(own));
    const app = await createTestApp({ mapStyleFile: file });
    try {
      const style = await app.request('/api/v1/map/style.json');
      expect(style.status).toBe(200);
      const body = await style.json();
      expect(body.layers).toEqual(own.layers);
      expect(body.sources.city.url).toMatch(/^pmtiles:\/\/http:\/\/localhost(:\d+)?\/api\/v1\/map\/basemap\.pmtiles$/);
      writeFileSync(file, '{"version": 8,');
      const broken = await app.request('/api/v1/map/style.json');
      expect(broken.status).toBe(500);
      expect((await broken.json()).error.message).toMatch(/NORMA_MAP_STYLE/);
    } finally {
      await app.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('algorithm and CAD export jobs', () => {
  it('generates a grid in the worker, then exports DXF and DWG that download and read back', async () => {
    await call('POST', '/api/v1/projects/create', admin, { name: 'Сетка' });
    const rows = encodeURIComponent('30.30\t59.93\n30.32\t59.93\n30.32\t59.94\n30.30\t59.94');
    const area = (await call('GET', `/api/v1/gis/coords?params=${rows}`, admin)).body;
    await call('POST', '/api/v1/projects/last/save', admin, area);
    const { body: queued } = await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'road_gen_grid' });
    const runner = startWorkers(t.deps, { pollMs: 20 });
    try {
      await runner.drain();
      const job = await call('GET', `/api/v1/jobs/${queued.job_id}`, admin);
      expect(job.body.status).toBe('success');
      const project = (await call('GET', '/api/v1/projects/last/get', admin)).body;
      expect(project.is_processing).toBe(false);
      const blocks = project.general_feature_collection.features.filter((f: { properties: { type: string } }) => f.properties.type === 'block');
      const roads = project.general_feature_collection.features.filter((f: { properties: { type: string } }) => f.properties.type === 'road');
      expect(blocks.length).toBeGreaterThan(20);
      expect(project.drawing_feature_collection.features).toHaveLength(1 + blocks.length + roads.length);
      expect(project.info_feature_collection.features[0].properties.html_short).toMatch(/^Сетка улиц: \d+ кв\./);
      const meta = (await call('GET', '/api/v1/projects/last/meta', admin)).body;
      expect(meta.feature_counts).toMatchObject({ area: 1, block: blocks.length, road: roads.length, info: 1 });

      // Undo/redo restores a snapshot's generated network and labels with the drawn features.
      const empty = { type: 'FeatureCollection', features: [] };
      const undone = await call('POST', '/api/v1/projects/last/save', admin, {
        ...area,
        restore: { general_feature_collection: empty, info_feature_collection: empty },
      });
      expect(undone.body.general_feature_collection.features).toHaveLength(0);
      expect(undone.body.info_feature_collection.features).toHaveLength(0);
      expect(undone.body.drawing_feature_collection.features).toHaveLength(1);
      const redone = await call('POST', '/api/v1/projects/last/save', admin, {
        ...area,
        restore: { general_feature_collection: project.general_feature_collection, info_feature_collection: project.info_feature_collection },
      });
      expect(redone.body.general_feature_collection).toEqual(project.general_feature_collection);
      expect(redone.body.drawing_feature_collection.features).toHaveLength(1 + blocks.length + roads.length);
      expect(redone.body.drawn_feature_collection).toEqual(area);

      // An algorithm that cannot run on this input fails the job with the reason and frees the project.
      await call('POST', '/api/v1/projects/last/clear', admin);
      const { body: bad } = await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'block_min_circle_cover' });
      await runner.drain();
      expect((await call('GET', `/api/v1/jobs/${bad.job_id}`, admin)).body).toMatchObject({ status: 'failed', error: expect.stringMatching(/кварталы/) });
      expect((await call('GET', '/api/v1/projects/last/meta', admin)).body.is_processing).toBe(false);

      await call('POST', '/api/v1/projects/last/save', admin, area);
      await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'road_gen_grid' });
      await runner.drain();
      expect((await call('POST', '/api/v1/dwg/build', admin, '{"format":"pdf"}')).status).toBe(400);
      const { body: build } = await call('POST', '/api/v1/dwg/build', admin, { format: 'dxf' });
      expect((await call('GET', `/api/v1/dwg/output_url?work_item_id=${build.work_item_id}`, admin)).status).toBe(400);
      await runner.drain();
      expect((await call('GET', `/api/v1/dwg/status?work_item_id=${build.work_item_id}`, admin)).body.status).toBe('success');
      // Another organisation sees no such work item.
      expect((await call('GET', `/api/v1/dwg/status?work_item_id=${build.work_item_id}`, stranger)).status).toBe(404);
      const { body: link } = await call('GET', `/api/v1/dwg/output_url?work_item_id=${build.work_item_id}`, admin);
      expect(link.filename).toBe('output.dxf');
      const file = await t.request(link.url, { cookie: admin });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toContain('output.dxf');
      // AutoCAD 2000 DXF in Windows-1251, as its $DWGCODEPAGE says.
      const parsed = new DxfParser().parseSync(new TextDecoder('windows-1251').decode(await file.arrayBuffer()))!;
      const byLayer: Record<string, number> = {};
      for (const e of parsed.entities) byLayer[e.layer] = (byLayer[e.layer] ?? 0) + 1;
      expect(byLayer['Кварталы_Квартал']).toBe(blocks.length);
      expect((byLayer['Дороги_Районная_улица'] ?? 0) + (byLayer['Дороги_Местный_проезд'] ?? 0)).toBe(roads.length);
      expect((await t.request(link.url, { cookie: stranger })).status).toBe(404);

      // DWG (AutoCAD 2000): same layers and entities, read back by LibreDWG.
      const { body: dwgBuild } = await call('POST', '/api/v1/dwg/build', admin, { format: 'dwg' });
      await runner.drain();
      expect((await call('GET', `/api/v1/dwg/status?work_item_id=${dwgBuild.work_item_id}`, admin)).body.status).toBe('success');
      const { body: dwgLink } = await call('GET', `/api/v1/dwg/output_url?work_item_id=${dwgBuild.work_item_id}`, admin);
      expect(dwgLink.filename).toBe('output.dwg');
      const dwgFile = await t.request(dwgLink.url, { cookie: admin });
      expect(dwgFile.status).toBe(200);
      expect(dwgFile.headers.get('content-type')).toBe('application/acad');
      expect(dwgFile.headers.get('content-disposition')).toContain('output.dwg');
      const bytes = new Uint8Array(await dwgFile.arrayBuffer());
      expect(new TextDecoder().decode(bytes.subarray(0, 6))).toBe('AC1015');
      const read = await readDwg(bytes);
      expect(read.error).toBe(0);
      const dwgByLayer: Record<string, number> = {};
      for (const e of read.db!.entities) dwgByLayer[e.layer] = (dwgByLayer[e.layer] ?? 0) + 1;
      expect(dwgByLayer).toEqual(byLayer);
      expect(read.db!.tables.LAYER.entries.find((l) => l.name === 'Кварталы_Квартал')?.colorIndex).toBe(mapType('block').aci);
      expect((await t.request(dwgLink.url, { cookie: stranger })).status).toBe(404);
    } finally {
      await runner.stop();
    }
  });
  it('keeps one coordinate reference per project: exports overlay across algorithm runs, re-exports are byte-identical, a national grid can be picked', async () => {
    await call('POST', '/api/v1/projects/create', admin, { name: 'Привязка' });
    const fresh = (await call('GET', '/api/v1/projects/last/get', admin)).body;
    expect(fresh.crs).toBeNull();
    expect((await call('POST', '/api/v1/projects/last/crs', admin, { kind: 'sk42' })).status).toBe(400);
    const drawn = { type: 'FeatureCollection', features: [square(30.3, 59.93, 0.012), road] };
    const saved = (await call('POST', '/api/v1/projects/last/save', admin, drawn)).body;
    expect(saved.crs).toMatchObject({ kind: 'local', zone: null, epsg: null });
    expect(saved.crs.definition).toContain('+proj=tmerc');
    expect(saved.crs_options.map((o: { kind: string }) => o.kind)).toEqual(['local', 'sk42', 'utm']);
    // Moving the drawing later does not move the reference chosen with the first one.
    const moved = { type: 'FeatureCollection', features: [square(30.3, 59.93, 0.012), square(30.35, 59.95, 0.01), road] };
    expect((await call('POST', '/api/v1/projects/last/save', admin, moved)).body.crs).toEqual(saved.crs);

    const runner = startWorkers(t.deps, { pollMs: 20 });
    const exportDxf = async () => {
      const { body: build } = await call('POST', '/api/v1/dwg/build', admin, { format: 'dxf' });
      await runner.drain();
      const { body: link } = await call('GET', `/api/v1/dwg/output_url?work_item_id=${build.work_item_id}`, admin);
      const bytes = new Uint8Array(await (await t.request(link.url, { cookie: admin })).arrayBuffer());
      const prj = await (await t.request(link.prj_url, { cookie: admin })).text();
      const dxf = new DxfParser().parseSync(new TextDecoder('windows-1251').decode(bytes))!;
      const outline = dxf.entities.find((e) => e.layer === 'Территории_Жилая_застройка') as unknown as { vertices: Array<{ x: number; y: number }> };
      return { bytes, prj, first: outline.vertices[0], link };
    };
    try {
      await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'road_gen_grid' });
      await runner.drain();
      const a = await exportDxf();
      const b = await exportDxf();
      expect(b.bytes).toEqual(a.bytes); // the same project state, the same file
      expect(a.link.prj_filename).toBe('output.prj');
      expect(a.prj).toContain('PROJECTION["Transverse_Mercator"]');
      await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'block_min_circle_cover' });
      await runner.drain();
      const c = await exportDxf();
      expect(c.bytes).not.toEqual(a.bytes);
      // The territory's corner stays where it was (to the millimetre the file keeps).
      expect(c.first).toEqual(a.first);

      const picked = await call('POST', '/api/v1/projects/last/crs', admin, { kind: 'sk42' });
      expect(picked.status).toBe(200);
      expect(picked.body.crs).toMatchObject({ kind: 'sk42', zone: 6, epsg: 28406 });
      expect(picked.body.crs.name).toBe('СК-42, зона Гаусса–Крюгера 6');
      expect((await call('POST', '/api/v1/projects/last/crs', viewer, { kind: 'utm' })).status).toBe(403);
      expect((await call('POST', '/api/v1/projects/last/crs', admin, { kind: 'msk' })).status).toBe(400);
      const d = await exportDxf();
      // Gauss–Krüger zone 6: eastings carry the zone number (6 500 000 m at the central meridian 33° E).
      expect(d.first.x).toBeGreaterThan(6_300_000);
      expect(d.first.x).toBeLessThan(6_500_000);
      expect(d.first.y).toBeGreaterThan(6_600_000);
      expect(d.prj).toContain('AUTHORITY["EPSG","28406"]');
    } finally {
      await runner.stop();
    }
  });
  it('«Дерево» run again gives the same drawing and byte-identical DXF and DWG, though the project was saved again (issue 46)', async () => {
    await call('POST', '/api/v1/projects/create', admin, { name: 'Дважды дерево' });
    await call('POST', '/api/v1/projects/last/save', admin, { type: 'FeatureCollection', features: [square(30.3, 59.93, 0.012), road] });
    const runner = startWorkers(t.deps, { pollMs: 20 });
    const exportFile = async (format: 'dxf' | 'dwg') => {
      const { body: build } = await call('POST', '/api/v1/dwg/build', admin, { format });
      await runner.drain();
      const { body: link } = await call('GET', `/api/v1/dwg/output_url?work_item_id=${build.work_item_id}`, admin);
      return Buffer.from(await (await t.request(link.url, { cookie: admin })).arrayBuffer());
    };
    try {
      for (const algo_tag of ['road_gen_voronoi', 'road_subdivide']) {
        await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag });
        await runner.drain();
      }
      const first = (await call('GET', '/api/v1/projects/last/get', admin)).body;
      const [dxf, dwg] = [await exportFile('dxf'), await exportFile('dwg')];
      await call('POST', '/api/v1/projects/last/algo', admin, { algo_tag: 'road_subdivide' });
      await runner.drain();
      const second = (await call('GET', '/api/v1/projects/last/get', admin)).body;
      // The same streets and blocks (a block's area_m2, from coordinates the first run had unrounded, may move by 1 m²; CAD draws no area).
      const shapes = (p: { general_feature_collection: { features: Array<{ geometry: unknown }> } }) =>
        p.general_feature_collection.features.map((f) => f.geometry);
      expect(shapes(second)).toEqual(shapes(first));
      expect(second.updated_at).not.toBe(first.updated_at);
      expect((await exportFile('dxf')).equals(dxf)).toBe(true);
      expect((await exportFile('dwg')).equals(dwg)).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it('writes the DWG text encoding asked for: Windows-1251 bytes for GDAL, \\U+ codes by default; a bad or DXF choice is refused', async () => {
    await call('POST', '/api/v1/projects/create', admin, { name: 'Кодировка DWG' });
    const park = { ...square(30.3, 59.93, 0.012), properties: { type: 'area', type_id: 10, name: 'Парк «Ёлочки»' } };
    await call('POST', '/api/v1/projects/last/save', admin, { type: 'FeatureCollection', features: [park, road] });
    const jobsBefore = (await t.deps.db.selectFrom('jobs').select('id').execute()).length;
    for (const body of [
      { format: 'dwg', text_encoding: 'utf8' },
      { format: 'dwg', text_encoding: 'x'.repeat(10_000) },
      { format: 'dxf', text_encoding: 'cp1251' },
      { text_encoding: 'unicode' },
    ]) {
      const refused = await call('POST', '/api/v1/dwg/build', admin, body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.body.error.message).toMatch(/кодиров/);
    }
    expect(await t.deps.db.selectFrom('jobs').select('id').execute()).toHaveLength(jobsBefore);

    const runner = startWorkers(t.deps, { pollMs: 20 });
    const exportDwg = async (body: object) => {
      const { body: build } = await call('POST', '/api/v1/dwg/build', admin, body);
      const job = await t.deps.db.selectFrom('jobs').select('payload').where('id', '=', build.work_item_id).executeTakeFirstOrThrow();
      await runner.drain();
      expect((await call('GET', `/api/v1/dwg/status?work_item_id=${build.work_item_id}`, admin)).body.status).toBe('success');
      const { body: link } = await call('GET', `/api/v1/dwg/output_url?work_item_id=${build.work_item_id}`, admin);
      expect(link.filename).toBe('output.dwg');
      return { payload: JSON.parse(job.payload), bytes: new Uint8Array(await (await t.request(link.url, { cookie: admin })).arrayBuffer()) };
    };
    try {
      const gdal = await exportDwg({ format: 'dwg', text_encoding: 'cp1251' });
      const plain = await exportDwg({ format: 'dwg' });
      expect(gdal.payload).toMatchObject({ format: 'dwg', text_encoding: 'cp1251' });
      expect(plain.payload).toMatchObject({ format: 'dwg', text_encoding: 'unicode' });
      for (const text of ['Парк «Ёлочки»', 'Территории_Жилая_застройка']) {
        expect(dwgHolds(gdal.bytes, encodeCp1251(text)), text).toBe(true);
        expect(dwgHolds(gdal.bytes, encodeDwgText(text)), text).toBe(false);
        expect(dwgHolds(plain.bytes, encodeDwgText(text)), text).toBe(true);
        expect(dwgHolds(plain.bytes, encodeCp1251(text)), text).toBe(false);
      }
      // Both read back the same by LibreDWG, which follows the header's code page and the codes alike.
      for (const { bytes } of [gdal, plain]) {
        const read = await readDwg(bytes);
        expect(read.error).toBe(0);
        expect(read.db!.entities.flatMap((e) => (e.type === 'TEXT' ? [(e as unknown as { text: string }).text] : []))).toContain('Парк «Ёлочки»');
        expect(read.db!.tables.LAYER.entries.map((l) => l.name)).toContain('Территории_Жилая_застройка');
      }
    } finally {
      await runner.stop();
    }
  });
});
