import { sql } from 'kysely';
import type { Db } from '../db/database';

/** The queries of the cadastral registry (menus.ts, table cadastral_parcels). */

/** A parcel's geometry (GeoJSON text): the organisation's own import first, else the shared registry's. */
export async function parcelGeometry(db: Db, organizationId: number, number: string) {
  return db
    .selectFrom('cadastral_parcels')
    .select('geometry')
    .where('number', '=', number)
    .where((eb) => eb.or([eb('organization_id', '=', organizationId), eb('organization_id', 'is', null)]))
    .orderBy(sql`organization_id IS NULL`)
    .limit(1)
    .executeTakeFirst();
}

export interface ParcelRow {
  number: string;
  /** GeoJSON Polygon text. */
  geometry: string;
  source: string;
  updated_at: number;
}

/** Writes parcels into one organisation's registry (null: the shared one), replacing those of the same number, in one transaction. */
export async function saveParcels(db: Db, organizationId: number | null, rows: ParcelRow[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      const updated = await trx
        .updateTable('cadastral_parcels')
        .set({ geometry: row.geometry, source: row.source, updated_at: row.updated_at })
        .where('number', '=', row.number)
        .where('organization_id', organizationId === null ? 'is' : '=', organizationId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0)
        await trx
          .insertInto('cadastral_parcels')
          .values({ ...row, organization_id: organizationId })
          .execute();
    }
  });
}
