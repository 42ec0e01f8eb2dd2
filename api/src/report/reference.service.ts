import type { Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { ReferenceStabilityTable } from '../db/schema';

/** The queries of the reference table (reference.ts, table reference_stability). */

/** The organisation's own rows and the product defaults (organization_id NULL), with who saved them. */
export async function referenceRows(db: Db, organizationId: number) {
  return db
    .selectFrom('reference_stability')
    .leftJoin('user', 'user.id', 'reference_stability.updated_by')
    .select([
      'reference_stability.organization_id',
      'production_type',
      'work_kind',
      'coef_short',
      'coef_long',
      'accuracy_percent',
      'short_element_max_seconds',
      'source',
      'edition',
      'updated_at',
      'user.firstName',
      'user.lastName',
    ])
    .where((eb) => eb.or([eb('reference_stability.organization_id', '=', organizationId), eb('reference_stability.organization_id', 'is', null)]))
    .execute();
}

/** Replaces the organisation's own rows with `rows`, in one transaction. */
export async function replaceReferenceRows(db: Db, organizationId: number, rows: Insertable<ReferenceStabilityTable>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('reference_stability').where('organization_id', '=', organizationId).execute();
    await trx.insertInto('reference_stability').values(rows).execute();
  });
}

export async function deleteReferenceRows(db: Db, organizationId: number): Promise<void> {
  await db.deleteFrom('reference_stability').where('organization_id', '=', organizationId).execute();
}
