import { sql, type Kysely } from 'kysely';

/**
 * Vision decoding only what a model needs (issue 43, docs/vision.md «Кадры, на которые никто не
 * ссылается»): `videos.reference_step` — set when Norma encoded the recording itself (ingest's H.264,
 * the demo clips) so that every this-many-th frame from each keyframe is a reference frame and the
 * frames between are unreferenced (workers/src/media/reference-frames.ts). NULL: unknown (a copied or
 * remuxed camera file, a recorder segment), and every frame is decoded as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE videos ADD COLUMN reference_step INTEGER`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
