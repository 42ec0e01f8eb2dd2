import { api, type ApiReply } from './client';

/** How often a wait asks, unless the caller says otherwise. */
const POLL_MS = 1000;

/** What stops a wait early: the screen went away (an unmount's AbortSignal, or a still-mounted check). */
export interface WaitOptions {
  intervalMs?: number;
  signal?: AbortSignal;
  alive?: () => boolean;
}

const stopped = ({ signal, alive }: WaitOptions) => Boolean(signal?.aborted) || (alive ? !alive() : false);

/**
 * Reads `read` until `done` says its answer is final, `intervalMs` apart (read first); the final answer,
 * or null when the wait was stopped. A failed read is thrown (the client has shown it).
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, options: WaitOptions = {}): Promise<T | null> {
  for (;;) {
    if (stopped(options)) return null;
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? POLL_MS));
  }
}

type Job = ApiReply<'/api/v1/jobs/{id}', 'get'>;

/** True while a job has not ended (queued or running). */
const jobPending = (job: Job) => job.status === 'queued' || job.status === 'running';

/** A job wait's options; `onRead` sees every state read, the unfinished ones too (a progress bar). */
export interface JobWaitOptions extends WaitOptions {
  onRead?: (job: Job) => void;
}

/**
 * Waits on a background job's state (GET /api/v1/jobs/{id}) until it ends: the ended job (its status
 * says success or failed, its error why), or null when the wait was stopped.
 */
export const waitForJob = (id: number, { onRead, ...options }: JobWaitOptions = {}) =>
  pollUntil(
    () => api.get('/api/v1/jobs/{id}', { path: { id } }),
    (job) => {
      if (!stopped(options)) onRead?.(job);
      return !jobPending(job);
    },
    options,
  );
