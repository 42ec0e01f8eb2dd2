import type { Generated } from 'kysely';

/** Kysely table types, mirroring db/migrations. Instants are ms since epoch (UTC). */
export type Role = 'admin' | 'analyst' | 'assessor' | 'viewer';
export type OperationTypeCode = 'main' | 'aux' | 'pz' | 'service' | 'move' | 'rest' | 'idle';
export type ProductionType = 'mass' | 'large_series' | 'series' | 'small_series';

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: number;
  image: string | null;
  createdAt: string;
  updatedAt: string;
  username: string | null;
  displayUsername: string | null;
  firstName: string;
  lastName: string;
}

/** better-auth's session table (created by its migrations); `token` holds SHA-256 of the cookie's token (auth/session-tokens.ts). */
export interface SessionTable {
  id: string;
  /** ISO 8601 */
  expiresAt: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  time_zone: Generated<string>;
  is_demo: Generated<number>;
  created_at: number;
}

export interface MembershipsTable {
  user_id: string;
  organization_id: number;
  role: Role;
  created_at: number;
}

export interface StructuresTable {
  id: Generated<number>;
  organization_id: number;
  parent_id: number | null;
  name: string;
  partial: Generated<number>;
  production_type: Generated<ProductionType>;
  created_at: number;
}

export interface StructureSettingsTable {
  structure_id: number;
  employee_count: number | null;
  employee_salary: number | null;
  fluct_reduction: number | null;
  regular_break_duration: Generated<number>;
  time_series_stability_threshold: number | null;
  rest_in_idle: Generated<number>;
  /** Time-series cleaning rule (migration 0006). */
  cleaning_rule: Generated<'one_extreme' | 'both_extremes'>;
}

export interface ShiftsTable {
  id: Generated<number>;
  structure_id: number;
  position: Generated<number>;
  name: string;
  start_time: string;
  end_time: string;
  regular_break_duration_min: Generated<number>;
  /** JSON list of regulated break intervals, local times (migration 0006); '[]' when none. */
  break_intervals: Generated<string>;
  /** 0022: the unpaid meal break, whole minutes (Тсм = end − start − it, METHODOLOGY §7). */
  meal_break_min: Generated<number>;
}

export interface OperationTypesTable {
  code: OperationTypeCode;
  label: string;
  color: string;
  position: number;
  is_work: number;
}

export interface OperationsTable {
  id: Generated<number>;
  structure_id: number;
  name: string;
  type: OperationTypeCode;
  reference_point: Generated<string>;
  machine_paced: Generated<number>;
}

export interface NamedInStructureTable {
  id: Generated<number>;
  structure_id: number;
  name: string;
}

export interface CamerasTable {
  id: Generated<number>;
  structure_id: number;
  camera_key: number;
  name: string;
  storage_folder: string;
}

export interface VideosTable {
  id: Generated<number>;
  camera_id: number;
  filename: string;
  storage_key: string;
  content_hash: string | null;
  size_bytes: number | null;
  start_time: number;
  duration: number | null;
  status: Generated<'queued' | 'processing' | 'ready' | 'failed'>;
  comment: Generated<string>;
  author_id: string | null;
  finished: Generated<number>;
  finished_at: number | null;
  markup_version: Generated<number>;
  created_at: number;
  /** 0002: the ingest job that processes this video, and why processing failed. */
  job_id: Generated<number | null>;
  error: Generated<string | null>;
  /** 0015: why the recording is damaged (truncated, decode errors), or null. */
  damage: Generated<string | null>;
  /** 0020: where the start came from (file_name, creation_time, file_time, manual, unknown) and whether a person confirmed it. */
  start_source: Generated<'file_name' | 'creation_time' | 'file_time' | 'manual' | 'unknown'>;
  start_confirmed: Generated<number>;
  /** 0036: every this-many-th frame from each keyframe is a reference (Norma's own encode), or null (workers/src/media/reference-frames.ts). */
  reference_step: Generated<number | null>;
}

export interface MarkupsTable {
  id: Generated<number>;
  structure_id: number;
  operation_id: number;
  workplace_id: number;
  employee_id: number | null;
  start_time: number;
  end_time: number;
  comment: string | null;
  video_id: number | null;
  author_id: string | null;
  source: Generated<'manual' | 'fill_gaps' | 'model'>;
  model_id: number | null;
  created_at: number;
  updated_at: number;
  /** 0018: a model segment's mean class probability (0…1); null for rows written by people. */
  confidence: Generated<number | null>;
}

