import { sql, type Kysely } from 'kysely';

/**
 * Vision (issue 14, docs/vision.md): a model remembers its training job and error, the last
 * applying job and when it was last applied, and its feature specification (JSON: sampling, areas,
 * classes, smoothing; the same as inside its ONNX file).
 */
const statements = [
  `ALTER TABLE models ADD COLUMN job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL`,
  `ALTER TABLE models ADD COLUMN error TEXT`,
  `ALTER TABLE models ADD COLUMN apply_job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL`,
  `ALTER TABLE models ADD COLUMN applied_at INTEGER`,
  `ALTER TABLE models ADD COLUMN spec TEXT`,
  `CREATE INDEX markups_by_model ON markups(model_id, video_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
