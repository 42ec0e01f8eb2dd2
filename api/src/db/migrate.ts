import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database';
import { isPostgres, postgresDdl, syncIdentitySequences } from './postgres';
import * as init from './migrations/0001_init';
import * as markupSaves from './migrations/0004_markup_saves';
import * as markupSaveOwner from './migrations/0005_markup_save_owner';
import * as videoPipeline from './migrations/0002_video_pipeline';
import * as report from './migrations/0003_report';
import * as reportRules from './migrations/0006_report_rules';
import * as calculator from './migrations/0007_calculator';
import * as map from './migrations/0010_map';
import * as site from './migrations/0011_site';
import * as vision from './migrations/0012_vision';
import * as rateLimits from './migrations/0013_rate_limits';
import * as jobCancel from './migrations/0014_job_cancel';
import * as hardeningScope from './migrations/0015_hardening_scope';
import * as mapCrs from './migrations/0016_map_crs';
import * as norms from './migrations/0017_norms';
import * as modelReview from './migrations/0018_model_review';
import * as normRevision from './migrations/0019_norm_revision';
import * as recordingStart from './migrations/0020_recording_start';
import * as normNominalShift from './migrations/0022_norm_nominal_shift';
import * as areaFrame from './migrations/0023_area_frame';
import * as modelRejections from './migrations/0024_model_rejections';
import * as eventAnalytics from './migrations/0025_event_analytics';
import * as cameraStreams from './migrations/0026_camera_streams';
import * as liveLabelsHealth from './migrations/0027_live_labels_health';
import * as shareKeyKind from './migrations/0030_share_key_kind';
import * as liveCameraJobs from './migrations/0031_live_camera_jobs';
import * as liveViewCheck from './migrations/0032_live_view_check';
import * as eventFigures from './migrations/0033_event_figures';
import * as videoReferenceStep from './migrations/0036_video_reference_step';
import * as mapSmallZones from './migrations/0037_map_small_zones';

/** Versioned migrations, in order. Add a file and a line here; never edit an applied one. */
const migrations: Record<string, Migration> = {
  '0001_init': init,
  '0002_video_pipeline': videoPipeline,
  '0003_report': report,
  '0004_markup_saves': markupSaves,
  '0005_markup_save_owner': markupSaveOwner,
  '0006_report_rules': reportRules,
  '0007_calculator': calculator,
  '0010_map': map,
  '0011_site': site,
  '0012_vision': vision,
  '0013_rate_limits': rateLimits,
  '0014_job_cancel': jobCancel,
  '0015_hardening_scope': hardeningScope,
  '0016_map_crs': mapCrs,
  '0017_norms': norms,
  '0018_model_review': modelReview,
  '0019_norm_revision': normRevision,
  '0020_recording_start': recordingStart,
  '0022_norm_nominal_shift': normNominalShift,
  '0023_area_frame': areaFrame,
  '0024_model_rejections': modelRejections,
  '0025_event_analytics': eventAnalytics,
  '0026_camera_streams': cameraStreams,
  '0027_live_labels_health': liveLabelsHealth,
  '0030_share_key_kind': shareKeyKind,
  '0031_live_camera_jobs': liveCameraJobs,
  '0032_live_view_check': liveViewCheck,
  '0033_event_figures': eventFigures,
  '0036_video_reference_step': videoReferenceStep,
  '0037_map_small_zones': mapSmallZones,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// On PostgreSQL the same migration files run with their DDL rewritten (db/postgres.ts).
const migrator = (db: Db) =>
  new Migrator({
    db: isPostgres(db) ? db.withPlugin(postgresDdl) : db,
    provider,
    migrationTableName: 'norma_migrations',
    migrationLockTableName: 'norma_migrations_lock',
  });

/** Applies every pending migration; throws (and applies nothing more) on the first failure. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  if (isPostgres(db)) await syncIdentitySequences(db);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of the migrations this code knows that the database has not had yet. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await migrator(db).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Names of every migration this code knows (a backup with others comes from a newer version). */
export const knownMigrationNames = (): string[] => Object.keys(migrations);
