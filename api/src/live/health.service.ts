import type { Db } from '../db/database';

/** The queries of camera health (health.ts): a structure's stream cameras with their last closed segment. */

export interface StreamCameraRow {
  camera_id: number;
  camera_key: number;
  camera_name: string;
  enabled: number;
  segment_seconds: number;
  offline_alert_seconds: number;
  holder: string | null;
  lease_until: number | null;
  state: 'online' | 'connecting' | 'offline';
  last_frame_at: number | null;
  last_error: string | null;
  connected_at: number | null;
  updated_at: number;
  live_model_id: number | null;
  /** 0031: the stream's frame rate measured on a closed segment (null: not yet). */
  frame_rate: number | null;
  /** When the recorder last saw a segment of the camera closed (its end when older rows lack it). */
  last_closed_at: number | null;
  /** 0032: the camera's last view check (live.view_check): when, of which model, similarity, warnings (JSON), why not made. */
  view_checked_at: number | null;
  view_model_id: number | null;
  view_similarity: number | null;
  view_warnings: string | null;
  view_error: string | null;
}

/** The structure's cameras that have a stream, by camera number. */
export async function structureStreamCameras(db: Db, structureId: number): Promise<StreamCameraRow[]> {
  const rows = await db
    .selectFrom('camera_streams')
    .innerJoin('cameras', 'cameras.id', 'camera_streams.camera_id')
    .select((eb) => [
      'camera_streams.camera_id',
      'cameras.camera_key',
      'cameras.name as camera_name',
      'camera_streams.enabled',
      'camera_streams.segment_seconds',
      'camera_streams.offline_alert_seconds',
      'camera_streams.holder',
      'camera_streams.lease_until',
      'camera_streams.state',
      'camera_streams.last_frame_at',
      'camera_streams.last_error',
      'camera_streams.connected_at',
      'camera_streams.updated_at',
      'camera_streams.live_model_id',
      'camera_streams.frame_rate',
      'camera_streams.view_checked_at',
      'camera_streams.view_model_id',
      'camera_streams.view_similarity',
      'camera_streams.view_warnings',
      'camera_streams.view_error',
      eb
        .selectFrom('stream_segments')
        .select((s) => s.fn.max(s.fn.coalesce('stream_segments.closed_at', 'stream_segments.end_time')).as('m'))
        .whereRef('stream_segments.camera_id', '=', 'camera_streams.camera_id')
        .as('last_closed_at'),
    ])
    .where('cameras.structure_id', '=', structureId)
    .orderBy('cameras.camera_key')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    ...r,
    frame_rate: r.frame_rate === null ? null : Number(r.frame_rate),
    view_similarity: r.view_similarity === null ? null : Number(r.view_similarity),
    last_closed_at: r.last_closed_at === null ? null : Number(r.last_closed_at),
  }));
}