export interface VideoStampTypesTable {
  type: string;
  name: string;
}

export interface VideoStampsTable {
  id: Generated<number>;
  structure_id: number;
  video_id: number | null;
  type: string;
  at: number;
  comment: Generated<string>;
  employee_id: number | null;
  author_id: string | null;
  created_at: number;
}

export interface ActivitiesTable {
  id: Generated<number>;
  video_id: number;
  author_id: string | null;
  happened_at: number;
  comment: string;
}

export interface ReportProductsTable {
  structure_id: number;
  employee_id: Generated<number>;
  from_time: number;
  to_time: number;
  product_num: number;
  products_description: Generated<string>;
}

export interface ReferenceStabilityTable {
  id: Generated<number>;
  production_type: ProductionType;
  work_kind: 'manual' | 'machine';
  coef_short: number;
  coef_long: number;
  accuracy_percent: number;
  source: string;
  edition: string;
  /** 0003: NULL for the product defaults, else the organisation whose edition this is. */
  organization_id: number | null;
  short_element_max_seconds: Generated<number>;
  updated_at: number | null;
  updated_by: string | null;
}

export interface ShareKeysTable {
  key: string;
  structure_id: number;
  from_time: number;
  to_time: number;
  created_by: string | null;
  created_at: number;
  revoked_at: number | null;
  /** 0030: what the key opens — the interactive report ('report') or a hall's event analytics ('event'). */
  kind: Generated<'report' | 'event' | 'live_board'>;
}

export interface FeedbackTable {
  id: Generated<number>;
  name: string;
  email: string;
  company: string | null;
  phone_number: string | null;
  comment: string | null;
  created_at: number;
  /** 0011: marked handled by an administrator (docs/site.md). */
  handled_at: number | null;
  handled_by: string | null;
}

export interface VideoAreasTable {
  id: Generated<number>;
  camera_id: number;
  name: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** 0023: the size of the frame x1…y2 were drawn on; null — pixels of the video used (areas from before). */
  frame_width: Generated<number | null>;
  frame_height: Generated<number | null>;
}

export interface ModelsTable {
  id: Generated<number>;
  camera_id: number;
  workplace_id: number | null;
  marked_video_id: number | null;
  name: string;
  comment: Generated<string>;
  start_second: Generated<number>;
  end_second: Generated<number>;
  completion_percentage: Generated<number>;
  object_storage_key: string | null;
  trained_at: number | null;
  report: Generated<string>;
  created_at: number;
  /** 0012: training job and its error, last applying job and time, feature specification (JSON). */
  job_id: number | null;
  error: string | null;
  apply_job_id: number | null;
  applied_at: number | null;
  spec: string | null;
}

export interface StandsTable {
  id: Generated<number>;
  organization_id: number;
  kind: Generated<'stand' | 'basis'>;
  name: string;
}

export interface AbsoluteLocationsTable {
  id: Generated<number>;
  stand_id: number;
  structure_id: number | null;
  x: number;
  y: number;
}

export interface StandLocationsTable {
  id: Generated<number>;
  stand_id: number;
  camera_id: number;
  x: number;
  y: number;
  checkpoint_time: number | null;
}

export interface MovablesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
}

export interface MovableLocationsTable {
  id: Generated<number>;
  movable_id: number;
  camera_id: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  checkpoint_time: number | null;
}

export interface MapProjectsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  is_processing: Generated<number>;
  is_golden: Generated<number>;
  drawn_feature_collection: Generated<string>;
  info_feature_collection: Generated<string>;
  general_feature_collection: Generated<string>;
  drawing_feature_collection: Generated<string>;
  updated_at: number;
  /** 0010: the golden standard (a FeatureCollection as JSON) and the running algorithm's job. */
  golden_feature_collection: string | null;
  job_id: number | null;
  /** 0016: the project's coordinate reference, JSON { kind, lon, lat, zone? } (null: nothing drawn yet). */
  crs: string | null;
  /** 0037: the zone circles under 50 m the project has held, JSON [[lon, lat, radius], …] (null: not recorded yet). */
  small_zones: string | null;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: Generated<string>;
  /** 0014: 'cancelled' (POST /api/v1/jobs/{id}/cancel). */
  status: Generated<'queued' | 'running' | 'success' | 'failed' | 'cancelled'>;
  progress: Generated<number>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_after: number;
  locked_by: string | null;
  locked_at: number | null;
  result: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  /** 0002: whose job it is (GET /api/v1/jobs/{id} shows only one's own). */
  organization_id: Generated<number | null>;
}

