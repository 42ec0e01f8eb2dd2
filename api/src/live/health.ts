import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Db } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import { structureStreamCameras, type StreamCameraRow } from './health.service';

/**
 * Camera health and alerts of a structure (issue 45, docs/live-cameras.md «Здоровье и тревоги»):
 * for each camera with a stream — its state, last frame, last closed segment and its alerts; for the
 * store — free space. Computed on request from `camera_streams`, `stream_segments` and the disk; no
 * table of its own. GET /api/v1/structure/{id}/camera_health returns it; the live board calls
 * `cameraHealth` directly.
 *
 * Alerts (each with a Russian message ready to show):
 * - `offline` — an enabled camera with no frame for longer than its `offline_alert_seconds` (default 60;
 *   a camera that never had a frame counts from when its stream was saved);
 * - `behind` — the camera is online but no segment has closed for longer than 2 × its segment length
 *   (counted from the later of the last closed segment and the start of the connection);
 * - `view` — the camera's last view check (live.view_check, of its active model) found its view unlike
 *   the one the model was trained on (moved, other picture): its warnings;
 * - `disk` — the store's disk has less free space than `DISK_LOW_FRACTION` of its size or
 *   `DISK_LOW_BYTES`, whichever is smaller (folder store: its folder; S3: its local cache folder,
 *   where segments wait before upload).
 */

export type CameraAlertKind = 'offline' | 'behind' | 'view' | 'disk';

export interface CameraAlert {
  kind: CameraAlertKind;
  /** Since when the condition holds, ms UTC (null for `disk`). */
  since: number | null;
  /** What happened, in Russian, e.g. «Камера 2 «Вход»: нет кадров 3 мин». */
  message: string;
}

export interface CameraHealth {
  camera_id: number;
  camera_key: number;
  camera_name: string;
  enabled: boolean;
  /** online — frames coming; connecting — the recorder is connecting; offline — no recorder or no stream. */
  state: 'online' | 'connecting' | 'offline';
  /** A recorder holds the camera now (its lease has not run out). */
  recording: boolean;
  /** The last frame received, ms UTC (null: none yet). */
  last_frame_at: number | null;
  /** When the last segment closed, ms UTC (null: none yet). */
  last_segment_at: number | null;
  segment_seconds: number;
  offline_alert_seconds: number;
  /** The model labelling its segments live (null: none). */
  live_model_id: number | null;
  /** The stream's frames a second, measured by the recorder on a closed segment (null: not yet). */
  frame_rate: number | null;
  last_error: string | null;
  /** The last comparison of the camera's view with its active model's training view (null: none yet, or of another model). */
  view_check: ViewCheckHealth | null;
  /** This camera's alerts (`offline`, `behind`, `view`); empty when healthy. */
  alerts: CameraAlert[];
}

export interface ViewCheckHealth {
  checked_at: number;
  /** Similarity with the model's training view (−1…1); null: the model keeps no view signature, or the check was not made. */
  view_similarity: number | null;
  warnings: string[];
  /** Why the check could not be made (the segment deleted, the model gone); it is tried again. */
  error: string | null;
}

export interface DiskHealth {
  free_bytes: number;
  total_bytes: number;
  /** Below this free space the `disk` alert is raised. */
  threshold_bytes: number;
  low: boolean;
}

export interface StructureHealth {
  structure_id: number;
  /** When this was computed, ms UTC. */
  checked_at: number;
  cameras: CameraHealth[];
  /** The store's disk (null: its size could not be read). */
  disk: DiskHealth | null;
  /** Every alert: the cameras' and the disk's, offline first. */
  alerts: CameraAlert[];
}

/** The disk alert: less free than this share of the disk… */
export const DISK_LOW_FRACTION = 0.05;
/** … or than this many bytes, whichever is smaller (a big disk is not «full» with 5 % of it free). */
export const DISK_LOW_BYTES = 10 * 1024 ** 3;

const minutes = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} с` : s < 7200 ? `${Math.round(s / 60)} мин` : `${Math.round(s / 3600)} ч`;
};

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1).replace('.', ',')} ГБ`;

