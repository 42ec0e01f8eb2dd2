import { sql, type Kysely } from 'kysely';

/**
 * Reports (issue 6): the reference table of normative stability coefficients becomes per
 * organisation. Rows with organization_id NULL are the product defaults (METHODOLOGY §4); an
 * organisation that saved its own edition has its own eight rows, which replace the defaults for
 * its reports. Each row records its source, edition, when and by whom it was saved.
 * SQLite cannot drop the old UNIQUE (production_type, work_kind), so the table is rebuilt.
 */
const statements = [
  `CREATE TABLE reference_stability_next (
     id INTEGER PRIMARY KEY,
     organization_id INTEGER REFERENCES organizations(id) ON DELETE CASCADE,
     production_type TEXT NOT NULL CHECK (production_type IN ('mass', 'large_series', 'series', 'small_series')),
     work_kind TEXT NOT NULL CHECK (work_kind IN ('manual', 'machine')),
     coef_short REAL NOT NULL CHECK (coef_short >= 1),
     coef_long REAL NOT NULL CHECK (coef_long >= 1),
     accuracy_percent REAL NOT NULL CHECK (accuracy_percent > 0),
     short_element_max_seconds REAL NOT NULL DEFAULT 10 CHECK (short_element_max_seconds > 0),
     source TEXT NOT NULL,
     edition TEXT NOT NULL,
     updated_at INTEGER,
     updated_by TEXT REFERENCES "user"(id) ON DELETE SET NULL
   )`,
  `INSERT INTO reference_stability_next
     (id, organization_id, production_type, work_kind, coef_short, coef_long, accuracy_percent, source, edition)
   SELECT id, NULL, production_type, work_kind, coef_short, coef_long, accuracy_percent, source, edition
   FROM reference_stability`,
  `DROP TABLE reference_stability`,
  `ALTER TABLE reference_stability_next RENAME TO reference_stability`,
  `CREATE UNIQUE INDEX reference_stability_by_organization
     ON reference_stability(ifnull(organization_id, 0), production_type, work_kind)`,
  `CREATE INDEX video_stamps_by_structure_type_time ON video_stamps(structure_id, type, at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
