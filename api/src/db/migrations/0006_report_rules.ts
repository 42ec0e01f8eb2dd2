import { sql, type Kysely } from 'kysely';

/**
 * Report rules stored per structure (issue 13): the cleaning rule of time series — one extreme
 * at a time (default) or min and max together — and the regulated break intervals of each shift,
 * a JSON list of local times [{"start_time": "12:00:00", "end_time": "12:30:00"}] (empty: the
 * shift has only its total break minutes). The list is saved with its shift, which the settings
 * card replaces as a whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `ALTER TABLE structure_settings ADD COLUMN cleaning_rule TEXT NOT NULL DEFAULT 'one_extreme'
       CHECK (cleaning_rule IN ('one_extreme', 'both_extremes'))`,
    )
    .execute(db);
  await sql.raw(`ALTER TABLE shifts ADD COLUMN break_intervals TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(break_intervals))`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
