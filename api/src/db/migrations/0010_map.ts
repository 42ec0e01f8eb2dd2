import { sql, type Kysely } from 'kysely';

/**
 * Map editor (spec 02 §2–§4; docs/map.md). map_projects of 0001 gets the golden standard and the
 * running algorithm's job; cadastral_parcels is the local cadastral registry that
 * GET /api/v1/gis/code reads (imported from GeoJSON), seeded with a few demo parcels near the
 * editor's initial view (Saint Petersburg).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE map_projects ADD COLUMN golden_feature_collection TEXT`.execute(db);
  await sql`ALTER TABLE map_projects ADD COLUMN job_id INTEGER`.execute(db);
  await sql`CREATE INDEX map_projects_by_organization ON map_projects(organization_id)`.execute(db);
  await sql`CREATE TABLE cadastral_parcels (
     number TEXT PRIMARY KEY,
     geometry TEXT NOT NULL,
     source TEXT NOT NULL DEFAULT 'import',
     updated_at INTEGER NOT NULL
   )`.execute(db);
  const now = Date.now();
  for (const [number, ring] of DEMO_PARCELS)
    await sql`INSERT INTO cadastral_parcels (number, geometry, source, updated_at) VALUES (${number}, ${JSON.stringify({ type: 'Polygon', coordinates: [ring] })}, 'demo', ${now})`.execute(
      db,
    );
}

const box = (lon: number, lat: number, dLon: number, dLat: number): number[][] => [
  [lon, lat],
  [lon + dLon, lat],
  [lon + dLon, lat + dLat],
  [lon, lat + dLat],
  [lon, lat],
];

/** Demo parcels (invented numbers in the real format) a few kilometres around 59.94° N, 30.31° E. */
const DEMO_PARCELS: Array<[string, number[][]]> = [
  ['78:31:0001001:1', box(30.3, 59.93, 0.012, 0.006)],
  ['78:31:0001001:2', box(30.315, 59.93, 0.01, 0.005)],
  ['78:31:0001002:7', box(30.33, 59.925, 0.015, 0.008)],
  ['78:13:0007401:15', box(30.28, 59.945, 0.02, 0.01)],
];

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
