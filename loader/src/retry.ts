/** Why an attempt failed, as the retry loop needs to know it. */
export class LoaderError extends Error {
  constructor(
    message: string,
    /** Worth trying again later (network loss, server busy or restarting). */
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface RetryOptions {
  /** Attempts in all, the first included (Infinity: until it works or is stopped). */
  attempts: number;
  /** First delay, ms; doubled each time up to maxDelayMs, with ±20 % jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  signal?: AbortSignal;
  /** Waits (replaced in tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  onRetry?: (error: Error, attempt: number, delayMs: number) => void;
}

export function backoffDelay(failures: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const plain = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, failures - 1));
  const jitter = 0.8 + 0.4 * (options.random ?? Math.random)();
  return Math.round(Math.min(options.maxDelayMs, plain * jitter));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('Остановлено'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new Error('Остановлено'));
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, waiting longer after each retryable failure (network loss,
 * 5xx, 429); a non-retryable failure (refused by the server) is thrown at once.
 */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const wait = options.sleep ?? sleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const retryable = error instanceof LoaderError ? error.retryable : true;
      if (!retryable || n >= options.attempts || options.signal?.aborted) throw error;
      const delay = backoffDelay(n, options);
      options.onRetry?.(error, n, delay);
      await wait(delay, options.signal);
    }
  }
}

/** Is an HTTP status worth retrying? Server errors, timeouts and "too many requests" are. */
export const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;
