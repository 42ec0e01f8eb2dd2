import { checkPicture, type PictureCheck } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import type { ObjectStore } from '../storage/object-store';
import { applyModelSpan, loadAppliedModel, type AppliedModel } from '../vision/apply.job';
import { videoSource } from '../vision/job-support';
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
/** A camera's view is compared with the model's training view at most this often (the check costs ~15 ffmpeg seeks, seconds under load). */
const VIEW_CHECK_MS = 10 * 60_000;

/** The last picture check of each camera in this process: by model, when. */
const viewChecks = new Map<number, { modelId: number; at: number; picture: PictureCheck }>();
/** The last segment each camera's job labelled in this process: what its view is compared on. */
const lastLabelled = new Map<number, { videoId: number; seconds: number }>();

/**
 * Starts comparing the camera's view with the model's training view (checkPicture) on the last segment
 * labelled, when the last comparison is older than VIEW_CHECK_MS or of another model, and none runs:
 * beside the job queue (it holds no slot; ~15 ffmpeg seeks once in 10 minutes a camera). Its warnings
 * go into the results of the segments after it. A failure is not the labels' failure.
 */
function checkViewBeside(db: Db, storage: ObjectStore, loaded: AppliedModel) {
  const cameraId = loaded.model.camera_id;
  const last = viewChecks.get(cameraId);
  const segment = lastLabelled.get(cameraId);
  if (!segment || viewChecking.has(cameraId) || (last && last.modelId === loaded.model.id && Date.now() - last.at < VIEW_CHECK_MS)) return;
  viewChecking.add(cameraId);
  void checkView(db, storage, loaded, segment)
    .then((outcome) => viewOutcomes.set(cameraId, outcome))
    .finally(() => viewChecking.delete(cameraId));
}

/** One comparison (checkViewBeside); never throws: a failure is its outcome (the next run's result says it) and it is tried again next time. */
async function checkView(db: Db, storage: ObjectStore, loaded: AppliedModel, segment: { videoId: number; seconds: number }): Promise<ViewCheckOutcome> {
  const cameraId = loaded.model.camera_id;
  try {
    const video = await videoSource(db, storage, segment.videoId);
    const picture = await checkPicture(loaded.spec, video, { startSecond: 0, endSecond: segment.seconds });
    viewChecks.set(cameraId, { modelId: loaded.model.id, at: Date.now(), picture });
    return { video_id: segment.videoId, view_similarity: picture.viewSimilarity, warnings: picture.warnings };
  } catch (err) {
    // The segment deleted meanwhile: said in the next run's result, and compared again next time.
    return { video_id: segment.videoId, error: err instanceof Error ? err.message : String(err) };
  }
}

/** What a view comparison found (in the next run's result, `view_check`). */
type ViewCheckOutcome = { video_id: number; view_similarity: number | null; warnings: string[] } | { video_id: number; error: string };
/** The cameras whose view is being compared now, and each camera's last comparison's outcome. */
const viewChecking = new Set<number>();
const viewOutcomes = new Map<number, ViewCheckOutcome>();

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
      while (!signal.aborted) {
        const target = await labels.liveTarget(db, cameraId);
        // The camera's model switched off or changed hands to another job: this run has nothing more to do.
        if (!target || !target.labelling || target.live_job_id !== job.id) break;
        const [segment] = await labels.pendingSegments(db, cameraId, 1);
        if (!segment || Date.now() - started >= LIVE_RUN_MS) {
          await labels.releaseCameraJob(db, cameraId, job.id);
          // A segment closed between the look and the release (or the turn is over): a follow-up takes it.
          followUp = await labels.queueCameraLabels(db, cameraId);
          // Nothing waited: the time to compare the camera's view, not before a segment's labels — beside the
          // queue, not in this job's slot (a segment closing meanwhile must not wait for the comparison).
          if (!segment && loaded) checkViewBeside(db, storage, loaded);
          break;
        }
        if (loaded?.model.id !== target.model_id) loaded = await loadAppliedModel(db, storage, target.model_id!);
        const done = await labelSegment(db, storage, { jobId: job.id, workerId, signal, progress }, loaded, segment, target.live_employee_id, counts);
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
        view_check: viewOutcomes.get(cameraId) ?? null,
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
  employeeId: number | null,
  counts: RunCounts,
): Promise<boolean> {
  const cameraId = loaded.model.camera_id;
  const fresh = viewChecks.get(cameraId);
  let applied;
  try {
    applied = await applyModelSpan(
      db,
      storage,
      { ...job, progress: () => {} },
      loaded,
      { videoId: segment.video_id, startSecond: 0, endSecond: (segment.end_time - segment.start_time) / 1000, employeeId },
      {
        // The camera's last view check (its warnings go into this segment's result); none yet: the aspect ratio only, the view later (checkView).
        picture: fresh?.modelId === loaded.model.id ? fresh.picture : undefined,
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
  lastLabelled.set(cameraId, { videoId: segment.video_id, seconds: (segment.end_time - segment.start_time) / 1000 });
  counts.labelled++;
  counts.markups += applied.result.markups;
  return true;
}
