import { sql, type Kysely } from 'kysely';

/**
 * Public site (issue 17; docs/site.md). Contact requests of 0001 get «handled» marks for the
 * administrators' list; captcha_used keeps the robot-check challenges already spent until they
 * expire, so a solved challenge is accepted once (a replay is refused).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE feedback ADD COLUMN handled_at INTEGER`.execute(db);
  await sql`ALTER TABLE feedback ADD COLUMN handled_by TEXT REFERENCES "user"(id) ON DELETE SET NULL`.execute(db);
  await sql`CREATE INDEX feedback_by_created ON feedback(created_at)`.execute(db);
  await sql`CREATE TABLE captcha_used (
     challenge_id TEXT PRIMARY KEY,
     expires_at INTEGER NOT NULL
   )`.execute(db);
  await sql`CREATE INDEX captcha_used_by_expiry ON captcha_used(expires_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
