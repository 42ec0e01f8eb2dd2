import { sql, type Kysely } from 'kysely';

/**
 * Video areas keep the size of the frame they were drawn on (issue 43, docs/vision.md «Разрешение и
 * вид камеры»): x1…y2 are pixels of that frame, so an area lands at the same place of a video of any
 * resolution. Existing areas get the training picture's size of a trained model that uses them
 * (`models.spec` keeps it as `source`); an area no trained model used keeps NULL — pixels of the
 * video it is used with, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE video_areas ADD COLUMN frame_width INTEGER').execute(db);
  await sql.raw('ALTER TABLE video_areas ADD COLUMN frame_height INTEGER').execute(db);
  const used = await sql<{ video_area_id: number; spec: string }>`
    SELECT model_video_areas.video_area_id, models.spec FROM model_video_areas
    JOIN models ON models.id = model_video_areas.model_id
    WHERE models.spec IS NOT NULL ORDER BY models.id`.execute(db);
  const sizes = new Map<number, { width: number; height: number }>();
  for (const row of used.rows) {
    let source: unknown;
    try {
      source = (JSON.parse(row.spec) as { source?: unknown }).source;
    } catch {
      continue;
    }
    const { width, height } = (source ?? {}) as { width?: unknown; height?: unknown };
    if (Number.isInteger(width) && Number.isInteger(height) && (width as number) > 0 && (height as number) > 0)
      sizes.set(row.video_area_id, { width: width as number, height: height as number });
  }
  for (const [id, size] of sizes) await sql`UPDATE video_areas SET frame_width = ${size.width}, frame_height = ${size.height} WHERE id = ${id}`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
