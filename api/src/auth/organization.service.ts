import type { Db } from '../db/database';
import { notFound } from '../http/errors';

/** What an organisation says about itself: its name, its time zone, whether it is the demo. */
export interface OrganizationRow {
  id: number;
  name: string;
  time_zone: string;
  is_demo: boolean;
}

/** The organisation's own fields (404 when it is gone). */
export async function readOrganization(db: Db, organizationId: number): Promise<OrganizationRow> {
  const row = await db.selectFrom('organizations').select(['id', 'name', 'time_zone', 'is_demo']).where('id', '=', organizationId).executeTakeFirst();
  if (!row) throw notFound('Организация не найдена');
  return { id: row.id, name: row.name, time_zone: row.time_zone, is_demo: row.is_demo === 1 };
}

/** Renames the organisation and/or sets its time zone (the caller has checked both); a field left out keeps its value. */
export async function updateOrganization(db: Db, organizationId: number, set: { name?: string; time_zone?: string }): Promise<void> {
  if (Object.keys(set).length) await db.updateTable('organizations').set(set).where('id', '=', organizationId).execute();
}

/** Is the structure the demo organisation's (a share key's report: the header's demo badge)? */
export async function isDemoStructure(db: Db, structureId: number): Promise<boolean> {
  const row = await db
    .selectFrom('structures')
    .innerJoin('organizations', 'organizations.id', 'structures.organization_id')
    .select('organizations.is_demo')
    .where('structures.id', '=', structureId)
    .executeTakeFirst();
  return row?.is_demo === 1;
}
