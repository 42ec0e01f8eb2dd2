import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from '../db/database';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors';
import type { AppEnv } from '../http/env';
import { parseId } from '../http/openapi';
import { ownerOnlyPermissions } from './permissions';
import { isSharePermission, roleAllows, type Permission } from './roles';
import { requireShareAccess, shareKeyOf } from './share-keys';
import type { SessionUser } from '../http/env';
import { cameraStructure, ownerOrganizationId, structureOfOrganization, videoStructure } from './access.service';

/** A structure found together with its organisation, so that the access check needs no second query. */
export interface LocatedStructure {
  structureId: number;
  organizationId: number;
}

/** Finds which structure a request is about; returns its id (or id and organisation) or throws a 400. */
export type StructureLocator = (c: Context<AppEnv>, db: Db) => Promise<number | LocatedStructure>;

/** Ways to find the structure of a request. */
export const structureFrom = {
  query:
    (name = 'structure_id'): StructureLocator =>
    async (c) =>
      positiveIdOf(c.req.query(name), name),
  param:
    (name = 'id'): StructureLocator =>
    async (c) =>
      positiveIdOf(c.req.param(name), name),
  /** Via a video: video → camera → structure. */
  videoQuery:
    (name = 'video_id'): StructureLocator =>
    async (c, db) =>
      structureOfVideo(c, db, positiveIdOf(c.req.query(name), name)),
  /** Via a video id in a path parameter (`/api/v1/video_meta/{videoId}`). */
  videoParam:
    (name = 'videoId'): StructureLocator =>
    async (c, db) =>
      structureOfVideo(c, db, positiveIdOf(c.req.param(name), name)),
  /** Via a video id in the query or, failing that, in the JSON body (POST /api/v1/set_duration). */
  videoQueryOrBody:
    (name = 'video_id'): StructureLocator =>
    async (c, db) => {
      const raw = c.req.query(name);
      return structureOfVideo(c, db, positiveIdOf(raw !== undefined ? raw : await jsonField(c, name), name));
    },
  /**
   * The structure id of a JSON body (POST calls that create something in a structure), read before the
   * body is validated so that access is checked first; the handler validates the body again.
   */
  body:
    (name = 'structure_id'): StructureLocator =>
    async (c) =>
      positiveIdOf(await jsonField(c, name), name),
  /** In the query or, failing that, in the JSON body (calls that accept either). */
  queryOrBody:
    (name = 'structure_id'): StructureLocator =>
    async (c) => {
      const raw = c.req.query(name);
      return positiveIdOf(raw !== undefined ? raw : await jsonField(c, name), name);
    },
  /** Via a camera: camera → structure. */
  cameraQuery:
    (name = 'camera_id'): StructureLocator =>
    async (c, db) => {
      const cameraId = positiveIdOf(c.req.query(name), name);
      return structureOfCamera(db, cameraId);
    },
  /** Via a camera id in a path parameter (`/api/v1/camera/{id}/…`). */
  cameraParam:
    (name = 'id'): StructureLocator =>
    async (c, db) =>
      structureOfCamera(db, positiveIdOf(c.req.param(name), name)),
};

async function structureOfCamera(db: Db, cameraId: number): Promise<number> {
  const row = await cameraStructure(db, cameraId);
  if (!row) throw notFound('Камера не найдена');
  return row.structure_id;
}

/** A field of the JSON body (undefined when there is no JSON body or no such field). */
async function jsonField(c: Context<AppEnv>, name: string): Promise<unknown> {
  if (!(c.req.header('content-type') ?? '').includes('application/json')) return undefined;
  const body: unknown = await c.req.json().catch(() => null);
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/** A positive id given as a JSON number or a string of decimal digits, or a 400. */
function positiveIdOf(raw: unknown, name: string): number {
  if (raw === undefined || raw === null || raw === '') throw badRequest(`Не указан параметр ${name}`);
  // Decimal digits only: Number('0x10') would name structure 16.
  const value = parseId(raw);
  if (value === null) throw badRequest(`${name}: ожидается целое положительное число десятичными цифрами`);
  return value;
}

async function structureOfVideo(c: Context<AppEnv>, db: Db, videoId: number): Promise<LocatedStructure> {
  const [row] = await videoStructure(db, [videoId]);
  if (!row) throw notFound('Видео не найдено');
  c.set('storedVideo', { id: videoId, storage_key: row.storage_key, filename: row.filename });
  return { structureId: row.structure_id, organizationId: row.organization_id };
}

/** `video_id` when given, else `structure_id` (spec calls that accept either). */
export const videoOrStructureQuery: StructureLocator = (c, db) =>
  c.req.query('video_id') !== undefined ? structureFrom.videoQuery()(c, db) : structureFrom.query()(c, db);

const STRUCTURE_NOT_FOUND = 'Структурная единица не найдена';

/** Ensures the structure exists in the user's organisation (404 otherwise, so ids do not leak). */
export async function assertStructureInOrganization(db: Db, user: SessionUser, structureId: number): Promise<void> {
  const [row] = await structureOfOrganization(db, [structureId, user.organizationId]);
  if (!row) throw notFound(STRUCTURE_NOT_FOUND);
}

/** The structure a locator found, checked against the user's organisation (404 otherwise). */
async function structureOfUser(db: Db, user: SessionUser, located: number | LocatedStructure): Promise<number> {
  if (typeof located === 'number') {
    await assertStructureInOrganization(db, user, located);
    return located;
  }
  if (located.organizationId !== user.organizationId) throw notFound(STRUCTURE_NOT_FOUND);
  return located.structureId;
}

/**
 * The one access check of the API: a signed-in user (401), whose role grants the permission (403),
 * and, for structure-scoped routes, a structure of the user's own organisation (404).
 * A request carrying a share key, for a permission a key can carry, is judged by the key instead
 * (auth/share-keys.ts: 401 for a dead key, 403 outside the key's window).
 */
export function requireAccess(db: Db, permission: Permission, locate?: StructureLocator): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const shareKey = isSharePermission(permission) ? shareKeyOf(c) : null;
    if (shareKey !== null && isSharePermission(permission)) {
      await requireShareAccess(c, db, shareKey, permission);
      await next();
      return;
    }
    const user = c.get('user');
    if (!user) throw unauthorized();
    if (!(await userAllows(db, user, permission))) throw forbidden();
    if (locate) c.set('structureId', await structureOfUser(db, user, await locate(c, db)));
    await next();
  };
}

/** Is the user a member of the installation's owner organisation (its first one)? */
export async function inOwnerOrganization(db: Db, user: SessionUser): Promise<boolean> {
  return (await ownerOrganizationId(db)) === user.organizationId;
}

/** Does the user's role grant the permission (an owner-only one also asks whether the organisation is the owner). */
export async function userAllows(db: Db, user: SessionUser, permission: Permission): Promise<boolean> {
  const owner = ownerOnlyPermissions.includes(permission) && (await inOwnerOrganization(db, user));
  return roleAllows(user.role, permission, owner);
}

export function currentUser(c: Context<AppEnv>): SessionUser {
  const user = c.get('user');
  if (!user) throw unauthorized();
  return user;
}
