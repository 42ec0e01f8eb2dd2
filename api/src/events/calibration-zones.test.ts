import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage as message, eventHall, type EventCallInit, type EventHall } from '../../test-support/event-hall';
import { createTestApp, type TestApp } from '../../test-support/testing';
import type { VideoWorld } from '../../test-support/video-fixtures';

/**
 * A camera's floor calibration and a hall's zones (issue 44, docs/api.md «Аналитика мероприятий»):
 * validation with Russian messages and nothing written, roles (administrators and analysts write,
 * everyone of the organisation reads), another organisation's 404, a stand's default circle.
 */
let t: TestApp;
let hall: EventHall;
let w: VideoWorld;

const call = (path: string, init?: EventCallInit) => hall.call(path, init);

const GOOD = {
  frame_width: 768,
  frame_height: 576,
  image_points: [
    [100, 500],
    [700, 500],
    [600, 200],
    [200, 200],
  ],
  plan_points: [
    [0, 0],
    [10, 0],
    [10, 15],
    [0, 15],
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  hall = await eventHall(t);
  w = hall.w;
});
afterAll(async () => t?.cleanup());

describe('calibration of a camera', () => {
  it('is stored, read back and replaced; only administrators and analysts write it', async () => {
    const camera = w.cameraIds[0]!;
    expect((await call(`/api/v1/event/calibration?camera_id=${camera}`, { cookie: w.cookies.viewer })).body).toEqual({ calibration: null });
    const saved = await call(`/api/v1/event/calibration?camera_id=${camera}`, { method: 'PUT', body: GOOD });
    expect(saved.status).toBe(200);
    expect(saved.body.calibration).toMatchObject({ camera_id: camera, ...GOOD });
    const moved = { ...GOOD, plan_points: GOOD.plan_points.map(([x, y]) => [x! + 1, y]) };
    expect((await call(`/api/v1/event/calibration?camera_id=${camera}`, { method: 'PUT', body: moved })).status).toBe(200);
    const read = await call(`/api/v1/event/calibration?camera_id=${camera}`, { cookie: w.cookies.assessor });
    expect(read.body.calibration).toMatchObject({ plan_points: moved.plan_points });
    expect((await t.deps.db.selectFrom('event_calibrations').select('id').execute()).length).toBe(1);

    expect((await call(`/api/v1/event/calibration?camera_id=${camera}`, { method: 'PUT', body: GOOD, cookie: w.cookies.assessor })).status).toBe(403);
    expect((await call(`/api/v1/event/calibration?camera_id=${w.foreignCameraId}`, { method: 'PUT', body: GOOD })).status).toBe(404);
    expect((await call(`/api/v1/event/calibration?camera_id=${camera}`, { cookie: w.cookies.rival })).status).toBe(404);
  });

  it('refuses points that define no homography, with the reason in Russian, and keeps what was stored', async () => {
    const camera = w.cameraIds[1]!;
    const put = (body: unknown) => call(`/api/v1/event/calibration?camera_id=${camera}`, { method: 'PUT', body });
    const collinear = await put({
      ...GOOD,
      image_points: [
        [100, 100],
        [200, 200],
        [300, 300],
        [100, 400],
      ],
    });
    expect(collinear.status).toBe(400);
    expect(message(collinear)).toContain('image_points: Три из четырёх точек на кадре лежат почти на одной прямой');
    const same = await put({
      ...GOOD,
      plan_points: [
        [0, 0],
        [0, 0],
        [10, 15],
        [0, 15],
      ],
    });
    expect(message(same)).toContain('plan_points: Три из четырёх точек на плане лежат почти на одной прямой');
    // The same four corners taken in a different order on the plan: the mapping folds the floor over.
    const reordered = await put({
      ...GOOD,
      plan_points: [
        [0, 0],
        [10, 0],
        [0, 15],
        [10, 15],
      ],
    });
    expect(reordered.status).toBe(400);
    expect(message(reordered)).toContain('Точки на кадре и на плане идут в разном порядке');
    const outside = await put({
      ...GOOD,
      image_points: [
        [100, 500],
        [900, 500],
        [600, 200],
        [200, 200],
      ],
    });
    expect(message(outside)).toContain('точка 2 за краем кадра 768×576');
    expect(message(await put({ ...GOOD, image_points: GOOD.image_points.slice(0, 3) }))).toContain('нужно ровно четыре точки на кадре');
    expect((await put({ ...GOOD, frame_width: 0 })).status).toBe(400);
    expect(
      (
        await put({
          ...GOOD,
          plan_points: [
            [0, 0],
            [1e9, 0],
            [10, 15],
            [0, 15],
          ],
        })
      ).status,
    ).toBe(400);
    expect((await put({ ...GOOD, extra: true })).status).toBe(400);
    expect((await call(`/api/v1/event/calibration?camera_id=${camera}`)).body).toEqual({ calibration: null });
  });
});

