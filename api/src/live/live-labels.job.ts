import type { PictureCheck } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import type { ObjectStore } from '../storage/object-store';
import { applyModelSpan, loadAppliedModel, type AppliedModel } from '../vision/apply.job';
import * as labels from './live-labels.service';

/**
 * live.label (issue 45, docs/live-cameras.md «Живая разметка»): the one labelling job of a live camera.
 * It labels the camera's waiting segments in order — those closed before it started and those closing
 * while it runs — with the model read once per run, each segment committed by itself (its labels, its
 * `labeled_at`, fenced by the job's claim), and ends when none waits or its turn is over (LIVE_RUN_MS):
 * then it queues its follow-up at the back of its organisation's line. A segment that cannot be labelled
 * for good (its video deleted, nobody to write the labels for) is marked with why and left; any other
 * failure fails the run, and the queue retries it (the segments done stay done).
 */

/** A run labels for at most this long, then gives its slot back and queues its follow-up (fair turns with other work). */
const LIVE_RUN_MS = 60_000;

/** The camera's stored view check as applyModelSpan takes it, when it is of this model and succeeded; else undefined (the aspect ratio only). */
function pictureOf(stored: labels.StoredViewCheck | null, modelId: number): PictureCheck | undefined {
  if (!stored || stored.model_id !== modelId || stored.error !== null) return undefined;
  return { aspectChange: stored.aspect_change ?? 0, viewSimilarity: stored.view_similarity, warnings: stored.warnings };
}

interface RunCounts {
  labelled: number;
  failed: number;
  markups: number;
}

export function liveLabelHandler(db: Db, storage: ObjectStore): JobHandler {
  return {
    async run({ job, workerId, signal, progress }) {
      const cameraId = (job.payload as { camera_id: number }).camera_id;
      const started = Date.now();
      const counts: RunCounts = { labelled: 0, failed: 0, markups: 0 };
      let loaded: AppliedModel | null = null;
      let followUp: number | null = null;
      let viewCheckJob: number | null = null;
      // The camera's last view check (stored by live.view_check), read with the model: its warnings go into each segment's result.
      let view: labels.StoredViewCheck | null = null;
      while (!signal.aborted) {
        const target = await labels.liveTarget(db, cameraId);
        // The camera's model switched off or changed hands to another job: this run has nothing more to do.
        if (!target || !target.labelling || target.live_job_id !== job.id) break;
        const [segment] = await labels.pendingSegments(db, cameraId, 1);
        if (!segment || Date.now() - started >= LIVE_RUN_MS) {
          await labels.releaseCameraJob(db, cameraId, job.id);
          // A segment closed between the look and the release (or the turn is over): a follow-up takes it.
          followUp = await labels.queueCameraLabels(db, cameraId);
          // Nothing waited: the time to compare the camera's view, not before a segment's labels — as a job
          // of its own (live.view_check, view-check.job.ts), in the queue like any heavy work, not in this run.
          if (!segment && followUp === null) viewCheckJob = await labels.queueViewCheck(db, cameraId);
          break;
        }
        if (loaded?.model.id !== target.model_id) {
          loaded = await loadAppliedModel(db, storage, target.model_id!);
          view = (await labels.viewCheckState(db, cameraId))?.stored ?? null;
        }
        const picture = pictureOf(view, loaded.model.id);
        const done = await labelSegment(
          db,
          storage,
          { jobId: job.id, workerId, signal, progress },
          loaded,
          segment,
          { employeeId: target.live_employee_id, picture },
          counts,
        );
        if (!done) break;
      }
      if (signal.aborted) return null;
      progress(100);
      const message =
        counts.labelled + counts.failed === 0
          ? 'Живая разметка: отрезков, ждущих разметки, нет'
          : `Живая разметка: размечено отрезков — ${counts.labelled}${counts.failed > 0 ? `, не размечено — ${counts.failed}` : ''}; меток записано — ${counts.markups}`;
      return {
        camera_id: cameraId,
        labelled: counts.labelled,
        failed: counts.failed,
        markups: counts.markups,
        follow_up_job_id: followUp,
        view_check_job_id: viewCheckJob,
        view_check: view,
        message,
      };
    },
  };
}

/** Labels one waiting segment (the whole of it) and counts it; false when the run must stop (cancelled, taken over, aborted). */
async function labelSegment(
  db: Db,
  storage: ObjectStore,
  job: { jobId: number; workerId: string; signal: AbortSignal; progress: (percent: number) => void },
  loaded: AppliedModel,
  segment: { id: number; video_id: number; start_time: number; end_time: number },
  target: { employeeId: number | null; picture: PictureCheck | undefined },
  counts: RunCounts,
): Promise<boolean> {
  const cameraId = loaded.model.camera_id;
  let applied;
  try {
    applied = await applyModelSpan(
      db,
      storage,
      { ...job, progress: () => {} },
      loaded,
      { videoId: segment.video_id, startSecond: 0, endSecond: (segment.end_time - segment.start_time) / 1000, employeeId: target.employeeId },
      {
        // The camera's last view check (its warnings go into this segment's result); none yet: the aspect ratio only, the view later (live.view_check).
        picture: target.picture,
        viewLater: true,
        part: { also: (trx) => labels.markSegmentLabelled(trx, segment.id, job.jobId, Date.now()) },
      },
    );
  } catch (err) {
    if (!(err instanceof PermanentJobError)) throw err;
    await labels.markSegmentFailed(db, segment.id, job.jobId, err.message);
    counts.failed++;
    return true;
  }
  if (applied === null) {
    if (job.signal.aborted) return false;
    // Rolled back: the claim is gone (the run stops) or the segment was labelled already (the next one is taken).
    return (await labels.pendingSegments(db, cameraId, 1)).every((s) => s.id !== segment.id);
  }
  counts.labelled++;
  counts.markups += applied.result.markups;
  return true;
}
