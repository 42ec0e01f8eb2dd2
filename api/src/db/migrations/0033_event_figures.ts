import { sql, type Kysely } from 'kysely';

/**
 * Event analytics: stored figures of long windows (issue 44, docs/event-analytics.md «Цифры длинных
 * окон»). One row per hall and window: the figures the job `event_figures` computed (JSON) with the
 * digest of the inputs they were computed from (`computed_key`: the hall's cameras and calibrations,
 * the finished trackings in the window, the zones, the window) and the job now computing them for
 * the digest `inputs_key`. A request whose digest differs from `computed_key` gets them marked stale.
 */
const statements = [
  `CREATE TABLE event_figures (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     from_ms INTEGER NOT NULL,
     to_ms INTEGER NOT NULL,
     inputs_key TEXT NOT NULL,
     job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
     figures TEXT CHECK (figures IS NULL OR json_valid(figures)),
     computed_key TEXT,
     computed_at INTEGER,
     created_at INTEGER NOT NULL,
     UNIQUE (structure_id, from_ms, to_ms)
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
