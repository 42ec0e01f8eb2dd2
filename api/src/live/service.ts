import type { Db } from '../db/database';
import type { CameraStreamsTable } from '../db/schema';
import type { Selectable } from 'kysely';

/**
 * The queries of camera streams (issue 45, docs/live-cameras.md): settings, the recorder's lease
 * (one holder per camera, as a job's lock: a claim is one UPDATE, every later write is fenced by the
 * holder's id, a lease not renewed expires), health, gaps and the segments a recorder made.
 */

export type StreamRow = Selectable<CameraStreamsTable>;

export async function streamOfCamera(db: Db, cameraId: number): Promise<StreamRow | undefined> {
  return db.selectFrom('camera_streams').selectAll().where('camera_id', '=', cameraId).executeTakeFirst();
}

/** The camera's stream with its active model's name (null when none), as replies show it. */
export async function streamWithModel(db: Db, cameraId: number): Promise<(StreamRow & { live_model_name: string | null }) | undefined> {
  return db
    .selectFrom('camera_streams')
    .leftJoin('models', 'models.id', 'camera_streams.live_model_id')
    .selectAll('camera_streams')
    .select('models.name as live_model_name')
    .where('camera_streams.camera_id', '=', cameraId)
    .executeTakeFirst();
}

export interface StreamSettings {
  url: string;
  enabled: boolean;
  segmentSeconds: number;
  retentionDays: number | null;
  retentionGb: number | null;
  /** 0027: no frame for longer than this raises «offline» (default: the column's 60 s, or what is stored). */
  offlineAlertSeconds?: number;
}

/** Stores a camera's stream settings (a new row or the one there is); the lease and health stay. */
export async function saveStreamSettings(db: Db, cameraId: number, settings: StreamSettings): Promise<void> {
  const values = {
    url: settings.url,
    enabled: settings.enabled ? 1 : 0,
    segment_seconds: settings.segmentSeconds,
    retention_days: settings.retentionDays,
    retention_gb: settings.retentionGb,
    ...(settings.offlineAlertSeconds === undefined ? {} : { offline_alert_seconds: settings.offlineAlertSeconds }),
    updated_at: Date.now(),
  };
  await db
    .insertInto('camera_streams')
    .values({ camera_id: cameraId, ...values })
    .onConflict((oc) => oc.column('camera_id').doUpdateSet(values))
    .execute();
}

/** Enabled streams no recorder holds now (or whose lease has run out), or that `holder` holds. */
export async function claimableStreams(db: Db, holder: string, now = Date.now()): Promise<number[]> {
  const rows = await db
    .selectFrom('camera_streams')
    .select('camera_id')
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('lease_until', '<', now), eb('holder', '=', holder)]))
    .orderBy('camera_id')
    .execute();
  return rows.map((r) => r.camera_id);
}

/** Takes the camera's lease for `holder` until now + leaseMs: one UPDATE, so two recorders never both win. The row when taken. */
export async function claimStream(db: Db, cameraId: number, holder: string, leaseMs: number): Promise<StreamRow | null> {
  const now = Date.now();
  const taken = await db
    .updateTable('camera_streams')
    .set({ holder, lease_until: now + leaseMs, state: 'connecting', last_error: null })
    .where('camera_id', '=', cameraId)
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('lease_until', '<', now), eb('holder', '=', holder)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return null;
  return (await streamOfCamera(db, cameraId)) ?? null;
}

/** Extends the lease; the row as it is now (its settings may have changed), or null when the lease is no longer this holder's. */
export async function renewStream(db: Db, cameraId: number, holder: string, leaseMs: number): Promise<StreamRow | null> {
  const now = Date.now();
  const renewed = await db
    .updateTable('camera_streams')
    .set({ lease_until: now + leaseMs })
    .where('camera_id', '=', cameraId)
    .where('holder', '=', holder)
    .where('lease_until', '>=', now)
    .executeTakeFirst();
  if (Number(renewed.numUpdatedRows) === 0) return null;
  return (await streamOfCamera(db, cameraId)) ?? null;
}

/** Gives the lease up (the recorder stops or the stream was turned off): the camera is offline. */
export async function releaseStream(db: Db, cameraId: number, holder: string): Promise<void> {
  await db
    .updateTable('camera_streams')
    .set({ holder: null, lease_until: null, state: 'offline', connected_at: null })
    .where('camera_id', '=', cameraId)
    .where('holder', '=', holder)
    .execute();
}

export interface StreamHealth {
  state?: 'online' | 'connecting' | 'offline';
  lastFrameAt?: number;
  lastError?: string | null;
  /** 0027: when the connection's first frame came (null: not connected). */
  connectedAt?: number | null;
}

/** Writes the stream's health, fenced by the holder. False when the lease is no longer this holder's. */
export async function setStreamHealth(db: Db, cameraId: number, holder: string, health: StreamHealth): Promise<boolean> {
  const updated = await db
    .updateTable('camera_streams')
    .set({
      ...(health.state ? { state: health.state } : {}),
      ...(health.lastFrameAt !== undefined ? { last_frame_at: health.lastFrameAt } : {}),
      ...(health.lastError !== undefined ? { last_error: health.lastError } : {}),
      ...(health.connectedAt !== undefined ? { connected_at: health.connectedAt } : {}),
    })
    .where('camera_id', '=', cameraId)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

export async function insertGap(db: Db, gap: { cameraId: number; from: number; to: number; reason: string }): Promise<void> {
  await db.insertInto('recording_gaps').values({ camera_id: gap.cameraId, from_time: gap.from, to_time: gap.to, reason: gap.reason }).execute();
}

/** The camera's gaps overlapping [from, to], by start. */
export async function listGaps(db: Db, cameraId: number, from = 0, to = Number.MAX_SAFE_INTEGER) {
  return db
    .selectFrom('recording_gaps')
    .select(['from_time', 'to_time', 'reason'])
    .where('camera_id', '=', cameraId)
    .where('to_time', '>=', from)
    .where('from_time', '<=', to)
    .orderBy('from_time')
    .limit(10_000)
    .execute();
}

/** A segment the recorder stored; `closedAt`: when it saw it closed (0027, the lag's middle moment). */
export async function insertSegment(db: Db, segment: { cameraId: number; videoId: number; start: number; end: number; sizeBytes: number; closedAt?: number }) {
  await db
    .insertInto('stream_segments')
    .values({
      camera_id: segment.cameraId,
      video_id: segment.videoId,
      start_time: segment.start,
      end_time: segment.end,
      size_bytes: segment.sizeBytes,
      closed_at: segment.closedAt ?? null,
    })
    .execute();
}

/** The recorder's last segment of the camera (where its recording stopped), if any. */
export async function lastSegment(db: Db, cameraId: number) {
  return db
    .selectFrom('stream_segments')
    .select(['start_time', 'end_time'])
    .where('camera_id', '=', cameraId)
    .orderBy('end_time', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The recorder's segments of the camera, newest first (id of the video, its end and size): what retention weighs. */
export async function segmentsNewestFirst(db: Db, cameraId: number) {
  return db
    .selectFrom('stream_segments')
    .select(['video_id', 'end_time', 'size_bytes'])
    .where('camera_id', '=', cameraId)
    .orderBy('end_time', 'desc')
    .execute();
}

/** The stream's frame rate as the recorder measured it on its last closed segment (frames / duration). */
export async function recordFrameRate(db: Db, cameraId: number, frameRate: number) {
  await db.updateTable('camera_streams').set({ frame_rate: frameRate }).where('camera_id', '=', cameraId).execute();
}
