import { sql, type Kysely } from 'kysely';

/**
 * Calculator settings (tables of 0001): who changed a value and when, shown in the administrator
 * panels. A row exists only for a value an administrator changed; the rest are the defaults in
 * api/src/calculator/formulas.ts (docs/calculator.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['calculator_defaults', 'calculator_gear', 'calculator_license']) {
    await sql.raw(`ALTER TABLE ${table} ADD COLUMN updated_at INTEGER`).execute(db);
    await sql.raw(`ALTER TABLE ${table} ADD COLUMN updated_by TEXT REFERENCES "user"(id) ON DELETE SET NULL`).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
