import { readFileSync } from 'node:fs';

/** Processor seconds of this process (all its threads) and of its children that have ended (user + system). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // Fields 14–17 of proc(5) (utime, stime, cutime, cstime) are 12–15 here, in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

/** Wall milliseconds and processor seconds `work` took, with its value. */
export async function measured<T>(work: () => Promise<T>): Promise<{ ms: number; cpu: number; value: T }> {
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const value = await work();
  return { ms: performance.now() - t0, cpu: cpuSeconds() - cpu0, value };
}
