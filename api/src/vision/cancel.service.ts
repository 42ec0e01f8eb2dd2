import type { Db } from '../db/database';

/** The reads of a job's cancellation (cancel.ts). */

/** Where the model's file is stored (null until training stored it). */
export async function modelStorageKey(db: Db, modelId: number) {
  return db.selectFrom('models').select('object_storage_key').where('id', '=', modelId).executeTakeFirst();
}

/** A job's kind and payload, if the job is the organisation's. */
export async function organizationJob(db: Db, organizationId: number, id: number) {
  return db.selectFrom('jobs').select(['kind', 'payload']).where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
}