export interface MarkupSavesTable {
  client_save_id: string;
  video_id: number;
  version: number;
  created_at: number;
  /** 0005: the user who saved and a SHA-256 of the request; NULL on rows stored before. */
  user_id: string | null;
  payload_hash: string | null;
}

export interface DB {
  markup_saves: MarkupSavesTable;
  user: UserTable;
  session: SessionTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  structures: StructuresTable;
  structure_settings: StructureSettingsTable;
  shifts: ShiftsTable;
  operation_types: OperationTypesTable;
  operations: OperationsTable;
  employees: NamedInStructureTable;
  workplaces: NamedInStructureTable;
  cameras: CamerasTable;
  videos: VideosTable;
  markups: MarkupsTable;
  /** 0024: rejected segments of a model's layer (issue 43); model_id NULL once the model is deleted. */
  model_rejections: {
    id: Generated<number>;
    model_id: number | null;
    video_id: number;
    workplace_id: number;
    operation_id: number;
    start_time: number;
    end_time: number;
    rejected_by: string | null;
    rejected_at: number;
  };
  video_stamp_types: VideoStampTypesTable;
  video_stamps: VideoStampsTable;
  activities: ActivitiesTable;
  report_products: ReportProductsTable;
  reference_stability: ReferenceStabilityTable;
  share_keys: ShareKeysTable;
  feedback: FeedbackTable;
  /** 0011: robot-check challenges already spent, kept until they expire. */
  captcha_used: { challenge_id: string; expires_at: number };
  /** 0013: per-address counters shared by every API process (auth/rate-limits.ts). */
  rate_limits: { scope: string; address: string; window_start: number; hits: number };
  video_areas: VideoAreasTable;
  models: ModelsTable;
  model_operations: { model_id: number; operation_id: number };
  model_video_areas: { model_id: number; video_area_id: number };
  stands: StandsTable;
  absolute_locations: AbsoluteLocationsTable;
  stand_locations: StandLocationsTable;
  movables: MovablesTable;
  movable_locations: MovableLocationsTable;
  map_projects: MapProjectsTable;
  map_last_project: { user_id: string; project_id: number };
  /** 0010: the local cadastral registry (GET /api/v1/gis/code); 0015: organization_id (NULL: the shared registry). */
  cadastral_parcels: { id: Generated<number>; organization_id: number | null; number: string; geometry: string; source: Generated<string>; updated_at: number };
  /** updated_at/updated_by: migration 0007. */
  calculator_defaults: { name: string; value: number; updated_at: number | null; updated_by: string | null };
  calculator_gear: { name: string; owned: number; price: number; updated_at: number | null; updated_by: string | null };
  calculator_license: { name: string; value: number; updated_at: number | null; updated_by: string | null };
  jobs: JobsTable;
  /** 0015: failed sign-ins per login and client address (auth/lockout.ts). */
  sign_in_failures: { login: string; address: string; failures: number; locked_until: number; updated_at: number };
  /** 0017: norm card versions (api/src/norms/). */
  norm_cards: NormCardsTable;
  norm_approvers: { organization_id: number; user_id: string; granted_by: string | null; granted_at: number };
  /** 0026: a camera's RTSP stream, its recorder's lease and health (issue 45, api/src/live); url holds credentials, never returned. */
  camera_streams: CameraStreamsTable;
  /** 0026: spans of a stream camera with no recording (the stream dropped). */
  recording_gaps: { id: Generated<number>; camera_id: number; from_time: number; to_time: number; reason: string };
  /** 0026: the videos a recorder made of its camera's stream (retention removes only these). */
  stream_segments: {
    id: Generated<number>;
    camera_id: number;
    video_id: number;
    start_time: number;
    end_time: number;
    size_bytes: number;
    /** 0027: when the recorder saw the segment closed, and its live-label job (docs/live-cameras.md). */
    closed_at: number | null;
    label_job_id: number | null;
    /** 0031: when the segment's live labels were stored (label_job_id: the camera's job that stored them). */
    labeled_at: number | null;
    label_error: string | null;
  };
  /** 0025: event analytics (issue 44): tracker runs, their tracks, camera floor calibrations, a hall's zones. */
  event_trackings: EventTrackingsTable;
  event_tracks: { id: Generated<number>; tracking_id: number; track_number: number; first_time: number; last_time: number; points: string };
  event_calibrations: {
    id: Generated<number>;
    camera_id: number;
    frame_width: number;
    frame_height: number;
    image_points: string;
    plan_points: string;
    updated_at: number;
  };
  /** 0033: stored figures of a hall's long window (api/src/events/figures.service.ts). */
  event_figures: {
    id: Generated<number>;
    structure_id: number;
    from_ms: number;
    to_ms: number;
    inputs_key: string;
    job_id: number | null;
    figures: string | null;
    computed_key: string | null;
    computed_at: number | null;
    created_at: number;
  };
  event_zones: {
    id: Generated<number>;
    structure_id: number;
    name: string;
    role: 'zone' | 'stand' | 'safe';
    stand_id: number | null;
    shape: string;
    created_at: number;
    updated_at: number;
  };
  norm_line_scenarios: {
    id: Generated<number>;
    card_id: number;
    name: string;
    demand: number;
    assignment: string;
    created_at: number;
    created_by: string | null;
  };
}

