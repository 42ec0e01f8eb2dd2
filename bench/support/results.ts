import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

/** The 1, 5 and 15 minute load averages to one decimal, as a bench's result records the machine's load. */
export const loadAverage = (): number[] => loadavg().map((value) => Math.round(value * 10) / 10);

/**
 * Prints `result` and writes it to bench/results/<name>.json (what `npm run bench -- --check` holds
 * to bench/budgets.json).
 */
export function writeResult(name: string, result: unknown): void {
  const text = `${JSON.stringify(result, null, 2)}\n`;
  console.log(text.trimEnd());
  const dir = join(import.meta.dir, '..', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), text);
}
