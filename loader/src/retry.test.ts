import { describe, expect, it } from 'vitest';
import { backoffDelay, LoaderError, retryableStatus, withRetry } from './retry';

const options = (waits: number[], attempts = 10) => ({
  attempts,
  baseDelayMs: 1000,
  maxDelayMs: 8000,
  random: () => 0.5,
  sleep: async (ms: number) => void waits.push(ms),
});

describe('withRetry', () => {
  it('retries network loss with doubling delays, capped, until it works', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetry(async () => {
      if (++calls < 6) throw new LoaderError('нет связи', true);
      return 'отправлено';
    }, options(waits));
    expect(result).toBe('отправлено');
    expect(calls).toBe(6);
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000]);
  });

  it('gives up at once when the server refuses, and after the last attempt otherwise', async () => {
    const waits: number[] = [];
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw new LoaderError('Error : Only MP4 format allowed', false, 400);
      }, options(waits)),
    ).rejects.toThrow('Only MP4');
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new LoaderError('503', true, 503);
        },
        options(waits, 3),
      ),
    ).rejects.toThrow('503');
    expect(calls).toBe(3);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const running = withRetry(
      async () => {
        throw new LoaderError('нет связи', true);
      },
      { attempts: Infinity, baseDelayMs: 60_000, maxDelayMs: 60_000, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    await expect(running).rejects.toThrow('Остановлено');
  });

  it('spreads delays by ±20 % and retries only statuses worth it', () => {
    expect(backoffDelay(1, { baseDelayMs: 1000, maxDelayMs: 10_000, random: () => 0 })).toBe(800);
    expect(backoffDelay(1, { baseDelayMs: 1000, maxDelayMs: 10_000, random: () => 1 })).toBe(1200);
    expect(backoffDelay(20, { baseDelayMs: 1000, maxDelayMs: 10_000, random: () => 1 })).toBe(10_000);
    expect([500, 502, 503, 408, 429].every(retryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 413].some(retryableStatus)).toBe(false);
  });
});
