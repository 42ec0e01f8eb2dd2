import { hostname } from 'node:os';

/** A job taken from the queue by this worker. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  /** Attempts so far, this one included. */
  attempts: number;
  maxAttempts: number;
  /** Whose job it is (null: no organisation's); the store sets it, and the runner keeps an organisation to its share of the slots. */
  organizationId?: number | null;
}

/**
 * How the jobs of one kind share a runner's slots; api/src/job-registry.ts names the class of
 * every kind the API queues (a kind not named there is 'short').
 *   - 'ingest': a video made browser-ready (ffmpeg), what a user waits for after an upload;
 *   - 'short': seconds of work (a map algorithm);
 *   - 'long': minutes of work (training or applying a model, a map export): never the last free slot;
 *   - 'live': a live camera's labelling run (api/src/live, one job per camera at a time, a run of at most
 *     a minute that queues its follow-up at the back of its organisation's line): may take the last free
 *     slot, as ingest may — a training holding the long slots does not stop labels keeping up with the
 *     recording — but, like every class, not while its organisation already runs a live job here.
 */
export type JobClass = 'ingest' | 'short' | 'long' | 'live';

export interface JobKindClass {
  class: JobClass;
}

const SHORT_KIND: JobKindClass = { class: 'short' };

/** Jobs a claim passes over: those of `kinds` that belong to `organizationId` (null: to no organisation). */
export interface ClaimAvoid {
  organizationId: number | null;
  kinds: string[];
}

/**
 * The queue as the runner sees it. The API implements it over its `jobs` table (queue.ts beside);
 * every write is fenced by `workerId` — the claim's token, new for every claim (`<worker>#<n>`) — so a
 * job taken over after a stale lock, even by the same worker, is not clobbered by the older claim.
 */
export interface JobStore {
  /**
   * Takes one ready job of `kinds` (none of `avoid`), atomically, for `workerId`: of the organisation
   * that runs the fewest jobs now (in every runner), on a tie the one whose oldest ready job is the
   * oldest, and that organisation's oldest ready job.
   */
  claim(workerId: string, kinds: string[], avoid?: ClaimAvoid[]): Promise<ClaimedJob | null>;
  /**
   * Progress 0–100; also renews the lock. Both answer false once the job is no longer this
   * worker's running job (cancelled, or taken over after a stale lock): the runner then aborts it.
   */
  progress(id: number, workerId: string, percent: number): Promise<boolean>;
  heartbeat(id: number, workerId: string): Promise<boolean>;
  succeed(id: number, workerId: string, result: unknown): Promise<void>;
  /**
   * Records a failure: back to the queue with a delay while attempts remain and `retry`, else
   * failed; 'lost' when the job is no longer this worker's (cancelled meanwhile): nothing written.
   */
  fail(id: number, workerId: string, message: string, retry: boolean): Promise<'retrying' | 'failed' | 'lost'>;
  /** Gives a job back untouched (shutdown): its attempt does not count. */
  release(id: number, workerId: string): Promise<void>;
  /** Re-queues jobs whose worker stopped renewing its lock; returns those that ran out of attempts. */
  requeueStale(olderThanMs: number): Promise<ClaimedJob[]>;
}

export interface JobContext {
  job: ClaimedJob;
  /**
   * The claim's token (this worker's id and the claim's number): a handler that writes its result itself
   * fences that write with it (the job may be cancelled or taken over meanwhile).
   */
  workerId: string;
  /** Aborted when the runner stops or the job was cancelled: kill child processes and return. */
  signal: AbortSignal;
  /** Reports progress 0–100 (throttled to the store). */
  progress(percent: number): void;
}

export interface JobHandler {
  run(context: JobContext): Promise<unknown>;
  /** Called once a job has failed for good (attempts spent, a permanent error, or a lost worker). */
  failed?(job: ClaimedJob, message: string): Promise<void>;
  /** Called when a failed attempt goes back to the queue. */
  retrying?(job: ClaimedJob, message: string): Promise<void>;
}

/** A failure that retrying cannot fix (the input is bad): the job fails at once. */
export class PermanentJobError extends Error {}

export interface RunnerOptions {
  store: JobStore;
  handlers: Record<string, JobHandler>;
  /**
   * Job slots: jobs run at once (default 1; the server and `npm run workers` pass NORMA_JOB_SLOTS,
   * default one per core and at least 2: config.ts `defaultJobSlots`). With two or more, the last free slot goes to no long job and to no organisation that
   * already runs a job of the same class here (`nextClaim`).
   */
  concurrency?: number;
  /** The class of each kind (api/src/job-registry.ts); a kind not named is 'short'. */
  classes?: Record<string, JobKindClass>;
  /** How often to look for work when idle, ms (default 500). */
  pollMs?: number;
  /** How often a running job renews its lock, ms (default 10 s). */
  heartbeatMs?: number;
  /** A running job whose lock is older than this is taken to be lost and re-queued, ms (default 60 s; NORMA_JOB_STALE_SECONDS in the API). */
  staleMs?: number;
  log?: (line: string) => void;
}

