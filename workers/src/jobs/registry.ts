import { startJobRunner, type JobHandler, type JobKindClass, type JobRunner, type RunnerOptions } from '@norma/workers/runner';
import type { AppDeps } from '../../../api/src/deps';
import { mapAlgoHandler, mapExportHandler } from './map';
import { MAP_ALGO_JOB, MAP_EXPORT_JOB } from '../../../api/src/map/service';
import { ingestVideoHandler } from './video-ingest';
import { INGEST_JOB } from '../../../api/src/video/registration';
import { visionApplyHandler, visionTrainHandler } from './vision';
import { VISION_APPLY_JOB, VISION_TRAIN_JOB } from '../../../api/src/vision/service';
import { onJobEnqueued, sqlJobStore } from '../../../api/src/jobs/queue';

type WorkerDeps = Pick<AppDeps, 'db' | 'storage'>;

/**
 * Every job kind the API queues: its handler and its class, the one place that says how the kinds
 * share the runner's slots (NORMA_JOB_SLOTS; runner.ts `JobKindClass`, docs/architecture.md «Очередь
 * задач»). Long kinds never take a runner's last free slot, so an upload's ingest always finds one;
 * how politely their ffmpeg shares the processor is the media code's (workers/src/media/limits.ts).
 */
const KINDS: Record<string, JobKindClass & { handler: (deps: WorkerDeps) => JobHandler }> = {
  [INGEST_JOB]: { class: 'ingest', handler: (deps) => ingestVideoHandler(deps.db, deps.storage) },
  [MAP_ALGO_JOB]: { class: 'short', handler: (deps) => mapAlgoHandler(deps.db) },
  [MAP_EXPORT_JOB]: { class: 'long', handler: (deps) => mapExportHandler(deps.db, deps.storage) },
  [VISION_TRAIN_JOB]: { class: 'long', handler: (deps) => visionTrainHandler(deps.db, deps.storage) },
  [VISION_APPLY_JOB]: { class: 'long', handler: (deps) => visionApplyHandler(deps.db, deps.storage) },
};

/**
 * The class of every job kind (`KINDS`), as the runner takes them.
 * @internal also for the queue's tests, which run stand-in handlers under the real classes.
 */
export const JOB_KIND_CLASSES: Record<string, JobKindClass> = Object.fromEntries(
  Object.entries(KINDS).map(([kind, { class: jobClass }]) => [kind, { class: jobClass }]),
);

/**
 * Starts the background job runner of this process (workers/src/runner/runner.ts) with every job
 * kind the API queues. `npm start` runs it inside the API process (NORMA_WORKERS=0 turns it off);
 * tests start and stop one explicitly. Slots: `options.concurrency` (the server and `npm run workers`
 * pass NORMA_JOB_SLOTS; default 1).
 */
export function startWorkers(deps: WorkerDeps, options: Partial<Omit<RunnerOptions, 'store' | 'handlers'>> = {}): JobRunner {
  const runner = startJobRunner({
    ...lockTimingFromEnv(process.env),
    store: sqlJobStore(deps.db),
    handlers: Object.fromEntries(Object.entries(KINDS).map(([kind, { handler }]) => [kind, handler(deps)])),
    classes: JOB_KIND_CLASSES,
    ...options,
  });
  const unsubscribe = onJobEnqueued(() => runner.wake());
  return {
    workerId: runner.workerId,
    wake: runner.wake,
    drain: runner.drain,
    async stop() {
      unsubscribe();
      await runner.stop();
    },
  };
}

/**
 * NORMA_JOB_STALE_SECONDS: after how long without a lock renewal a running job counts as lost (its
 * worker died) and goes back to the queue (default 60 s). Heartbeats come four times as often.
 */
export function lockTimingFromEnv(env: Record<string, string | undefined>): Pick<RunnerOptions, 'staleMs' | 'heartbeatMs'> {
  const seconds = Number(env.NORMA_JOB_STALE_SECONDS);
  if (!env.NORMA_JOB_STALE_SECONDS || !Number.isFinite(seconds) || seconds <= 0) return {};
  const staleMs = seconds * 1000;
  return { staleMs, heartbeatMs: Math.min(10_000, staleMs / 4) };
}
