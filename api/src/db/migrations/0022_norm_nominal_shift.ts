import { sql, type Kysely } from 'kysely';

/**
 * Norms by the rewritten METHODOLOGY §7 (issue 42, docs/norms.md): a shift's unpaid meal break
 * («обед, мин», whole minutes; Тсм = end − start − meal break; 0 where the shift times already leave
 * it out), and the approver's override of an unstable series with its comment, kept with the
 * approval (null when none was needed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE shifts ADD COLUMN meal_break_min INTEGER NOT NULL DEFAULT 0').execute(db);
  await sql.raw('ALTER TABLE norm_cards ADD COLUMN approval_comment TEXT').execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
