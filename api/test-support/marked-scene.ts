import { makeSceneClip, type SceneOperation, type SceneSegment } from '../../workers/test-support/vision-scene';
import type { TestApp } from './testing';
import { insertVideo, type VideoWorld } from './video-fixtures';

/**
 * Issue 14's synthetic scene as API tests of the vision calls use it: the clip of `schedule` stored
 * for camera 1 of `w` with its video row from `start`, the scene's operations A, B and C in the
 * structure, and the admin's manual markups of every working segment before `half` seconds (what the
 * model trains on).
 */
export async function markedScene(t: TestApp, w: VideoWorld, schedule: SceneSegment[], scene: { start: number; seconds: number; half: number }) {
  const { db, storage } = t.deps;
  const key = 'recordings/site/cam1/scene.mp4';
  await makeSceneClip(storage.pathOf(key), schedule, { fps: 10 });
  const videoId = await insertVideo(db, w.cameraIds[0]!, { filename: 'scene.mp4', start: scene.start, duration: scene.seconds, key });
  const op = async (name: string) =>
    (await db.insertInto('operations').values({ structure_id: w.structureId, name, type: 'main' }).returning('id').executeTakeFirstOrThrow()).id;
  const operationIds: Record<Exclude<SceneOperation, 'idle'>, number> = {
    A: await op('Сборка с движением'),
    B: await op('Контроль на месте'),
    C: await op('Работа справа'),
  };
  const now = Date.now();
  for (const segment of schedule) {
    if (segment.operation === 'idle' || segment.startSecond >= scene.half) continue;
    await db
      .insertInto('markups')
      .values({
        structure_id: w.structureId,
        operation_id: operationIds[segment.operation],
        workplace_id: w.workplaceIds[0]!,
        employee_id: w.employeeId,
        start_time: scene.start + segment.startSecond * 1000,
        end_time: scene.start + Math.min(scene.half, segment.endSecond) * 1000,
        video_id: videoId,
        author_id: w.admin.id,
        source: 'manual',
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return { videoId, operationIds };
}
