import { sql, type Kysely } from 'kysely';

/**
 * Video pipeline (issue 3): jobs belong to an organisation (GET /api/v1/jobs/{id} shows only
 * one's own), a video remembers its processing job and why processing failed.
 */
const statements = [
  `ALTER TABLE jobs ADD COLUMN organization_id INTEGER REFERENCES organizations(id) ON DELETE CASCADE`,
  `CREATE INDEX jobs_by_organization ON jobs(organization_id, id)`,
  `ALTER TABLE videos ADD COLUMN job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL`,
  `ALTER TABLE videos ADD COLUMN error TEXT`,
  `CREATE INDEX videos_by_status ON videos(status)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
