import type { Db } from '../db/database';

/**
 * The demo hall's own rows (demo-hall.ts): its structure, its camera and its recording, registered
 * ready as the demo's clips are. Its calibration, stands, zones and tracking go through the services
 * of their domains. The seed is no domain: like the migrations, it writes every table (scripts/table-owners.mjs).
 */

export async function insertHallStructure(db: Db, organizationId: number, parentId: number, name: string): Promise<number> {
  const row = await db
    .insertInto('structures')
    .values({ organization_id: organizationId, parent_id: parentId, name, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertHallCamera(db: Db, structureId: number, camera: { key: number; name: string; folder: string }): Promise<number> {
  const row = await db
    .insertInto('cameras')
    .values({ structure_id: structureId, camera_key: camera.key, name: camera.name, storage_folder: camera.folder })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The converted clip as a ready video; its start comes from its file name, as a sync would read it. */
export async function insertHallVideo(
  db: Db,
  cameraId: number,
  video: { filename: string; storageKey: string; contentHash: string; sizeBytes: number; startTime: number; duration: number },
): Promise<number> {
  const row = await db
    .insertInto('videos')
    .values({
      camera_id: cameraId,
      filename: video.filename,
      storage_key: video.storageKey,
      content_hash: video.contentHash,
      size_bytes: video.sizeBytes,
      start_time: video.startTime,
      start_source: 'file_name',
      duration: video.duration,
      status: 'ready',
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
