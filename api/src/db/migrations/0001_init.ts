import { sql, type Kysely } from 'kysely';
import { inDependencyOrder, isPostgres } from '../postgres';

/**
 * The whole data model of spec 01 §3 and spec 02 §3.
 * Instants are integers, milliseconds since the Unix epoch (UTC); seconds inside a video are REAL.
 * The better-auth tables ("user", "session", "account", "verification") are created before this
 * migration by better-auth itself; memberships link its users to organisations and roles.
 */
const statements = [
  `CREATE TABLE organizations (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     time_zone TEXT NOT NULL DEFAULT 'Europe/Moscow',
     is_demo INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   )`,
  `CREATE TABLE memberships (
     user_id TEXT PRIMARY KEY REFERENCES "user"(id) ON DELETE CASCADE,
     organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     role TEXT NOT NULL CHECK (role IN ('admin', 'analyst', 'assessor', 'viewer')),
     created_at INTEGER NOT NULL
   )`,
  `CREATE INDEX memberships_by_organization ON memberships(organization_id)`,

  `CREATE TABLE structures (
     id INTEGER PRIMARY KEY,
     organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     parent_id INTEGER REFERENCES structures(id) ON DELETE RESTRICT,
     name TEXT NOT NULL,
     partial INTEGER NOT NULL DEFAULT 0,
     production_type TEXT NOT NULL DEFAULT 'series'
       CHECK (production_type IN ('mass', 'large_series', 'series', 'small_series')),
     created_at INTEGER NOT NULL
   )`,
  `CREATE INDEX structures_by_organization ON structures(organization_id, parent_id)`,
  `CREATE TABLE structure_settings (
     structure_id INTEGER PRIMARY KEY REFERENCES structures(id) ON DELETE CASCADE,
     employee_count INTEGER,
     employee_salary INTEGER,
     fluct_reduction INTEGER,
     regular_break_duration INTEGER NOT NULL DEFAULT 4200,
     time_series_stability_threshold REAL,
     rest_in_idle INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE TABLE shifts (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     position INTEGER NOT NULL DEFAULT 0,
     name TEXT NOT NULL,
     start_time TEXT NOT NULL,
     end_time TEXT NOT NULL,
     regular_break_duration_min INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE INDEX shifts_by_structure ON shifts(structure_id, position)`,

  `CREATE TABLE operation_types (
     code TEXT PRIMARY KEY,
     label TEXT NOT NULL,
     color TEXT NOT NULL,
     position INTEGER NOT NULL,
     is_work INTEGER NOT NULL
   )`,
  `INSERT INTO operation_types (code, label, color, position, is_work) VALUES
     ('main', 'Основная (оперативная) работа', '#2e7d32', 1, 1),
     ('aux', 'Вспомогательная работа', '#1565c0', 2, 1),
     ('pz', 'Подготовительно-заключительная работа', '#6a1b9a', 3, 1),
     ('service', 'Обслуживание рабочего места и оборудования', '#00838f', 4, 1),
     ('move', 'Перемещения', '#f9a825', 5, 1),
     ('rest', 'Отдых и личные надобности', '#8d6e63', 6, 0),
     ('idle', 'Простои (нерегламентированные перерывы)', '#c62828', 7, 0)`,
  `CREATE TABLE operations (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     type TEXT NOT NULL REFERENCES operation_types(code),
     reference_point TEXT NOT NULL DEFAULT '',
     machine_paced INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE INDEX operations_by_structure ON operations(structure_id)`,
  `CREATE TABLE employees (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     name TEXT NOT NULL
   )`,
  `CREATE INDEX employees_by_structure ON employees(structure_id)`,
  `CREATE TABLE workplaces (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     name TEXT NOT NULL
   )`,
  `CREATE INDEX workplaces_by_structure ON workplaces(structure_id)`,
  `CREATE TABLE cameras (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     camera_key INTEGER NOT NULL CHECK (camera_key BETWEEN 1 AND 4),
     name TEXT NOT NULL,
     storage_folder TEXT NOT NULL,
     UNIQUE (structure_id, camera_key)
   )`,

  `CREATE TABLE videos (
     id INTEGER PRIMARY KEY,
     camera_id INTEGER NOT NULL REFERENCES cameras(id) ON DELETE CASCADE,
     filename TEXT NOT NULL,
     storage_key TEXT NOT NULL UNIQUE,
     content_hash TEXT,
     size_bytes INTEGER,
     start_time INTEGER NOT NULL,
     duration REAL,
     status TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('queued', 'processing', 'ready', 'failed')),
     comment TEXT NOT NULL DEFAULT '',
     author_id TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     finished INTEGER NOT NULL DEFAULT 0,
     finished_at INTEGER,
     markup_version INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   )`,
  `CREATE INDEX videos_by_camera_time ON videos(camera_id, start_time)`,
  `CREATE UNIQUE INDEX videos_by_content ON videos(camera_id, content_hash) WHERE content_hash IS NOT NULL`,

  `CREATE TABLE markups (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     operation_id INTEGER NOT NULL REFERENCES operations(id) ON DELETE RESTRICT,
     workplace_id INTEGER NOT NULL REFERENCES workplaces(id) ON DELETE RESTRICT,
     employee_id INTEGER REFERENCES employees(id) ON DELETE SET NULL,
     start_time INTEGER NOT NULL,
     end_time INTEGER NOT NULL,
     comment TEXT,
     video_id INTEGER REFERENCES videos(id) ON DELETE SET NULL,
     author_id TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     source TEXT NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'fill_gaps', 'model')),
     model_id INTEGER REFERENCES models(id) ON DELETE SET NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     CHECK (end_time >= start_time)
   )`,
  `CREATE INDEX markups_by_structure_time ON markups(structure_id, start_time)`,
  `CREATE INDEX markups_by_video ON markups(video_id, start_time)`,
  `CREATE INDEX markups_by_employee_time ON markups(employee_id, start_time)`,
  `CREATE INDEX markups_by_author_time ON markups(author_id, start_time)`,
  `CREATE TABLE video_stamp_types (
     type TEXT PRIMARY KEY,
     name TEXT NOT NULL
   )`,
  `INSERT INTO video_stamp_types (type, name) VALUES ('note', 'Заметка'), ('product', 'Единица продукции')`,
  `CREATE TABLE video_stamps (
     id INTEGER PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     video_id INTEGER REFERENCES videos(id) ON DELETE SET NULL,
     type TEXT NOT NULL REFERENCES video_stamp_types(type),
     at INTEGER NOT NULL,
     comment TEXT NOT NULL DEFAULT '',
     employee_id INTEGER REFERENCES employees(id) ON DELETE SET NULL,
     author_id TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     created_at INTEGER NOT NULL
   )`,
  `CREATE INDEX video_stamps_by_structure_time ON video_stamps(structure_id, at)`,
  `CREATE INDEX video_stamps_by_video ON video_stamps(video_id, at)`,
  `CREATE TABLE activities (
     id INTEGER PRIMARY KEY,
     video_id INTEGER NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
     author_id TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     happened_at INTEGER NOT NULL,
     comment TEXT NOT NULL
   )`,
  `CREATE INDEX activities_by_video ON activities(video_id, happened_at DESC)`,
  `CREATE TABLE report_products (
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     employee_id INTEGER NOT NULL DEFAULT 0,
     from_time INTEGER NOT NULL,
     to_time INTEGER NOT NULL,
     product_num INTEGER NOT NULL CHECK (product_num >= 0),
     products_description TEXT NOT NULL DEFAULT '',
     PRIMARY KEY (structure_id, employee_id, from_time, to_time)
   )`,
  `CREATE TABLE reference_stability (
     id INTEGER PRIMARY KEY,
     production_type TEXT NOT NULL CHECK (production_type IN ('mass', 'large_series', 'series', 'small_series')),
     work_kind TEXT NOT NULL CHECK (work_kind IN ('manual', 'machine')),
     coef_short REAL NOT NULL,
     coef_long REAL NOT NULL,
     accuracy_percent REAL NOT NULL,
     source TEXT NOT NULL,
     edition TEXT NOT NULL,
     UNIQUE (production_type, work_kind)
   )`,
  `INSERT INTO reference_stability (production_type, work_kind, coef_short, coef_long, accuracy_percent, source, edition) VALUES
     ('mass', 'manual', 2.0, 1.5, 5, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default'),
     ('large_series', 'manual', 2.3, 1.7, 7, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default'),
     ('series', 'manual', 2.5, 2.0, 10, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default'),
     ('small_series', 'manual', 3.0, 2.5, 15, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default'),
     ('mass', 'machine', 1.2, 1.1, 5, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default'),
     ('large_series', 'machine', 1.2, 1.1, 7, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default'),
     ('series', 'machine', 1.2, 1.1, 10, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default'),
     ('small_series', 'machine', 1.2, 1.1, 15, 'Значения по умолчанию Norma (METHODOLOGY §4)', 'default')`,

  `CREATE TABLE share_keys (
     key TEXT PRIMARY KEY,
     structure_id INTEGER NOT NULL REFERENCES structures(id) ON DELETE CASCADE,
     from_time INTEGER NOT NULL,
     to_time INTEGER NOT NULL,
     created_by TEXT REFERENCES "user"(id) ON DELETE SET NULL,
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   )`,
  `CREATE TABLE feedback (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     company TEXT,
     phone_number TEXT,
     comment TEXT,
     created_at INTEGER NOT NULL
   )`,

  `CREATE TABLE video_areas (
     id INTEGER PRIMARY KEY,
     camera_id INTEGER NOT NULL REFERENCES cameras(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     x1 REAL NOT NULL, y1 REAL NOT NULL, x2 REAL NOT NULL, y2 REAL NOT NULL
   )`,
  `CREATE INDEX video_areas_by_camera ON video_areas(camera_id)`,
  `CREATE TABLE models (
     id INTEGER PRIMARY KEY,
     camera_id INTEGER NOT NULL REFERENCES cameras(id) ON DELETE CASCADE,
     workplace_id INTEGER REFERENCES workplaces(id) ON DELETE SET NULL,
     marked_video_id INTEGER REFERENCES videos(id) ON DELETE SET NULL,
     name TEXT NOT NULL,
     comment TEXT NOT NULL DEFAULT '',
     start_second REAL NOT NULL DEFAULT 0,
     end_second REAL NOT NULL DEFAULT 0,
     completion_percentage REAL NOT NULL DEFAULT 0,
     object_storage_key TEXT,
     trained_at INTEGER,
     report TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL
   )`,
  `CREATE INDEX models_by_camera ON models(camera_id)`,
  `CREATE TABLE model_operations (
     model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
     operation_id INTEGER NOT NULL REFERENCES operations(id) ON DELETE CASCADE,
     PRIMARY KEY (model_id, operation_id)
   )`,
  `CREATE TABLE model_video_areas (
     model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
     video_area_id INTEGER NOT NULL REFERENCES video_areas(id) ON DELETE CASCADE,
     PRIMARY KEY (model_id, video_area_id)
   )`,
  `CREATE TABLE stands (
     id INTEGER PRIMARY KEY,
     organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     kind TEXT NOT NULL DEFAULT 'stand' CHECK (kind IN ('stand', 'basis')),
     name TEXT NOT NULL
   )`,
  `CREATE TABLE absolute_locations (
     id INTEGER PRIMARY KEY,
     stand_id INTEGER NOT NULL REFERENCES stands(id) ON DELETE CASCADE,
     structure_id INTEGER REFERENCES structures(id) ON DELETE CASCADE,
     x REAL NOT NULL, y REAL NOT NULL
   )`,
  `CREATE TABLE stand_locations (
     id INTEGER PRIMARY KEY,
     stand_id INTEGER NOT NULL REFERENCES stands(id) ON DELETE CASCADE,
     camera_id INTEGER NOT NULL REFERENCES cameras(id) ON DELETE CASCADE,
     x REAL NOT NULL, y REAL NOT NULL,
     checkpoint_time REAL
   )`,
  `CREATE INDEX stand_locations_by_camera ON stand_locations(camera_id)`,
  `CREATE TABLE movables (
     id INTEGER PRIMARY KEY,
     organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     name TEXT NOT NULL
   )`,
  `CREATE TABLE movable_locations (
     id INTEGER PRIMARY KEY,
     movable_id INTEGER NOT NULL REFERENCES movables(id) ON DELETE CASCADE,
     camera_id INTEGER NOT NULL REFERENCES cameras(id) ON DELETE CASCADE,
     x1 REAL NOT NULL, y1 REAL NOT NULL, x2 REAL NOT NULL, y2 REAL NOT NULL,
     checkpoint_time REAL
   )`,
  `CREATE INDEX movable_locations_by_camera ON movable_locations(camera_id)`,

  `CREATE TABLE map_projects (
     id INTEGER PRIMARY KEY,
     organization_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     is_processing INTEGER NOT NULL DEFAULT 0,
     is_golden INTEGER NOT NULL DEFAULT 0,
     drawn_feature_collection TEXT NOT NULL DEFAULT '{"type":"FeatureCollection","features":[]}',
     info_feature_collection TEXT NOT NULL DEFAULT '{"type":"FeatureCollection","features":[]}',
     general_feature_collection TEXT NOT NULL DEFAULT '{"type":"FeatureCollection","features":[]}',
     drawing_feature_collection TEXT NOT NULL DEFAULT '{"type":"FeatureCollection","features":[]}',
     updated_at INTEGER NOT NULL
   )`,
  `CREATE TABLE map_last_project (
     user_id TEXT PRIMARY KEY REFERENCES "user"(id) ON DELETE CASCADE,
     project_id INTEGER NOT NULL REFERENCES map_projects(id) ON DELETE CASCADE
   )`,

  `CREATE TABLE calculator_defaults (
     name TEXT PRIMARY KEY,
     value REAL NOT NULL
   )`,
  `CREATE TABLE calculator_gear (
     name TEXT PRIMARY KEY,
     owned INTEGER NOT NULL DEFAULT 0,
     price REAL NOT NULL
   )`,
  `CREATE TABLE calculator_license (
     name TEXT PRIMARY KEY,
     value REAL NOT NULL
   )`,

  `CREATE TABLE jobs (
     id INTEGER PRIMARY KEY,
     kind TEXT NOT NULL,
     payload TEXT NOT NULL DEFAULT '{}',
     status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'success', 'failed')),
     progress REAL NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0,
     max_attempts INTEGER NOT NULL DEFAULT 3,
     run_after INTEGER NOT NULL,
     locked_by TEXT,
     locked_at INTEGER,
     result TEXT,
     error TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  `CREATE INDEX jobs_ready ON jobs(status, run_after)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL needs referenced tables first (SQLite runs the statements as written).
  for (const statement of isPostgres(db) ? inDependencyOrder(statements) : statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Norma migrations are forward-only; restore a backup to go back.');
}
