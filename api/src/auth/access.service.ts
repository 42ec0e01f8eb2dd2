import { precompiled, type Db } from '../db/database';

/** The structure a camera belongs to (access.ts `structureFrom.cameraQuery`). */
export async function cameraStructure(db: Db, cameraId: number) {
  return db.selectFrom('cameras').select('structure_id').where('id', '=', cameraId).executeTakeFirst();
}

// Asked on every seek of a video and on every structure-scoped call: compiled once. The video's
// structure, its organisation and its file in one read; the file is kept for the route (`storedVideo`).
export const videoStructure = precompiled((db) =>
  db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .innerJoin('structures', 'structures.id', 'cameras.structure_id')
    .select(['cameras.structure_id', 'structures.organization_id', 'videos.storage_key', 'videos.filename'])
    .where('videos.id', '=', 0),
);

/** The structure, if it belongs to the organisation: parameters [structureId, organizationId]. */
export const structureOfOrganization = precompiled((db) => db.selectFrom('structures').select('id').where('id', '=', 0).where('organization_id', '=', 0));

/**
 * The installation's owner organisation: its first one (the smallest id — the demo's, or the first
 * registered). Its members hold the owner-only permissions (auth/permissions.ts `ownerOnlyPermissions`)
 * and see the calculator's cost structure, its administrators edit it (docs/calculator.md says why).
 */
export async function ownerOrganizationId(db: Db): Promise<number | null> {
  const row = await db.selectFrom('organizations').select('id').orderBy('id').limit(1).executeTakeFirst();
  return row?.id ?? null;
}