export interface JobRunner {
  readonly workerId: string;
  /** Look for work now (e.g. right after a job was queued in this process). */
  wake(): void;
  /** Resolves when nothing is running and the queue has nothing ready for this runner. */
  drain(): Promise<void>;
  /** Stops taking jobs, aborts the running ones (they go back to the queue) and waits for them. */
  stop(): Promise<void>;
}

/**
 * Polls the job store and runs handlers, at most `concurrency` at a time, renewing each job's lock
 * while it runs. Restart-safe: a job left "running" by a dead process is re-queued once its lock
 * is stale; a failed attempt is retried with back-off by the store.
 */
export function startJobRunner(options: RunnerOptions): JobRunner {
  const { store, handlers } = options;
  const concurrency = options.concurrency ?? 1;
  const pollMs = options.pollMs ?? 500;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const staleMs = options.staleMs ?? 60_000;
  const log = options.log ?? (() => {});
  const workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const kinds = Object.keys(handlers);
  const classOf = (kind: string) => options.classes?.[kind] ?? SHORT_KIND;
  const running = new Map<number, RunningSlot & { controller: AbortController; token: string; done: Promise<void> }>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let ticking: Promise<void> | null = null;
  let lastStaleCheck = 0;
  /** drain() callers, each with the number of ticks begun before it asked: only a tick begun later may say the queue is empty. */
  let idleWaiters: { resolve: () => void; ticksBefore: number }[] = [];
  let ticksBegun = 0;
  let queueEmpty = false;

  let claims = 0;
  /** Each claim gets its own token (stored in locked_by): a later claim of the same job by this worker fences the earlier one out. */
  const claimToken = () => `${workerId}#${++claims}`;
  /** Renews the locks of this worker's running jobs (before a stale check: a stalled loop must not take back its own jobs). */
  const renewOwnLocks = async () => {
    for (const [id, entry] of running) {
      const owned = await store.heartbeat(id, entry.token).catch((err) => {
        log(`задача ${id}: блокировка не продлена: ${err}`);
        return true;
      });
      if (!owned) entry.controller.abort();
    }
  };

  const tick = async () => {
    const tickNumber = ++ticksBegun;
    if (Date.now() - lastStaleCheck >= Math.min(staleMs / 2, 30_000)) {
      await renewOwnLocks();
      lastStaleCheck = Date.now();
      const lost = await store.requeueStale(staleMs).catch(() => []);
      for (const job of lost) {
        const message = 'Обработка прервалась (процесс остановился), попытки исчерпаны';
        await handlers[job.kind]?.failed?.(job, message).catch(() => {});
      }
    }
    while (!stopped && running.size < concurrency) {
      const token = claimToken();
      const next = nextClaim(kinds, classOf, concurrency, [...running.values()]);
      const job = next.kinds.length > 0 ? await store.claim(token, next.kinds, next.avoid) : null;
      if (!job) {
        // A claim that passed jobs over says nothing about the queue being empty (drain() must not end on it).
        queueEmpty = !next.limited;
        break;
      }
      queueEmpty = false;
      const controller = new AbortController();
      const kindClass = classOf(job.kind);
      const entry = { organizationId: job.organizationId ?? null, jobClass: kindClass.class, controller, token, done: Promise.resolve() };
      const deps = { store, handler: handlers[job.kind]!, heartbeatMs, log };
      entry.done = runClaimedJob(job, token, controller, deps).finally(() => {
        running.delete(job.id);
        schedule(0);
      });
      running.set(job.id, entry);
    }
    if (queueEmpty && running.size === 0) {
      // A tick that began before drain() was called may have looked at the queue before the caller's job was committed.
      const ready = idleWaiters.filter((w) => w.ticksBefore < tickNumber);
      idleWaiters = idleWaiters.filter((w) => w.ticksBefore >= tickNumber);
      for (const w of ready) w.resolve();
    }
  };

  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (ticking) {
        schedule(pollMs);
        return;
      }
      ticking = tick()
        .catch((err) => log(`очередь задач: ${err instanceof Error ? err.message : err}`))
        .finally(() => {
          ticking = null;
          schedule(pollMs);
        });
    }, delay);
  };

  schedule(0);
  return {
    workerId,
    wake: () => schedule(0),
    drain() {
      return new Promise<void>((resolve) => {
        idleWaiters.push({ resolve, ticksBefore: ticksBegun });
        schedule(0);
      });
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking;
      for (const { controller } of running.values()) controller.abort();
      await Promise.all([...running.values()].map((r) => r.done));
      for (const w of idleWaiters) w.resolve();
      idleWaiters = [];
    },
  };
}

