import { sql, type Kysely } from 'kysely';

/**
 * Rate-limit counters in the database (issue 18, docs/deployment.md): several API processes on one
 * PostgreSQL count registrations and contact requests from an address together, not each its own.
 * One row per scope and address: the hits of the window that started at window_start
 * (auth/rate-limits.ts). better-auth's sign-in counters live in its own `rateLimit` table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE rate_limits (
     scope TEXT NOT NULL,
     address TEXT NOT NULL,
     window_start INTEGER NOT NULL,
     hits INTEGER NOT NULL,
     PRIMARY KEY (scope, address)
   )`.execute(db);
  await sql`CREATE INDEX rate_limits_by_window ON rate_limits(scope, window_start)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
