import type { AppDeps } from './deps';
import { figuresHandler } from './events/figures.job';
import { FIGURES_JOB } from './events/figures.service';
import { trackingHandler } from './events/tracking.job';
import { TRACKING_JOB } from './events/service';
import { onJobEnqueued, sqlJobStore } from './jobs/queue';
import { startJobRunner, type JobHandler, type JobKindClass, type JobRunner, type RunnerOptions } from './jobs/runner';
import { liveLabelHandler } from './live/live-labels.job';
import { LIVE_LABEL_JOB, LIVE_VIEW_CHECK_JOB } from './live/live-labels.service';
import { liveViewCheckHandler } from './live/view-check.job';
import { mapAlgoHandler } from './map/algo.job';
import { mapExportHandler } from './map/export.job';
import { MAP_ALGO_JOB, MAP_EXPORT_JOB } from './map/service';
import { ingestVideoHandler } from './video/ingest.job';
import { INGEST_JOB } from './video/registration';
import { visionApplyHandler } from './vision/apply.job';
import { VISION_TRAIN_JOB, VISION_APPLY_JOB } from './vision/service';
import { visionTrainHandler } from './vision/train.job';

// The one registry of job kinds, above the domains: it imports each domain's handlers (`*.job.ts`),
// and only the entry points import it — the server (main.ts) and the worker process (worker-main.ts).
// It sits beside them, not in jobs/, because the domains import jobs/ (the queue) themselves.

type WorkerDeps = Pick<AppDeps, 'db' | 'storage' | 'movenetThread'>;

/**
 * Every job kind the API queues: its handler and its class, the one place that says how the kinds
 * share the runner's slots (NORMA_JOB_SLOTS; jobs/runner.ts `JobKindClass`, docs/architecture.md «Очередь
 * задач»). Long kinds never take a runner's last free slot, so an upload's ingest always finds one;
 * how politely their ffmpeg shares the processor is the media code's (workers/src/media/limits.ts).
 */
const KINDS: Record<string, JobKindClass & { handler: (deps: WorkerDeps) => JobHandler }> = {
  [INGEST_JOB]: { class: 'ingest', handler: (deps) => ingestVideoHandler(deps.db, deps.storage) },
  [MAP_ALGO_JOB]: { class: 'short', handler: (deps) => mapAlgoHandler(deps.db) },
  [MAP_EXPORT_JOB]: { class: 'long', handler: (deps) => mapExportHandler(deps.db, deps.storage) },
  [VISION_TRAIN_JOB]: { class: 'long', handler: (deps) => visionTrainHandler(deps.db, deps.storage) },
  [VISION_APPLY_JOB]: { class: 'long', handler: (deps) => visionApplyHandler(deps.db, deps.storage) },
  [LIVE_LABEL_JOB]: { class: 'live', handler: (deps) => liveLabelHandler(deps.db, deps.storage) },
  // A camera's view check (~15 ffmpeg seeks once in 10 minutes): heavy and never urgent, so 'long' — it
  // never takes the last free slot, and a camera's labels never wait behind it (docs/live-cameras.md).
  [LIVE_VIEW_CHECK_JOB]: { class: 'long', handler: (deps) => liveViewCheckHandler(deps.db, deps.storage) },
  [TRACKING_JOB]: { class: 'long', handler: (deps) => trackingHandler(deps.db, deps.storage, deps.movenetThread) },
  // A long window's figures: seconds of reading and computing (docs/event-analytics.md «Цифры длинных окон»).
  [FIGURES_JOB]: { class: 'short', handler: (deps) => figuresHandler(deps.db) },
};

/**
 * The class of every job kind (`KINDS`), as the runner takes them.
 * @internal also for the queue's tests, which run stand-in handlers under the real classes.
 */
export const JOB_KIND_CLASSES: Record<string, JobKindClass> = Object.fromEntries(
  Object.entries(KINDS).map(([kind, { class: jobClass }]) => [kind, { class: jobClass }]),
);

/**
 * Starts the background job runner of this process (jobs/runner.ts) with every job
 * kind the API queues. `npm start` runs it inside the API process (NORMA_WORKERS=0 turns it off);
 * tests start and stop one explicitly. Slots: `options.concurrency` (the server and `npm run workers`
 * pass NORMA_JOB_SLOTS, one per core by default: config.ts `defaultJobSlots`; here default 1).
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
