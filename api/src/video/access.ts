import { requireAccess, structureFrom, type StructureLocator } from '../auth/access';
import type { Db } from '../db/database';

/**
 * Who may read a video's meta, other cameras and activities: a signed-in user whose role has
 * workspace.read, in the video's structure, of the user's organisation. Share keys open none of these.
 */
export function videoReadAccess(db: Db, locate: StructureLocator = structureFrom.videoQuery()) {
  return requireAccess(db, 'workspace.read', locate);
}

/**
 * Who may play a video file (GET /api/v1/video): the same users, or a visitor whose share key's
 * interactive report maps this file into its window (`video.play`, auth/share-keys.ts).
 */
export function videoPlayAccess(db: Db) {
  return requireAccess(db, 'video.play', structureFrom.videoQuery());
}