/** 0026: a camera's stream (api/src/live): settings, the recorder holding it (a lease, as a job's lock) and its health. */
export interface CameraStreamsTable {
  id: Generated<number>;
  camera_id: number;
  url: string;
  enabled: number;
  segment_seconds: number;
  retention_days: number | null;
  retention_gb: number | null;
  holder: string | null;
  lease_until: number | null;
  state: Generated<'online' | 'connecting' | 'offline'>;
  last_frame_at: number | null;
  last_error: string | null;
  updated_at: number;
  /** 0027: the active model labelling closed segments (live labels) and since when. */
  live_model_id: number | null;
  live_model_since: number | null;
  /** 0027: whom the live labels are written for (null: the workplace's employee of the day). */
  live_employee_id: number | null;
  /** 0027: no frame for longer than this — the «offline» alert (health.ts). */
  offline_alert_seconds: Generated<number>;
  /** 0027: when the current connection's first frame came (null when not connected). */
  connected_at: number | null;
  /** 0031: the camera's live-labelling job while queued or running (one at a time), and the stream's measured frame rate. */
  live_job_id: number | null;
  frame_rate: number | null;
  /** 0032: the camera's view-check job while queued or running (one at a time), and its last outcome (view_warnings: a JSON array). */
  view_job_id: number | null;
  view_checked_at: number | null;
  view_model_id: number | null;
  view_video_id: number | null;
  view_similarity: number | null;
  view_aspect_change: number | null;
  view_warnings: string | null;
  view_error: string | null;
}

/** 0025: one run of the tracker over a video (api/src/events); settings and stats are JSON. */
export interface EventTrackingsTable {
  id: Generated<number>;
  video_id: number;
  job_id: number | null;
  status: Generated<'queued' | 'done'>;
  settings: string;
  video_fps: number | null;
  frame_width: number | null;
  frame_height: number | null;
  stats: string | null;
  created_at: number;
  finished_at: number | null;
}

/** 0017: one version of a structure's norm card; JSON columns hold windows, parameters and figures. */
export interface NormCardsTable {
  id: Generated<number>;
  structure_id: number;
  version: number;
  title: string;
  windows: string;
  params: string;
  card: string;
  created_at: number;
  created_by: string | null;
  updated_at: number;
  approved_at: number | null;
  approved_by: string | null;
  approved_by_name: string | null;
  effective_from: string | null;
  /** 0019: the draft's revision, one more with every change; an approval names the one its approver read. */
  revision: number;
  /** 0022: the approver's override of an unstable series, with his comment; null when none was needed. */
  approval_comment: string | null;
}
