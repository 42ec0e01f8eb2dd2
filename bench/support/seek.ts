// Seek latency of two servers measured side by side: Range requests at random offsets of the same
// file, one at a time, alternating between the servers at the same offset (and alternating which
// of the two goes first), so that a burst of noise on the shared machine falls on both alike.

export interface SeekTarget {
  url: string;
  headers: Record<string, string>;
}

export interface SeekFigures {
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  mean_ms: number;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export const figuresOf = (latencies: number[]): SeekFigures => ({
  p50_ms: round(percentile(latencies, 50), 3),
  p90_ms: round(percentile(latencies, 90), 3),
  p99_ms: round(percentile(latencies, 99), 3),
  mean_ms: round(latencies.reduce((a, b) => a + b) / latencies.length, 3),
});

/** Milliseconds from sending a Range request to its first body byte; the rest is read (and dropped) after. */
async function firstByte(target: SeekTarget, offset: number, bytes: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(target.url, { headers: { ...target.headers, range: `bytes=${offset}-${offset + bytes - 1}` } });
  if (response.status !== 206) throw new Error(`Range ${target.url}: ${response.status}`);
  const reader = response.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  while (!(await reader.read()).done);
  return elapsed;
}

/**
 * `pairs` offsets, each asked of both targets in turn; the first `warmup` pairs are not counted.
 * Returns the first-byte latencies of each target, in the order of the targets.
 */
export async function interleavedSeeks(
  [a, b]: [SeekTarget, SeekTarget],
  { size, bytes, pairs, warmup }: { size: number; bytes: number; pairs: number; warmup: number },
): Promise<[number[], number[]]> {
  const latenciesA: number[] = [];
  const latenciesB: number[] = [];
  for (let i = 0; i < warmup + pairs; i++) {
    const offset = Math.floor(Math.random() * (size - bytes));
    let la: number;
    let lb: number;
    if (i % 2 === 0) {
      la = await firstByte(a, offset, bytes);
      lb = await firstByte(b, offset, bytes);
    } else {
      lb = await firstByte(b, offset, bytes);
      la = await firstByte(a, offset, bytes);
    }
    if (i < warmup) continue;
    latenciesA.push(la);
    latenciesB.push(lb);
  }
  return [latenciesA, latenciesB];
}
