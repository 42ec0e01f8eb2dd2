export { makeClip } from '../../workers/test-support/test-clips';
import { registerUser } from '../src/auth/service';
import type { Db } from '../src/db/database';
import type { TestApp } from './testing';

/**
 * Two organisations: ours (an admin, an assessor and a viewer; one structure with four cameras,
 * workplaces, employees and operations) and a rival with a structure and a camera of its own.
 */
export async function videoWorld(t: TestApp) {
  const { db } = t.deps;
  const admin = await registerUser(t.deps, { login: 'lead', password: 'secret-pass', firstName: 'Анна', lastName: 'Ведущая' });
  const assessor = await registerUser(
    t.deps,
    { login: 'marker', password: 'secret-pass', firstName: 'Мария', lastName: 'Разметчица' },
    { organizationId: admin.organizationId, role: 'assessor' },
  );
  await registerUser(
    t.deps,
    { login: 'watcher', password: 'secret-pass', firstName: 'Пётр', lastName: 'Наблюдатель' },
    { organizationId: admin.organizationId, role: 'viewer' },
  );
  const rival = await registerUser(t.deps, { login: 'rival', password: 'secret-pass', firstName: 'Р', lastName: 'Р' });
  const now = Date.now();
  const structureId = (
    await db
      .insertInto('structures')
      .values({ organization_id: admin.organizationId, name: 'Участок', parent_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const otherStructureId = (
    await db
      .insertInto('structures')
      .values({ organization_id: admin.organizationId, name: 'Другой участок', parent_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const foreignStructureId = (
    await db
      .insertInto('structures')
      .values({ organization_id: rival.organizationId, name: 'Чужой', parent_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const cameraIds: number[] = [];
  for (let key = 1; key <= 4; key++) {
    cameraIds.push(
      (
        await db
          .insertInto('cameras')
          .values({ structure_id: structureId, camera_key: key, name: `Камера ${key}`, storage_folder: `recordings/site/cam${key}` })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  const foreignCameraId = (
    await db
      .insertInto('cameras')
      .values({ structure_id: foreignStructureId, camera_key: 1, name: 'Чужая камера', storage_folder: 'recordings/rival/cam1' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const workplaceIds = [];
  for (const name of ['Стол № 1', 'Стол № 2', 'Стол № 3']) {
    workplaceIds.push((await db.insertInto('workplaces').values({ structure_id: structureId, name }).returning('id').executeTakeFirstOrThrow()).id);
  }
  const employeeId = (await db.insertInto('employees').values({ structure_id: structureId, name: 'Иванов Иван' }).returning('id').executeTakeFirstOrThrow()).id;
  const operationIds = {
    main: (await db.insertInto('operations').values({ structure_id: structureId, name: 'Сборка', type: 'main' }).returning('id').executeTakeFirstOrThrow()).id,
    idle: (await db.insertInto('operations').values({ structure_id: structureId, name: 'Ожидание', type: 'idle' }).returning('id').executeTakeFirstOrThrow())
      .id,
  };
  const foreignOperation = (
    await db.insertInto('operations').values({ structure_id: foreignStructureId, name: 'Чужая', type: 'main' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const foreignWorkplace = (
    await db.insertInto('workplaces').values({ structure_id: foreignStructureId, name: 'Чужой стол' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  return {
    admin,
    assessor,
    rival,
    structureId,
    otherStructureId,
    foreignStructureId,
    cameraIds,
    foreignCameraId,
    workplaceIds,
    employeeId,
    operationIds,
    foreignOperation,
    foreignWorkplace,
    cookies: {
      admin: await t.signIn('lead', 'secret-pass'),
      assessor: await t.signIn('marker', 'secret-pass'),
      viewer: await t.signIn('watcher', 'secret-pass'),
      rival: await t.signIn('rival', 'secret-pass'),
    },
  };
}

export type VideoWorld = Awaited<ReturnType<typeof videoWorld>>;

/**
 * A top-level structure of an organisation. `settings`: the worked example's settings (2 employees,
 * 52 000 ₽, a 20-minute regular break); `shift`: one shift «Смена» [start, end, break minutes].
 */
export async function insertStructure(
  db: Db,
  organizationId: number,
  name: string,
  options: { now?: number; partial?: boolean; settings?: boolean; shift?: [string, string, number] } = {},
) {
  const { id } = await db
    .insertInto('structures')
    .values({ organization_id: organizationId, name, parent_id: null, partial: options.partial ? 1 : 0, created_at: options.now ?? Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (options.settings)
    await db
      .insertInto('structure_settings')
      .values({
        structure_id: id,
        employee_count: 2,
        employee_salary: 52000,
        fluct_reduction: 0,
        regular_break_duration: 1200,
        time_series_stability_threshold: null,
        rest_in_idle: 0,
      })
      .execute();
  if (options.shift)
    await db
      .insertInto('shifts')
      .values({ structure_id: id, name: 'Смена', start_time: options.shift[0], end_time: options.shift[1], regular_break_duration_min: options.shift[2] })
      .execute();
  return id;
}

/** Camera 1 «Камера 1» (folder rec/1) of a structure. */
export async function insertCamera(db: Db, structureId: number) {
  const row = await db
    .insertInto('cameras')
    .values({ structure_id: structureId, camera_key: 1, name: 'Камера 1', storage_folder: 'rec/1' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The least a video markup is saved against, in one organisation: a structure (created `now`) with a
 * main operation «Сборка», a workplace «Стол 1», an employee «Алексеев» and camera 1 (folder rec/1).
 */
export async function markupPlace(db: Db, organizationId: number, now = Date.now(), structureName = 'Участок') {
  const structureId = await insertStructure(db, organizationId, structureName, { now });
  const operationId = (
    await db.insertInto('operations').values({ structure_id: structureId, name: 'Сборка', type: 'main' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const workplaceId = (await db.insertInto('workplaces').values({ structure_id: structureId, name: 'Стол 1' }).returning('id').executeTakeFirstOrThrow()).id;
  const employeeId = (await db.insertInto('employees').values({ structure_id: structureId, name: 'Алексеев' }).returning('id').executeTakeFirstOrThrow()).id;
  const cameraId = await insertCamera(db, structureId);
  return { structureId, operationId, workplaceId, employeeId, cameraId };
}

/** Inserts a ready video row directly (for calls that only read rows); no file unless `key` is stored. */
export async function insertVideo(
  db: Db,
  cameraId: number,
  values: {
    filename: string;
    start: number;
    duration: number | null;
    status?: 'queued' | 'processing' | 'ready' | 'failed';
    key?: string;
    comment?: string;
    createdAt?: number;
  },
) {
  const row = await db
    .insertInto('videos')
    .values({
      camera_id: cameraId,
      filename: values.filename,
      storage_key: values.key ?? `recordings/rows/${cameraId}/${values.filename}`,
      content_hash: null,
      size_bytes: null,
      start_time: values.start,
      duration: values.duration,
      status: values.status ?? 'ready',
      comment: values.comment ?? '',
      created_at: values.createdAt ?? Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Markup rows inserted directly (no video, created at 0) for calls that only read them: one per [start, end] span, all of one place. */
export async function insertMarkupRows(
  db: Db,
  place: { structure_id: number; operation_id: number; workplace_id: number; employee_id: number | null },
  spans: [number, number][],
) {
  const rows = spans.map(([start_time, end_time]) => ({ ...place, start_time, end_time, comment: null, video_id: null, created_at: 0, updated_at: 0 }));
  await db.insertInto('markups').values(rows).execute();
}