describe('zones of a hall', () => {
  const square = {
    type: 'polygon',
    points: [
      [0, 0],
      [4, 0],
      [4, 3],
      [0, 3],
    ],
  };

  it('are created, listed, changed and deleted; readers only read', async () => {
    const created = await call('/api/v1/event/zone', { method: 'POST', body: { structure_id: w.structureId, name: '  Вход ', role: 'zone', shape: square } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ structure_id: w.structureId, name: 'Вход', role: 'zone', stand_id: null, shape: square });
    const id = created.body.id as number;
    const safe = await call('/api/v1/event/zone', {
      method: 'POST',
      body: { structure_id: w.structureId, name: 'Экспонат', role: 'safe', shape: { type: 'circle', center: [2, 2], radius: 0.8 } },
    });
    expect(safe.status).toBe(200);
    const list = await call(`/api/v1/event/zones?structure_id=${w.structureId}`, { cookie: w.cookies.viewer });
    expect((list.body.zones as { name: string }[]).map((z) => z.name)).toEqual(['Вход', 'Экспонат']);
    expect((await call(`/api/v1/event/zones?structure_id=${w.otherStructureId}`)).body).toEqual({ zones: [] });

    const changed = await call(`/api/v1/event/zone/${id}`, {
      method: 'PUT',
      body: { name: 'Вход в зал', role: 'zone', shape: { type: 'circle', center: [1, 1], radius: 2 } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, name: 'Вход в зал', shape: { type: 'circle', center: [1, 1], radius: 2 } });

    expect(
      (
        await call('/api/v1/event/zone', {
          method: 'POST',
          body: { structure_id: w.structureId, name: 'Н', role: 'zone', shape: square },
          cookie: w.cookies.viewer,
        })
      ).status,
    ).toBe(403);
    expect((await call(`/api/v1/event/zone/${id}`, { method: 'DELETE', cookie: w.cookies.assessor })).status).toBe(403);
    expect((await call(`/api/v1/event/zone/${id}`, { method: 'DELETE', cookie: w.cookies.rival })).status).toBe(404);
    expect((await call(`/api/v1/event/zones?structure_id=${w.structureId}`, { cookie: w.cookies.rival })).status).toBe(404);
    expect(
      (await call('/api/v1/event/zone', { method: 'POST', body: { structure_id: w.foreignStructureId, name: 'Ч', role: 'zone', shape: square } })).status,
    ).toBe(404);

    expect(await call(`/api/v1/event/zone/${id}`, { method: 'DELETE' })).toEqual({ status: 200, body: { deleted: 1 } });
    const gone = await call(`/api/v1/event/zone/${id}`, { method: 'DELETE' });
    expect(gone.status).toBe(404);
    expect(message(gone)).toBe('Зона не найдена');
  });

  it('refuses bad shapes, names, roles and stands with Russian messages and writes nothing', async () => {
    const before = (await t.deps.db.selectFrom('event_zones').select('id').execute()).length;
    const post = (body: Record<string, unknown>) =>
      call('/api/v1/event/zone', { method: 'POST', body: { structure_id: w.structureId, name: 'Зона', role: 'zone', shape: square, ...body } });
    expect(
      message(
        await post({
          shape: {
            type: 'polygon',
            points: [
              [0, 0],
              [1, 1],
            ],
          },
        }),
      ),
    ).toContain('у многоугольника не меньше 3 точек');
    const many = Array.from({ length: 101 }, (_, i) => [Math.cos(i / 16), Math.sin(i / 16)]);
    expect(message(await post({ shape: { type: 'polygon', points: many } }))).toContain('у многоугольника не больше 100 точек');
    expect(
      message(
        await post({
          shape: {
            type: 'polygon',
            points: [
              [0, 0],
              [1, 1],
              [2, 2],
            ],
          },
        }),
      ),
    ).toContain('Стороны многоугольника пересекаются');
    const bowTie = [
      [0, 0],
      [2, 2],
      [2, 0],
      [0, 2],
    ];
    const crossing = await post({ shape: { type: 'polygon', points: bowTie } });
    expect(crossing.status).toBe(400);
    expect(message(crossing)).toContain('Стороны многоугольника пересекаются');
    expect(message(await post({ shape: { type: 'circle', center: [0, 0], radius: 0 } }))).toContain('радиус больше 0');
    expect(message(await post({ shape: { type: 'circle', center: [0, 0], radius: 1001 } }))).toContain('радиус не больше 1000 м');
    expect(message(await post({ name: 'я'.repeat(101) }))).toContain('название не длиннее 100 символов');
    expect(message(await post({ name: '   ' }))).toContain('название не может быть пустым');
    expect((await post({ role: 'exit' })).status).toBe(400);
    expect((await post({ shape: { type: 'square', points: [] } })).status).toBe(400);
    expect(message(await post({ shape: undefined }))).toContain('Укажите форму зоны');
    expect((await post({ structure_id: 'x' })).status).toBe(400);
    // A stand of another organisation is no stand of ours.
    const rivalStand = (
      await t.deps.db.insertInto('stands').values({ organization_id: w.rival.organizationId, name: 'Чужой стенд' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const foreign = await post({ role: 'stand', stand_id: rivalStand });
    expect(foreign.status).toBe(404);
    expect(message(foreign)).toBe('Стенд не найден в организации');
    expect((await t.deps.db.selectFrom('event_zones').select('id').execute()).length).toBe(before);
  });

  it("a stand's zone without a shape is a circle around the stand's absolute location", async () => {
    const stand = (
      await t.deps.db.insertInto('stands').values({ organization_id: w.admin.organizationId, name: 'Стенд 1' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const body = { structure_id: w.structureId, name: 'У стенда', role: 'stand', stand_id: stand };
    const missing = await call('/api/v1/event/zone', { method: 'POST', body });
    expect(missing.status).toBe(400);
    expect(message(missing)).toContain('нет абсолютной локации');
    await t.deps.db.insertInto('absolute_locations').values({ stand_id: stand, structure_id: w.structureId, x: 5, y: 7 }).execute();
    const created = await call('/api/v1/event/zone', { method: 'POST', body });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ role: 'stand', stand_id: stand, shape: { type: 'circle', center: [5, 7], radius: 1.5 } });
  });
});
