import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../postgres';

/**
 * Cancelling a job (issue 14, docs/api.md «Фоновые задачи»): `jobs.status` also takes 'cancelled'.
 * PostgreSQL swaps the check constraint. SQLite cannot alter a CHECK, so the table is rebuilt in
 * one transaction with foreign keys off (videos, models and maps point at jobs by name: their links
 * must survive the DROP, which with foreign keys on would null them), as SQLite's documentation
 * describes; the migrator runs SQLite migrations outside a transaction, so the PRAGMA takes effect.
 */
const STATUSES = `('queued', 'running', 'success', 'failed', 'cancelled')`;

const sqliteRebuild = [
  `CREATE TABLE jobs_next (
     id INTEGER PRIMARY KEY,
     kind TEXT NOT NULL,
     payload TEXT NOT NULL DEFAULT '{}',
     status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ${STATUSES}),
     progress REAL NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0,
     max_attempts INTEGER NOT NULL DEFAULT 3,
     run_after INTEGER NOT NULL,
     locked_by TEXT,
     locked_at INTEGER,
     result TEXT,
     error TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     organization_id INTEGER REFERENCES organizations(id) ON DELETE CASCADE
   )`,
  `INSERT INTO jobs_next (id, kind, payload, status, progress, attempts, max_attempts, run_after, locked_by, locked_at, result, error, created_at, updated_at, organization_id)
   SELECT id, kind, payload, status, progress, attempts, max_attempts, run_after, locked_by, locked_at, result, error, created_at, updated_at, organization_id FROM jobs`,
  `DROP TABLE jobs`,
  `ALTER TABLE jobs_next RENAME TO jobs`,
  `CREATE INDEX jobs_ready ON jobs(status, run_after)`,
  `CREATE INDEX jobs_by_organization ON jobs(organization_id, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // The inline CHECK of 0001 got PostgreSQL's default name.
    await sql.raw(`ALTER TABLE jobs DROP CONSTRAINT jobs_status_check`).execute(db);
    await sql.raw(`ALTER TABLE jobs ADD CONSTRAINT jobs_status_check CHECK (status IN ${STATUSES})`).execute(db);
    return;
  }
  await sql.raw('PRAGMA foreign_keys = OFF').execute(db);
  try {
    await sql.raw('BEGIN IMMEDIATE').execute(db);
    try {
      for (const statement of sqliteRebuild) await sql.raw(statement).execute(db);
      const broken = [];
      for (const table of ['jobs', 'videos', 'models']) broken.push(...(await sql.raw(`PRAGMA foreign_key_check(${table})`).execute(db)).rows);
      if (broken.length > 0) throw new Error(`Миграция 0014: нарушены внешние ключи (${JSON.stringify(broken.slice(0, 3))})`);
      await sql.raw('COMMIT').execute(db);
    } catch (err) {
      await sql.raw('ROLLBACK').execute(db);
      throw err;
    }
  } finally {
    await sql.raw('PRAGMA foreign_keys = ON').execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
