import type { Db } from '../db/database';
import type { ProductionType } from '../db/schema';

/** Every structure of an organisation, as a flat list with parent links (the tree is built by the PWA). */
export function listStructures(db: Db, organizationId: number) {
  return db.selectFrom('structures').select(['id', 'name', 'parent_id']).where('organization_id', '=', organizationId).orderBy('name').orderBy('id').execute();
}

// The `structures` rows are written here only: the tree by admin/ (its checks are there), the two
// fields the reports read by the settings card (settings.service.ts).

/** A new structure of the organisation; its id. */
export async function insertStructure(db: Db, organizationId: number, input: { name: string; parent_id: number | null }): Promise<number> {
  const { id } = await db
    .insertInto('structures')
    .values({ organization_id: organizationId, name: input.name, parent_id: input.parent_id, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Renames and/or moves a structure (the caller has checked the move). */
export async function updateStructure(db: Db, id: number, set: { name?: string; parent_id?: number | null }) {
  if (Object.keys(set).length) await db.updateTable('structures').set(set).where('id', '=', id).execute();
}

/** The report fields of a structure: partial, production type. */
export async function setStructureReportFields(db: Db, id: number, fields: { partial: boolean; production_type: ProductionType }) {
  await db
    .updateTable('structures')
    .set({ partial: fields.partial ? 1 : 0, production_type: fields.production_type })
    .where('id', '=', id)
    .execute();
}

/** Deletes a structure row (the caller has checked it is empty). */
export async function deleteStructureRow(db: Db, id: number) {
  await db.deleteFrom('structures').where('id', '=', id).execute();
}

/** The structure's employees by name (namesakes in the order they were added): the one list the lookups and the reports use. */
export function listEmployees(db: Db, structureId: number) {
  return db.selectFrom('employees').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('name').orderBy('id').execute();
}

export function listWorkplaces(db: Db, structureId: number) {
  return db.selectFrom('workplaces').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('name').execute();
}