interface RunningSlot {
  organizationId: number | null;
  jobClass: JobClass;
}

/**
 * What a runner with `slots` slots may claim next, given the jobs it runs (issue 39). While two or more
 * slots are free: any ready job. The last free slot of two or more goes to no long kind (long jobs hold
 * at most slots − 1, so an ingest always finds a slot while models train), and to no kind of a class
 * that the job's organisation already runs here (one organisation's uploads never hold every slot:
 * another organisation's ingest starts beside them, not after them). `limited`: something was left out.
 */
function nextClaim(
  kinds: string[],
  classOf: (kind: string) => JobKindClass,
  slots: number,
  running: RunningSlot[],
): { kinds: string[]; avoid: ClaimAvoid[]; limited: boolean } {
  if (slots < 2 || running.length < slots - 1) return { kinds, avoid: [], limited: false };
  const allowed = kinds.filter((kind) => classOf(kind).class !== 'long');
  const avoided = new Map<number | null, Set<string>>();
  for (const { organizationId, jobClass } of running) {
    const set = avoided.get(organizationId) ?? new Set<string>();
    for (const kind of allowed) if (classOf(kind).class === jobClass) set.add(kind);
    avoided.set(organizationId, set);
  }
  const avoid = [...avoided].filter(([, set]) => set.size > 0).map(([organizationId, set]) => ({ organizationId, kinds: [...set] }));
  return { kinds: allowed, avoid, limited: allowed.length < kinds.length || avoid.length > 0 };
}

/**
 * Runs one claimed job: renews its lock every `heartbeatMs`, passes its progress on to the store (at most
 * every 250 ms) and records how it ended. Every write is fenced by the claim's token.
 */
async function runClaimedJob(
  job: ClaimedJob,
  token: string,
  controller: AbortController,
  deps: { store: JobStore; handler: JobHandler; heartbeatMs: number; log: (line: string) => void },
): Promise<void> {
  const { store, handler, heartbeatMs, log } = deps;
  // Every write below is fenced by this claim's token, not just by the worker.
  const workerId = token;
  let lastWrite = 0;
  let pending: number | null = null;
  // Set when the store says the job is no longer ours (cancelled or taken over): stop, write nothing.
  let lost = false;
  const still = (owned: boolean) => {
    if (owned || lost) return;
    lost = true;
    log(`задача ${job.id} (${job.kind}) отменена или передана другому процессу: останавливается`);
    controller.abort();
  };
  const flush = () => {
    if (pending === null) return;
    const percent = pending;
    pending = null;
    lastWrite = Date.now();
    store
      .progress(job.id, workerId, percent)
      .then(still)
      .catch((err) => log(`задача ${job.id}: прогресс не записан: ${err}`));
  };
  const beat = setInterval(() => {
    store
      .heartbeat(job.id, workerId)
      .then(still)
      .catch((err) => log(`задача ${job.id}: блокировка не продлена: ${err}`));
  }, heartbeatMs);
  try {
    const result = await handler.run({
      job,
      workerId,
      signal: controller.signal,
      progress(percent) {
        pending = Math.max(0, Math.min(100, percent));
        if (Date.now() - lastWrite >= 250 || percent >= 100) flush();
      },
    });
    if (controller.signal.aborted) {
      await store.release(job.id, workerId);
      return;
    }
    flush();
    await store.succeed(job.id, workerId, result ?? null);
    log(`задача ${job.id} (${job.kind}) выполнена`);
  } catch (err) {
    if (controller.signal.aborted) {
      await store.release(job.id, workerId).catch(() => {});
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    const permanent = err instanceof PermanentJobError;
    const outcome = await store.fail(job.id, workerId, message, !permanent).catch(() => 'failed' as const);
    if (outcome === 'lost') return;
    log(`задача ${job.id} (${job.kind}): ${outcome === 'retrying' ? 'повтор позже' : 'ошибка'} — ${message}`);
    const hook = outcome === 'retrying' ? handler.retrying : handler.failed;
    await hook?.call(handler, job, message).catch((hookErr) => log(`задача ${job.id}: ${hookErr}`));
  } finally {
    clearInterval(beat);
  }
}

/** Back-off before attempt n+1 after n failures: 5 s, 10 s, 20 s… capped at 10 minutes. */
export function retryDelayMs(failedAttempts: number, baseMs = 5_000, capMs = 600_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, failedAttempts - 1));
}