/** One camera's health at `now`. */
export function healthOf(row: StreamCameraRow, now: number): CameraHealth {
  const recording = Boolean(row.holder && (row.lease_until ?? 0) >= now);
  const state = recording ? row.state : 'offline';
  const name = `Камера ${row.camera_key} «${row.camera_name}»`;
  const alerts: CameraAlert[] = [];
  if (row.enabled === 1) {
    const seen = row.last_frame_at ?? row.updated_at;
    if (now - seen > row.offline_alert_seconds * 1000) {
      const what = row.last_frame_at === null ? 'ни одного кадра' : 'нет кадров';
      alerts.push({ kind: 'offline', since: seen, message: `${name}: не в сети, ${what} ${minutes(now - seen)}` });
    } else if (state === 'online') {
      const from = Math.max(row.last_closed_at ?? 0, row.connected_at ?? 0);
      if (from > 0 && now - from > 2 * row.segment_seconds * 1000) {
        alerts.push({
          kind: 'behind',
          since: from,
          message: `${name}: регистратор отстаёт — отрезок не закрывался ${minutes(now - from)} (длина отрезка ${row.segment_seconds} с)`,
        });
      }
    }
  }
  // The view check counts only for the model labelling now (a check of a previous model says nothing of this one).
  const view: ViewCheckHealth | null =
    row.view_checked_at !== null && row.live_model_id !== null && row.view_model_id === row.live_model_id
      ? {
          checked_at: row.view_checked_at,
          view_similarity: row.view_similarity,
          warnings: row.view_warnings === null ? [] : (JSON.parse(row.view_warnings) as string[]),
          error: row.view_error,
        }
      : null;
  // A check that did not compare the view (its reason in `error`) may still have found another aspect ratio.
  if (view && view.warnings.length > 0) {
    alerts.push({
      kind: 'view',
      since: view.checked_at,
      message: `${name}: вид камеры не такой, как при обучении модели живой разметки — ${view.warnings.join(' ')}`,
    });
  }
  return {
    camera_id: row.camera_id,
    camera_key: row.camera_key,
    camera_name: row.camera_name,
    enabled: row.enabled === 1,
    state,
    recording,
    last_frame_at: row.last_frame_at,
    last_segment_at: row.last_closed_at,
    segment_seconds: row.segment_seconds,
    offline_alert_seconds: row.offline_alert_seconds,
    live_model_id: row.live_model_id,
    frame_rate: row.frame_rate,
    last_error: row.last_error,
    view_check: view,
    alerts,
  };
}

/** Free and total space of the disk under the store (null when it cannot be read, e.g. no such folder). */
export async function storeDisk(storage: ObjectStore, thresholdBytes?: number): Promise<DiskHealth | null> {
  // The store's folder, or the nearest folder above it that exists (a new store is created on its first write).
  let folder = dirname(storage.pathOf('.health'));
  let stats;
  for (;;) {
    try {
      stats = await statfs(folder);
      break;
    } catch {
      if (dirname(folder) === folder) return null;
      folder = dirname(folder);
    }
  }
  const total = stats.blocks * stats.bsize;
  const free = stats.bavail * stats.bsize;
  const threshold = thresholdBytes ?? Math.min(DISK_LOW_BYTES, total * DISK_LOW_FRACTION);
  return { free_bytes: free, total_bytes: total, threshold_bytes: Math.round(threshold), low: free < threshold };
}

/**
 * The health of a structure's stream cameras and of the store's disk, with every alert. `now` and
 * `diskThresholdBytes` may be given (a board computing several structures at one instant; a test).
 */
export async function cameraHealth(
  deps: { db: Db; storage: ObjectStore },
  structureId: number,
  options: { now?: number; diskThresholdBytes?: number } = {},
): Promise<StructureHealth> {
  const now = options.now ?? Date.now();
  const cameras = (await structureStreamCameras(deps.db, structureId)).map((row) => healthOf(row, now));
  const disk = await storeDisk(deps.storage, options.diskThresholdBytes);
  const alerts = cameras.flatMap((c) => c.alerts).sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'offline' ? -1 : b.kind === 'offline' ? 1 : 0));
  if (disk?.low) {
    alerts.push({
      kind: 'disk',
      since: null,
      message: `Диск хранилища почти полон: свободно ${gib(disk.free_bytes)} из ${gib(disk.total_bytes)} — запись камер может остановиться`,
    });
  }
  return { structure_id: structureId, checked_at: now, cameras, disk, alerts };
}
