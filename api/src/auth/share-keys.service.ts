import type { Db } from '../db/database';

/**
 * The reads of share keys (share-keys.ts). Keys are looked up by their hash; the table share_keys is
 * written by report/ (report/service.ts), these only read it.
 */

/** A live (not revoked) key's row by its hash. */
export async function liveShareKey(db: Db, keyHash: string) {
  return db
    .selectFrom('share_keys')
    .select(['key', 'structure_id', 'from_time', 'to_time', 'created_by', 'kind'])
    .where('key', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** The creator of a live key by its hash. */
export async function liveShareKeyCreator(db: Db, keyHash: string) {
  return db.selectFrom('share_keys').select('created_by').where('key', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}

/** How many live keys the user holds. */
export async function countLiveShareKeys(db: Db, userId: string): Promise<number> {
  const { live } = await db
    .selectFrom('share_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('live'))
    .where('created_by', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(live);
}

/** What a key's video check needs of a video: its time, state and camera's structure. */
export async function sharedVideo(db: Db, videoId: number) {
  return db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.start_time', 'videos.duration', 'videos.status', 'cameras.structure_id'])
    .where('videos.id', '=', videoId)
    .executeTakeFirst();
}

/** Does a markup of the structure overlap the interval (from, to)? */
export async function hasMarkupBetween(db: Db, structureId: number, from: number, to: number): Promise<boolean> {
  const markup = await db
    .selectFrom('markups')
    .select('id')
    .where('structure_id', '=', structureId)
    .where('start_time', '<', to)
    .where('end_time', '>', from)
    .limit(1)
    .executeTakeFirst();
  return Boolean(markup);
}
