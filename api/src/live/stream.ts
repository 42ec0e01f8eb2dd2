import { checkStream, maskStreamUrl, mergeMaskedPassword, StreamCheckError, streamSnapshot, streamUrlProblem } from '@norma/workers/rtsp-record';
import type { Db } from '../db/database';
import { ApiError, badRequest } from '../http/errors';
import type { StreamRow } from './service';
import * as streams from './service';

/** A camera's stream settings and check (issue 45): the address is validated, stored whole and returned masked. */

/** How long a recorder's lease runs without renewal: one renewal a third of it (recorder.ts). */
export const LEASE_MS = 30_000;

/** The stream as a reply: the password masked, the lease read as «recording now». */
export function streamReply(row: StreamRow & { live_model_name: string | null }, now = Date.now()) {
  return {
    camera_id: row.camera_id,
    url: maskStreamUrl(row.url),
    enabled: row.enabled === 1,
    segment_seconds: row.segment_seconds,
    retention_days: row.retention_days,
    retention_gb: row.retention_gb,
    state: row.holder && (row.lease_until ?? 0) >= now ? row.state : ('offline' as const),
    last_frame_at: row.last_frame_at,
    last_error: row.last_error,
    recording: Boolean(row.holder && (row.lease_until ?? 0) >= now),
    offline_alert_seconds: row.offline_alert_seconds,
    live_model:
      row.live_model_id !== null && row.live_model_name !== null
        ? { id: row.live_model_id, name: row.live_model_name, employee_id: row.live_employee_id }
        : null,
  };
}

/** The address a user sent, with a masked password taken from the stored one; a 400 when it is no camera stream. */
function acceptedUrl(sent: string, stored: string | null): string {
  const problem = streamUrlProblem(sent);
  if (problem) throw badRequest(problem);
  return mergeMaskedPassword(sent, stored);
}

export interface StreamSettingsInput {
  url: string;
  enabled: boolean;
  segment_seconds: number;
  retention_days: number | null;
  retention_gb: number | null;
  offline_alert_seconds: number;
}

export async function saveStream(db: Db, cameraId: number, body: StreamSettingsInput) {
  const stored = await streams.streamOfCamera(db, cameraId);
  const url = acceptedUrl(body.url, stored?.url ?? null);
  await streams.saveStreamSettings(db, cameraId, {
    url,
    enabled: body.enabled,
    segmentSeconds: body.segment_seconds,
    retentionDays: body.retention_days,
    retentionGb: body.retention_gb,
    offlineAlertSeconds: body.offline_alert_seconds,
  });
  return streamReply((await streams.streamWithModel(db, cameraId))!);
}

export async function readStream(db: Db, cameraId: number) {
  const row = await streams.streamWithModel(db, cameraId);
  return row ? streamReply(row) : null;
}

/** Opens the stream (the address sent, or the stored one): codec, picture, frame rate and one frame; a 422 saying why it did not open. */
export async function checkCameraStream(db: Db, cameraId: number, sent: string | undefined) {
  const stored = await streams.streamOfCamera(db, cameraId);
  if (sent === undefined && !stored) throw badRequest('У камеры не задан адрес потока');
  const url = sent === undefined ? stored!.url : acceptedUrl(sent, stored?.url ?? null);
  try {
    const info = await checkStream(url);
    const jpeg = await streamSnapshot(url);
    return {
      codec: info.codec,
      width: info.width,
      height: info.height,
      frame_rate: info.frameRate === null ? null : Math.round(info.frameRate * 1000) / 1000,
      browser_playable: info.codec === 'h264',
      snapshot: `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}`,
    };
  } catch (err) {
    if (err instanceof StreamCheckError) throw new ApiError(422, 'stream_unavailable', err.message);
    throw err;
  }
}
