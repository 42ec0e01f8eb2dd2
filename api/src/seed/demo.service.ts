import { utimes } from 'node:fs/promises';
import { DEMO_WORKPLACE_AREAS } from '@norma/workers/demo-video';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import {
  DEMO_SHIFT,
  DEMO_TIME_ZONE,
  demoDays,
  demoLeaves,
  demoTree,
  isUnregisteredDemoClip,
  type DemoLeaf,
  type DemoOperation,
  type PlannedClip,
  type PlannedSegment,
} from './demo-plan';

/**
 * The demo data's writes (demo.ts plans and renders them): the organisation, its tree, each leaf's
 * settings, cameras and people, the rendered clips as videos and the markup of the marked days. The
 * seed is no domain: like the migrations, it writes every table (scripts/table-owners.mjs).
 */

/** Which of the planned clips are rendered and registered (SeedOptions.onlyClips). */
type ClipFilter = (leaf: DemoLeaf, clip: PlannedClip) => boolean;

export const demoStorageKey = (leaf: DemoLeaf, clip: PlannedClip) => `recordings/${leaf.slug}/cam${clip.cameraKey}/${clip.filename}`;

/** Does the database hold any organisation? */
export async function hasOrganization(db: Db): Promise<boolean> {
  const any = await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  return Boolean(any);
}

