import { startJobRunner, type JobRunner, type RunnerOptions } from '@norma/workers/runner';
import type { AppDeps } from '../../../api/src/deps';
import { mapAlgoHandler, mapExportHandler } from './map';
import { MAP_ALGO_JOB, MAP_EXPORT_JOB } from '../../../api/src/map/service';
import { ingestVideoHandler } from './video-ingest';
import { INGEST_JOB } from '../../../api/src/video/registration';
import { visionApplyHandler, visionTrainHandler } from './vision';
import { VISION_APPLY_JOB, VISION_TRAIN_JOB } from '../../../api/src/vision/service';
import { onJobEnqueued, sqlJobStore } from '../../../api/src/jobs/queue';

/**
 * Starts the background job runner of this process (workers/src/runner/runner.ts) with every job
 * kind the API queues. `npm start` runs it inside the API process (NORMA_WORKERS=0 turns it off);
 * tests start and stop one explicitly.
 */
export function startWorkers(deps: Pick<AppDeps, 'db' | 'storage'>, options: Partial<Omit<RunnerOptions, 'store' | 'handlers'>> = {}): JobRunner {
  const runner = startJobRunner({
    ...lockTimingFromEnv(process.env),
    store: sqlJobStore(deps.db),
    handlers: {
      [INGEST_JOB]: ingestVideoHandler(deps.db, deps.storage),
      [MAP_ALGO_JOB]: mapAlgoHandler(deps.db),
      [MAP_EXPORT_JOB]: mapExportHandler(deps.db, deps.storage),
      [VISION_TRAIN_JOB]: visionTrainHandler(deps.db, deps.storage),
      [VISION_APPLY_JOB]: visionApplyHandler(deps.db, deps.storage),
    },
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
