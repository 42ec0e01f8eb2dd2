/**
 * Counts attempts per client address in a sliding window, in memory (one process serves an install;
 * a restart forgets the counts, which only ever lets more through).
 */
export function perAddressLimiter({ max, windowMs, now = Date.now }: { max: number; windowMs: number; now?: () => number }) {
  const attempts = new Map<string, number[]>();
  return {
    /** Records one attempt from `address`; false when the address has used up its window. */
    take(address: string): boolean {
      const at = now();
      const since = at - windowMs;
      // Forget addresses whose attempts have all aged out, so the map stays small.
      if (attempts.size > 1000) for (const [key, times] of attempts) if (times.at(-1)! <= since) attempts.delete(key);
      const recent = (attempts.get(address) ?? []).filter((time) => time > since);
      if (recent.length >= max) {
        attempts.set(address, recent);
        return false;
      }
      recent.push(at);
      attempts.set(address, recent);
      return true;
    },
  };
}
