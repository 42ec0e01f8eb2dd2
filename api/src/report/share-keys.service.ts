import type { Db } from '../db/database';

/**
 * Share keys of the interactive report (share-routes.ts): the table share_keys is written here only.
 * A key is stored as its hash (auth/share-keys.ts, which decides what a key opens).
 */

export interface NewShareKey {
  keyHash: string;
  structureId: number;
  /** The window the key opens, ms UTC. */
  from: number;
  to: number;
  createdBy: string;
  /** What the key opens: the interactive report (the default) or a hall's event analytics (api/src/events/share.routes.ts). */
  kind?: 'report' | 'event' | 'live_board';
}

export async function insertShareKey(db: Db, key: NewShareKey): Promise<void> {
  await db
    .insertInto('share_keys')
    .values({
      key: key.keyHash,
      structure_id: key.structureId,
      from_time: key.from,
      to_time: key.to,
      created_by: key.createdBy,
      created_at: Date.now(),
      revoked_at: null,
      kind: key.kind ?? 'report',
    })
    .execute();
}

/** The name and time zone of a key's structure (GET /api/v1/resolve_hash/{key}). */
export async function sharedStructure(db: Db, structureId: number) {
  return db
    .selectFrom('structures')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select(['structures.name', 'organizations.time_zone'])
    .where('structures.id', '=', structureId)
    .executeTakeFirstOrThrow();
}

/** A key, live or revoked, by its hash: whose structure, who created it, whether revoked. */
export async function shareKeyByHash(db: Db, keyHash: string) {
  return db.selectFrom('share_keys').select(['structure_id', 'created_by', 'revoked_at']).where('key', '=', keyHash).executeTakeFirst();
}

export async function revokeShareKey(db: Db, keyHash: string): Promise<void> {
  await db.updateTable('share_keys').set({ revoked_at: Date.now() }).where('key', '=', keyHash).execute();
}
