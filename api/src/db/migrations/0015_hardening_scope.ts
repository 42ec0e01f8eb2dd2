import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../postgres';

/**
 * Issue 24 (hardening):
 * - cadastral_parcels gets an organisation. A parcel imported over the API belongs to the importing
 *   organisation and is seen by it alone; rows with no organisation are the shared registry (the demo
 *   parcels and `import-cadastre.ts` run by the operator), which every organisation reads and only
 *   the operator writes. Existing rows stay shared (who imported them is not recorded). The number is
 *   unique per organisation and once in the shared registry (two partial unique indexes).
 * - sign_in_failures: failed sign-ins per login and client address (auth/lockout.ts), so an attacker's
 *   guesses lock out the attacker's address for that login, never the owner elsewhere.
 * - videos.damage: why a recording is damaged (truncated, decode errors; video/ingest.ts), or NULL.
 */
const rebuild = [
  `CREATE TABLE cadastral_parcels_scoped (
     id INTEGER PRIMARY KEY,
     organization_id INTEGER REFERENCES organizations(id) ON DELETE CASCADE,
     number TEXT NOT NULL,
     geometry TEXT NOT NULL,
     source TEXT NOT NULL DEFAULT 'import',
     updated_at INTEGER NOT NULL
   )`,
  // organization_id left out: NULL, the shared registry.
  `INSERT INTO cadastral_parcels_scoped (number, geometry, source, updated_at)
   SELECT number, geometry, source, updated_at FROM cadastral_parcels`,
  `DROP TABLE cadastral_parcels`,
  `ALTER TABLE cadastral_parcels_scoped RENAME TO cadastral_parcels`,
  `CREATE UNIQUE INDEX cadastral_parcels_by_organization ON cadastral_parcels(organization_id, number) WHERE organization_id IS NOT NULL`,
  `CREATE UNIQUE INDEX cadastral_parcels_shared ON cadastral_parcels(number) WHERE organization_id IS NULL`,
  `CREATE TABLE sign_in_failures (
     login TEXT NOT NULL,
     address TEXT NOT NULL,
     failures INTEGER NOT NULL,
     locked_until INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (login, address)
   )`,
  `CREATE INDEX sign_in_failures_by_age ON sign_in_failures(updated_at)`,
  `ALTER TABLE videos ADD COLUMN damage TEXT`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const statement of rebuild) await sql.raw(statement).execute(db);
    return;
  }
  // The migrator runs SQLite migrations outside a transaction: all of it or nothing.
  await sql.raw('BEGIN IMMEDIATE').execute(db);
  try {
    for (const statement of rebuild) await sql.raw(statement).execute(db);
    await sql.raw('COMMIT').execute(db);
  } catch (err) {
    await sql.raw('ROLLBACK').execute(db);
    throw err;
  }
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
