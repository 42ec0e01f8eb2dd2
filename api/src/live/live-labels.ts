import type { Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import * as labels from './live-labels.service';
import { streamOfCamera } from './service';

/**
 * Live labels (issue 45, docs/live-cameras.md «Живая разметка»): a camera's active model labels each
 * segment the recorder closes, as the usual reviewed model layer — by one job per camera
 * (live-labels.job.ts, queued automatically: recorder.ts calls `labelClosedSegment`) that labels the
 * waiting segments in order. The moments of the lag «frame on camera → label stored» are kept: the
 * segment's first frame (`start_time`), when it closed (`closed_at`), when its labels were committed (`labeled_at`).
 */

/**
 * Sets the camera's active model (null: none) — a trained model of this very camera — and the employee
 * its labels are written for (one of the camera's structure; null: the workplace's employee of the
 * day, who must then be marked that day, as «Применить» requires). Else a 4xx and nothing changes.
 */
export async function setCameraLiveModel(db: Db, organizationId: number, cameraId: number, body: { model_id: number | null; employee_id: number | null }) {
  const modelId = body.model_id;
  if (!(await streamOfCamera(db, cameraId))) throw badRequest('У камеры не задан поток: сначала сохраните адрес потока');
  if (modelId !== null) {
    const model = await labels.liveModelCandidate(db, modelId);
    // Another organisation's model is «not found», as every foreign id.
    if (!model || model.organization_id !== organizationId) throw notFound('Модель не найдена');
    if (model.camera_id !== cameraId) throw badRequest('Модель обучена для другой камеры: её области не подходят к этому потоку');
    if (!model.object_storage_key) throw badRequest('Модель ещё не обучена: живую разметку может вести только обученная модель');
    if (model.workplace_id === null) throw badRequest('Рабочее место модели удалено: обучите модель заново');
    if (body.employee_id !== null && !(await labels.employeeOfCamera(db, cameraId, body.employee_id)))
      throw badRequest('employee_id: сотрудник не из структурной единицы этой камеры');
  }
  await labels.setLiveModel(db, cameraId, modelId, body.employee_id);
  return labels.liveModelOf(db, cameraId);
}

/**
 * After the recorder stored a closed segment: queues the camera's labelling job when its model is
 * active and no job is alive (the job alive takes the segment itself). The job's id, or null when none was queued.
 */
export async function labelClosedSegment(db: Db, cameraId: number): Promise<number | null> {
  return labels.queueCameraLabels(db, cameraId);
}

/**
 * Queues the camera's labelling job for segments closed under its model that no job will take (a
 * recorder stopped between storing and queuing, a job that failed for good). How many jobs were queued: 0 or 1.
 */
export async function labelMissedSegments(db: Db, cameraId: number): Promise<number> {
  return (await labels.queueCameraLabels(db, cameraId)) === null ? 0 : 1;
}

/**
 * The p95 of «frame → label» over every frame of the labelled segments: a frame at instant f of a
 * segment labelled at L waits L − f, so each segment contributes its lags from L − end to L − start,
 * evenly (50 samples a segment, weighted by its length).
 */
export function lagP95(segments: { start_time: number; end_time: number; labeled_at: number }[]): number | null {
  const samples: { lag: number; weight: number }[] = [];
  for (const s of segments) {
    const length = Math.max(1, s.end_time - s.start_time);
    for (let i = 0; i < 50; i++) samples.push({ lag: s.labeled_at - (s.start_time + ((i + 0.5) * length) / 50), weight: length / 50 });
  }
  if (samples.length === 0) return null;
  samples.sort((a, b) => a.lag - b.lag);
  const total = samples.reduce((sum, s) => sum + s.weight, 0);
  let seen = 0;
  for (const s of samples) {
    seen += s.weight;
    if (seen >= total * 0.95) return Math.round(s.lag);
  }
  return Math.round(samples.at(-1)!.lag);
}

/** GET /api/v1/camera/{id}/live_labels: the active model, the last segments with their label jobs and lags, the p95. */
export async function liveLabels(db: Db, cameraId: number, limit = 50) {
  const rows = await labels.recentLabelledSegments(db, cameraId, Math.min(500, Math.max(1, limit)));
  const segments = rows.map((r) => {
    // The segment's own state: labelled, given up on, or waiting for the camera's job (its state then).
    const status = r.labeled_at !== null ? 'success' : r.label_error !== null ? 'failed' : r.job_id === null ? null : r.job_status;
    return {
      video_id: r.video_id,
      start_time: r.start_time,
      end_time: r.end_time,
      closed_at: r.closed_at,
      job_id: r.job_id,
      job_status: status,
      labeled_at: r.labeled_at,
      label_error: r.label_error,
      lag_ms: r.labeled_at === null ? null : r.labeled_at - r.start_time,
    };
  });
  const labelled = segments.flatMap((s) => (s.labeled_at === null ? [] : [{ ...s, labeled_at: s.labeled_at }]));
  return { live_model: await labels.liveModelOf(db, cameraId), segments, lag_p95_ms: lagP95(labelled) };
}
