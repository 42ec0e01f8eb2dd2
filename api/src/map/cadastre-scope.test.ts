import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../test-support/workspace-fixture';
import { createTestApp, type TestApp } from '../../test-support/testing';

/** Issue 24: the cadastre is per organisation, a viewer starts no job, and reading the map project list writes nothing. */
let t: TestApp;
let w: WorkspaceFixture;
beforeAll(async () => {
  t = await createTestApp();
  w = await workspaceFixture(t);
});
afterAll(async () => t.cleanup());

const json = async (response: Response) => ({ status: response.status, body: await response.json() });
const ring = (lon: number, lat: number) => [
  [lon, lat],
  [lon + 0.01, lat],
  [lon + 0.01, lat + 0.01],
  [lon, lat + 0.01],
  [lon, lat],
];
const parcel = (number: string, lon: number, lat: number) => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring(lon, lat)] }, properties: { cadastral_number: number } }],
});
const lookup = async (who: 'admin' | 'viewer' | 'rival', number: string) =>
  json(await w.call('GET', `/api/v1/gis/code?params=${encodeURIComponent(number)}`, who));

describe('cadastre per organisation', () => {
  it("another organisation's import neither overwrites nor shows in this organisation's lookups", async () => {
    const demo = (await lookup('admin', '78:31:0001001:1')).body.features[0].geometry;
    // The rival organisation's admin (self-registered) imports its own polygon under the demo parcel's number, and a new one.
    const imported = await json(await w.call('POST', '/api/v1/gis/cadastre/import', 'rival', parcel('78:31:0001001:1', 10, 10)));
    expect(imported).toEqual({ status: 200, body: { imported: 1 } });
    expect((await json(await w.call('POST', '/api/v1/gis/cadastre/import', 'rival', parcel('77:01:0000009:9', 11, 11)))).status).toBe(200);

    expect((await lookup('admin', '78:31:0001001:1')).body.features[0].geometry).toEqual(demo);
    expect((await lookup('viewer', '78:31:0001001:1')).body.features[0].geometry).toEqual(demo);
    const unknown = await lookup('admin', '77:01:0000009:9');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Участок с кадастровым номером 77:01:0000009:9 не найден');
    // The importer sees its own parcel in place of the shared one.
    expect((await lookup('rival', '78:31:0001001:1')).body.features[0].geometry.coordinates[0][0]).toEqual([10, 10]);
    expect((await lookup('rival', '77:01:0000009:9')).status).toBe(200);

    // This organisation's own import replaces only its own copy, re-importing updates it in place.
    await w.call('POST', '/api/v1/gis/cadastre/import', 'admin', parcel('78:31:0001001:1', 20, 20));
    await w.call('POST', '/api/v1/gis/cadastre/import', 'admin', parcel('78:31:0001001:1', 21, 21));
    expect((await lookup('admin', '78:31:0001001:1')).body.features[0].geometry.coordinates[0][0]).toEqual([21, 21]);
    expect((await lookup('rival', '78:31:0001001:1')).body.features[0].geometry.coordinates[0][0]).toEqual([10, 10]);
    const rows = await t.deps.db.selectFrom('cadastral_parcels').select(['organization_id']).where('number', '=', '78:31:0001001:1').execute();
    expect(rows.map((r) => r.organization_id).sort()).toEqual([null, w.org, w.rivalOrg].sort());
  });
});

describe('jobs need a role that may write', () => {
  it('a viewer gets 403 from every call that starts a job, and no job is queued', async () => {
    const camera = await t.deps.db
      .insertInto('cameras')
      .values({ structure_id: w.structureId, camera_key: 4, name: 'Камера 4', storage_folder: 'rec/4' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobsBefore = await t.deps.db.selectFrom('jobs').select('id').execute();
    const attempts: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/dwg/build', { format: 'dwg' }],
      ['POST', '/api/v1/dwg/build', { format: 'dxf' }],
      ['POST', '/api/v1/projects/last/algo', { algo_tag: 'road_gen_grid' }],
      ['GET', `/api/v1/sync_videos?structure_id=${w.structureId}`, undefined],
      [
        'POST',
        '/api/v1/start_marker_training',
        { workplace_id: w.workplaceId, operation_ids: [w.operationId], marked_video_id: 1, video_area_ids: [], start_second: 0, end_second: 1 },
      ],
      ['POST', '/api/v1/start_marker_applying', { model_id: 1, unmarked_video_id: 1, start_second: 0, end_second: 1 }],
    ];
    for (const [method, path, body] of attempts) {
      const reply = await w.call(method, path, 'viewer', body);
      expect(reply.status, `${method} ${path}`).toBe(403);
    }
    const upload = await t.request(`/api/v1/upload?camera_id=${camera.id}&filename=a.mp4`, {
      method: 'POST',
      cookie: w.cookies.viewer,
      headers: { 'content-type': 'video/mp4' },
      body: new Uint8Array(64),
    });
    expect(upload.status).toBe(403);
    expect(await t.deps.db.selectFrom('jobs').select('id').execute()).toEqual(jobsBefore);
  });
});

describe('map projects', () => {
  it('GET projects/list, last/meta and last/get write nothing', async () => {
    expect((await w.call('POST', '/api/v1/projects/create', 'admin', { name: 'Первый' })).status).toBe(200);
    await t.deps.db.deleteFrom('map_last_project').execute();
    const list = await json(await w.call('GET', '/api/v1/projects/list', 'viewer'));
    expect(list.status).toBe(200);
    expect(list.body.current_id).toBe(list.body.projects[0].id);
    expect((await w.call('GET', '/api/v1/projects/last/meta', 'viewer')).status).toBe(200);
    expect((await w.call('GET', '/api/v1/projects/last/get', 'analyst')).status).toBe(200);
    expect(await t.deps.db.selectFrom('map_last_project').selectAll().execute()).toEqual([]);
  });
});
