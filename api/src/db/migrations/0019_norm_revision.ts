import { sql, type Kysely } from 'kysely';

/**
 * The revision of a norm card draft (issue 39, docs/norms.md «Утверждение»): every change of a
 * draft adds one, and an approval names the revision its approver read — a draft changed since is
 * not approved (409). Cards written before this migration start at revision 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE norm_cards ADD COLUMN revision INTEGER NOT NULL DEFAULT 1').execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
