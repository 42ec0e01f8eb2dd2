import type { Db } from '../db/database';

/** Every structure of an organisation, as a flat list with parent links (the tree is built by the PWA). */
export function listStructures(db: Db, organizationId: number) {
  return db.selectFrom('structures').select(['id', 'name', 'parent_id']).where('organization_id', '=', organizationId).orderBy('name').orderBy('id').execute();
}

/** The structure's employees by name (namesakes in the order they were added): the one list the lookups and the reports use. */
export function listEmployees(db: Db, structureId: number) {
  return db.selectFrom('employees').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('name').orderBy('id').execute();
}

export function listWorkplaces(db: Db, structureId: number) {
  return db.selectFrom('workplaces').select(['id', 'name']).where('structure_id', '=', structureId).orderBy('name').execute();
}
