import type { MiddlewareHandler } from 'hono';
import { requireAccess, structureFrom } from '../auth/access';
import type { Db } from '../db/database';
import type { AppEnv } from '../http/env';

const tags = ['Модели и локации'];

/** What every vision call declares alike: method, path, tag, summary and its access check. */
export const visionRoute = <M extends 'get' | 'post' | 'delete', P extends string>(
  method: M,
  path: P,
  summary: string,
  middleware: MiddlewareHandler<AppEnv>,
) => ({
  method,
  path,
  tags,
  summary,
  middleware,
});

/**
 * The access checks of the vision calls: reading needs any role of the organisation (readVideo: of the
 * video's structure); training, applying and editing need workspace.write (administrator, analyst).
 */
export function visionAccess(db: Db) {
  return {
    read: requireAccess(db, 'workspace.read'),
    readVideo: requireAccess(db, 'workspace.read', structureFrom.videoQuery()),
    write: requireAccess(db, 'workspace.write'),
  };
}
