import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeSceneClip, SCENE_AREAS, sceneSchedule, type SceneOperation, type SceneSegment } from '../../workers/test-support/vision-scene';
import { registerUser } from '../../api/src/auth/service';
import { bootstrap } from '../../api/src/boot';
import { configFromEnv } from '../../api/src/config';

export const SCENE_PASSWORD = 'secret-pass';
export type SceneWork = Exclude<SceneOperation, 'idle'>;
/** The scene's operations as the structure names them. */
export const SCENE_OPERATION_NAMES: Record<SceneWork, string> = {
  A: 'Сборка с движением',
  B: 'Контроль на месте',
  C: 'Работа справа',
};

export interface SceneWorld {
  dataDir: string;
  schedule: SceneSegment[];
  structureId: number;
  cameraId: number;
  workplaceId: number;
  /** Who the marked span is marked for: the workplace's employee, whom a model's markups get too. */
  employeeId: number;
  operationIds: Record<SceneWork, number>;
  /** The stored copies of the clip, in order; the first is marked up to `markedUntil`. */
  videoIds: number[];
  /** The left and right areas of the scene (SCENE_AREAS). */
  areaIds: number[];
}

interface SceneWorldOptions {
  seconds: number;
  /** The clip's frame rate (the e2e coding plays real 25 fps video; API tests save time at 10). */
  fps: number;
  /** Seed of the scene's schedule (sceneSchedule). */
  seed?: number;
  /** Copies of the clip stored as separate videos of the same camera (default 1). */
  copies?: number;
  /** Seconds of the first copy marked as the schedule says (default: none). */
  markedUntil?: number;
}

/**
 * A data folder for a server started on it (tests/support/server.ts): the lead «lead» of an
 * organisation with one structure, camera and workplace, the synthetic scene
 * (workers/test-support/vision-scene.ts) stored as ready videos, its three operations and two areas,
 * and the first video marked from the schedule — what a model is trained on.
 */
export async function seedSceneWorld({ seconds, fps, seed, copies = 1, markedUntil = 0 }: SceneWorldOptions): Promise<SceneWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'norma-scene-'));
  const schedule = sceneSchedule(seconds, seed);
  const { deps, close } = await bootstrap({ ...configFromEnv({ DATA_DIR: dataDir }), pwaDir: undefined });
  try {
    const { db, storage } = deps;
    const lead = await registerUser(deps, { login: 'lead', password: SCENE_PASSWORD, firstName: 'Мария', lastName: 'Иванова' });
    const now = Date.now();
    const insertId = <T extends { id: number }>(row: Promise<T>) => row.then((r) => r.id);
    const structureId = await insertId(
      db
        .insertInto('structures')
        .values({ organization_id: lead.organizationId, name: 'Сборочный участок', parent_id: null, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    const cameraId = await insertId(
      db
        .insertInto('cameras')
        .values({ structure_id: structureId, camera_key: 1, name: 'Камера 1', storage_folder: 'recordings/scene' })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    const workplaceId = await insertId(
      db.insertInto('workplaces').values({ structure_id: structureId, name: 'Стол № 1' }).returning('id').executeTakeFirstOrThrow(),
    );
    const employeeId = await insertId(
      db.insertInto('employees').values({ structure_id: structureId, name: 'Оператор сцены' }).returning('id').executeTakeFirstOrThrow(),
    );
    const operationIds = {} as Record<SceneWork, number>;
    for (const [scene, name] of Object.entries(SCENE_OPERATION_NAMES) as [SceneWork, string][]) {
      operationIds[scene] = await insertId(
        db.insertInto('operations').values({ structure_id: structureId, name, type: 'main' }).returning('id').executeTakeFirstOrThrow(),
      );
    }
    const start = Date.UTC(2024, 2, 4, 6, 0, 0);
    const firstKey = 'recordings/scene/scene-0.mp4';
    await makeSceneClip(storage.pathOf(firstKey), schedule, { fps });
    const videoIds: number[] = [];
    for (let copy = 0; copy < copies; copy++) {
      const key = `recordings/scene/scene-${copy}.mp4`;
      if (copy > 0) {
        mkdirSync(dirname(storage.pathOf(key)), { recursive: true });
        copyFileSync(storage.pathOf(firstKey), storage.pathOf(key));
      }
      videoIds.push(
        await insertId(
          db
            .insertInto('videos')
            .values({
              camera_id: cameraId,
              filename: `cam1_scene_${copy}.mp4`,
              storage_key: key,
              content_hash: null,
              size_bytes: null,
              start_time: start + copy * 3_600_000,
              duration: seconds,
              status: 'ready',
              comment: '',
              created_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
        ),
      );
    }
    for (const segment of schedule) {
      if (segment.operation === 'idle' || segment.startSecond >= markedUntil) continue;
      await db
        .insertInto('markups')
        .values({
          structure_id: structureId,
          operation_id: operationIds[segment.operation],
          workplace_id: workplaceId,
          employee_id: employeeId,
          start_time: start + segment.startSecond * 1000,
          end_time: start + Math.min(markedUntil, segment.endSecond) * 1000,
          video_id: videoIds[0]!,
          author_id: lead.id,
          source: 'manual',
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const areaIds = [];
    for (const [name, rect] of [
      ['Левая', SCENE_AREAS.left],
      ['Правая', SCENE_AREAS.right],
    ] as const) {
      areaIds.push(
        await insertId(
          db
            .insertInto('video_areas')
            .values({ camera_id: cameraId, name, ...rect })
            .returning('id')
            .executeTakeFirstOrThrow(),
        ),
      );
    }
    return { dataDir, schedule, structureId, cameraId, workplaceId, employeeId, operationIds, videoIds, areaIds };
  } finally {
    await close();
  }
}