export async function insertDemoOrganization(db: Db, now: number) {
  return db
    .insertInto('organizations')
    .values({ name: 'Демо: Северный машиностроительный завод', time_zone: DEMO_TIME_ZONE, is_demo: 1, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Undoes a demo organisation that failed half-way: its users, then the organisation (the rest cascades). */
export async function deleteDemoOrganization(db: Db, organizationId: number, userIds: string[]): Promise<void> {
  await db
    .deleteFrom('user')
    .where('id', 'in', userIds.length ? userIds : [''])
    .execute();
  await db.deleteFrom('organizations').where('id', '=', organizationId).execute();
}

/** The organisation's structure of this name. */
export async function structureNamed(db: Db, organizationId: number, name: string) {
  return db.selectFrom('structures').select('id').where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirstOrThrow();
}

/** Writes the organisation's tree, leaves, videos and markup in one transaction (writeOrganization below). */
export async function writeDemoOrganization(
  db: Db,
  deps: AppDeps,
  organizationId: number,
  userIds: Record<string, string>,
  days: Map<string, PlannedSegment[]>,
  clips: PlannedClip[],
  withVideos: boolean,
  onlyClips?: ClipFilter,
): Promise<void> {
  await db.transaction().execute((trx) => writeOrganization(trx, deps, organizationId, userIds, days, clips, withVideos, onlyClips));
}

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** One demo leaf being written: the transaction, the leaf and its structure, the assessor who marked it, the seed's time. */
interface LeafScope {
  db: Db;
  leaf: DemoLeaf;
  leafId: number;
  assessorId: string;
  now: number;
}

/** Ids of a leaf's reference rows, by the plan's objects and indices. */
interface LeafIds {
  operationIds: Map<DemoOperation, number>;
  employeeIds: number[];
  workplaceIds: number[];
  cameraIds: number[];
}

/** Whether the employee's day was marked in the plan. */
const isMarked = (leaf: DemoLeaf, dayIndex: number, employeeIndex: number) => leaf.markedDays[dayIndex]?.includes(employeeIndex) ?? false;

async function writeOrganization(
  db: Db,
  deps: AppDeps,
  organizationId: number,
  userIds: Record<string, string>,
  days: Map<string, PlannedSegment[]>,
  clips: PlannedClip[],
  withVideos: boolean,
  onlyClips: ClipFilter = () => true,
) {
  const now = Date.now();
  const assessorId = userIds.assessor!;
  const structure = (name: string, parentId: number | null) =>
    db
      .insertInto('structures')
      .values({ organization_id: organizationId, parent_id: parentId, name, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((r) => r.id);
  const rootId = await structure(demoTree.root, null);
  const workshopId = await structure(demoTree.workshop, rootId);
  await structure(demoTree.emptyWorkshop, rootId);

  for (const leaf of demoLeaves) {
    const scope: LeafScope = { db, leaf, leafId: await structure(leaf.name, workshopId), assessorId, now };
    const ids = await writeLeafSetup(scope);
    const videoIdOf = withVideos ? await writeVideos(scope, deps, ids.cameraIds, clips, onlyClips) : new Map<string, number>();
    await writeMarkups(scope, ids, days, clips, videoIdOf);
  }
}

/** A leaf's settings, shift, operations, employees, workplaces and cameras (with the areas of the one-worker cameras). */
async function writeLeafSetup({ db, leaf, leafId }: LeafScope): Promise<LeafIds> {
  await db
    .insertInto('structure_settings')
    .values({
      structure_id: leafId,
      employee_count: 3,
      employee_salary: 68000,
      fluct_reduction: 30,
      regular_break_duration: DEMO_SHIFT.breakMinutes * 60,
      time_series_stability_threshold: null,
      rest_in_idle: 0,
    })
    .execute();
  await db
    .insertInto('shifts')
    .values({
      structure_id: leafId,
      position: 0,
      name: DEMO_SHIFT.name,
      start_time: DEMO_SHIFT.start,
      end_time: DEMO_SHIFT.end,
      regular_break_duration_min: DEMO_SHIFT.breakMinutes,
      meal_break_min: DEMO_SHIFT.mealMinutes,
    })
    .execute();

  const operationIds = new Map<DemoOperation, number>();
  for (const operation of [...leaf.cycle, leaf.aux, leaf.pz, leaf.service, leaf.move, leaf.rest, leaf.idle]) {
    const row = await db
      .insertInto('operations')
      .values({ structure_id: leafId, name: operation.name, type: operation.type, reference_point: operation.referencePoint })
      .returning('id')
      .executeTakeFirstOrThrow();
    operationIds.set(operation, row.id);
  }
  const employeeIds: number[] = [];
  const workplaceIds: number[] = [];
  for (let i = 0; i < 3; i++) {
    employeeIds.push(
      (await db.insertInto('employees').values({ structure_id: leafId, name: leaf.employees[i]! }).returning('id').executeTakeFirstOrThrow()).id,
    );
    workplaceIds.push(
      (await db.insertInto('workplaces').values({ structure_id: leafId, name: leaf.workplaces[i]! }).returning('id').executeTakeFirstOrThrow()).id,
    );
  }
  const cameraIds: number[] = [];
  for (let key = 1; key <= 4; key++) {
    const name = key === 4 ? 'Камера 4 (обзорная)' : `Камера ${key} (${leaf.workplaces[key - 1]})`;
    const row = await db
      .insertInto('cameras')
      .values({ structure_id: leafId, camera_key: key, name, storage_folder: `recordings/${leaf.slug}/cam${key}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    cameraIds.push(row.id);
    // A one-worker camera comes with the areas an analyst would draw, so a model can be trained right away.
    if (key <= 3)
      await db
        .insertInto('video_areas')
        .values(DEMO_WORKPLACE_AREAS.map((area) => ({ camera_id: row.id, ...area, frame_width: 640, frame_height: 360 })))
        .execute();
  }
  return { operationIds, employeeIds, workplaceIds, cameraIds };
}

/**
 * The leaf's rendered clips as videos, "finished" when their worker's day was marked; the clips a
 * sync should find are left unregistered. Returns the video ids by `camera/day/clip`.
 */
async function writeVideos(
  { db, leaf, assessorId, now }: LeafScope,
  deps: AppDeps,
  cameraIds: number[],
  clips: PlannedClip[],
  onlyClips: ClipFilter,
): Promise<Map<string, number>> {
  const videoIdOf = new Map<string, number>();
  for (const clip of clips) {
    if (!onlyClips(leaf, clip)) continue;
    const key = demoStorageKey(leaf, clip);
    if (isUnregisteredDemoClip(leaf, clip)) {
      // Left for a sync to find, dated as a recorder would have finished writing it.
      const finishedAt = new Date(clip.startMs + clip.durationSeconds * 1000);
      await utimes(deps.storage.pathOf(key), finishedAt, finishedAt);
      continue;
    }
    const file = deps.storage.file(key);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const workerMarked = clip.cameraKey <= 3 && isMarked(leaf, clip.dayIndex, clip.cameraKey - 1);
    const row = await db
      .insertInto('videos')
      .values({
        camera_id: cameraIds[clip.cameraKey - 1]!,
        filename: clip.filename,
        storage_key: key,
        content_hash: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'),
        size_bytes: bytes.byteLength,
        start_time: clip.startMs,
        duration: clip.durationSeconds,
        status: 'ready',
        comment: workerMarked ? 'Разметка завершена' : '',
        author_id: workerMarked ? assessorId : null,
        finished: workerMarked ? 1 : 0,
        finished_at: workerMarked ? clip.startMs + 86_400_000 : null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    videoIdOf.set(`${clip.cameraKey}/${clip.dayIndex}/${clip.clipIndex}`, row.id);
    if (workerMarked) {
      await db
        .insertInto('activities')
        .values([
          { video_id: row.id, author_id: assessorId, happened_at: clip.startMs + 80_000_000, comment: 'Разметка сохранена' },
          { video_id: row.id, author_id: assessorId, happened_at: clip.startMs + 86_400_000, comment: 'Задача завершена' },
        ])
        .execute();
    }
  }
  return videoIdOf;
}

/** The markup of the marked days and its "product" stamps, each tied to the video it falls in (if registered). */
async function writeMarkups(
  { db, leaf, leafId, assessorId, now }: LeafScope,
  { operationIds, employeeIds, workplaceIds }: LeafIds,
  days: Map<string, PlannedSegment[]>,
  clips: PlannedClip[],
  videoIdOf: Map<string, number>,
) {
  const videoAt = (cameraKey: number, dayIndex: number, instant: number) => {
    const clip = clips.find(
      (c) => c.cameraKey === cameraKey && c.dayIndex === dayIndex && instant >= c.startMs && instant < c.startMs + c.durationSeconds * 1000,
    );
    return clip ? (videoIdOf.get(`${cameraKey}/${dayIndex}/${clip.clipIndex}`) ?? null) : null;
  };

  const markupRows = [];
  const stampRows = [];
  for (const [dayIndex] of demoDays.entries()) {
    for (let employeeIndex = 0; employeeIndex < 3; employeeIndex++) {
      if (!isMarked(leaf, dayIndex, employeeIndex)) continue;
      for (const segment of days.get(`${leaf.slug}/${dayIndex}/${employeeIndex}`) ?? []) {
        const videoId = videoAt(employeeIndex + 1, dayIndex, segment.start);
        markupRows.push({
          structure_id: leafId,
          operation_id: operationIds.get(segment.operation)!,
          workplace_id: workplaceIds[employeeIndex]!,
          employee_id: employeeIds[employeeIndex]!,
          start_time: segment.start,
          end_time: segment.end,
          comment: null,
          video_id: videoId,
          author_id: assessorId,
          created_at: now,
          updated_at: now,
        });
        if (segment.product) {
          stampRows.push({
            structure_id: leafId,
            video_id: videoAt(employeeIndex + 1, dayIndex, segment.end),
            type: 'product',
            at: segment.end,
            comment: '',
            employee_id: employeeIds[employeeIndex]!,
            author_id: assessorId,
            created_at: now,
          });
        }
      }
    }
  }
  await insertChunked(markupRows, 400, (chunk) => db.insertInto('markups').values(chunk).execute());
  await insertChunked(stampRows, 400, (chunk) => db.insertInto('video_stamps').values(chunk).execute());
}
