import { requireAccess, structureFrom, type StructureLocator } from '../auth/access';
import type { Db } from '../db/database';

/**
 * Who may read a video (its bytes and its meta): a signed-in user whose role has workspace.read,
 * in the video's structure, of the user's organisation. The one place to extend for share keys
 * (issue 7): a valid key opens the videos of its report window read-only.
 */
export function videoReadAccess(db: Db, locate: StructureLocator = structureFrom.videoQuery()) {
  return requireAccess(db, 'workspace.read', locate);
}
